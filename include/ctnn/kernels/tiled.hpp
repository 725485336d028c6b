// Tiled GEMMs, float32 and int8, with compile-time tiling: packed panels, a register-blocked
// MR x NR micro-kernel, cache blocks MC x KC (A) and KC x NC (B). Tested against reference.hpp.
//
// Loop nest (BLIS order for float; int8 packs the whole K so it can requantize in one pass):
//
//   for jc in N step NC            B block  [KC x NC]  -> Bp: NC/NR panels, each KC x NR
//     for pc in K step KC            (int8, and float when B is read in place and A is small: all of K)
//       pack B                       float: when M > 2 MC, or M > MC and K >= 96 (else in place,
//                                    or panel by panel ahead of its row tiles when K > KC); in
//                                    groups of panels, the call packs the first group and the
//                                    first A block's tiles over each group pack the next one
//       for ic in M step MC          A block [MC x KC] -> Ap: MC/MR panels, each KC x MR
//         pack A                     float: only when the B block has >= 32 NR-panels
//         for jr in NC step NR
//           for ir in MC step MR     micro-kernel: C[ir.., jr..] (+)= Ap panel . Bp panel
//
// Edges: packing pads panels with zeros to MR/NR, the micro-kernel computes a full tile and
// stores only the valid m_valid x n_valid corner. Float: an operand read in place has its edge
// panel packed alone, and an edge tile of m_valid rows runs a micro-kernel of MR/3 or 2MR/3
// rows when that suffices (MR = 12: 64 rows = 5 x 12 + 4).
//
// int8 packing: A is stored as u8 (a + 128) and both panels in groups of 4 consecutive k, the
// operand layout of AVX512-VNNI vpdpbusd (u8 x s8 -> s32). The zero points are applied once per
// output from row/column sums:
//   sum_k (a - a_zp)(b - b_zp) = sum a'b - b_zp*sum a' - a'_zp*sum b + K*a'_zp*b_zp,
//   a' = a + 128, a'_zp = a_zp + 128, everything modulo 2^32 like the reference.
#pragma once
#include "ctnn/core/bits.hpp"
#include "ctnn/kernels/quant.hpp"
#include "ctnn/kernels/reference.hpp"
#include "ctnn/kernels/requant_avx2.hpp"
#include "ctnn/kernels/simd.hpp"
#include "ctnn/kernels/status.hpp"
#include "ctnn/kernels/x86.hpp"

#if defined(__AVX512VNNI__) && defined(__AVX512F__) && CTNN_KERNELS_X86
#define CTNN_KERNELS_VNNI 1
#else
#define CTNN_KERNELS_VNNI 0
#endif
// AVX2 without AVX-512 VNNI (Zen 3, Haswell ... Alder Lake): the int8 micro-kernel multiplies
// 16-bit lanes with vpmaddwd (exact: a u8 x s8 pair sum is far below 2^31, where vpmaddubsw's
// 16-bit pair sums would saturate at 255 * 128 * 2), and the requantization runs in 8 lanes.
#if !CTNN_KERNELS_VNNI && defined(__AVX2__) && CTNN_KERNELS_X86
#define CTNN_KERNELS_AVX2_S8 1
#else
#define CTNN_KERNELS_AVX2_S8 0
#endif

namespace ctnn::kernels {

/// @brief Float GEMM tiling. MR x NR: register block; MC x KC: packed A block; KC x NC: packed B.
/// @tparam MR rows of the micro-tile  @tparam NR columns (a multiple of the vector lanes)
template <int MR, int NR, int KC, int MC, int NC>
struct gemm_tiling {
  static_assert(MR > 0 && NR > 0 && KC > 0 && MC > 0 && NC > 0, "gemm_tiling: every size must be positive");
  static_assert(MC % MR == 0, "gemm_tiling: MC must be a multiple of MR");
  static_assert(NC % NR == 0, "gemm_tiling: NC must be a multiple of NR");
  static_assert(NR % simd::f32_lanes == 0, "gemm_tiling: NR must be a multiple of the float vector lanes");
  static constexpr int mr = MR, nr = NR, kc = KC, mc = MC, nc = NC;
  /// Floats of packing workspace: one A block and one B block.
  static constexpr size_t workspace_elems = static_cast<size_t>(MC) * KC + static_cast<size_t>(KC) * NC;
};

/// @brief int8 GEMM tiling: the whole K is packed at once (so the output can be requantized in
/// one pass); KMax only sizes the static workspace of the convenience overloads.
template <int MR, int NR, int MC, int NC, int KMax>
struct qgemm_tiling {
  static_assert(MR > 0 && NR > 0 && MC > 0 && NC > 0 && KMax > 0, "qgemm_tiling: every size must be positive");
  static_assert(MC % MR == 0, "qgemm_tiling: MC must be a multiple of MR");
  static_assert(NC % NR == 0, "qgemm_tiling: NC must be a multiple of NR");
  static constexpr int mr = MR, nr = NR, mc = MC, nc = NC, kmax = KMax;
  /// Bytes of one packed A value: 2 where the AVX2 micro-kernel runs (A panels hold a + 128 as
  /// 16-bit lanes, broadcast as they are), 1 elsewhere (u8 a + 128).
  static constexpr int a_bytes = (CTNN_KERNELS_AVX2_S8 && NR % 8 == 0) ? 2 : 1;
  /// Bytes of workspace for a given K: the packed B and A blocks, then the row/column sums.
  static constexpr size_t workspace_bytes(int64_t K) {
    const auto kp = static_cast<size_t>(detail::round_up_to_tile<4>(K < 0 ? 0 : K));
    return 4u * (static_cast<size_t>(MC) + NC) + kp * (static_cast<size_t>(MC) * a_bytes + NC);
  }
  /// Bytes of workspace with all N columns of B packed as one block (the layout of
  /// workspace_bytes with NC widened to N rounded up to NR): where a workspace holds this, the
  /// GEMM of more than two MC blocks of A runs each over all of B (gemm_s8_impl).
  static constexpr size_t whole_b_workspace_bytes(int64_t K, int64_t N) {
    const auto kp = static_cast<size_t>(detail::round_up_to_tile<4>(K < 0 ? 0 : K));
    const auto np = static_cast<size_t>(detail::round_up_to_tile<NR>(N < 0 ? 0 : N));
    return 4u * (static_cast<size_t>(MC) + np) + kp * (static_cast<size_t>(MC) * a_bytes + np);
  }
};

#if defined(__AVX512F__)
using default_f32_tiling = gemm_tiling<12, 32, 512, 144, 1024>;
// KC = 512 (the B panel, 64 KiB, no longer fits L1, but C is loaded and stored half as often),
// NC = 1024 to keep the workspace near its size with KC = 256, NC = 2048 (2.4 MB, +6.6 %):
// ctnn / ctnn before 512^3 1.04, 1024^3 1.05, 512x49x4608 1.03, 256x196x2304 1.04, the other
// shapes of bench/README within +-2 % (Zen 5, medians of five processes of 24 interleaved rounds;
// KC = 384 gained about half as much; K cut into equal blocks instead of KC and a remainder: no change).
// 12 x 32: 24 accumulators. Measured against 8 x 32 (the previous tiling), 10 x 32, 14 x 32,
// 6 x 64, 8 x 48 and 16 x 16 on ResNet-18's conv GEMMs with packed weights (Zen 5): 12 x 32 ran
// 1.6-2.3x faster than 8 x 32 (64x3136x576 0.63 -> 0.35 ms, 512x49x4608 0.71 -> 0.31 ms).
using default_s8_tiling = qgemm_tiling<12, 32, 132, 512, 4608>;
#elif defined(__AVX__)
using default_f32_tiling = gemm_tiling<6, 16, 256, 96, 1024>;
#if defined(__AVX2__)
// 12 x 32: the AVX2 micro-kernel runs blocks of 4 rows x 8 columns (8 accumulators) over the
// panel's four 8-column quarters (edge tiles: 4 or 8 rows, whole blocks too); NR = 32 keeps the
// packed B layout of the AVX-512 build, so the im2col that writes it (im2col_packed_s8) serves both.
using default_s8_tiling = qgemm_tiling<12, 32, 132, 512, 4608>;
#else
using default_s8_tiling = qgemm_tiling<4, 16, 64, 256, 4608>;
#endif
#elif defined(__SSE2__) || defined(__ARM_NEON)
using default_f32_tiling = gemm_tiling<6, 8, 128, 96, 1024>;
using default_s8_tiling = qgemm_tiling<4, 16, 64, 256, 4608>;
#else
/// Small blocks for microcontrollers: 1 KiB A block, 4 KiB B block.
using default_f32_tiling = gemm_tiling<4, 4, 64, 4, 16>;
using default_s8_tiling = qgemm_tiling<4, 4, 8, 16, 512>;
#endif

namespace detail {

// ---- float ---------------------------------------------------------------------------------

/// Prefetches the line holding p[off] (Write: for a store), the address formed as an integer: it
/// may lie past the operand's end (the next panel's, a row's), and a prefetch never faults.
template <int Write = 0>
inline void prefetch_f32(const float* p, ptrdiff_t off) {
  __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(p) + static_cast<uintptr_t>(off) * sizeof(float)),
                     Write, 3);
}

#if CTNN_KERNELS_X86
/// Four rows of A (lda apart), k .. k + 7 from r, into the panel layout at o (o[k' * MR + i] for
/// the 8 k'): a 4 x 8 block transposed in registers to 8 runs of 4 floats.
template <int MR>
inline void pack_a_f32_rows4_k8(const float* r, ptrdiff_t lda, float* o) {
  const __m256 r0 = _mm256_loadu_ps(r), r1 = _mm256_loadu_ps(r + lda);
  const __m256 r2 = _mm256_loadu_ps(r + 2 * lda), r3 = _mm256_loadu_ps(r + 3 * lda);
  // rows 0/1 and 2/3 interleaved, then pairs of pairs: u_j holds k + j (low half), k + 4 + j (high)
  const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
  const __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
  const __m256 u[4] = {_mm256_shuffle_ps(t0, t2, 0x44), _mm256_shuffle_ps(t0, t2, 0xEE),
                       _mm256_shuffle_ps(t1, t3, 0x44), _mm256_shuffle_ps(t1, t3, 0xEE)};
  for (int j = 0; j < 4; ++j) {
    _mm_storeu_ps(o + j * MR, _mm256_castps256_ps128(u[j]));
    _mm_storeu_ps(o + (4 + j) * MR, _mm256_extractf128_ps(u[j], 1));
  }
}
#endif

/// Floats ahead in each row that pack_a_f32_panel prefetches (x86).
inline constexpr int f32_pack_a_prefetch = 128;

/// Packs rows [0, rows) of A (rows <= MR, row-major, lda) into one panel of row stride MR,
/// ap[k * MR + i], and zeroes rows [rows, pad_to) (the rows a micro-kernel tier reads past the
/// real ones). Row by row: the source (a conv's weights, K floats a row) is read sequentially.
/// x86 builds transpose 4 rows x 8 k at a time in registers (MR a multiple of 4; the last group
/// of a panel whose rows are not a multiple of 4 overlaps the one before it): one store per
/// float, the scalar loop's, took 10 % of a 1024^3 sgemm (Intel Xeon), 4 % then. The groups take
/// each 8 k in turn, so all the panel's rows are read at once: a big GEMM's A comes from memory,
/// and each of its rows (4 KiB apart at 1024^3) is a stream in flight. One group over all of kc
/// before the next kept four in flight: all of 1024^3's A from memory took 0.27 ms, now 0.19 ms
/// (AMD Zen 5).
template <int MR>
inline void pack_a_f32_panel(int rows, int pad_to, int kc, const float* a, int lda, float* ap,
                             [[maybe_unused]] const float* next = nullptr, [[maybe_unused]] int next_rows = 0) {
#if CTNN_KERNELS_X86
  if constexpr (MR % 4 == 0) {
    if (rows >= 4) {
      const int k8 = kc - kc % 8, last = rows - 4;
      for (int k = 0; k < k8; k += 8) {
        if (k % 16 == 0) {  // a line of every row, f32_pack_a_prefetch floats ahead, then the next panel's
          const int kp = k + f32_pack_a_prefetch;
          if (kp < kc)
            for (int i = 0; i < rows; ++i) prefetch_f32(a, static_cast<ptrdiff_t>(i) * lda + kp);
          else if (kp - kc < kc)
            for (int i = 0; i < next_rows; ++i) prefetch_f32(next, static_cast<ptrdiff_t>(i) * lda + (kp - kc));
        }
        float* o = ap + static_cast<ptrdiff_t>(k) * MR;
        for (int g = 0; g + 4 <= rows; g += 4)
          pack_a_f32_rows4_k8<MR>(a + static_cast<ptrdiff_t>(g) * lda + k, lda, o + g);
        if (rows % 4 != 0) pack_a_f32_rows4_k8<MR>(a + static_cast<ptrdiff_t>(last) * lda + k, lda, o + last);
      }
      for (int i = 0; i < rows; ++i)
        for (int k = k8; k < kc; ++k) ap[static_cast<ptrdiff_t>(k) * MR + i] = a[static_cast<ptrdiff_t>(i) * lda + k];
      for (int i = rows; i < pad_to; ++i)
        for (int k = 0; k < kc; ++k) ap[static_cast<ptrdiff_t>(k) * MR + i] = 0.0f;
      return;
    }
  }
#endif
  for (int i = 0; i < pad_to; ++i) {
    float* dst = ap + i;
    if (i >= rows) {
      for (int k = 0; k < kc; ++k) dst[static_cast<ptrdiff_t>(k) * MR] = 0.0f;
      continue;
    }
    const float* arow = a + static_cast<ptrdiff_t>(i) * lda;
    for (int k = 0; k < kc; ++k) dst[static_cast<ptrdiff_t>(k) * MR] = arow[k];
  }
}

/// Packs A[0:mc, 0:kc] (row-major, lda) into MR-row panels: ap[p][k][i], zero-padded rows.
template <int MR>
inline void pack_a_f32(int mc, int kc, const float* a, int lda, float* ap) {
  for (int p = 0; p < mc; p += MR, ap += static_cast<ptrdiff_t>(kc) * MR)
    pack_a_f32_panel<MR>(min(MR, mc - p), MR, kc, a + static_cast<ptrdiff_t>(p) * lda, lda, ap,
                         a + static_cast<ptrdiff_t>(p + MR) * lda, max(0, min(MR, mc - p - MR)));
}

/// Packs B[0:kc, 0:nc] into NR-column panels: bp[p][k][j], zero-padded columns.
template <int NR>
inline void pack_b_f32(int kc, int nc, const float* b, int ldb, float* bp) {
  // Rows in groups of 8, each group panel by panel: the source is read as 8 sequential streams
  // (a conv's im2col matrix has rows of tens of KiB; walking it a whole panel at a time would
  // touch a new page per k) and each panel is written in runs of 8 rows. Row by row, each row's
  // NR floats went to every panel in turn, a panel (kc NR floats) apart: all of 1024^3's B took
  // 0.60 ms, in groups of 8 0.40 (from L3), 4 and 16 alike; sgemm 512^3 and 1024^3 2-3 % faster
  // (AMD Zen 5, medians of 31 rounds in one process against dnnl_sgemm).
  // On x86 each row is also prefetched 64 floats ahead of the panel being copied (past the row's
  // end at its last panels: the next rows, and a prefetch never faults): 1024^3 0.7-1.4 % faster
  // in the GEMM (B from memory; alone 0.39 -> 0.31-0.35 ms), other shapes within 1 % (AMD Zen 5,
  // 31-41 rounds against dnnl_sgemm in one process).
  constexpr int group = 8;
  const int full = nc - nc % NR;
  const ptrdiff_t panel = static_cast<ptrdiff_t>(kc) * NR;
  for (int k0 = 0; k0 < kc; k0 += group) {
    const int rows = min(group, kc - k0);
    const float* src = b + static_cast<ptrdiff_t>(k0) * ldb;
    float* dst = bp + static_cast<ptrdiff_t>(k0) * NR;
    for (int p = 0; p < full; p += NR, dst += panel) {
#if CTNN_KERNELS_X86
      for (int r = 0; r < rows; ++r)
        for (int j = 0; j < NR; j += 16) prefetch_f32(src, r * static_cast<ptrdiff_t>(ldb) + p + 64 + j);
#endif
      for (int r = 0; r < rows; ++r)
        for (int j = 0; j < NR; ++j) dst[r * NR + j] = src[r * static_cast<ptrdiff_t>(ldb) + p + j];
    }
    if (full < nc)
      for (int r = 0; r < rows; ++r) {
        for (int j = 0; j < nc - full; ++j) dst[r * NR + j] = src[r * static_cast<ptrdiff_t>(ldb) + full + j];
        for (int j = nc - full; j < NR; ++j) dst[r * NR + j] = 0.0f;
      }
  }
}

/// Packs one full NR-column panel of B (kc rows, ldb apart) into bp, each row's next panel (NR
/// floats on, an address past B's end at the last panel: a prefetch never faults) prefetched as
/// the row is copied: the panel packed next is on its way while this one computes.
template <int NR>
inline void pack_b_f32_panel_ahead(int kc, const float* b, int ldb, float* bp) {
  for (int k = 0; k < kc; ++k) {
    const float* row = b + static_cast<ptrdiff_t>(k) * ldb;
    for (int j = 0; j < NR; j += 16) prefetch_f32(row, NR + j);
    float* dst = bp + static_cast<ptrdiff_t>(k) * NR;
    for (int j = 0; j < NR; ++j) dst[j] = row[j];
  }
}

// The register block's loops over vectors are unrolled so that the accumulators stay in vector
// registers. Clang does not unroll a loop of generic vector operations for a RISC-V target
// without the V extension (rv32im: no vector registers to keep, each vf32 operation becomes
// scalar soft-float calls) and reports each refused pragma (-Wpass-failed); there the pragma is
// left out, which changes no code. GCC, and clang elsewhere, get `#pragma GCC unroll N`.
#if defined(__clang__) && defined(__riscv) && !defined(__riscv_vector)
#define CTNN_UNROLL_VECTOR_LOOP(n)
#else
#define CTNN_UNROLL_VECTOR_LOOP(n) _Pragma(CTNN_UNROLL_PRAGMA_TEXT(GCC unroll n))
#define CTNN_UNROLL_PRAGMA_TEXT(x) #x
#endif

/// k steps ahead at which micro_f32 prefetches its packed A and B panels: a 1024^3 sgemm ran 7-9 %
/// faster (medians of 21 rounds interleaved with oneDNN's, Intel Xeon; distances 8 / 4 to 32 / 16
/// alike, 64 / 32 +7 %)
inline constexpr int f32_prefetch_a_k = 32, f32_prefetch_b_k = 16;
/// Shortest k loop over which micro_f32 prefetches its C tile: MobileNetV2's pointwise layers
/// (K = 16, 24 as GEMMs) ran 7-13 % slower with the prefetch on an AMD Zen 5 core (96x12544x16),
/// an AVX2 build 8 % (Zen 5) and 11-15 % with the panel prefetches too (Intel Xeon).
inline constexpr int f32_prefetch_c_min_k = 64;

