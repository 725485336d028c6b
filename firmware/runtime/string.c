/* memcpy, memset, memmove, memcmp for -nostdlib firmware (the compiler may emit calls to them). */
#include <stdint.h>

#include "ctnn_string.h"

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    if ((((uintptr_t)d | (uintptr_t)s) & 3u) == 0u) {
        for (; n >= 4u; n -= 4u, d += 4, s += 4) {
            *(uint32_t *)(void *)d = *(const uint32_t *)(const void *)s;
        }
    }
    while (n-- != 0u) {
        *d++ = *s++;
    }
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char b = (unsigned char)c;
    while (n != 0u && ((uintptr_t)d & 3u) != 0u) {
        *d++ = b;
        --n;
    }
    const uint32_t w = 0x01010101u * b;
    for (; n >= 4u; n -= 4u, d += 4) {
        *(uint32_t *)(void *)d = w;
    }
    while (n-- != 0u) {
        *d++ = b;
    }
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    if (d <= s || d >= s + n) {
        return memcpy(dst, src, n);
    }
    while (n-- != 0u) {
        d[n] = s[n];
    }
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = (const unsigned char *)a;
    const unsigned char *y = (const unsigned char *)b;
    for (size_t i = 0; i < n; ++i) {
        if (x[i] != y[i]) {
            return x[i] < y[i] ? -1 : 1;
        }
    }
    return 0;
}
