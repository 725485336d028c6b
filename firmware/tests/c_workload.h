/* Compiler-generated code on the core: a C workload shared by the firmware test c_workload and its
   host twin. Each part reports one 32-bit result; the target must print exactly what the host prints.
   Parts: CRC-32, recursive quicksort, 64-bit multiply/divide (libgcc), a switch jump table,
   function pointers, recursion, bit tricks, struct copies, a wrapping int32 matrix product,
   C's truncating signed division. */
#ifndef CTNN_C_WORKLOAD_H
#define CTNN_C_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

typedef void (*workload_report_fn)(const char *name, uint32_t value);

static uint32_t wl_lcg(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 7;
}

static uint32_t wl_crc32(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; ++i) {
        crc ^= p[i];
        for (int b = 0; b < 8; ++b) {
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
        }
    }
    return ~crc;
}

static void wl_qsort(int32_t *a, int lo, int hi)
{
    while (lo < hi) {
        const int32_t pivot = a[lo + (hi - lo) / 2];
        int i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot) ++i;
            while (a[j] > pivot) --j;
            if (i <= j) {
                const int32_t t = a[i];
                a[i] = a[j];
                a[j] = t;
                ++i;
                --j;
            }
        }
        if (j - lo < hi - i) {
            wl_qsort(a, lo, j);
            lo = i;
        } else {
            wl_qsort(a, i, hi);
            hi = j;
        }
    }
}

static uint32_t wl_state_machine(const char *s)
{
    uint32_t state = 0, acc = 0;
    for (; *s != '\0'; ++s) {
        switch (*s) {
        case 'a': state = state * 3 + 1; break;
        case 'b': state ^= 0x55u; break;
        case 'c': state += acc; break;
        case 'd': acc = acc * 7 + state; break;
        case 'e': state >>= 1; break;
        case 'f': acc -= 3; break;
        case 'g': state = ~state; break;
        case 'h': acc ^= state << 3; break;
        default: acc += (uint32_t)(unsigned char)*s; break;
        }
    }
    return state ^ acc;
}

static uint32_t wl_add(uint32_t a, uint32_t b) { return a + b; }
static uint32_t wl_xor(uint32_t a, uint32_t b) { return a ^ b; }
static uint32_t wl_mul(uint32_t a, uint32_t b) { return a * b; }
static uint32_t wl_rot(uint32_t a, uint32_t b) { return (a << (b & 31u)) | (a >> ((32u - (b & 31u)) & 31u)); }

static uint32_t wl_fib(uint32_t n) { return n < 2 ? n : wl_fib(n - 1) + wl_fib(n - 2); }

static uint32_t wl_ackermann(uint32_t m, uint32_t n)
{
    if (m == 0) return n + 1;
    if (n == 0) return wl_ackermann(m - 1, 1);
    return wl_ackermann(m - 1, wl_ackermann(m, n - 1));
}

struct wl_record {
    uint8_t tag;
    uint16_t half;
    uint32_t word;
    int8_t bytes[5];
    uint64_t wide;
};

static void workload_run(workload_report_fn report)
{
    static uint8_t buf[4096];
    static int32_t arr[500];
    uint32_t s = 12345u;

    for (size_t i = 0; i < sizeof buf; ++i) buf[i] = (uint8_t)wl_lcg(&s);
    report("crc32", wl_crc32(buf, sizeof buf));

    for (int i = 0; i < 500; ++i) arr[i] = (int32_t)wl_lcg(&s) - (1 << 23);
    wl_qsort(arr, 0, 499);
    uint32_t sorted = 1, sum = 0;
    for (int i = 0; i < 500; ++i) {
        if (i > 0 && arr[i - 1] > arr[i]) sorted = 0;
        sum = sum * 31u + (uint32_t)arr[i];
    }
    report("qsort", sum ^ (sorted << 31));

    uint64_t u = 0x123456789abcdef0ull;
    int64_t v = -0x0fedcba987654321ll;
    uint32_t acc64 = 0;
    for (int i = 1; i < 40; ++i) {
        const uint64_t a = u * (uint64_t)(i * 2654435761u);
        const int64_t b = v / (int64_t)(i * 7 - 150);
        const int64_t c = v % (int64_t)(i * 13 + 1);
        const uint64_t d = a / ((uint64_t)i * 1000003u) + a % 97u;
        acc64 = acc64 * 33u + (uint32_t)(d >> 17) + (uint32_t)(b >> 3) + (uint32_t)c + (uint32_t)(a >> (i & 63));
        u = (u << 5) ^ (u >> 59) ^ (uint64_t)i;
        v = -(v >> 1) + i;
    }
    report("int64", acc64);

    report("switch", wl_state_machine("abcdefgh-abba-cafe-deadbeef-hgfedcba-gggg-ddd-ccc-xyz"));

    uint32_t (*const ops[4])(uint32_t, uint32_t) = {wl_add, wl_xor, wl_mul, wl_rot};
    uint32_t f = 1;
    for (uint32_t i = 0; i < 200; ++i) f = ops[(f ^ i) & 3u](f | 1u, i * 2654435761u);
    report("fnptr", f);

    report("recursion", wl_fib(20) * 1000u + wl_ackermann(2, 3));

    uint32_t bits = 0;
    for (uint32_t x = 1; x < 5000; x += 7) {
        uint32_t y = x * 0x9e3779b9u, pop = 0, lead = 0;
        for (uint32_t t = y; t != 0; t &= t - 1) ++pop;
        for (uint32_t t = y; t != 0 && (t & 0x80000000u) == 0; t <<= 1) ++lead;
        bits = bits * 3u + pop + (lead << 8) + (y & (0u - y));
    }
    report("bits", bits);

    struct wl_record recs[8];
    for (int i = 0; i < 8; ++i) {
        recs[i].tag = (uint8_t)(i * 37);
        recs[i].half = (uint16_t)(i * 4099);
        recs[i].word = (uint32_t)i * 0x01010101u;
        for (int k = 0; k < 5; ++k) recs[i].bytes[k] = (int8_t)(i * 50 - k * 30);
        recs[i].wide = (uint64_t)i << 40 | (uint64_t)i;
    }
    struct wl_record copy[8];
    for (int i = 0; i < 8; ++i) copy[7 - i] = recs[i];
    uint32_t rs = 0;
    for (int i = 0; i < 8; ++i) {
        rs = rs * 131u + copy[i].tag + copy[i].half + copy[i].word + (uint32_t)(copy[i].wide >> 32);
        for (int k = 0; k < 5; ++k) rs += (uint32_t)(int32_t)copy[i].bytes[k];
    }
    report("structs", rs);

    static int32_t ma[16][16], mb[16][16];
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            ma[i][j] = (int32_t)(wl_lcg(&s) ^ 0x80000000u);
            mb[i][j] = (int32_t)wl_lcg(&s) - 0x7fffff;
        }
    uint32_t mm = 0;
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            uint32_t c = 0;
            for (int k = 0; k < 16; ++k) c += (uint32_t)ma[i][k] * (uint32_t)mb[k][j];
            mm = mm * 7u + c;
        }
    report("matmul", mm);

    uint32_t sd = 0;
    for (int32_t a = -50; a <= 50; a += 7)
        for (int32_t b = -9; b <= 9; b += 4) {
            if (b == 0) continue;
            sd = sd * 5u + (uint32_t)(a / b + 3 * (a % b));
        }
    report("sdiv", sd);
}

#endif