/// Part of B packed by a running micro-kernel (gemm_f32_impl: the first MC block's tiles pack the
/// next group of B panels as they compute over this one). Its segments s in [seg, end) are NR
/// floats each, row s / panels of panel s % panels, read at b + (s / panels) ldb + (s % panels) NR
/// and stored at bp + ((s % panels) kc + s / panels) NR: pack_b_f32's layout for whole panels.
/// Row by row across the panels, so consecutive segments share B's row (its page).
struct f32_b_pack_job {
  const float* b;
  ptrdiff_t ldb;
  float* bp;
  int kc, panels, seg, end;
};
/// k steps of micro_f32 per segment of its f32_b_pack_job, and rows of B ahead that each copy
/// prefetches. A segment every 8 steps (two vector loads and two stores beside 192 FMAs at
/// MR = 12) hides B's pack in the FMA stream; the rows two ahead arrive from memory within the
/// 64 steps between (AMD Zen 5: 1024^3 1.2-1.5 % faster, bench/README).
inline constexpr int f32_pack_job_k_step = 8, f32_pack_job_prefetch_rows = 2;
static_assert((f32_pack_job_k_step & (f32_pack_job_k_step - 1)) == 0, "f32_pack_job_k_step: a power of two");

/// C tile (+)= A panel . B panel (+ bias) on the first Rows x Cols of an MR x NR tile.
/// PA: A packed (a[k * MR + i], pack_a_f32) or read in place (a[i * lda + k], Rows real rows).
/// PB: B packed (b[k * NR + j], pack_b_f32) or read in place (b[k * ldb + j], NR real columns).
/// load_c: accumulate onto C (not the first K block). bias_rows: bias[i] per row (conv: output
/// channel = row); otherwise bias[j] per column. act: null, or {lo, hi}: the tile clamped to
/// [lo, hi] in registers as it is stored (a fused activation, on the last K block).
/// Pf: pf is a panel whose rows are prefetched as b's are read: packed (PB), the next packed
/// panel (kc x NR, streamed from memory: it arrives while this one computes); in place, b itself,
/// each row prefetched two panels to the right. Without Pf, pf is not read. A compile-time choice:
/// a test of pf at every k step ran 64x3136x576 2-3 % slower (AMD EPYC Zen 4); b's own rows
/// prefetched in its place (the k loop of AVX-512 builds until 2026-12-06) cost 128^3 1.0 %,
/// 256^3 1.4 %, 512^3 2.0 %, 1024^3 0.9 % (conv shapes -0.9 to +1.7 %; AMD Zen 5, medians of 13
/// pairs of built binaries in alternated processes) and AVX2 builds 2-4 % at 128^3 and 256^3.
/// See bench/README.
/// PfC: C's tile prefetched at the start (f32_prefetch_c_min_k); off for the small GEMMs that
/// gemm_f32_impl runs straight, whose C stays in L2 (128^3 0.978 -> 1.018 of dnnl_sgemm, 7 of 8
/// alternated process pairs; 1024^3, where C comes from memory, lost 3.5-5 % without it).
/// Job: *job's segments copied one every f32_pack_job_k_step steps, the rest after the loop (a
/// separate instance: the loop of the others is unchanged).
template <int MR, int NR, int Rows, int Cols, bool PA, bool PB, bool Pf, bool PfC = true, bool Job = false>
inline void micro_f32(int kc, const float* __restrict a, ptrdiff_t lda, const float* __restrict b, ptrdiff_t ldb,
                      float* c, int ldc, int m_valid, int n_valid, bool load_c, const float* bias, bool bias_rows,
                      const float* act = nullptr, const float* pf = nullptr, f32_b_pack_job* job = nullptr) {
  using simd::vf32;
  constexpr int lanes = simd::f32_lanes;
  constexpr int nv = Cols / lanes;
  static_assert(Cols % lanes == 0 && Cols <= NR, "micro_f32: Cols must be whole vectors of the NR tile");
  // the job's next segment: panel jp of B's row at jsrc, stored at jdst + jp kc NR; jleft to go
  const float* jsrc = nullptr;
  float* jdst = nullptr;
  int jleft = 0, jp = 0;
  if constexpr (Job) {
    jp = job->seg % job->panels;
    jsrc = job->b + static_cast<ptrdiff_t>(job->seg / job->panels) * job->ldb;
    jdst = job->bp + static_cast<ptrdiff_t>(job->seg / job->panels) * NR;
    jleft = job->end - job->seg;
  }
  const auto copy_segment = [&] {
    const ptrdiff_t po = static_cast<ptrdiff_t>(jp) * NR;
    CTNN_UNROLL_VECTOR_LOOP(8)
    for (int x = 0; x < NR; x += lanes) simd::store(jdst + po * job->kc + x, simd::load<vf32>(jsrc + po + x));
    --jleft;
    if (++jp == job->panels) {
      jp = 0;
      jsrc += job->ldb;
      jdst += NR;
    }
  };
  const ptrdiff_t a_row = PA ? 1 : lda, a_step = PA ? MR : 1, b_step = PB ? NR : ldb;
  vf32 acc[Rows][nv];
  CTNN_UNROLL_VECTOR_LOOP(32)
  for (int i = 0; i < Rows; ++i)
    CTNN_UNROLL_VECTOR_LOOP(8)
    for (int j = 0; j < nv; ++j) acc[i][j] = vf32{};
  // The tile of C, stored (and loaded, after the first K block) at the end, fetched while the k
  // loop runs: a big GEMM's C rows are out of L1 and their misses stalled the tile's end. Not
  // over a short k loop, which ends before the lines arrive (f32_prefetch_c_min_k).
  if (PfC && kc >= f32_prefetch_c_min_k) {
    CTNN_UNROLL_VECTOR_LOOP(32)
    for (int i = 0; i < Rows; ++i) {
      prefetch_f32<1>(c, static_cast<ptrdiff_t>(i) * ldc);
      prefetch_f32<1>(c, static_cast<ptrdiff_t>(i) * ldc + Cols - 1);
    }
  }
  // A in place: a pointer to every third row, the rows between at + lda and + 2 lda (x86: base
  // + index x 1 or 2). With one offset a row, 12 rows took more registers than there are, and
  // the loop reloaded offsets from the stack (128^3 sgemm 1.5-3 % faster, Intel Xeon).
  // Six rows (the AVX2 tiling's 6 x 16) keep one offset a row: they fit, and grouped measured 6 %
  // slower at 128^3 (Intel Xeon).
  constexpr bool grouped = !PA && Rows % 3 == 0 && Rows > 6;
  constexpr int groups3 = (Rows + 2) / 3;
  const float* a3[groups3];
  CTNN_UNROLL_VECTOR_LOOP(8)
  for (int g = 0; g < groups3; ++g) a3[g] = a + 3 * g * a_row;
  const float* pfk = Pf ? pf + (PB ? 0 : 2 * NR) : nullptr;
  for (int k = 0; k < kc; ++k) {
    if constexpr (Job) {
      if ((k & (f32_pack_job_k_step - 1)) == 0 && jleft > 0) {
        for (int x = 0; x < NR; x += 16)
          prefetch_f32(jsrc, f32_pack_job_prefetch_rows * job->ldb + static_cast<ptrdiff_t>(jp) * NR + x);
        copy_segment();
      }
    }
    if constexpr (Pf) {
      for (int j = 0; j < NR; j += 16) prefetch_f32(pfk, j);
      pfk += b_step;
    }
    // packed panels read ahead (past a panel's end: the next tile's): the B panel does not stay
    // whole in L1 while the A panels stream through it
    if constexpr (PA) prefetch_f32(a, f32_prefetch_a_k * MR);
    if constexpr (PB)
      for (int j = 0; j < Cols; j += 16) prefetch_f32(b, f32_prefetch_b_k * NR + j);
    vf32 bv[nv];
    CTNN_UNROLL_VECTOR_LOOP(8)
    for (int j = 0; j < nv; ++j) bv[j] = simd::load<vf32>(b + j * lanes);
    CTNN_UNROLL_VECTOR_LOOP(32)
    for (int i = 0; i < Rows; ++i) {
      const float av = grouped ? a3[i / 3][(i % 3) * lda] : a[i * a_row];
      CTNN_UNROLL_VECTOR_LOOP(8)
      for (int j = 0; j < nv; ++j) acc[i][j] += av * bv[j];
    }
    if constexpr (grouped) {
      CTNN_UNROLL_VECTOR_LOOP(8)
      for (int g = 0; g < groups3; ++g) ++a3[g];
    }
    a += a_step;
    b += b_step;
  }
  if constexpr (Job) {  // the segments the loop had no step for
    while (jleft > 0) copy_segment();
    job->seg = job->end;
  }
  const vf32 lo = vf32{} + (act != nullptr ? act[0] : 0.0f), hi = vf32{} + (act != nullptr ? act[1] : 0.0f);
  if (m_valid == Rows && n_valid == Cols) {
    CTNN_UNROLL_VECTOR_LOOP(32)
    for (int i = 0; i < Rows; ++i) {
      float* crow = c + static_cast<ptrdiff_t>(i) * ldc;
      CTNN_UNROLL_VECTOR_LOOP(8)
      for (int j = 0; j < nv; ++j) {
        vf32 v = acc[i][j];
        if (load_c) v += simd::load<vf32>(crow + j * lanes);
        if (bias != nullptr) {
          if (bias_rows)
            v += bias[i];
          else
            v += simd::load<vf32>(bias + j * lanes);
        }
        if (act != nullptr) v = simd::clamp(v, lo, hi);
        simd::store(crow + j * lanes, v);
      }
    }
  } else {
    // Edge tile: whole vectors where n_valid covers them, the last columns one by one.
    const int n_vec = n_valid / lanes;
    // acc copied out at constant indices, then read from the copy only: indexing acc with the
    // runtime bounds here would keep all of acc on the stack (GCC then zeroes 24 vectors there
    // on every call and the k loop works through memory)
    float tile[Rows][Cols];
    CTNN_UNROLL_VECTOR_LOOP(32)
    for (int i = 0; i < Rows; ++i)
      CTNN_UNROLL_VECTOR_LOOP(8)
      for (int j = 0; j < nv; ++j) simd::store(&tile[i][j * lanes], acc[i][j]);
    for (int i = 0; i < m_valid; ++i) {
      float* crow = c + static_cast<ptrdiff_t>(i) * ldc;
      for (int j = 0; j < n_vec; ++j) {
        vf32 v = simd::load<vf32>(&tile[i][j * lanes]);
        if (load_c) v += simd::load<vf32>(crow + j * lanes);
        if (bias != nullptr) {
          if (bias_rows)
            v += bias[i];
          else
            v += simd::load<vf32>(bias + j * lanes);
        }
        if (act != nullptr) v = simd::clamp(v, lo, hi);
        simd::store(crow + j * lanes, v);
      }
      for (int j = n_vec * lanes; j < n_valid; ++j) {
        float v = tile[i][j];
        if (load_c) v += crow[j];
        if (bias != nullptr) v += bias[bias_rows ? i : j];
        if (act != nullptr) v = clamp_f32(v, act[0], act[1]);
        crow[j] = v;
      }
    }
  }
}

/// Row counts of the float micro-kernel. Exact: a tile of exact_min..MR rows (MR = 12: 10, 11,
/// 12) runs a kernel of that many rows, A in place or packed, so M splits into tiles of nearly
/// equal rows (64 = 4 x 11 + 2 x 10; see gemm_f32_impl). Tiers: a tile of fewer rows runs the
/// smallest tier >= its rows (MR = 12: 4, 8, then 10) on a packed panel zero-padded to it.
template <int MR>
struct f32_row_tiers {
  static constexpr bool split = MR >= 6 && MR % 3 == 0;
  static constexpr int t1 = split ? MR / 3 : MR, t2 = split ? 2 * MR / 3 : MR;
  static constexpr int exact_min = MR - MR / 6;
  static_assert(!split || t2 < exact_min, "f32_row_tiers: the tiers must lie below the exact rows");
  /// Rows the kernel for a tile of m rows reads (the packed panel's rows, padding included).
  static constexpr int rows_read(int m) {
    return m >= exact_min ? m : (split && m <= t1) ? t1 : (split && m <= t2) ? t2 : exact_min;
  }
};

/// Rows of the widest float micro-tile, run with A read in place (gemm_f32_impl's wide tiles):
/// MR + MR / 6 (12 -> 14) where its accumulators, one B row and a broadcast fit the 32 vector
/// registers of AVX-512 (14 x 32: 28 + 2 + 1), MR elsewhere.
template <int MR, int NR>
inline constexpr int f32_wide_rows =
    simd::f32_lanes >= 16 && (MR + MR / 6 + 1) * (NR / simd::f32_lanes) + 1 <= 32 ? MR + MR / 6 : MR;

/// One micro-tile with the kernel for m_valid rows (f32_row_tiers; with A in place up to
/// f32_wide_rows). In-place A (PA false) needs m_valid >= exact_min: a tier reads padding rows,
/// which only a packed panel has. PfC and Job (with job) as micro_f32's.
template <int MR, int NR, int Cols, bool PA, bool PB, bool Pf, int Rows = PA ? MR : f32_wide_rows<MR, NR>,
          bool PfC = true, bool Job = false>
inline void micro_f32_rows(int kc, const float* a, ptrdiff_t lda, const float* b, ptrdiff_t ldb, float* c, int ldc,
                           int m_valid, int n_valid, bool load_c, const float* bias, bool bias_rows, const float* act,
                           const float* pf = nullptr, f32_b_pack_job* job = nullptr) {
  using tiers = f32_row_tiers<MR>;
  if constexpr (Rows > tiers::exact_min) {
    if (m_valid < Rows)
      return micro_f32_rows<MR, NR, Cols, PA, PB, Pf, Rows - 1, PfC, Job>(kc, a, lda, b, ldb, c, ldc, m_valid,
                                                                          n_valid, load_c, bias, bias_rows, act, pf,
                                                                          job);
  } else if constexpr (tiers::split && PA) {
    if (m_valid <= tiers::t1)
      return micro_f32<MR, NR, tiers::t1, Cols, PA, PB, Pf, PfC, Job>(kc, a, lda, b, ldb, c, ldc, m_valid, n_valid,
                                                                      load_c, bias, bias_rows, act, pf, job);
    if (m_valid <= tiers::t2)
      return micro_f32<MR, NR, tiers::t2, Cols, PA, PB, Pf, PfC, Job>(kc, a, lda, b, ldb, c, ldc, m_valid, n_valid,
                                                                      load_c, bias, bias_rows, act, pf, job);
  }
  micro_f32<MR, NR, Rows, Cols, PA, PB, Pf, PfC, Job>(kc, a, lda, b, ldb, c, ldc, m_valid, n_valid, load_c, bias,
                                                      bias_rows, act, pf, job);
}

/// One micro-tile with the row and column tiers for m_valid x n_valid: an edge panel of
/// n_valid <= NR / 2 columns (packed, so zero-padded) runs half the vectors (N = 196 = 6 x 32 + 4,
/// 784 = 24 x 32 + 16).
template <int MR, int NR, bool PA, bool PB, bool Pf>
inline void micro_f32_tile(int kc, const float* a, ptrdiff_t lda, const float* b, ptrdiff_t ldb, float* c, int ldc,
                           int m_valid, int n_valid, bool load_c, const float* bias, bool bias_rows, const float* act,
                           const float* pf = nullptr) {
  constexpr int half = NR / 2;
  if constexpr (PB && half % simd::f32_lanes == 0 && half > 0) {
    if (n_valid <= half)
      return micro_f32_rows<MR, NR, half, PA, PB, Pf>(kc, a, lda, b, ldb, c, ldc, m_valid, n_valid, load_c, bias,
                                                      bias_rows, act, pf);
  }
  micro_f32_rows<MR, NR, NR, PA, PB, Pf>(kc, a, lda, b, ldb, c, ldc, m_valid, n_valid, load_c, bias, bias_rows, act,
                                         pf);
}

/// micro_f32_tile with pf's rows prefetched (Pf), or none where pf is null.
template <int MR, int NR, bool PA, bool PB>
inline void micro_f32_tile_pf(int kc, const float* a, ptrdiff_t lda, const float* b, ptrdiff_t ldb, float* c,
                              int ldc, int m_valid, int n_valid, bool load_c, const float* bias, bool bias_rows,
                              const float* act, const float* pf) {
  if (pf != nullptr)
    return micro_f32_tile<MR, NR, PA, PB, true>(kc, a, lda, b, ldb, c, ldc, m_valid, n_valid, load_c, bias,
                                                bias_rows, act, pf);
  micro_f32_tile<MR, NR, PA, PB, false>(kc, a, lda, b, ldb, c, ldc, m_valid, n_valid, load_c, bias, bias_rows, act);
}

/// micro_f32_tile with B packed (b_packed) or read in place; pf (null: none) as micro_f32's for
/// that layout.
template <int MR, int NR, bool PA>
inline void micro_f32_tile_b(bool b_packed, int kc, const float* a, ptrdiff_t lda, const float* b, ptrdiff_t ldb,
                             float* c, int ldc, int m_valid, int n_valid, bool load_c, const float* bias,
                             bool bias_rows, const float* act, const float* pf) {
  if (b_packed)
    return micro_f32_tile_pf<MR, NR, PA, true>(kc, a, lda, b, ldb, c, ldc, m_valid, n_valid, load_c, bias,
                                               bias_rows, act, pf);
  micro_f32_tile_pf<MR, NR, PA, false>(kc, a, lda, b, ldb, c, ldc, m_valid, n_valid, load_c, bias, bias_rows, act,
                                       pf);
}

// ---- int8 ----------------------------------------------------------------------------------

#if CTNN_KERNELS_VNNI && defined(__AVX512BW__)
/// Bytes ahead in each row that pack_a_s8_panel_avx512 prefetches, within the row only (past
/// its end lies another page, whose walk cost small GEMMs 6-30 %, N = 64 in two runs). The
/// 12 rows, lda apart, come from memory at 5 GB/s without it, 15 GB/s with it (132 x 1024
/// bytes, AMD Zen 5; 128 to 1024 bytes ahead alike; in cache 34-36 GB/s either way).
inline constexpr int s8_pack_a_prefetch_bytes = 256;

