// Fixed-tile plans of the course lab's layers, checked at compile time (compiling is passing).
#include "ctnn/kernels/fixed_tile.hpp"
#include "ctnn/kernels/geometry.hpp"
#include "ctnn/kernels/tiled.hpp"

namespace k = ctnn::kernels;

// AlexNet fc6 at batch 1 (the lab): K = 9216 -> 144 tiles, N = 4096 -> 64 tiles of 64.
constexpr auto fc6 = k::plan_fixed_tiles<64>(1, 4096, 9216);
static_assert(fc6.tiles_k == 144 && fc6.tiles_n == 64 && fc6.tiles_m == 1);
static_assert(fc6.sub_gemms == 144 * 64);
static_assert(fc6.useful_macs == 4096LL * 9216 && fc6.padded_macs == 64LL * 64 * 64 * 144 * 64);
static_assert(fc6.waste_ppm() == 984375);  // batch 1 fills 1 of 64 rows: 63/64 of the work is padding
static_assert(fc6.bytes_per_tile == 64 * 64 * (1 + 1 + 4));

// ResNet-50 fc (2048 -> 1000): 1000 pads to 1024.
constexpr auto r50_fc = k::plan_fixed_tiles<64>(64, 1000, 2048);
static_assert(r50_fc.tiles_n == 16 && r50_fc.padded_n == 1024 && r50_fc.waste_macs == 64LL * 24 * 2048);

// Any power-of-two tile; exact multiples waste nothing.
static_assert(k::plan_fixed_tiles<16>(32, 48, 64).waste_macs == 0);
static_assert(k::plan_fixed_tiles<1>(3, 5, 7).sub_gemms == 105);
static_assert(k::schedule_entry(k::plan_fixed_tiles<64>(128, 192, 128), 0) == k::sub_gemm{0, 0, 0});
static_assert(k::schedule_entry(k::plan_fixed_tiles<64>(128, 192, 128), 7) == k::sub_gemm{1, 0, 1});
static_assert(k::tile_index<64>(130) == 2 && k::tile_offset<64>(130) == 2);
static_assert(k::tile_offset<1>(5) == 0 && k::tile_index<1>(5) == 5);

// The tiling parameters of the tiled GEMMs are compile-time facts too.
static_assert(k::gemm_tiling<4, 16, 64, 8, 32>::workspace_elems == 8 * 64 + 64 * 32);
static_assert(k::qgemm_tiling<4, 16, 8, 32, 64>::workspace_bytes(10) == 4 * (8 + 32) + 12 * (8 + 32));
static_assert(k::detail::offset_in_tile<4>(7) == 3 && k::detail::tile_of<4>(7) == 1 && k::detail::tile_of<3>(7) == 2);
