/* Declarations of the runtime's memcpy/memset/memmove/memcmp (there is no libc). */
#ifndef CTNN_STRING_H
#define CTNN_STRING_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#define CTNN_RESTRICT __restrict
#else
#define CTNN_RESTRICT restrict
#endif

void *memcpy(void *CTNN_RESTRICT dst, const void *CTNN_RESTRICT src, size_t n);
void *memset(void *dst, int c, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);

#ifdef __cplusplus
}
#endif

#endif