/// One MR-row panel (MR <= 16) of pack_a_s8 in 64-byte steps of K: each row's 64 bytes (16
/// groups of 4 k), XORed with 0x80 where k < K and zero past it, are transposed as a 16 x 16
/// matrix of 32-bit groups (rows past `rows` zero) and each group's MR words stored with a lane
/// mask; rowsum[i] = the row's byte sum (vpsadbw). Same bytes and sums as the scalar loop.
///
///   rows r0..r15 (16 words each) -> x86::transpose16x16 -> word j of every row in vector j
///   -> stored at group k0 / 4 + j, MR lanes
template <int MR>
inline void pack_a_s8_panel_avx512(int rows, int K, const int8_t* a, int lda, uint8_t* ap, int32_t* rowsum,
                                   int next_rows = 0) {
  static_assert(MR <= 16, "pack_a_s8_panel_avx512: at most 16 rows");
  const int kq = static_cast<int>(round_up_to_tile<4>(K));
  const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80)), zero = _mm512_setzero_si512();
  constexpr __mmask16 lanes = static_cast<__mmask16>((1u << MR) - 1u);
  __m512i sums[MR];
  for (int i = 0; i < MR; ++i) sums[i] = zero;
  for (int k0 = 0; k0 < kq; k0 += 64) {
    const int nb = min(64, K - k0);  // real bytes of each row in this step
    const __mmask64 m = nb >= 64 ? ~__mmask64{0} : ((__mmask64{1} << nb) - 1u);
    if (k0 + s8_pack_a_prefetch_bytes < K) {
      for (int i = 0; i < rows; ++i)
        _mm_prefetch(reinterpret_cast<const char*>(a + static_cast<ptrdiff_t>(i) * lda + k0 + s8_pack_a_prefetch_bytes),
                     _MM_HINT_T0);
    } else if (const int nk = k0 + s8_pack_a_prefetch_bytes - K; nk < K) {
      // the stream goes on into the next panel's rows, from their start
      for (int i = 0; i < next_rows; ++i)
        _mm_prefetch(reinterpret_cast<const char*>(a + static_cast<ptrdiff_t>(MR + i) * lda + nk), _MM_HINT_T0);
    }
    __m512 r[16], t[16];  // rows as 32-bit lanes, and transposed: t[j] = group j of every row
    for (int i = 0; i < 16; ++i) {
      if (i >= rows) {
        r[i] = _mm512_setzero_ps();
        continue;
      }
      const __m512i x = _mm512_maskz_loadu_epi8(m, a + static_cast<ptrdiff_t>(i) * lda + k0);
      const __m512i v = _mm512_xor_si512(x, _mm512_maskz_mov_epi8(m, flip));
      if (i < MR) sums[i] = _mm512_add_epi64(sums[i], _mm512_sad_epu8(v, zero));
      r[i] = _mm512_castsi512_ps(v);
    }
    x86::transpose16x16(r, t);
    const int groups = min(16, (kq - k0) / 4);
    for (int j = 0; j < groups; ++j)
      _mm512_mask_storeu_epi32(ap + static_cast<ptrdiff_t>(k0 / 4 + j) * MR * 4, lanes, _mm512_castps_si512(t[j]));
  }
  for (int i = 0; i < rows; ++i) rowsum[i] = static_cast<int32_t>(_mm512_reduce_add_epi64(sums[i]));
}
#endif

/// Packs A[0:mc, 0:K] as u8 (a + 128) into MR-row panels of 4-k groups: ap[p][k/4][i][k%4];
/// rowsum[i] = sum over the real k of (a + 128). Rows past mc and k past K are 0. With AB = 2
/// (the AVX2 micro-kernel's layout) each value takes a 16-bit lane, the same order.
///
///   row i of A:  a0 a1 a2 a3 | a4 a5 a6 a7 | ...     a + 128 == a ^ 0x80 on the byte,
///   panel:       [k4=0: row0 a0..a3, row1 a0..a3, ... row MR-1] [k4=1: ...]
template <int MR, int AB = 1>
inline void pack_a_s8(int mc, int K, const int8_t* a, int lda, uint8_t* ap, int32_t* rowsum) {
  static_assert(AB == 1 || AB == 2, "pack_a_s8: 1- or 2-byte values");
  const int kq = static_cast<int>(round_up_to_tile<4>(K));
  const int kfull = K & ~3;  // k groups with 4 real values
  for (int p = 0; p < mc; p += MR) {
    const int rows = min(MR, mc - p);
#if CTNN_KERNELS_VNNI && defined(__AVX512BW__)
    if constexpr (AB == 1 && MR <= 16) {
      pack_a_s8_panel_avx512<MR>(rows, K, a + static_cast<ptrdiff_t>(p) * lda, lda, ap, rowsum + p,
                                 max(0, min(MR, mc - p - MR)));
      ap += static_cast<ptrdiff_t>(kq) * MR;
      continue;
    }
#endif
    for (int i = 0; i < MR; ++i) {
      uint8_t* dst = ap + i * 4 * AB;
      if (i >= rows) {
        for (int k4 = 0; k4 < kq; k4 += 4) __builtin_memset(dst + static_cast<ptrdiff_t>(k4) * MR * AB, 0, 4 * AB);
        continue;
      }
      const int8_t* arow = a + static_cast<ptrdiff_t>(p + i) * lda;
      int32_t s = 0;
      for (int k4 = 0; k4 < kfull; k4 += 4) {
        uint32_t w;
        __builtin_memcpy(&w, arow + k4, 4);
        w ^= 0x80808080u;
        if constexpr (AB == 1) {
          __builtin_memcpy(dst + static_cast<ptrdiff_t>(k4) * MR, &w, 4);
        } else {  // the four bytes zero-extended to 16 bits
          const uint64_t x = w, wide = (x & 0xFFu) | (x & 0xFF00u) << 8 | (x & 0xFF0000u) << 16 | (x & 0xFF000000u) << 24;
          __builtin_memcpy(dst + static_cast<ptrdiff_t>(k4) * MR * 2, &wide, 8);
        }
      }
      for (int k = 0; k < K; ++k) s += arow[k];
      if (kfull < kq) {
        uint16_t tail[4] = {0, 0, 0, 0};
        for (int k = kfull; k < K; ++k) tail[k - kfull] = static_cast<uint8_t>(arow[k] ^ 0x80);
        uint8_t* t = dst + static_cast<ptrdiff_t>(kfull) * MR * AB;
        if constexpr (AB == 1)
          for (int q = 0; q < 4; ++q) t[q] = static_cast<uint8_t>(tail[q]);
        else
          __builtin_memcpy(t, tail, 8);
      }
      rowsum[p + i] = s + 128 * K;
    }
    ap += static_cast<ptrdiff_t>(kq) * MR * AB;
  }
}

#if CTNN_KERNELS_X86 && defined(__AVX2__)
/// Four rows of 32 bytes as the 32 words of their columns, word j = (r0[j], r1[j], r2[j], r3[j])
/// little-endian, stored at dst (128 bytes): two rounds of unpacking and a lane swap.
///
///   rows a, b, c, d (32 bytes)  -> unpack8 (a,b), (c,d) -> unpack16 -> per 128-bit lane
///   words of columns 0-3 | 16-19, 4-7 | 20-23, 8-11 | 24-27, 12-15 | 28-31 -> lane swaps
inline void interleave4x32(__m256i a0, __m256i a1, __m256i a2, __m256i a3, void* dst, __m256i (&o)[4]) {
  const __m256i t01l = _mm256_unpacklo_epi8(a0, a1), t01h = _mm256_unpackhi_epi8(a0, a1);
  const __m256i t23l = _mm256_unpacklo_epi8(a2, a3), t23h = _mm256_unpackhi_epi8(a2, a3);
  const __m256i w0 = _mm256_unpacklo_epi16(t01l, t23l), w1 = _mm256_unpackhi_epi16(t01l, t23l);
  const __m256i w2 = _mm256_unpacklo_epi16(t01h, t23h), w3 = _mm256_unpackhi_epi16(t01h, t23h);
  o[0] = _mm256_permute2x128_si256(w0, w1, 0x20), o[1] = _mm256_permute2x128_si256(w2, w3, 0x20);
  o[2] = _mm256_permute2x128_si256(w0, w1, 0x31), o[3] = _mm256_permute2x128_si256(w2, w3, 0x31);
  auto* d = static_cast<__m256i*>(dst);
  for (int i = 0; i < 4; ++i) _mm256_storeu_si256(d + i, o[i]);
}

/// The full 4-k groups of one 32-column panel of B (AVX2): four rows of 32 bytes become 32 words
/// (interleave4x32); colsum[j] += the word's four bytes (vpmaddubsw by ones, exact:
/// |b0 + b1| <= 256, then vpmaddwd by ones). Returns the k where the groups end.
inline int pack_b_s8_panel32(int K, const int8_t* b, int ldb, int8_t* bp, int32_t* colsum) {
  const __m256i ones8 = _mm256_set1_epi8(1), ones16 = _mm256_set1_epi16(1);
  __m256i s0 = _mm256_setzero_si256(), s1 = s0, s2 = s0, s3 = s0;
  int k4 = 0;
  for (; k4 + 4 <= K; k4 += 4) {
    const int8_t* r = b + static_cast<ptrdiff_t>(k4) * ldb;
    const __m256i a0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r));
    const __m256i a1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r + ldb));
    const __m256i a2 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r + 2 * static_cast<ptrdiff_t>(ldb)));
    const __m256i a3 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r + 3 * static_cast<ptrdiff_t>(ldb)));
    __m256i o[4];
    interleave4x32(a0, a1, a2, a3, bp + static_cast<ptrdiff_t>(k4) * 32, o);
    const __m256i o0 = o[0], o1 = o[1], o2 = o[2], o3 = o[3];
    s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(_mm256_maddubs_epi16(ones8, o0), ones16));
    s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(_mm256_maddubs_epi16(ones8, o1), ones16));
    s2 = _mm256_add_epi32(s2, _mm256_madd_epi16(_mm256_maddubs_epi16(ones8, o2), ones16));
    s3 = _mm256_add_epi32(s3, _mm256_madd_epi16(_mm256_maddubs_epi16(ones8, o3), ones16));
  }
  auto* cs = reinterpret_cast<__m256i*>(colsum);
  _mm256_storeu_si256(cs, _mm256_add_epi32(_mm256_loadu_si256(cs), s0));
  _mm256_storeu_si256(cs + 1, _mm256_add_epi32(_mm256_loadu_si256(cs + 1), s1));
  _mm256_storeu_si256(cs + 2, _mm256_add_epi32(_mm256_loadu_si256(cs + 2), s2));
  _mm256_storeu_si256(cs + 3, _mm256_add_epi32(_mm256_loadu_si256(cs + 3), s3));
  return k4;
}
#endif

#if CTNN_KERNELS_VNNI && defined(__AVX512BW__)
/// The full 4-k groups of 2 P adjacent 32-column panels of B (64 P columns: P cache lines of each
/// row), panel t at bp + t x panel_bytes: per 64 columns, four rows of 64 bytes become the 64
/// columns' words (byte and word unpacks within 128-bit lanes, then a 4 x 4 transpose of the
/// lanes), colsum[j] += the word's four bytes (vpdpbusd by ones). Returns the k where the groups
/// end. Each line of B is read once; the P lines of a row one after the other: 1024 x 512 bytes
/// from memory 10 -> 15 GB/s for P = 4 against P = 1, in cache 24 -> 37 (AMD Zen 5).
///
///   unpack8 / unpack16 of rows 0-3 -> w0..w3, 128-bit lane L of w_q = the words of columns
///   16 L + 4 q .. + 3 -> lanes transposed -> [cols 0-15 | 16-31] [32-47 | 48-63]
template <int P>
inline int pack_b_s8_panels64(int K, const int8_t* b, int ldb, int8_t* bp, ptrdiff_t panel_bytes, int32_t* colsum) {
  const __m512i ones = _mm512_set1_epi8(1);
  __m512i s[P][4];
#pragma GCC unroll 4
  for (int u = 0; u < P; ++u)
    for (int q = 0; q < 4; ++q) s[u][q] = _mm512_setzero_si512();
  int k4 = 0;
  for (; k4 + 4 <= K; k4 += 4) {
#pragma GCC unroll 4
    for (int u = 0; u < P; ++u) {
      const int8_t* r = b + static_cast<ptrdiff_t>(k4) * ldb + 64 * u;
      const __m512i a0 = _mm512_loadu_si512(r), a1 = _mm512_loadu_si512(r + ldb);
      const __m512i a2 = _mm512_loadu_si512(r + 2 * static_cast<ptrdiff_t>(ldb));
      const __m512i a3 = _mm512_loadu_si512(r + 3 * static_cast<ptrdiff_t>(ldb));
      const __m512i t01l = _mm512_unpacklo_epi8(a0, a1), t01h = _mm512_unpackhi_epi8(a0, a1);
      const __m512i t23l = _mm512_unpacklo_epi8(a2, a3), t23h = _mm512_unpackhi_epi8(a2, a3);
      const __m512i w0 = _mm512_unpacklo_epi16(t01l, t23l), w1 = _mm512_unpackhi_epi16(t01l, t23l);
      const __m512i w2 = _mm512_unpacklo_epi16(t01h, t23h), w3 = _mm512_unpackhi_epi16(t01h, t23h);
      const __m512i q0 = _mm512_shuffle_i32x4(w0, w1, 0x44), q1 = _mm512_shuffle_i32x4(w2, w3, 0x44);
      const __m512i q2 = _mm512_shuffle_i32x4(w0, w1, 0xEE), q3 = _mm512_shuffle_i32x4(w2, w3, 0xEE);
      const __m512i o[4] = {_mm512_shuffle_i32x4(q0, q1, 0x88), _mm512_shuffle_i32x4(q0, q1, 0xDD),
                            _mm512_shuffle_i32x4(q2, q3, 0x88), _mm512_shuffle_i32x4(q2, q3, 0xDD)};
      int8_t* d = bp + 2 * u * panel_bytes + static_cast<ptrdiff_t>(k4) * 32;
      _mm512_storeu_si512(d, o[0]);
      _mm512_storeu_si512(d + 64, o[1]);
      _mm512_storeu_si512(d + panel_bytes, o[2]);
      _mm512_storeu_si512(d + panel_bytes + 64, o[3]);
      for (int q = 0; q < 4; ++q) s[u][q] = _mm512_dpbusd_epi32(s[u][q], ones, o[q]);
    }
  }
#pragma GCC unroll 4
  for (int u = 0; u < P; ++u)
    for (int q = 0; q < 4; ++q) {
      auto* cs = colsum + 64 * u + 16 * q;
      _mm512_storeu_si512(cs, _mm512_add_epi32(_mm512_loadu_si512(cs), s[u][q]));
    }
  return k4;
}
#endif

/// Packs B[0:K, 0:nc] into NR-column panels of 4-k groups: bp[p][k/4][j][k%4]; colsum[j] = sum b.
/// The four rows of a group are interleaved byte-wise into one 32-bit word per column.
template <int NR>
inline void pack_b_s8(int K, int nc, const int8_t* b, int ldb, int8_t* bp, int32_t* colsum) {
  const int kq = static_cast<int>(round_up_to_tile<4>(K));
  for (int j = 0; j < nc; ++j) colsum[j] = 0;
  int packed_k = 0, packed_left = 0;  // the next packed_left panels' groups below packed_k are packed
  for (int p = 0; p < nc; p += NR) {
    const int cols = min(NR, nc - p);
    int k_vec = 0;  // groups below k_vec were packed by the vector path
    if (packed_left > 0) {
      k_vec = packed_k;
      --packed_left;
    } else {
#if CTNN_KERNELS_VNNI && defined(__AVX512BW__)
      if constexpr (NR == 32) {
        const int whole = (nc - p) / NR;  // whole panels from here: 8, 4 or 2 at once (2 P)
        const int pairs = whole >= 8 ? 4 : whole >= 4 ? 2 : whole >= 2 ? 1 : 0;
        const ptrdiff_t pb = static_cast<ptrdiff_t>(kq) * NR;
        if (pairs == 4)
          k_vec = pack_b_s8_panels64<4>(K, b + p, ldb, bp, pb, colsum + p);
        else if (pairs == 2)
          k_vec = pack_b_s8_panels64<2>(K, b + p, ldb, bp, pb, colsum + p);
        else if (pairs == 1)
          k_vec = pack_b_s8_panels64<1>(K, b + p, ldb, bp, pb, colsum + p);
        packed_k = k_vec;
        packed_left = 2 * pairs - 1;  // this panel is the first of them (none: -1, as 0)
      }
#endif
#if CTNN_KERNELS_X86 && defined(__AVX2__)
      if constexpr (NR == 32)
        if (cols == NR && k_vec == 0) k_vec = pack_b_s8_panel32(K, b + p, ldb, bp, colsum + p);
#endif
    }
    for (int k4 = k_vec; k4 < kq; k4 += 4) {
      const int8_t* r[4];
      for (int q = 0; q < 4; ++q) r[q] = k4 + q < K ? b + static_cast<ptrdiff_t>(k4 + q) * ldb + p : nullptr;
      uint32_t words[NR];
      int32_t* cs = colsum + p;
      if (cols == NR && r[3] != nullptr) {  // full group: branch-free, vectorizable
        for (int j = 0; j < NR; ++j) {
          words[j] = static_cast<uint32_t>(static_cast<uint8_t>(r[0][j])) |
                     static_cast<uint32_t>(static_cast<uint8_t>(r[1][j])) << 8 |
                     static_cast<uint32_t>(static_cast<uint8_t>(r[2][j])) << 16 |
                     static_cast<uint32_t>(static_cast<uint8_t>(r[3][j])) << 24;
          cs[j] += r[0][j] + r[1][j] + r[2][j] + r[3][j];
        }
      } else {
        for (int j = 0; j < NR; ++j) {
          uint32_t w = 0;
          for (int q = 0; q < 4; ++q) {
            const int8_t v = (r[q] != nullptr && j < cols) ? r[q][j] : int8_t{0};
            w |= static_cast<uint32_t>(static_cast<uint8_t>(v)) << (8 * q);
            if (j < cols) cs[j] += v;
          }
          words[j] = w;
        }
      }
      __builtin_memcpy(bp + static_cast<ptrdiff_t>(k4) * NR, words, sizeof words);
    }
    bp += static_cast<ptrdiff_t>(kq) * NR;
  }
}

#if CTNN_KERNELS_AVX2_S8
/// AVX2 block of the int8 micro-kernel: rows [R0, R0 + R) (R <= 4) x the 8 columns [C0, C0 + 8)
/// of an MR x NR tile; A packed in 16-bit lanes (qgemm_tiling::a_bytes = 2). Per 4-k group, B's
/// 8 words (8 columns x 4 k) widen to two vectors of 16-bit lanes (4 columns x 4 k each); a row's
/// four 16-bit values of A are broadcast as one 64-bit lane;
/// vpmaddwd adds adjacent k pairs into 32-bit lanes (column c, k 0-1 | column c, k 2-3), which
/// the end folds by a horizontal add:
///
///   b lo = [c0 k0..3 | c1 | c2 | c3]  a = [a0 a1 a2 a3] x 4  ->  madd = [c0:k01 c0:k23 c1:k01 ...]
///   hadd(lo, hi) = [c0 c1 c4 c5 | c2 c3 c6 c7]  -> 64-bit lanes 0, 2, 1, 3  ->  c0 .. c7
///
/// A K chunk at a time (micro_s8_avx2): `first` starts from zero, else from the 8 vectors the
/// previous chunk left in `keep`; `last` folds and stores into `out`, else leaves them in `keep`.
template <int MR, int NR, int R0, int R, int C0>
inline void micro_s8_avx2_block(int kq, const uint8_t* __restrict ap, const int8_t* __restrict bp,
                                int32_t (&out)[MR][NR], __m256i* keep, bool first, bool last) {
  static_assert(R >= 1 && R <= 4, "micro_s8_avx2_block: 1 to 4 rows");
  // named accumulators, not an array: GCC 12 keeps these in registers (an array of them spilled)
  __m256i l0 = _mm256_setzero_si256(), h0 = l0, l1 = l0, h1 = l0, l2 = l0, h2 = l0, l3 = l0, h3 = l0;
  if (!first) {
    l0 = keep[0], h0 = keep[1], l1 = keep[2], h1 = keep[3], l2 = keep[4], h2 = keep[5], l3 = keep[6], h3 = keep[7];
  }
  ap += R0 * 8;
  bp += C0 * 4;
#if defined(__GNUC__) && defined(__x86_64__)
  if constexpr (R == 4) {
    // The loop as written, in registers: GCC 12 hoists the broadcasts of the intrinsic form below
    // and spills accumulators to the stack, which puts a store-to-load round trip on their
    // dependency chain every iteration (half the throughput).
    if (kq > 0) {
      __m256i b0, b1, a, t, u;
      auto n = static_cast<ptrdiff_t>(kq / 4);
      const uint8_t* pa = ap;
      const int8_t* pb = bp;
      asm("1:\n\t"
          "vpmovsxbw (%[pb]), %[b0]\n\t"
          "vpmovsxbw 16(%[pb]), %[b1]\n\t"
          "vpbroadcastq (%[pa]), %[a]\n\t"
          "vpmaddwd %[b0], %[a], %[t]\n\t"
          "vpmaddwd %[b1], %[a], %[u]\n\t"
          "vpaddd %[t], %[l0], %[l0]\n\t"
          "vpaddd %[u], %[h0], %[h0]\n\t"
          "vpbroadcastq 8(%[pa]), %[a]\n\t"
          "vpmaddwd %[b0], %[a], %[t]\n\t"
          "vpmaddwd %[b1], %[a], %[u]\n\t"
          "vpaddd %[t], %[l1], %[l1]\n\t"
          "vpaddd %[u], %[h1], %[h1]\n\t"
          "vpbroadcastq 16(%[pa]), %[a]\n\t"
          "vpmaddwd %[b0], %[a], %[t]\n\t"
          "vpmaddwd %[b1], %[a], %[u]\n\t"
          "vpaddd %[t], %[l2], %[l2]\n\t"
          "vpaddd %[u], %[h2], %[h2]\n\t"
          "vpbroadcastq 24(%[pa]), %[a]\n\t"
          "vpmaddwd %[b0], %[a], %[t]\n\t"
          "vpmaddwd %[b1], %[a], %[u]\n\t"
          "vpaddd %[t], %[l3], %[l3]\n\t"
          "vpaddd %[u], %[h3], %[h3]\n\t"
          "add %[sa], %[pa]\n\t"
          "add %[sb], %[pb]\n\t"
          "dec %[n]\n\t"
          "jnz 1b"
          : [l0] "+x"(l0), [h0] "+x"(h0), [l1] "+x"(l1), [h1] "+x"(h1), [l2] "+x"(l2), [h2] "+x"(h2),
            [l3] "+x"(l3), [h3] "+x"(h3), [pa] "+r"(pa), [pb] "+r"(pb), [n] "+r"(n), [b0] "=&x"(b0),
            [b1] "=&x"(b1), [a] "=&x"(a), [t] "=&x"(t), [u] "=&x"(u)
          : [sa] "i"(MR * 8), [sb] "i"(NR * 4)
          : "cc", "memory");
    }
  } else
#endif
  for (int k4 = 0; k4 < kq; k4 += 4) {
    const __m256i b0 = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(bp)));
    const __m256i b1 = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(bp + 16)));
    const auto row = [&](int i, __m256i& lo, __m256i& hi) __attribute__((always_inline)) {
      int64_t a4;
      __builtin_memcpy(&a4, ap + i * 8, 8);
      const __m256i a = _mm256_set1_epi64x(a4);
      lo = _mm256_add_epi32(lo, _mm256_madd_epi16(a, b0));
      hi = _mm256_add_epi32(hi, _mm256_madd_epi16(a, b1));
    };
    row(0, l0, h0);
    if constexpr (R > 1) row(1, l1, h1);
    if constexpr (R > 2) row(2, l2, h2);
    if constexpr (R > 3) row(3, l3, h3);
    ap += MR * 8;
    bp += NR * 4;
  }
  if (!last) {
    keep[0] = l0, keep[1] = h0, keep[2] = l1, keep[3] = h1, keep[4] = l2, keep[5] = h2, keep[6] = l3, keep[7] = h3;
    return;
  }
  const auto store = [&](int i, __m256i lo, __m256i hi) __attribute__((always_inline)) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(&out[R0 + i][C0]),
                        _mm256_permute4x64_epi64(_mm256_hadd_epi32(lo, hi), 0xD8));
  };
  store(0, l0, h0);
  if constexpr (R > 1) store(1, l1, h1);
  if constexpr (R > 2) store(2, l2, h2);
  if constexpr (R > 3) store(3, l3, h3);
}

/// Rows [R0, Rows) of the tile in blocks of 4, each block over the 8-column groups of NR that
/// hold one of the first n_valid columns (an edge panel, N = 49: 17 of 32, skips the last 8).
template <int MR, int NR, int R0, int Rows, int C0 = 0>
inline void micro_s8_avx2_rows(int kq, const uint8_t* ap, const int8_t* bp, int32_t (&out)[MR][NR], int n_valid,
                               __m256i* keep, bool first, bool last) {
  constexpr int R = Rows - R0 < 4 ? Rows - R0 : 4;
  if (C0 < n_valid)
    micro_s8_avx2_block<MR, NR, R0, R, C0>(kq, ap, bp, out, keep + (R0 / 4 * (NR / 8) + C0 / 8) * 8, first, last);
  if constexpr (C0 + 8 < NR)
    micro_s8_avx2_rows<MR, NR, R0, Rows, C0 + 8>(kq, ap, bp, out, n_valid, keep, first, last);
  else if constexpr (R0 + R < Rows)
    micro_s8_avx2_rows<MR, NR, R0 + R, Rows, 0>(kq, ap, bp, out, n_valid, keep, first, last);
}

/// K values per chunk of the AVX2 micro-kernel: a 12-row A chunk (16-bit) and a 32-column B
/// chunk take 6 + 8 KiB, so the blocks that re-read them (4 column groups x 3 row blocks) hit L1;
/// whole panels of a 3x3 conv's K = 576 (13.5 + 18 KiB) did not fit in Zen 3's 32 KiB together.
inline constexpr int s8_avx2_k_chunk = 256;

/// The AVX2 tile: K in chunks of s8_avx2_k_chunk, every block of the tile per chunk. `keep` is
/// written by each block's first chunk before any later chunk reads it (GCC cannot see that).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
template <int MR, int NR, int Rows>
inline void micro_s8_avx2(int kq, const uint8_t* ap, const int8_t* bp, int32_t (&out)[MR][NR], int n_valid) {
  __m256i keep[((Rows + 3) / 4) * (NR / 8) * 8];
  for (int k0 = 0; k0 < kq || k0 == 0; k0 += s8_avx2_k_chunk) {
    const int kc = min(s8_avx2_k_chunk, kq - k0);
    micro_s8_avx2_rows<MR, NR, 0, Rows>(kc, ap + static_cast<ptrdiff_t>(k0) * MR * 2,
                                        bp + static_cast<ptrdiff_t>(k0) * NR, out, n_valid, keep, k0 == 0,
                                        k0 + s8_avx2_k_chunk >= kq);
  }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

#if CTNN_KERNELS_VNNI
/// Bytes ahead of the A panel that micro_dpbusd prefetches into L2 as it goes (about 85 groups of
/// a 12-row panel, a thousand cycles: a DRAM access). A network's weights (ResNet-18's 11 MB) do
/// not stay in this host's cache from one run to the next, and the hardware prefetcher did not
/// keep a panel streamed at the tile's pace: ResNet-18's 512 x 7 x 7 3x3 layer alone with its
/// weights evicted (300 MB written between runs) 0.61 -> 0.47 ms, unchanged (0.43) with them in
/// cache; 1024 bytes ahead gave 0.59, 2048 0.49, 8192 0.47 (Emerald Rapids, min of 5).
inline constexpr uintptr_t s8_a_prefetch_bytes = 4096;

/// The vpdpbusd tile of both int8 GEMMs: out[i][j] (the first Rows rows of an MR-row panel, NR
/// columns) = the sum over `groups` 4-value groups of row i's 4 bytes at ap (MR x 4 bytes a
/// group, broadcast) times column j's 4 bytes in the group's B row at b_row(g) (NR x 4 bytes,
/// whole vectors), wrapping. BcastSigned: A is s8 and B u8 (the slab path: weights, and
/// activations + 128); otherwise A is u8 (a + 128) and B s8 (the packed GEMM). Only the first
/// Cols columns are computed (an edge tile of n_valid <= Cols, s8_col_tier); the others are 0.
template <int MR, int NR, int Rows, bool BcastSigned, int Cols = NR, class BRow, class Epi>
inline void micro_dpbusd_epi(int groups, const void* a_panel, BRow b_row, Epi&& epi) {
  static_assert(NR % 16 == 0 && Rows > 0 && Rows <= MR, "micro_dpbusd: whole vectors, 1..MR rows");
  static_assert(Cols % 16 == 0 && Cols > 0 && Cols <= NR, "micro_dpbusd: Cols must be whole vectors of the tile");
  constexpr int nv = NR / 16, nc = Cols / 16;
  const auto* ap = static_cast<const uint8_t*>(a_panel);
  __m512i acc[Rows][nv];
#pragma GCC unroll 32
  for (int i = 0; i < Rows; ++i)
#pragma GCC unroll 8
    for (int j = 0; j < nv; ++j) acc[i][j] = _mm512_setzero_si512();
  // a panel shorter than the distance prefetches the group it reads (an L1 hit): 4 KiB past a
  // small network's weights is another page, whose walk cost LeNet-5 int8 about 9 %
  const uintptr_t ahead = static_cast<uintptr_t>(groups) * MR * 4 > s8_a_prefetch_bytes ? s8_a_prefetch_bytes : 0;
  for (int g = 0; g < groups; ++g) {
    const uint8_t* bg = b_row(g);
    // (an address past the panel's end: a prefetch never faults, formed as an integer)
    _mm_prefetch(reinterpret_cast<const char*>(reinterpret_cast<uintptr_t>(ap) + ahead), _MM_HINT_T1);
    __m512i bv[nc];
#pragma GCC unroll 8
    for (int j = 0; j < nc; ++j) bv[j] = _mm512_loadu_si512(bg + j * 64);
#pragma GCC unroll 32
    for (int i = 0; i < Rows; ++i) {
      int32_t a4;
      __builtin_memcpy(&a4, ap + i * 4, 4);
      const __m512i a = _mm512_set1_epi32(a4);
#pragma GCC unroll 8
      for (int j = 0; j < nc; ++j)
        acc[i][j] = BcastSigned ? _mm512_dpbusd_epi32(acc[i][j], bv[j], a) : _mm512_dpbusd_epi32(acc[i][j], a, bv[j]);
    }
    ap += MR * 4;
  }
  // the tile from its registers: epi(i, row i's NR / 16 vectors of sums) returns false past the
  // rows it wants
#pragma GCC unroll 32
  for (int i = 0; i < Rows; ++i)
    if (!epi(i, acc[i])) break;
}

/// micro_dpbusd's b_row over a packed B panel: its 4-value groups one after the other, NR x 4
/// bytes each.
template <int NR>
inline auto packed_b_rows(const int8_t* bp) {
  return [bp](int g) { return reinterpret_cast<const uint8_t*>(bp) + static_cast<ptrdiff_t>(g) * NR * 4; };
}

/// micro_dpbusd_epi storing the tile's int32 sums at out (its first Cols columns).
template <int MR, int NR, int Rows, bool BcastSigned, int Cols = NR, class BRow>
inline void micro_dpbusd(int groups, const void* a_panel, BRow b_row, int32_t (&out)[MR][NR]) {
  micro_dpbusd_epi<MR, NR, Rows, BcastSigned, Cols>(groups, a_panel, b_row,
                                                    [&out](int i, const __m512i (&v)[NR / 16]) {
#pragma GCC unroll 8
                                                      for (int j = 0; j < Cols / 16; ++j)
                                                        _mm512_storeu_si512(&out[i][j * 16], v[j]);
                                                      return true;
                                                    });
}
#endif

/// The int8 micro-kernels' column tiers: f.template operator()<Cols>() with Cols = NR / 2 where
/// an edge tile's n_valid columns fit half the tile in whole 16-lane vectors, NR otherwise (N = 196
/// = 6 x 32 + 4: the last tile one vector a row, not two). ctnn_qgemm_shapes, int32 output /
/// dnnl_gemm_u8s8s32, AMD Zen 5: 256 x 196 x 2304 0.90 -> 1.02, 128 x 784 x 1152 0.96 -> 0.99-1.00.
/// Columns past Cols are left unwritten.
template <int NR, class F>
inline void s8_col_tier(int n_valid, F&& f) {
  if constexpr (NR % 32 == 0)
    if (n_valid <= NR / 2) return f.template operator()<NR / 2>();
  f.template operator()<NR>();
}

/// Raw int32 tile: acc[i][j] = sum over kq of ap(u8) * bp(s8), wrapping modulo 2^32, for the
/// first Rows rows of the MR-row panel (an edge panel: M = 64 = 5 x 12 + 4 runs 4 rows, not 12).
/// Columns from n_valid on may be left unwritten (the AVX2 kernel skips their 8-column groups,
/// the VNNI one half the tile where n_valid <= NR / 2).
template <int MR, int NR, int Rows = MR>
inline void micro_s8(int kq, const uint8_t* __restrict ap, const int8_t* __restrict bp, int32_t (&out)[MR][NR],
                     [[maybe_unused]] int n_valid = NR) {
  static_assert(Rows > 0 && Rows <= MR, "micro_s8: Rows must be 1..MR");
#if CTNN_KERNELS_VNNI
  if constexpr (NR % 16 == 0) {
    const auto b_row = packed_b_rows<NR>(bp);
    s8_col_tier<NR>(n_valid, [&]<int Cols>() { micro_dpbusd<MR, NR, Rows, false, Cols>(kq / 4, ap, b_row, out); });
    return;
  }
#elif CTNN_KERNELS_AVX2_S8
  if constexpr (NR % 8 == 0) {
    // Row blocks of at most 4 (8 accumulators of 8 lanes), each over the panel's 8-column quarters.
    micro_s8_avx2<MR, NR, Rows>(kq, ap, bp, out, n_valid);
    return;
  }
#endif
  // Portable path: same packed layout, plain integer arithmetic (uint32 to wrap without UB).
  // Register-blocked outer products, one k at a time: Rows + NR loads feed Rows * NR multiply-adds.
  uint32_t acc[Rows][NR] = {};
  for (int k4 = 0; k4 < kq; k4 += 4) {
    for (int q = 0; q < 4; ++q) {
      uint32_t av[Rows], bv[NR];
#pragma GCC unroll 16
      for (int i = 0; i < Rows; ++i) av[i] = ap[i * 4 + q];
#pragma GCC unroll 16
      for (int j = 0; j < NR; ++j) bv[j] = static_cast<uint32_t>(static_cast<int32_t>(bp[j * 4 + q]));
#pragma GCC unroll 16
      for (int i = 0; i < Rows; ++i)
#pragma GCC unroll 16
        for (int j = 0; j < NR; ++j) acc[i][j] += av[i] * bv[j];  // wraps mod 2^32, no UB
    }
    ap += MR * 4;
    bp += NR * 4;
  }
  for (int i = 0; i < Rows; ++i)
    for (int j = 0; j < NR; ++j) out[i][j] = static_cast<int32_t>(acc[i][j]);
}

/// The int8 micro-kernels' row tiers: f.template operator()<Rows>() on the fewest rows that hold
/// m_valid, MR / 3 or 2 MR / 3 when MR is a multiple of 3 (MR = 12: 4, 8 or 12), MR otherwise.
template <int MR, class F>
inline void s8_row_tier(int m_valid, F&& f) {
  if constexpr (MR >= 6 && MR % 3 == 0) {
    if (m_valid <= MR / 3) return f.template operator()<MR / 3>();
    if (m_valid <= 2 * MR / 3) return f.template operator()<2 * MR / 3>();
  }
  f.template operator()<MR>();
}

#if CTNN_KERNELS_VNNI
/// The vpdpbusd tile of the packed GEMM on the fewest rows that hold m_valid (as micro_s8_rows),
/// its sums handed to epi(i, row i's vectors) in registers instead of stored.
template <int MR, int NR, class Epi>
inline void micro_s8_rows_epi(int m_valid, int n_valid, int kq, const uint8_t* ap, const int8_t* bp, Epi&& epi) {
  static_assert(NR % 16 == 0, "micro_s8_rows_epi: whole vectors");
  const auto b_row = packed_b_rows<NR>(bp);
  s8_row_tier<MR>(m_valid, [&]<int Rows>() {
    s8_col_tier<NR>(n_valid, [&]<int Cols>() { micro_dpbusd_epi<MR, NR, Rows, false, Cols>(kq / 4, ap, b_row, epi); });
  });
}
#endif

/// micro_s8 on the fewest rows that hold m_valid (s8_row_tier).
template <int MR, int NR>
inline void micro_s8_rows(int m_valid, int kq, const uint8_t* ap, const int8_t* bp, int32_t (&out)[MR][NR],
                          int n_valid = NR) {
  s8_row_tier<MR>(m_valid, [&]<int Rows>() { micro_s8<MR, NR, Rows>(kq, ap, bp, out, n_valid); });
}

/// The zero-point-corrected int32 accumulator (see the file comment), wrapping.
inline int32_t corrected(int32_t raw, int32_t rowsum_u, int32_t colsum, uint32_t k_term, int32_t a_zp_u,
                         int32_t b_zp, int32_t bias) {
  uint32_t v = static_cast<uint32_t>(raw);
  v -= static_cast<uint32_t>(b_zp) * static_cast<uint32_t>(rowsum_u);
  v -= static_cast<uint32_t>(a_zp_u) * static_cast<uint32_t>(colsum);
  v += k_term + static_cast<uint32_t>(bias);
  return static_cast<int32_t>(v);
}

#if CTNN_KERNELS_VNNI
/// Corrects and (for int8 output) requantizes the first n_valid (<= NR, NR % 16 == 0) values of
/// one row of a raw tile, 16 lanes at a time; the last vector of an edge tile (N = 49: 17 of
/// 32) is masked, so the column sums, bias and the multipliers are not read past n_valid either.
/// azp_colsum: the column sums already times a_zp_u (gemm_s8_impl scales a panel's once, as for
/// AVX2 below), null for no column correction (conv2d_s8's slab path). A row's requantization fields are made
/// once per row; int8 outputs narrow with signed saturation (vpmovsdb), which is the clamp to
/// [-128, 127], so the activation's clamp runs only where it is narrower (ReLU: the lower bound).
template <class Out, bool ChannelRows>
struct finalize16 {
  __m512i row_term;
  requant16 rq{};
  __m512i out_zp = _mm512_setzero_si512(), lo = out_zp, hi = out_zp;
  bool row_rq = false, clamp_lo = false, clamp_hi = false;

  finalize16(int32_t rowsum_u, uint32_t k_term, int32_t b_zp, const int32_t* bias, int row,
             const ref::gemm_s8_params* p)
      : row_term(_mm512_set1_epi32(static_cast<int32_t>(
            k_term - static_cast<uint32_t>(b_zp) * static_cast<uint32_t>(rowsum_u) +
            ((ChannelRows && bias != nullptr) ? static_cast<uint32_t>(bias[row]) : 0u)))) {
    if constexpr (!is_same_v<Out, int32_t>) {
      row_rq = ChannelRows || !p->per_channel;
      if (row_rq) {
        const int i = p->per_channel ? row : 0;
        rq = make_requant16(_mm512_set1_epi32(p->multiplier[i]), _mm512_set1_epi32(p->shift[i]));
      }
      out_zp = _mm512_set1_epi32(p->out_zp);
      lo = _mm512_set1_epi32(p->act_min);
      hi = _mm512_set1_epi32(p->act_max);
      clamp_lo = p->act_min > -128;
      clamp_hi = p->act_max < 127;
    }
  }

  /// 16 raw sums (lanes outside m zero) of columns col0 .. col0 + 15 -> out[0 .. 15] under m.
  /// Full: all 16 lanes (m ignored), read and stored without a mask. A masked 512-bit store into
  /// lines out of cache ran the raw int32 GEMM at 1024^3 about 10 % slower (AMD Zen 5). Only
  /// gemm_s8_impl's int32 epilogue stores whole vectors here; an int8 tile's whole rows go
  /// through finalize_tile_rq, which stores them unmasked itself.
  template <bool Full = false>
  void vec(__m512i raw, __mmask16 m, const int32_t* azp_colsum, const int32_t* bias, int col0,
           const ref::gemm_s8_params* p, Out* out) const {
    const auto load = [m](const int32_t* q) { return Full ? _mm512_loadu_si512(q) : _mm512_maskz_loadu_epi32(m, q); };
    __m512i acc = _mm512_add_epi32(raw, row_term);
    if (azp_colsum != nullptr) acc = _mm512_sub_epi32(acc, load(azp_colsum));
    if (!ChannelRows && bias != nullptr) acc = _mm512_add_epi32(acc, load(bias + col0));
    if constexpr (is_same_v<Out, int32_t>) {
      if constexpr (Full)
        _mm512_storeu_si512(out, acc);
      else
        _mm512_mask_storeu_epi32(out, m, acc);
    } else {
      const __m512i q = row_rq ? mbqm16(acc, rq) : mbqm16(acc, load(p->multiplier + col0), load(p->shift + col0));
      __m512i v = _mm512_add_epi32(q, out_zp);
      if (clamp_lo) v = _mm512_max_epi32(v, lo);
      if (clamp_hi) v = _mm512_min_epi32(v, hi);
      _mm512_mask_cvtsepi32_storeu_epi8(out, m, v);
    }
  }
};

/// Lanes [0, n) of 16 (n >= 16: all; n <= 0: none).
inline __mmask16 lane_mask16(int n) {
  return n >= 16 ? __mmask16{0xFFFF} : n <= 0 ? __mmask16{0} : static_cast<__mmask16>((1u << n) - 1u);
}

template <int NR, class Out, bool ChannelRows>
inline void finalize_row(const int32_t* raw, int32_t rowsum_u, const int32_t* azp_colsum, uint32_t k_term,
                         int32_t b_zp, const int32_t* bias, int row, int col0, const ref::gemm_s8_params* p, Out* out,
                         int n_valid) {
  const finalize16<Out, ChannelRows> f(rowsum_u, k_term, b_zp, bias, row, p);
  for (int j = 0; j < n_valid; j += 16) {
    const __mmask16 m = lane_mask16(n_valid - j);
    f.vec(_mm512_maskz_loadu_epi32(m, raw + j), m, azp_colsum != nullptr ? azp_colsum + j : nullptr, bias, col0 + j,
          p, out + j);
  }
}
#endif

#if CTNN_KERNELS_AVX2_S8
/// Lanes [0, n) of 8 (n in 1..8) as a maskload/maskstore mask.
inline __m256i lane_mask8(int n) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

/// finalize_row of the AVX-512 build in 8 lanes (AVX2): corrects and (int8 output) requantizes
/// the first n_valid values of one row of a raw tile; an edge vector is masked. azp_colsum: the
/// column sums already times a_zp_u (gemm_s8_impl scales a panel's once), so that no lane
/// multiply is left for the correction; a row's requantization fields are made once per row.
template <int NR, class Out, bool ChannelRows>
inline void finalize_row(const int32_t* raw, int32_t rowsum_u, const int32_t* azp_colsum, uint32_t k_term,
                         int32_t b_zp, const int32_t* bias, int row, int col0, const ref::gemm_s8_params* p, Out* out,
                         int n_valid) {
  const __m256i row_term = _mm256_set1_epi32(static_cast<int32_t>(
      k_term - static_cast<uint32_t>(b_zp) * static_cast<uint32_t>(rowsum_u) +
      ((ChannelRows && bias != nullptr) ? static_cast<uint32_t>(bias[row]) : 0u)));
  requant8 rq{};
  __m256i out_zp = _mm256_setzero_si256(), lo = out_zp, hi = out_zp;
  if constexpr (!is_same_v<Out, int32_t>) {
    if (ChannelRows || !p->per_channel) {
      const int i = p->per_channel ? row : 0;
      rq = make_requant8(_mm256_set1_epi32(p->multiplier[i]), _mm256_set1_epi32(p->shift[i]));
    }
    out_zp = _mm256_set1_epi32(p->out_zp);
    lo = _mm256_set1_epi32(p->act_min);
    hi = _mm256_set1_epi32(p->act_max);
  }
  for (int j = 0; j < n_valid; j += 8) {
    const bool full = n_valid - j >= 8;
    const __m256i m = full ? _mm256_set1_epi32(-1) : lane_mask8(n_valid - j);
    __m256i acc = _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(raw + j)), row_term);
    acc = _mm256_sub_epi32(acc, _mm256_maskload_epi32(azp_colsum + j, m));
    if (!ChannelRows && bias != nullptr) acc = _mm256_add_epi32(acc, _mm256_maskload_epi32(bias + col0 + j, m));
    if constexpr (is_same_v<Out, int32_t>) {
      _mm256_maskstore_epi32(out + j, m, acc);
    } else {
      __m256i v;
      if (!ChannelRows && p->per_channel)
        v = mbqm8(acc, _mm256_maskload_epi32(p->multiplier + col0 + j, m), _mm256_maskload_epi32(p->shift + col0 + j, m));
      else
        v = mbqm8(acc, rq);
      v = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(v, out_zp), lo), hi);
      const __m128i bytes = narrow8(v);
      if (full) {
        _mm_storel_epi64(reinterpret_cast<__m128i*>(out + j), bytes);
      } else {
        alignas(16) int8_t tmp[16];
        _mm_store_si128(reinterpret_cast<__m128i*>(tmp), bytes);
        __builtin_memcpy(out + j, tmp, static_cast<size_t>(n_valid - j));
      }
    }
  }
}
#endif

#if CTNN_KERNELS_VNNI
/// The requantization of a raw int8 GEMM tile (gemm_s8_offsets_impl's, gemm_s8_impl's) whose
/// first m_valid rows all have fused fields (make_rq_fused): n_valid columns of C, clamped to
/// [lo, hi] when Clamp (vpmovsdb's saturation is the clamp to [-128, 127]). Kept apart from the
/// micro-kernel: requantizing its accumulators in registers made GCC spill them inside the K
/// loop (576 x 14 x 14 -> 96: 0.052 -> 0.092 ms), where the tile's stores and loads cost 2 of
/// about 15 operations a vector.
/// azp_colsum: null, or a per-column term subtracted from each row's sums first (the packed
/// GEMM's a_zp_u x colsum, n_valid of them).
template <int NR, bool Clamp>
inline void finalize_tile_rq(const int32_t* tile, const s8_rq_row* rq, int m_valid, int n_valid, int8_t* c,
                             ptrdiff_t ldc, int32_t act_min, int32_t act_max, const int32_t* azp_colsum = nullptr) {
  constexpr int nv = NR / 16;
  const __m512i lo = _mm512_set1_epi32(act_min), hi = _mm512_set1_epi32(act_max);
  __mmask16 mk[nv];
#pragma GCC unroll 8
  for (int j = 0; j < nv; ++j) mk[j] = lane_mask16(n_valid - 16 * j);
  __m512i cterm[nv];
#pragma GCC unroll 8
  for (int j = 0; j < nv; ++j)
    cterm[j] = azp_colsum != nullptr ? _mm512_maskz_loadu_epi32(mk[j], azp_colsum + 16 * j) : _mm512_setzero_si512();
  // a whole tile narrowed in a register and stored unmasked: the masked narrowing store into C's
  // lines out of cache ran 1024^3 (1 MiB of int8 C) about 3.5 % slower (AMD Zen 5)
  const bool full = n_valid == NR;
  for (int i = 0; i < m_valid; ++i) {
#pragma GCC unroll 8
    for (int j = 0; j < nv; ++j) {
      if (!full && 16 * j >= n_valid) break;  // (a half tile's other columns were never computed)
      __m512i v = rq16_fused(_mm512_sub_epi32(_mm512_loadu_si512(tile + i * NR + 16 * j), cterm[j]), rq[i]);
      if constexpr (Clamp) v = _mm512_min_epi32(_mm512_max_epi32(v, lo), hi);
      if (full)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(c + i * ldc + 16 * j), _mm512_cvtsepi32_epi8(v));
      else
        _mm512_mask_cvtsepi32_storeu_epi8(c + i * ldc + 16 * j, mk[j], v);
    }
  }
}

/// finalize_tile_rq out of line, for gemm_s8_impl: inlined there, GCC kept the tile in registers
/// and spilled the k loop (1024^3 0.93 -> 0.66 of dnnl_gemm_u8s8s32); the slab path's
/// (gemm_s8_offsets_impl) ran 1-4 % slower out of line (ResNet-50's 3x3 layers, AMD Zen 5).
template <int NR, bool Clamp>
__attribute__((noinline)) void finalize_tile_rq_apart(const int32_t* tile, const s8_rq_row* rq, int m_valid,
                                                      int n_valid, int8_t* c, ptrdiff_t ldc, int32_t act_min,
                                                      int32_t act_max, const int32_t* azp_colsum) {
  finalize_tile_rq<NR, Clamp>(tile, rq, m_valid, n_valid, c, ldc, act_min, act_max, azp_colsum);
}

#endif

inline bool aligned4(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 3u) == 0; }  // null too

/// Operands packed ahead of the call (pack_a_s8_once / pack_b_s8_once): null for "pack per
/// call". a: [ int32 rowsum[Mp] | u8 panels Mp x kq ], b: [ int32 colsum[Np] | s8 panels kq x Np ]
/// (Mp, Np: M, N rounded up to MR, NR; kq: K rounded up to 4).
struct s8_prepacked {
  const uint8_t* a = nullptr;
  const uint8_t* b = nullptr;
};

/// Shared int8 driver; Out is int32_t (raw accumulators) or int8_t (requantized).
/// ChannelRows: bias and requantization are indexed by row m (conv: weights are A, output
/// channel = row); otherwise by column n. An operand of `pre` is read from its packed form (its
/// raw pointer may then be null) and never packed here.
template <class Tiling, class Out, bool ChannelRows = false>
inline status gemm_s8_impl(int M, int N, int K, const int8_t* A, int lda, const int8_t* B, int ldb,
                           const int32_t* bias, Out* C, int ldc, int32_t a_zp, int32_t b_zp,
                           const ref::gemm_s8_params* p, void* workspace, size_t workspace_bytes,
                           s8_prepacked pre = {}) {
  constexpr int MR = Tiling::mr, NR = Tiling::nr, MC = Tiling::mc, NC = Tiling::nc;
  // a prepacked operand stands in for its raw matrix in the argument checks
  if (const status s = ref::detail::check_gemm(M, N, K, pre.a != nullptr ? pre.a : static_cast<const void*>(A),
                                               pre.a != nullptr ? K : lda,
                                               pre.b != nullptr ? pre.b : static_cast<const void*>(B),
                                               pre.b != nullptr ? N : ldb, C, ldc);
      s != status::ok)
    return s;
  if (a_zp < -128 || a_zp > 127 || b_zp < -128 || b_zp > 127) return status::bad_quant_param;
  if (p != nullptr)
    if (const status s = ref::check_params(*p, ChannelRows ? M : N); s != status::ok) return s;
  if (M == 0 || N == 0) return status::ok;
  if (workspace == nullptr) return status::null_pointer;
  if (!aligned4(workspace) || !aligned4(pre.a) || !aligned4(pre.b)) return status::bad_size;
  if (workspace_bytes < Tiling::workspace_bytes(K)) return status::scratch_too_small;

  // [B block | A block | row sums | column sums]: on a 64-byte-aligned workspace every B panel
  // (kq NR bytes) and the A block (after the B block) start on a cache line, so no 64-byte B load
  // of the micro-kernel spans two lines (with the sums first, MC = 132 put them 16 bytes off a
  // line: 64^3 int32 output 1.62-1.66 -> 1.71-1.76 of dnnl_gemm_u8s8s32 so, AMD Zen 5)
  const auto kq = static_cast<ptrdiff_t>(round_up_to_tile<4>(K));
  constexpr int AB = Tiling::a_bytes;
  const auto m_pad = static_cast<ptrdiff_t>(round_up_to_tile<MR>(M)), n_pad = static_cast<ptrdiff_t>(round_up_to_tile<NR>(N));
  // With more than two MC blocks of A and B wider than NC, B is one block (all N columns, packed
  // once, or prepacked) and each A block runs over all of it, where NC-column blocks of B were
  // meant to stay in L2 for every A block: A is packed once instead of N / NC times and each
  // block's C rows are written whole; B streams from L3 as fast. Only where the workspace holds
  // all of B packed (the static one, sized for K = kmax, up to N = kmax (MC + NC) / K - MC or so).
  // int32 output / dnnl_gemm_u8s8s32, medians of 21 rounds, 6 processes of each build alternated
  // on one vCPU (AMD Zen 5): 2048x2048x512 0.92-0.95 -> 1.00-1.01, 1024x2048x1024 0.93-0.96 ->
  // 0.96-0.98, 1024x4096x256 0.82-0.86 -> 0.86-0.88; 1024^3 unchanged (0.99-1.03 both); with two
  // blocks (M = 200, not pinned) 2 % slower, so not there.
  const bool whole_b = M > 2 * MC && N > NC && (pre.b != nullptr || workspace_bytes >= Tiling::whole_b_workspace_bytes(K, N));
  const int ncb = whole_b ? N : NC;
  auto* bp = static_cast<int8_t*>(workspace);
  auto* ap = reinterpret_cast<uint8_t*>(bp + kq * (whole_b && pre.b == nullptr ? n_pad : NC));  // B packed here
  auto* rowsum = reinterpret_cast<int32_t*>(ap + kq * MC * AB);
  int32_t* colsum = rowsum + MC;
  const int32_t a_zp_u = a_zp + 128;
  const uint32_t k_term = static_cast<uint32_t>(K) * static_cast<uint32_t>(a_zp_u) * static_cast<uint32_t>(b_zp);
  const auto* a_sums = reinterpret_cast<const int32_t*>(pre.a);
  const auto* b_sums = reinterpret_cast<const int32_t*>(pre.b);

  for (int jc = 0; jc < N; jc += ncb) {
    const int nc = min(ncb, N - jc);
    const int8_t* bblk = bp;
    const int32_t* cs = colsum;
    if (pre.b != nullptr) {
      bblk = reinterpret_cast<const int8_t*>(pre.b + 4 * n_pad) + jc * kq;
      cs = b_sums + jc;
    } else {
      pack_b_s8<NR>(K, nc, B + jc, ldb, bp, colsum);
    }
    for (int ic = 0; ic < M; ic += MC) {
      const int mc = min(MC, M - ic);
      const uint8_t* ablk = ap;
      const int32_t* rs = rowsum;
      if (pre.a != nullptr) {
        ablk = pre.a + 4 * m_pad + ic * kq * AB;
        rs = a_sums + ic;
      } else if (jc == 0 || M > MC) {
        // one A block (M <= MC) is packed once and serves every B block: the packs of B write
        // before it, the A block and its row sums stay (int32 output / dnnl_gemm_u8s8s32, four
        // alternated processes on one vCPU, AMD Zen 5: 64x3136x576 0.974 -> 0.994, 128x784x1152
        // 0.978 -> 0.998)
        pack_a_s8<MR, AB>(mc, K, A + static_cast<ptrdiff_t>(ic) * lda, lda, ap, rowsum);
      }
#if CTNN_KERNELS_VNNI
      // int8 output requantized per row (one multiplier, or per row: ChannelRows) with no
      // per-column bias: each row's correction, requantization and zero point as one rounding
      // (make_rq_fused; the column term a_zp_u x colsum subtracted first), row tiles whose rows
      // all qualify through finalize_tile_rq
      s8_rq_row rq_rows[MC];
      bool rq_fast[(MC + MR - 1) / MR] = {};
      if constexpr (!is_same_v<Out, int32_t> && NR % 16 == 0) {
        if ((ChannelRows || !p->per_channel) && (ChannelRows || bias == nullptr))
          for (int ir = 0; ir < mc; ir += MR) {
            bool all = true;
            for (int i = ir; i < min(mc, ir + MR); ++i) {
              const int row = ic + i, q = p->per_channel ? row : 0;
              const int64_t rt = int64_t{K} * a_zp_u * b_zp - int64_t{b_zp} * rs[i] +
                                 ((ChannelRows && bias != nullptr) ? bias[row] : 0);
              all = all && make_rq_fused(rt, 2 * 128 * 255 * static_cast<int64_t>(kq), p->multiplier[q], p->shift[q],
                                         p->out_zp, rq_rows[i]);
            }
            rq_fast[ir / MR] = all;
          }
      }
#endif
      for (int jr = 0; jr < nc; jr += NR) {
        const int n_valid = min(NR, nc - jr);
#if CTNN_KERNELS_VNNI || CTNN_KERNELS_AVX2_S8
        // the lane finalize_row subtracts a_zp_u x colsum: scaled once per panel, for all its rows
        // (on the stack: a prepacked B's sums may be the caller's, or lie in this workspace)
        alignas(64) int32_t azp_cs[NR];
        if constexpr (NR % 8 == 0)
          for (int j = 0; j < n_valid; ++j)
            azp_cs[j] = static_cast<int32_t>(static_cast<uint32_t>(a_zp_u) * static_cast<uint32_t>(cs[jr + j]));
#endif
        for (int ir = 0; ir < mc; ir += MR) {
          const int m_valid = min(MR, mc - ir);
#if CTNN_KERNELS_VNNI
          // int32 output finished from the registers, no round trip through a tile (raw int32 GEMM
          // / raw dnnl_gemm_u8s8s32, AMD Zen 5: N 64 1.40 -> 1.60, 128 1.10 -> 1.18, 256 0.96 ->
          // 0.99); int8 output lost 4-8 % so (its requantization's registers beside the 24 sums)
          if constexpr (NR % 16 == 0 && is_same_v<Out, int32_t>) {
            micro_s8_rows_epi<MR, NR>(m_valid, n_valid, static_cast<int>(kq), ablk + ir * kq * AB, bblk + jr * kq,
                                      [&](int i, const __m512i (&v)[NR / 16]) {
                                        if (i >= m_valid) return false;
                                        const int row = ic + ir + i;
                                        const finalize16<Out, ChannelRows> f(rs[ir + i], k_term, b_zp, bias, row, p);
                                        Out* crow = C + static_cast<ptrdiff_t>(row) * ldc + jc + jr;
                                        if (n_valid == NR) {
#pragma GCC unroll 8
                                          for (int j = 0; j < NR / 16; ++j)
                                            f.template vec<true>(v[j], 0, azp_cs + 16 * j, bias, jc + jr + 16 * j, p,
                                                                 crow + 16 * j);
                                          return true;
                                        }
                                        for (int j = 0; j < NR / 16 && 16 * j < n_valid; ++j)
                                          f.vec(v[j], lane_mask16(n_valid - 16 * j), azp_cs + 16 * j, bias,
                                                jc + jr + 16 * j, p, crow + 16 * j);
                                        return true;
                                      });
            continue;
          }
#endif
          int32_t tile[MR][NR];
          micro_s8_rows<MR, NR>(m_valid, static_cast<int>(kq), ablk + ir * kq * AB, bblk + jr * kq, tile, n_valid);
#if CTNN_KERNELS_VNNI
          if constexpr (!is_same_v<Out, int32_t> && NR % 16 == 0) {
            if (rq_fast[ir / MR]) {
              Out* c0 = C + static_cast<ptrdiff_t>(ic + ir) * ldc + jc + jr;
              if (p->act_min > -128 || p->act_max < 127)
                finalize_tile_rq_apart<NR, true>(&tile[0][0], rq_rows + ir, m_valid, n_valid, c0, ldc, p->act_min,
                                                 p->act_max, azp_cs);
              else
                finalize_tile_rq_apart<NR, false>(&tile[0][0], rq_rows + ir, m_valid, n_valid, c0, ldc, p->act_min,
                                                  p->act_max, azp_cs);
              continue;
            }
          }
#endif
          for (int i = 0; i < m_valid; ++i) {
            Out* crow = C + static_cast<ptrdiff_t>(ic + ir + i) * ldc + jc + jr;
#if CTNN_KERNELS_VNNI || CTNN_KERNELS_AVX2_S8
            if constexpr (NR % (CTNN_KERNELS_VNNI ? 16 : 8) == 0) {  // 16 or 8 lanes at a time, the edge masked
              finalize_row<NR, Out, ChannelRows>(tile[i], rs[ir + i], azp_cs, k_term, b_zp, bias, ic + ir + i,
                                                 jc + jr, p, crow, n_valid);
              continue;
            }
#endif
            for (int j = 0; j < n_valid; ++j) {
              const int ch = ChannelRows ? ic + ir + i : jc + jr + j;
              const int32_t acc = corrected(tile[i][j], rs[ir + i], cs[jr + j], k_term, a_zp_u, b_zp,
                                            bias != nullptr ? bias[ch] : 0);
              if constexpr (is_same_v<Out, int32_t>)
                crow[j] = acc;
              else
                crow[j] = ref::requantize(acc, ch, *p);
            }
          }
        }
      }
    }
  }
  return status::ok;
}

#if CTNN_KERNELS_VNNI
/// Raw int32 tile of an implicit im2col (conv2d_s8's slab path): out[i][j] = the sum over kg
/// groups g of row i's 4 s8 values at ap[g][i] times column j's 4 u8 values at
/// b + 4 (boff[g] + j), wrapping. The u8 operand is the activations (x + 128), loaded straight
/// from the slab; the s8 one the weights, broadcast. The first Rows rows of the MR-row panel.
template <int MR, int NR, int Rows>
inline void micro_s8_offsets(int kg, const int8_t* ap, const uint8_t* b, const int32_t* boff, int32_t (&out)[MR][NR],
                             int n_valid) {
  const auto b_row = [b, boff](int g) { return b + static_cast<ptrdiff_t>(boff[g]) * 4; };
  s8_col_tier<NR>(n_valid, [&]<int Cols>() { micro_dpbusd<MR, NR, Rows, true, Cols>(kg, ap, b_row, out); });
}

/// Bytes of A's row panels that one column sweep of gemm_s8_offsets_impl re-reads: blocks of
/// rows this large stay in L2 while every NR-column tile passes over them (ResNet-18's 512 x 4608
/// weights are 2.4 MB: swept per column tile they came from L3 twice).
inline constexpr int s8_offsets_a_block_bytes = 256 * 1024;
/// Rows of one such block at most: the rows' requantization fields (s8_rq_row) live on the stack.
inline constexpr int s8_offsets_block_rows = 264;

/// int8 GEMM of conv2d_s8's slab and 1x1 (cells) paths, requantized per row (output channel) m:
/// C[m][n] = requantize(sum_g A[m][g] . B_g[n] - b_zp_u rowsum[m] + bias[m]) for N columns
/// (round_up(N, NR) read from B, N written) where a_packed = [ int32 rowsum[Mp] | s8 MR-row
/// panels of kg 4-value groups ] and B's group g of column n is the 4 u8 values at
/// b + 4 (boff[g] + n); b_zp_u = B's zero point + 128 (B is x + 128), so that (x - zp) w sums to
/// A . B - b_zp_u rowsum. A's own zero point is 0 (no column sums). Edge row panels run on 4 or 8
/// rows (MR = 12). The raw tile of a row panel whose rows all pass make_s8_rq_row is requantized
/// by finalize_tile_rq (one rounding a value), any other row panel's by finalize_row.
template <class Tiling>
inline void gemm_s8_offsets_impl(int M, int N, int kg, const uint8_t* a_packed, const uint8_t* b, const int32_t* boff,
                                 const int32_t* bias, int32_t b_zp_u, const ref::gemm_s8_params& p, int8_t* C,
                                 int ldc) {
  constexpr int MR = Tiling::mr, NR = Tiling::nr;
  constexpr int block_rows = s8_offsets_block_rows / MR * MR;
  static_assert(block_rows >= MR, "gemm_s8_offsets_impl: a block holds a row panel");
  const auto mp = static_cast<ptrdiff_t>(round_up_to_tile<MR>(M));
  const auto* rowsum = reinterpret_cast<const int32_t*>(a_packed);
  const auto* panels = reinterpret_cast<const int8_t*>(rowsum + mp);
  const int mb = min(block_rows, max(MR, s8_offsets_a_block_bytes / max(1, kg * 4) / MR * MR));
  // (the clamp's bounds as scalars: two vectors live across the tiles made GCC spill a B vector
  // of the micro-kernel, 512 x 7 x 7 3x3 0.47 -> 0.70 ms)
  const bool clamp = p.act_min > -128 || p.act_max < 127;
  s8_rq_row rq[block_rows];
  bool fast[block_rows / MR];
  for (int m0 = 0; m0 < M; m0 += mb) {
    const int m1 = min(M, m0 + mb);
    for (int ir = m0; ir < m1; ir += MR) {
      bool all = true;
      for (int i = ir; i < min(m1, ir + MR); ++i) {
        const int q = p.per_channel ? i : 0;
        all = make_s8_rq_row(rowsum[i], bias != nullptr ? bias[i] : 0, b_zp_u, int64_t{kg} * 4, p.multiplier[q],
                             p.shift[q], p.out_zp, rq[i - m0]) &&
              all;
      }
      fast[(ir - m0) / MR] = all;
    }
    for (int jr = 0; jr < N; jr += NR) {
      const int n_valid = min(NR, N - jr);
      const uint8_t* bj = b + static_cast<ptrdiff_t>(jr) * 4;
      for (int ir = m0; ir < m1; ir += MR) {
        const int m_valid = min(MR, M - ir);
        const int8_t* ap = panels + static_cast<ptrdiff_t>(ir) * kg * 4;
        int8_t* cm = C + static_cast<ptrdiff_t>(ir) * ldc + jr;
        int32_t tile[MR][NR];
        s8_row_tier<MR>(m_valid, [&]<int Rows>() { micro_s8_offsets<MR, NR, Rows>(kg, ap, bj, boff, tile, n_valid); });
        if (fast[(ir - m0) / MR]) {
          if (clamp)
            finalize_tile_rq<NR, true>(&tile[0][0], rq + (ir - m0), m_valid, n_valid, cm, ldc, p.act_min, p.act_max);
          else
            finalize_tile_rq<NR, false>(&tile[0][0], rq + (ir - m0), m_valid, n_valid, cm, ldc, p.act_min, p.act_max);
          continue;
        }
        for (int i = 0; i < m_valid; ++i)
          finalize_row<NR, int8_t, true>(tile[i], rowsum[ir + i], nullptr, 0u, b_zp_u, bias, ir + i, jr, &p,
                                         cm + static_cast<ptrdiff_t>(i) * ldc, n_valid);
      }
    }
  }
}
#endif

/// A block is packed when the B block has at least this many NR-panels (or is a whole NC block
/// of fewer): below, reading A's rows in place measured as fast or faster (AVX-512, NR = 32:
/// N = 49 1.6x, 128^3 1.1x), and packing costs about one micro-tile's time per A panel.
inline constexpr int f32_pack_a_min_panels = 32;
/// With B read in place, K runs in one block when A has at most this many floats (640 KiB, A
/// stays in L2): 64x3136x576 242 -> 251, 128x784x1152 237 -> 251 GFLOP/s (AVX-512, medians of 4).
inline constexpr int64_t f32_whole_k_max_elems = 160 * 1024;
/// ... but not where B's rows lie a multiple of this many floats apart (4 KiB, an L1 way: every
/// row of a panel in the same sets). In KC blocks / whole, time: 128x1024x1024 0.71,
/// 128x1024x800 0.96, 100x1024x1000 0.93-0.98 (AMD Zen 5; 128x800x1024, where only A's rows
/// alias, as fast either way).
inline constexpr int f32_whole_k_alias_ldb = 1024;
/// Floats of B (kc x columns) over which gemm_f32_impl runs every row tile before the next
/// columns, where B is read in place (32 KiB: in L1).
inline constexpr int f32_group_floats = 8192;
/// B packed by the call (not b_pre) in panels of more than f32_group_floats (kc x NR; AVX-512
/// KC = 512: 64 KiB): each row tile runs this many floats of panels (256 KiB, in L2 beside the
/// A block) before the next row tile, where it ran one panel. A panel over L1's size came from L2
/// for every row tile anyway; now consecutive tiles share their A panel and write adjacent runs
/// of the same C rows (which of the two gains was not measured apart: a tile streams more than
/// L1 holds, so the A panel may not survive in L1 from one tile to the next).
/// 1024^3 0.972 -> 0.981 of dnnl_sgemm (11 of 11 alternated process pairs), 512x49x4608 and
/// 2048x49x512 +1.2 %, 512^3 unchanged (groups of 2 panels 0.979, 8 0.978; AMD Zen 5).
/// b_pre keeps one panel: the first row tile prefetches the next panel from memory, which needs
/// the other row tiles' time to arrive.
inline constexpr int f32_packed_group_floats = 64 * 1024;
/// With B read in place and its block (kc x N) at most this many floats (1 MiB: L2), each row
/// tile sweeps all N columns before the next (one column block): every output row is written in
/// one run, where groups wrote 2 KiB of each of 96 rows in turn (MobileNetV2's 16x112x112 -> 96
/// pointwise layer as a GEMM, 96x12544x16: with the prefetch below 1.1 -> 1.4 of dnnl_sgemm;
/// 144x3136x24 0.8 -> 0.95; Intel Xeon, medians of 21 interleaved rounds).
inline constexpr int64_t f32_row_sweep_max_floats = 256 * 1024;
/// B's rows at least this many floats apart: a page (4 KiB) a row, where the hardware prefetcher
/// follows none of them. Two rules start there:
/// - B read in place is prefetched two panels ahead in each row (24x3136x144 0.6 -> 0.85 of
///   dnnl_sgemm; square GEMMs of 512 B or 1 KiB rows unchanged or 1-3 % slower with it, so not
///   below). AVX-512 only: an AVX2 build lost 10 % on 64x3136x576 with it (Intel Xeon).
/// - With K in one block (whole_k), the row tiles take up to f32_wide_rows rows (AVX-512: 14),
///   so fewer tiles read each B panel from L2. 64x3136x576 on AMD Zen 5, 14-row / 12-row tiles:
///   3-4 % faster (medians of processes grouped by the host's state: 197 / 192 and 168 / 159
///   GFLOP/s); slower where the rows are closer: ldb 784 (64x784x1152 2-8 %, 128x784x1152
///   0-3 %), and at 64^3, 96^3, 128^3 1-3 %.
inline constexpr ptrdiff_t f32_page_apart_ldb = 1024;
/// B block is packed when at least this many MC-blocks of A reuse it (AVX-512: 512 and 1024
/// rows, N = 49; in place measured faster for 64-256 rows over N = 3136, e.g. 256x3136x64 1.1x),
/// or, on an Intel AVX-512 host (f32_intel_blocking_host), two of at least
/// f32_pack_b_two_blocks_min_mc rows with K at least f32_pack_b_two_blocks_min_k: 256^3 0.86 ->
/// 0.94 of dnnl_sgemm, 200^3 0.79 -> 0.93, 160x3136x96 0.70 -> 0.83, 288x1024x288 0.78 -> 1.08, 256x3136x128 0.72 ->
/// 0.87 (medians of 31 interleaved rounds, Intel Xeon); K = 32 or 64 with two blocks kept in
/// place (192x784x32, 256x3136x64: as fast or faster in place); one block (M <= MC, 128^3 0.88
/// in place, 0.82 packed) stays in place. Two blocks of the AVX2 tiling's MC = 96 (128^3) ran
/// 10-14 % slower packed (Intel Xeon and AMD Zen 5, x86-64-v3 builds), hence the MC bound. On an
/// AMD Zen 5 core (AVX-512) every two-block shape ran faster in place, time in place / packed:
/// 256^3 0.94-0.95, 200^3 0.97, 160x3136x96 0.84, 288x1024x288 0.92-0.94, 256x3136x128 0.94,
/// 256x196x2304 0.95 (medians of 16-24 interleaved rounds, one process each).
inline constexpr int f32_pack_b_min_blocks = 3;
inline constexpr int f32_pack_b_two_blocks_min_mc = 144, f32_pack_b_two_blocks_min_k = 96;
/// B read in place over K > KC by one MC block of at least this many rows and at least
/// f32_panel_pack_min_n columns is packed one NR panel at a time, just before the row tiles that
/// use it, the next panel's rows prefetched as it is packed (pack_b_f32_panel_ahead): K blocks
/// of KC, the panel (kc x NR) contiguous in L1. Read in place over all of K (whole_k), each tile
/// took its panel's rows, a page apart, from L2 (64x3136x576 0.76 -> 0.83 of dnnl_sgemm,
/// 64x784x1152 0.74 -> 0.81, 128x784x1152 0.76 -> 0.90; slower with 24 rows or 196 columns:
/// 24x3136x288 0.84 -> 0.78, 64x196x384 0.82 -> 0.76; Intel Xeon, medians of 21-31 rounds).
/// AVX-512 on Intel only (f32_intel_blocking_host): on an AMD Zen 5 core 64x3136x576 ran 9-19 %
/// faster read in place, and an AVX2 build 13 % faster (Zen 5; on the Xeon it lost too).
inline constexpr int f32_panel_pack_min_m = 48, f32_panel_pack_min_n = 512;
/// f32_intel_blocking_host forced on (1) or off (0) instead of chosen by the host (-1): the
/// tests run both ways on every machine and build.
inline int f32_intel_blocking_force = -1;
/// True where the blocking choices measured faster on an Intel Xeon and slower on an AMD Zen 5
/// core apply (an AVX-512 build on a non-AMD host): B packed panel by panel (panel_pack) and B
/// packed for two MC blocks (f32_pack_b_two_blocks_min_mc).
inline bool f32_intel_blocking_host() {
  if (f32_intel_blocking_force >= 0) return f32_intel_blocking_force != 0;
#if CTNN_KERNELS_X86
  return simd::f32_lanes >= 16 && !x86::vendor_amd();
#else
  return false;
#endif
}

/// Float driver. Packing is skipped where it would not pay:
/// - A (MC x KC) is packed only when the B block has f32_pack_a_min_panels NR-panels or more;
///   with fewer (a 7x7 or 14x14 output: N = 49, 196) the micro-kernel reads A's rows in place
///   (the rows of a conv's weights are contiguous). An edge panel (rows < MR) is packed anyway.
/// - B (KC x NC) is packed only when f32_pack_b_min_blocks MC-blocks of A or more reuse it, or
///   two with K >= f32_pack_b_two_blocks_min_k on an Intel host; otherwise (64-256 output
///   channels over a big im2col matrix, a pointwise layer's input) B is read in place, each
///   KC x NR panel reused from cache by the MC / MR tiles of its column, and only an edge panel
///   (columns < NR) is packed; in place over K > KC with f32_panel_pack_min_m..MC rows and
///   f32_panel_pack_min_n columns or more, each panel is packed just before its row tiles
///   (panel_pack, Intel hosts); in place and within f32_row_sweep_max_floats, each row tile sweeps
///   all columns (row_sweep); in place, K in one block (whole_k) and B's rows a page
///   apart (f32_page_apart_ldb), row tiles of up to f32_wide_rows rows.
/// act: null, or {lo, hi}: C clamped to [lo, hi] as each tile is finished (a fused activation).
/// b_pre: B packed once, read instead of packing B (B is then only checked, never read), or
/// null: per KC block of K in order, pack_b_f32<NR>'s NR-column panels of all N columns (zero
/// past N), block pc at b_pre + pc round_up(N, NR).
template <class Tiling, bool BiasRows>
inline status gemm_f32_impl(int M, int N, int K, const float* A, int lda, const float* B, int ldb, const float* bias,
                            float* C, int ldc, float* workspace, const float* act = nullptr,
                            const float* b_pre = nullptr) {
  constexpr int MR = Tiling::mr, NR = Tiling::nr, KC = Tiling::kc, MC = Tiling::mc, NC = Tiling::nc;
  if (const status s = ref::detail::check_gemm(M, N, K, A, lda, B, ldb, C, ldc); s != status::ok) return s;
  if (M == 0 || N == 0) return status::ok;
  if (K == 0) {  // C = bias
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        const float v = bias != nullptr ? bias[BiasRows ? m : n] : 0.0f;
        C[static_cast<ptrdiff_t>(m) * ldc + n] = act == nullptr ? v : clamp_f32(v, act[0], act[1]);
      }
    return status::ok;
  }
  if (workspace == nullptr) return status::null_pointer;
  float* ap = workspace;
  float* bp = workspace + static_cast<ptrdiff_t>(MC) * KC;
  using tiers = f32_row_tiers<MR>;
  static_assert(!tiers::split || 2 * tiers::t2 >= MR + tiers::t1, "gemm_f32: the row tail must fit two panels");
  // Row tiles. Balanced where every tile can have exact_min..MR rows: ceil(M / MR) tiles of
  // M / tiles or one more rows (64 = 4 x 11 + 2 x 10, 128 = 8 x 12 + 4 x 11 with MR = 12), all
  // read in place or packed without padding, and the tiles spread evenly over the MC blocks
  // (1024 rows: 8 blocks of 10-11 tiles). A tile of 8 rows ran at about 75 % of a 12-row one's
  // rate (Zen 5, 64x3136x576 with 4 x 12 + 2 x 8 rows: 0.92 of dnnl_sgemm, 60 rows: 1.05).
  // Otherwise (fewer rows, M < 60 with MR = 12) blocks of MC rows, each MR-row tiles and then
  // the rest: a tile of its rows' tier, or, where 1..MR/3 rows are left after a full tile, two
  // tiles of at most 2MR/3 rows (16 = 8 + 8, not 12 + 4: a 4-row tile does a third of the work
  // of a 12-row one at well under a third of its speed).
  constexpr int tpb = MC / MR;  // tiles of a block
  const int mr_tiles = (M + MR - 1) / MR;
  const bool mr_balanced = M / mr_tiles >= tiers::exact_min;
  constexpr bool prefetch_b_rows = simd::f32_lanes >= 16;  // f32_page_apart_ldb
  // A small GEMM (one K block, the balanced row tiles of one MC block, whole panels of B, too few
  // for packing A) runs its tiles straight, in the order and with the kernels the loops below
  // choose for it (B in place, each row tile sweeping the columns): same sums, without their
  // bookkeeping, which took about 10 % of a 32^3 GEMM (perf, AMD EPYC Zen 4; bench/README).
  if (b_pre == nullptr && K <= KC && mr_balanced && mr_tiles <= tpb && N % NR == 0 &&
      N / NR < min(f32_pack_a_min_panels, NC / NR) && static_cast<int64_t>(K) * N <= f32_row_sweep_max_floats) {
    const int rows = M / mr_tiles, extra = M % mr_tiles;
    const bool pf = prefetch_b_rows && ldb >= f32_page_apart_ldb;
    for (int t = 0, i0 = 0; t < mr_tiles; ++t) {
      const int m = rows + (t < extra ? 1 : 0);
      const float* at = A + static_cast<ptrdiff_t>(i0) * lda;
      float* ct = C + static_cast<ptrdiff_t>(i0) * ldc;
      // C (at most MC x NC) stays in L2: no C prefetch (PfC false)
      constexpr int rows_max = f32_wide_rows<MR, NR>;
      for (int jr = 0; jr < N; jr += NR) {
        const float* bias_j = bias == nullptr ? nullptr : bias + (BiasRows ? i0 : jr);
        if (pf)
          micro_f32_rows<MR, NR, NR, false, false, true, rows_max, false>(K, at, lda, B + jr, ldb, ct + jr, ldc, m, NR,
                                                                          false, bias_j, BiasRows, act, B + jr);
        else
          micro_f32_rows<MR, NR, NR, false, false, false, rows_max, false>(K, at, lda, B + jr, ldb, ct + jr, ldc, m,
                                                                           NR, false, bias_j, BiasRows, act);
      }
      i0 += m;
    }
    return status::ok;
  }
  const auto round_up_div = [](int a, int b) { return (a + b - 1) / b; };
  const int mr_blocks = mr_balanced ? round_up_div(mr_tiles, tpb) : round_up_div(M, MC);
  const bool pack_b = b_pre != nullptr || mr_blocks >= f32_pack_b_min_blocks ||
                      (MC >= f32_pack_b_two_blocks_min_mc && mr_blocks == 2 && K >= f32_pack_b_two_blocks_min_k &&
                       f32_intel_blocking_host());
  const auto np = static_cast<ptrdiff_t>(round_up_to_tile<NR>(N));  // a block of b_pre: kc x np
  // B in place over long K: packed panel by panel ahead of its row tiles (f32_panel_pack_min_m)
  const bool panel_pack = !pack_b && K > KC && M <= MC && M >= f32_panel_pack_min_m && N >= f32_panel_pack_min_n &&
                          f32_intel_blocking_host();
  // B in place and all of A small enough to stay in cache: each tile runs the whole K at once
  // (C written once instead of once per KC block), A read in place, its edge panels packed.
  // (The edge panels packed over all of K must fit the workspace: A's at ap, B's at bp.)
  const bool whole_k = !pack_b && !panel_pack && K > KC && static_cast<int64_t>(M) * K <= f32_whole_k_max_elems &&
                       2 * static_cast<int64_t>(MR) * K <= static_cast<int64_t>(MC) * KC &&
                       static_cast<int64_t>(NR) * K <= static_cast<int64_t>(KC) * NC &&
                       ldb % f32_whole_k_alias_ldb != 0;
  // Wide tiles (f32_page_apart_ldb): with whole_k and B's rows a page or more apart, tiles of
  // MR..f32_wide_rows rows, all in place (64 = 4 x 13 + 12 with MR = 12: five tiles, not six)
  constexpr int wide_rows = f32_wide_rows<MR, NR>;
  const int wide_tiles = (M + wide_rows - 1) / wide_rows;
  const bool wide = wide_rows > MR && whole_k && ldb >= f32_page_apart_ldb && M / wide_tiles >= MR;
  const int n_tiles = wide ? wide_tiles : mr_tiles;
  const bool balanced = wide || mr_balanced;
  const int m_blocks = wide ? round_up_div(n_tiles, tpb) : mr_blocks;
  const int bal_rows = M / n_tiles, bal_extra = M % n_tiles;  // the first bal_extra tiles: one more row
  const auto bal_start = [&](int t) { return t * bal_rows + min(t, bal_extra); };
  // Block blk's tiles: tile t of the block starts at row starts[t], the block ends at starts[count].
  const auto block_tiles = [&](int blk, int (&starts)[tpb + 1]) {
    if (balanced) {
      const int t0 = static_cast<int>(static_cast<int64_t>(blk) * n_tiles / m_blocks);
      const int t1 = static_cast<int>(static_cast<int64_t>(blk + 1) * n_tiles / m_blocks);
      for (int t = t0; t <= t1; ++t) starts[t - t0] = bal_start(t);
      return t1 - t0;
    }
    const int ic = blk * MC, mc = min(MC, M - ic), rem = mc % MR;
    const bool tail = tiers::split && rem > 0 && rem <= tiers::t1 && mc > MR;
    const int full = mc / MR - (tail ? 1 : 0);
    int count = 0;
    for (; count <= full; ++count) starts[count] = ic + count * MR;
    if (tail) starts[count++] = ic + full * MR + tiers::t2;
    if (starts[count - 1] < ic + mc) starts[count++] = ic + mc;
    return count - 1;
  };
  const int kc_step = whole_k ? K : KC;
  // B in place and small enough for L2: one column block, each row tile sweeping all of it
  const bool row_sweep = !pack_b && !panel_pack && !whole_k && static_cast<int64_t>(min(K, KC)) * N <= f32_row_sweep_max_floats;
  const int nc_step = row_sweep ? N : NC;
  for (int jc = 0; jc < N; jc += nc_step) {
    const int nc = min(nc_step, N - jc);
    const bool pack_a = !whole_k && (nc + NR - 1) / NR >= min(f32_pack_a_min_panels, NC / NR);
    for (int pc = 0; pc < K; pc += kc_step) {
      const int kc = min(kc_step, K - pc);
      const bool first = pc == 0, last = pc + kc == K;
      const float* bblk = B + static_cast<ptrdiff_t>(pc) * ldb + jc;
      // Columns in groups of panels, every row tile over a group before the next: with B packed
      // in panels over L1's size, f32_packed_group_floats (one A panel for consecutive tiles); one
      // panel (the B panel reused from L1 by all row tiles) where B is packed otherwise
      // (b_pre too) or K blocks are long;
      // with B read in place and a short kc, as many panels as keep kc x group in 32 KiB, so
      // that each row tile writes runs of its C rows instead of every row of C being written
      // at once (MobileNetV2's 24x56x56 -> 144 pointwise layer, 1.8 MB of output: 0.23 ->
      // 0.18 ms, Intel Xeon, interleaved runs).
      const auto panels_within = [&](int floats) { return max(NR, (floats / kc) / NR * NR); };  // as columns
      const bool packed_groups = pack_b && b_pre == nullptr && kc * NR > f32_group_floats;
      const int ng = packed_groups             ? panels_within(f32_packed_group_floats)
                     : (pack_b || panel_pack) ? NR
                     : row_sweep              ? nc
                                              : panels_within(f32_group_floats);
      // B packed ahead: of B packed in groups of whole panels, only the first group is packed
      // here; the first MC block's tiles over each group pack the next one as they compute
      // (f32_b_pack_job), which hides the pack of B from memory in the FMA stream
      const bool pack_ahead = packed_groups && nc % NR == 0 && nc > ng;
      if (pack_b && b_pre == nullptr) pack_b_f32<NR>(kc, pack_ahead ? ng : nc, bblk, ldb, bp);
      const float* bpb = b_pre != nullptr ? b_pre + static_cast<ptrdiff_t>(pc) * np + static_cast<ptrdiff_t>(jc) * kc : bp;
      for (int blk = 0; blk < m_blocks; ++blk) {
        int starts[tpb + 1] = {};
        const int nt = block_tiles(blk, starts), ic = starts[0];
        const float* ablk = A + static_cast<ptrdiff_t>(ic) * lda + pc;
        // Each tile's A panel: packed (all of them with pack_a, at their place in the block;
        // otherwise the tiles of fewer than exact_min rows, one after another) or in place.
        const float* apan[tpb] = {};
        bool apacked[tpb] = {};
        // one A block over one K block, packed whole (pack_a) by the first column block, serves
        // the next ones as it is: B's packs write at bp, past it (64x3136x256 / dnnl_sgemm, four
        // alternated processes on one vCPU, AMD Zen 5: 0.943 -> 0.956)
        const bool a_kept = pack_a && jc > 0 && m_blocks == 1 && kc == K;
        for (int t = 0, slot = 0; t < nt; ++t) {
          const int rows = starts[t + 1] - starts[t];
          const float* arow = ablk + static_cast<ptrdiff_t>(starts[t] - ic) * lda;
          apacked[t] = pack_a || rows < tiers::exact_min;
          if (!apacked[t]) {
            apan[t] = arow;
            continue;
          }
          float* dst = ap + static_cast<ptrdiff_t>(pack_a ? t : slot++) * MR * kc;
          // the next tile's rows prefetched as this panel's end nears (starts[] holds tpb + 1)
          const bool more = t + 1 < nt;
          if (!a_kept)
            pack_a_f32_panel<MR>(rows, tiers::rows_read(rows), kc, arow, lda, dst,
                                 more ? arow + static_cast<ptrdiff_t>(rows) * lda : nullptr,
                                 more ? starts[min(t + 2, tpb)] - starts[t + 1] : 0);
          apan[t] = dst;
        }
        // One micro-tile: row tile t, columns jr; job: B packed ahead as it runs (whole panels).
        const auto tile = [&](int t, int jr, f32_b_pack_job* job = nullptr) {
          const int ir = starts[t] - ic, m_valid = starts[t + 1] - starts[t], n_valid = min(NR, nc - jr);
          const float* bias_j = (last && bias != nullptr) ? (BiasRows ? bias + ic + ir : bias + jc + jr) : nullptr;
          const float* act_j = last ? act : nullptr;
          // B panel: packed block, in place, or (panel_pack, in-place edge panel) packed alone at bp.
          const bool b_packed = pack_b || panel_pack || n_valid < NR;
          const float* bpan = pack_b ? bpb + static_cast<ptrdiff_t>(jr) * kc : b_packed ? bp : bblk + jr;
          // B packed once is streamed from memory: the first tile of a panel prefetches the next;
          // B's long rows read in place: every tile prefetches its rows two panels on
          const float* pf = (b_pre != nullptr && t == 0 && jr + NR < nc) ? bpan + static_cast<ptrdiff_t>(NR) * kc
                            : (prefetch_b_rows && !b_packed && ldb >= f32_page_apart_ldb) ? bpan : nullptr;
          float* ct = C + static_cast<ptrdiff_t>(ic + ir) * ldc + jc + jr;
          if (job != nullptr) {  // pack_ahead: B packed, no pf, n_valid == NR
            if (apacked[t])
              micro_f32_rows<MR, NR, NR, true, true, false, MR, true, true>(
                  kc, apan[t], lda, bpan, ldb, ct, ldc, m_valid, n_valid, !first, bias_j, BiasRows, act_j, nullptr, job);
            else
              micro_f32_rows<MR, NR, NR, false, true, false, MR, true, true>(
                  kc, apan[t], lda, bpan, ldb, ct, ldc, m_valid, n_valid, !first, bias_j, BiasRows, act_j, nullptr, job);
          } else if (apacked[t])
            micro_f32_tile_b<MR, NR, true>(b_packed, kc, apan[t], lda, bpan, ldb, ct, ldc, m_valid, n_valid, !first,
                                           bias_j, BiasRows, act_j, pf);
          else
            micro_f32_tile_b<MR, NR, false>(b_packed, kc, apan[t], lda, bpan, ldb, ct, ldc, m_valid, n_valid, !first,
                                            bias_j, BiasRows, act_j, pf);
        };
        for (int jg = 0; jg < nc; jg += ng) {
          const int jg_end = min(nc, jg + ng), edge = (jg_end - jg) % NR;
          if (panel_pack && edge == 0)
            pack_b_f32_panel_ahead<NR>(kc, bblk + jg, ldb, bp);
          else if (!pack_b && edge != 0)
            pack_b_f32<NR>(kc, edge, bblk + (jg_end - edge), ldb, bp);
          // pack_ahead: the first block's tiles over this group pack the next, in equal shares
          const int ahead = pack_ahead && blk == 0 ? min(ng, nc - jg_end) : 0;
          if (ahead > 0) {
            const int panels = ahead / NR, segs = panels * kc, tiles = nt * ((jg_end - jg) / NR);
            const int share = (segs + tiles - 1) / tiles;
            f32_b_pack_job job{bblk + jg_end, ldb, bp + static_cast<ptrdiff_t>(jg_end) * kc, kc, panels, 0, 0};
            for (int t = 0, i = 0; t < nt; ++t)
              for (int jr = jg; jr < jg_end; jr += NR, ++i) {
                job.seg = min(segs, i * share);
                job.end = min(segs, (i + 1) * share);
                tile(t, jr, &job);
              }
            continue;
          }
          for (int t = 0; t < nt; ++t)
            for (int jr = jg; jr < jg_end; jr += NR) tile(t, jr);
        }
      }
    }
  }
  return status::ok;
}
/// C tile (+)= A panel . B rows where B's row k is the NR floats at b + boff[k]: the implicit
/// im2col of a stride-1 convolution, whose B rows are shifted windows of one padded input slab.
/// PA as in micro_f32; every NR column is stored, the first m_valid of the Rows rows.
template <int MR, int NR, int Rows, bool PA>
inline void micro_f32_offsets(int kc, const float* __restrict a, ptrdiff_t lda, const float* __restrict b,
                              const int32_t* __restrict boff, float* c, int ldc, int m_valid, bool load_c) {
  using simd::vf32;
  constexpr int lanes = simd::f32_lanes;
  constexpr int nv = NR / lanes;
  static_assert(NR % lanes == 0, "micro_f32_offsets: NR must be whole vectors");
  const ptrdiff_t a_row = PA ? 1 : lda, a_step = PA ? MR : 1;
  vf32 acc[Rows][nv];
  CTNN_UNROLL_VECTOR_LOOP(32)
  for (int i = 0; i < Rows; ++i)
    CTNN_UNROLL_VECTOR_LOOP(8)
    for (int j = 0; j < nv; ++j) acc[i][j] = vf32{};
  for (int k = 0; k < kc; ++k) {
    const float* bk = b + boff[k];
    vf32 bv[nv];
    CTNN_UNROLL_VECTOR_LOOP(8)
    for (int j = 0; j < nv; ++j) bv[j] = simd::load<vf32>(bk + j * lanes);
    CTNN_UNROLL_VECTOR_LOOP(32)
    for (int i = 0; i < Rows; ++i) {
      const float av = a[i * a_row];
      CTNN_UNROLL_VECTOR_LOOP(8)
      for (int j = 0; j < nv; ++j) acc[i][j] += av * bv[j];
    }
    a += a_step;
  }
  CTNN_UNROLL_VECTOR_LOOP(32)
  for (int i = 0; i < Rows; ++i) {
    if (i >= m_valid) break;
    float* crow = c + static_cast<ptrdiff_t>(i) * ldc;
    CTNN_UNROLL_VECTOR_LOOP(8)
    for (int j = 0; j < nv; ++j) {
      vf32 v = acc[i][j];
      if (load_c) v += simd::load<vf32>(crow + j * lanes);
      simd::store(crow + j * lanes, v);
    }
  }
}

/// Float GEMM C = A . B (no bias) with B's row k at B + boff[k]: N a multiple of NR (no edge
/// columns), every boff[k] + N floats readable. A (row-major, lda) is read in place in MR-row
/// panels, its last short panel packed at `workspace` (rows zero-padded) and run on the
/// smallest row tier that covers it. K runs in one block while A stays in cache
/// (f32_whole_k_max_elems), else in KC blocks accumulated onto C. B is never packed: its rows
/// are short windows of a small slab that stays in cache.
/// The K block of gemm_f32_offsets_impl: all of K while A stays in cache (f32_whole_k_max_elems
/// and its edge panel fits the workspace), else KC.
template <class Tiling>
constexpr int f32_offsets_kc_step(int64_t M, int64_t K) {
  const bool whole_k = M * K <= f32_whole_k_max_elems && static_cast<int64_t>(Tiling::mr) * K <=
                                                               static_cast<int64_t>(Tiling::workspace_elems);
  return whole_k ? static_cast<int>(K) : Tiling::kc;
}

/// Packs A (M x K, lda) once for gemm_f32_offsets_impl: per K block of f32_offsets_kc_step (in
/// order), all of M in MR-row panels (pack_a_f32<MR>, rows zero-padded to Mp = M rounded up to
/// MR), so the block's panels are contiguous: block pc at pc Mp, panel p of it at p MR kc.
template <class Tiling>
inline void pack_a_f32_offsets(int M, int K, const float* A, int lda, float* dst) {
  const int kc_step = f32_offsets_kc_step<Tiling>(M, K);
  const auto mp = static_cast<ptrdiff_t>(round_up_to_tile<Tiling::mr>(M));
  for (int pc = 0; pc < K; pc += kc_step)
    pack_a_f32<Tiling::mr>(M, min(kc_step, K - pc), A + pc, lda, dst + static_cast<ptrdiff_t>(pc) * mp);
}

/// a_packed: A packed once by pack_a_f32_offsets, read instead of A, so no panel is packed here
/// (A may then be null).
template <class Tiling>
inline status gemm_f32_offsets_impl(int M, int N, int K, const float* A, int lda, const float* B,
                                    const int32_t* boff, float* C, int ldc, float* workspace,
                                    const float* a_packed = nullptr) {
  constexpr int MR = Tiling::mr, NR = Tiling::nr, MC = Tiling::mc;
  using tiers = f32_row_tiers<MR>;
  if (M < 0 || N < 0 || K <= 0 || N % NR != 0) return status::bad_size;
  if (M == 0 || N == 0) return status::ok;
  if ((A == nullptr && a_packed == nullptr) || B == nullptr || boff == nullptr || C == nullptr || workspace == nullptr)
    return status::null_pointer;
  if (lda < K || ldc < N) return status::bad_leading_dim;
  const int kc_step = f32_offsets_kc_step<Tiling>(M, K);
  const auto mp = static_cast<ptrdiff_t>(round_up_to_tile<MR>(M));
  for (int pc = 0; pc < K; pc += kc_step) {
    const int kc = min(kc_step, K - pc);
    const bool load_c = pc != 0;
    for (int ic = 0; ic < M; ic += MC) {
      const int mc = min(MC, M - ic);
      const int m_full = mc - mc % MR, m_edge = mc - m_full;
      // panel ir of the block: packed once (at its k = pc), or in place with the edge packed here
      const float* ablk = A != nullptr ? A + static_cast<ptrdiff_t>(ic) * lda + pc : nullptr;
      const auto panel = [&](int ir) {
        return a_packed + (static_cast<ptrdiff_t>(pc) * mp + static_cast<ptrdiff_t>(ic + ir) * kc);
      };
      if (m_edge > 0 && a_packed == nullptr)
        pack_a_f32<MR>(m_edge, kc, ablk + static_cast<ptrdiff_t>(m_full) * lda, lda, workspace);
      const float* aedge = a_packed != nullptr ? panel(m_full) : workspace;
      for (int jr = 0; jr < N; jr += NR) {
        float* cblk = C + static_cast<ptrdiff_t>(ic) * ldc + jr;
        for (int ir = 0; ir < m_full; ir += MR) {
          float* ct = cblk + static_cast<ptrdiff_t>(ir) * ldc;
          if (a_packed != nullptr)
            micro_f32_offsets<MR, NR, MR, true>(kc, panel(ir), lda, B + jr, boff + pc, ct, ldc, MR, load_c);
          else
            micro_f32_offsets<MR, NR, MR, false>(kc, ablk + static_cast<ptrdiff_t>(ir) * lda, lda, B + jr, boff + pc,
                                                 ct, ldc, MR, load_c);
        }
        if (m_edge == 0) continue;
        float* ce = cblk + static_cast<ptrdiff_t>(m_full) * ldc;
        if (tiers::split && m_edge <= tiers::t1)
          micro_f32_offsets<MR, NR, tiers::t1, true>(kc, aedge, lda, B + jr, boff + pc, ce, ldc, m_edge, load_c);
        else if (tiers::split && m_edge <= tiers::t2)
          micro_f32_offsets<MR, NR, tiers::t2, true>(kc, aedge, lda, B + jr, boff + pc, ce, ldc, m_edge, load_c);
        else
          micro_f32_offsets<MR, NR, MR, true>(kc, aedge, lda, B + jr, boff + pc, ce, ldc, m_edge, load_c);
      }
    }
  }
  return status::ok;
}

template <class Tiling>
struct static_workspace_f32 {
  alignas(64) static inline float buf[Tiling::workspace_elems];
};
template <class Tiling>
struct static_workspace_s8 {
  alignas(64) static inline unsigned char buf[Tiling::workspace_bytes(Tiling::kmax)];
};

}  // namespace detail

namespace tiled {

/// @brief Tiled float GEMM, C = A.B + bias (row-major, leading dimensions, bias per column,
/// nullable). workspace: Tiling::workspace_elems floats, any alignment.
template <class Tiling = default_f32_tiling>
inline status gemm_f32(int M, int N, int K, const float* A, int lda, const float* B, int ldb, const float* bias,
                       float* C, int ldc, float* workspace) {
  return detail::gemm_f32_impl<Tiling, false>(M, N, K, A, lda, B, ldb, bias, C, ldc, workspace);
}

/// @brief As gemm_f32 with the bias indexed by row (bias[m]): the convolution layout, where
/// A holds the weights and each row of C is an output channel.
template <class Tiling = default_f32_tiling>
inline status gemm_f32_row_bias(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                                const float* bias, float* C, int ldc, float* workspace) {
  return detail::gemm_f32_impl<Tiling, true>(M, N, K, A, lda, B, ldb, bias, C, ldc, workspace);
}

/// @brief As gemm_f32_row_bias with C clamped to [lo, hi] as each tile is finished (a fused
/// activation: no pass of its own over C); no clamp when both bounds are infinite.
template <class Tiling = default_f32_tiling>
inline status gemm_f32_row_bias_clamp(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                                      const float* bias, float* C, int ldc, float* workspace, float lo, float hi) {
  const float act[2] = {lo, hi};
  return detail::gemm_f32_impl<Tiling, true>(M, N, K, A, lda, B, ldb, bias, C, ldc, workspace,
                                             detail::clamps(lo, hi) ? act : nullptr);
}

/// @brief Tiled float GEMM using a static workspace (not reentrant).
template <class Tiling = default_f32_tiling>
inline status gemm_f32(int M, int N, int K, const float* A, int lda, const float* B, int ldb, const float* bias,
                       float* C, int ldc) {
  return gemm_f32<Tiling>(M, N, K, A, lda, B, ldb, bias, C, ldc, detail::static_workspace_f32<Tiling>::buf);
}

/// @brief Tiled int8 GEMM with int32 output (no requantization); bit-exact with ref::gemm_s8_s32.
/// workspace: Tiling::workspace_bytes(K) bytes, 4-byte aligned.
template <class Tiling = default_s8_tiling>
inline status gemm_s8_s32(int M, int N, int K, const int8_t* A, int lda, const int8_t* B, int ldb,
                          const int32_t* bias, int32_t* C, int ldc, int32_t a_zp, int32_t b_zp, void* workspace,
                          size_t workspace_bytes) {
  return detail::gemm_s8_impl<Tiling, int32_t>(M, N, K, A, lda, B, ldb, bias, C, ldc, a_zp, b_zp, nullptr, workspace,
                                               workspace_bytes);
}

/// @brief As above with a static workspace sized for K <= Tiling::kmax (not reentrant).
template <class Tiling = default_s8_tiling>
inline status gemm_s8_s32(int M, int N, int K, const int8_t* A, int lda, const int8_t* B, int ldb,
                          const int32_t* bias, int32_t* C, int ldc, int32_t a_zp, int32_t b_zp) {
  return gemm_s8_s32<Tiling>(M, N, K, A, lda, B, ldb, bias, C, ldc, a_zp, b_zp, detail::static_workspace_s8<Tiling>::buf,
                             sizeof(detail::static_workspace_s8<Tiling>::buf));
}

/// @brief Tiled int8 GEMM with requantized int8 output; bit-exact with ref::gemm_s8.
template <class Tiling = default_s8_tiling>
inline status gemm_s8(int M, int N, int K, const int8_t* A, int lda, const int8_t* B, int ldb, const int32_t* bias,
                      int8_t* C, int ldc, const ref::gemm_s8_params& p, void* workspace, size_t workspace_bytes) {
  return detail::gemm_s8_impl<Tiling, int8_t>(M, N, K, A, lda, B, ldb, bias, C, ldc, p.a_zp, p.b_zp, &p, workspace,
                                              workspace_bytes);
}

/// @brief As above with a static workspace sized for K <= Tiling::kmax (not reentrant).
template <class Tiling = default_s8_tiling>
inline status gemm_s8(int M, int N, int K, const int8_t* A, int lda, const int8_t* B, int ldb, const int32_t* bias,
                      int8_t* C, int ldc, const ref::gemm_s8_params& p) {
  return gemm_s8<Tiling>(M, N, K, A, lda, B, ldb, bias, C, ldc, p, detail::static_workspace_s8<Tiling>::buf,
                         sizeof(detail::static_workspace_s8<Tiling>::buf));
}

// ---- int8 operands packed once ---------------------------------------------------------------
//
// A network's weights do not change between calls, so their panels (and their sums, which the
// zero-point correction needs) can be packed once, ahead of every call, into the layout the
// micro-kernel reads: a compile-time function of the tiling and the GEMM's shape.
//
//   packed A (M x K, the weights of a conv):       packed B (K x N, the weights of a matmul):
//   +--------------------+-----------------------+  +--------------------+---------------------+
//   | int32 rowsum[Mp]   | u8 panels, Mp x kq    |  | int32 colsum[Np]   | s8 panels, kq x Np  |
//   | sum_k (a + 128)    | MR rows, 4-k groups   |  | sum_k b            | NR cols, 4-k groups |
//   +--------------------+-----------------------+  +--------------------+---------------------+
//   Mp = M rounded up to MR, Np = N to NR, kq = K to 4; padding rows, columns and k are zero.
//   A's values take Tiling::a_bytes each: 2 (a + 128 in 16-bit lanes) where the AVX2 micro-kernel
//   runs, 1 elsewhere.

using detail::s8_prepacked;

/// @brief Bytes of A (M x K) packed by pack_a_s8_once.
template <class Tiling = default_s8_tiling>
constexpr size_t packed_a_s8_bytes(int64_t M, int64_t K) {
  if (M <= 0 || K < 0) return 0;
  const auto mp = static_cast<size_t>(detail::round_up_to_tile<Tiling::mr>(M));
  return 4u * mp + mp * static_cast<size_t>(detail::round_up_to_tile<4>(K)) * Tiling::a_bytes;
}

/// @brief Bytes of B (K x N) packed by pack_b_s8_once.
template <class Tiling = default_s8_tiling>
constexpr size_t packed_b_s8_bytes(int64_t K, int64_t N) {
  if (N <= 0 || K < 0) return 0;
  const auto np = static_cast<size_t>(detail::round_up_to_tile<Tiling::nr>(N));
  return 4u * np + np * static_cast<size_t>(detail::round_up_to_tile<4>(K));
}

/// @brief Packs A (M x K, row-major, lda) once into `dst` (packed_a_s8_bytes(M, K) bytes,
/// 4-byte aligned) for gemm_s8_row_channels_prepacked and the s8_prepacked GEMMs.
template <class Tiling = default_s8_tiling>
inline status pack_a_s8_once(int M, int K, const int8_t* A, int lda, void* dst, size_t dst_bytes) {
  if (M < 0 || K < 0) return status::bad_size;
  if (M == 0) return status::ok;
  if (dst == nullptr || (K > 0 && A == nullptr)) return status::null_pointer;
  if (K > 0 && lda < K) return status::bad_leading_dim;
  if (!detail::aligned4(dst)) return status::bad_size;
  if (dst_bytes < packed_a_s8_bytes<Tiling>(M, K)) return status::scratch_too_small;
  const auto mp = static_cast<int>(detail::round_up_to_tile<Tiling::mr>(M));
  auto* sums = static_cast<int32_t*>(dst);
  for (int i = M; i < mp; ++i) sums[i] = 0;
  detail::pack_a_s8<Tiling::mr, Tiling::a_bytes>(M, K, A, lda, reinterpret_cast<uint8_t*>(sums + mp), sums);
  return status::ok;
}

/// @brief Packs B (K x N, row-major, ldb) once into `dst` (packed_b_s8_bytes(K, N) bytes,
/// 4-byte aligned) for gemm_s8_prepacked.
template <class Tiling = default_s8_tiling>
inline status pack_b_s8_once(int K, int N, const int8_t* B, int ldb, void* dst, size_t dst_bytes) {
  if (N < 0 || K < 0) return status::bad_size;
  if (N == 0) return status::ok;
  if (dst == nullptr || (K > 0 && B == nullptr)) return status::null_pointer;
  if (K > 0 && ldb < N) return status::bad_leading_dim;
  if (!detail::aligned4(dst)) return status::bad_size;
  if (dst_bytes < packed_b_s8_bytes<Tiling>(K, N)) return status::scratch_too_small;
  const auto np = static_cast<int>(detail::round_up_to_tile<Tiling::nr>(N));
  auto* sums = static_cast<int32_t*>(dst);
  for (int j = N; j < np; ++j) sums[j] = 0;
  detail::pack_b_s8<Tiling::nr>(K, N, B, ldb, reinterpret_cast<int8_t*>(sums + np), sums);
  return status::ok;
}

/// @brief gemm_s8 with A and/or B read from their packed forms (`pre`, packed with the same
/// Tiling; the raw pointer of a packed operand may be null); bit-exact with ref::gemm_s8.
/// workspace: Tiling::workspace_bytes(K) bytes, 4-byte aligned.
template <class Tiling = default_s8_tiling>
inline status gemm_s8_prepacked(int M, int N, int K, const int8_t* A, int lda, const int8_t* B, int ldb,
                                s8_prepacked pre, const int32_t* bias, int8_t* C, int ldc,
                                const ref::gemm_s8_params& p, void* workspace, size_t workspace_bytes) {
  return detail::gemm_s8_impl<Tiling, int8_t>(M, N, K, A, lda, B, ldb, bias, C, ldc, p.a_zp, p.b_zp, &p, workspace,
                                              workspace_bytes, pre);
}

/// @brief As above with a static workspace sized for K <= Tiling::kmax (not reentrant).
template <class Tiling = default_s8_tiling>
inline status gemm_s8_prepacked(int M, int N, int K, const int8_t* A, int lda, const int8_t* B, int ldb,
                                s8_prepacked pre, const int32_t* bias, int8_t* C, int ldc,
                                const ref::gemm_s8_params& p) {
  return gemm_s8_prepacked<Tiling>(M, N, K, A, lda, B, ldb, pre, bias, C, ldc, p,
                                   detail::static_workspace_s8<Tiling>::buf,
                                   sizeof(detail::static_workspace_s8<Tiling>::buf));
}

/// @brief gemm_s8_s32 with prepacked operands; bit-exact with ref::gemm_s8_s32.
template <class Tiling = default_s8_tiling>
inline status gemm_s8_s32_prepacked(int M, int N, int K, const int8_t* A, int lda, const int8_t* B, int ldb,
                                    s8_prepacked pre, const int32_t* bias, int32_t* C, int ldc, int32_t a_zp,
                                    int32_t b_zp, void* workspace, size_t workspace_bytes) {
  return detail::gemm_s8_impl<Tiling, int32_t>(M, N, K, A, lda, B, ldb, bias, C, ldc, a_zp, b_zp, nullptr, workspace,
                                               workspace_bytes, pre);
}

/// @brief gemm_s8_row_channels with the weights A packed once (pack_a_s8_once): the conv path.
template <class Tiling = default_s8_tiling>
inline status gemm_s8_row_channels_prepacked(int M, int N, int K, const void* a_packed, const int8_t* B, int ldb,
                                             const int32_t* bias, int8_t* C, int ldc, int32_t a_zp, int32_t b_zp,
                                             const ref::gemm_s8_params& p, void* workspace, size_t workspace_bytes) {
  return detail::gemm_s8_impl<Tiling, int8_t, true>(M, N, K, nullptr, K, B, ldb, bias, C, ldc, a_zp, b_zp, &p,
                                                    workspace, workspace_bytes,
                                                    s8_prepacked{static_cast<const uint8_t*>(a_packed), nullptr});
}

/// @brief int8 GEMM whose output channels are the rows of C (bias[m], multiplier[m]): the
/// convolution layout C[oc][pixel] = W[oc][k] . col[k][pixel]. a_zp is A's (the weights')
/// zero point, b_zp B's (the activations'); p supplies out_zp, the multipliers and the clamp.
template <class Tiling = default_s8_tiling>
inline status gemm_s8_row_channels(int M, int N, int K, const int8_t* A, int lda, const int8_t* B, int ldb,
                                   const int32_t* bias, int8_t* C, int ldc, int32_t a_zp, int32_t b_zp,
                                   const ref::gemm_s8_params& p, void* workspace, size_t workspace_bytes) {
  return detail::gemm_s8_impl<Tiling, int8_t, true>(M, N, K, A, lda, B, ldb, bias, C, ldc, a_zp, b_zp, &p, workspace,
                                                    workspace_bytes);
}

}  // namespace tiled
}  // namespace ctnn::kernels
