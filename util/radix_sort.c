/* LSD radix sort with byte skipping (see radix_sort.h). */
#include "util/radix_sort.h"
#include "util/big_alloc.h"

#include <stdlib.h>
#include <string.h>

#define DEFINE_RADIX(NAME, T, KEY, PARAMS, FIRST)                                                      \
    bool NAME(T *a, size_t n PARAMS) {                                                         \
        if (n < 2) return true;                                                         \
        size_t(*count)[256] = calloc(8, sizeof *count);                                 \
        if (!count) return false;                                                       \
        for (size_t i = 0; i < n; i++) {                                                \
            uint64_t k = KEY(a[i]);                                                     \
            for (int b = 0; b < 8; b++) count[b][(k >> (8 * b)) & 0xff]++;              \
        }                                                                               \
        T *tmp = NULL;                                                                  \
        T *src = a, *dst = NULL;                                                        \
        for (int b = FIRST; b < 8; b++) {                                               \
            size_t *c = count[b];                                                       \
            bool trivial = false;                                                       \
            for (int d = 0; d < 256; d++)                                               \
                if (c[d] == n) trivial = true;                                          \
            if (trivial) continue;                                                      \
            if (!tmp) {                                                                 \
                tmp = lf_big_malloc(n * sizeof *tmp);                                          \
                if (!tmp) {                                                             \
                    free(count);                                                        \
                    return false;                                                       \
                }                                                                       \
            }                                                                           \
            dst = src == a ? tmp : a;                                                   \
            size_t sum = 0;                                                             \
            for (int d = 0; d < 256; d++) {                                             \
                size_t t = c[d];                                                        \
                c[d] = sum;                                                             \
                sum += t;                                                               \
            }                                                                           \
            for (size_t i = 0; i < n; i++) dst[c[(KEY(src[i]) >> (8 * b)) & 0xff]++] = src[i]; \
            src = dst;                                                                  \
        }                                                                               \
        if (src != a) memcpy(a, src, n * sizeof *a);                                    \
        free(tmp);                                                                      \
        free(count);                                                                    \
        return true;                                                                    \
    }

#define KEYED_KEY(x) ((x).key)
#define WORD_KEY(x) (x)
#define NO_PARAMS
#define FIRST_BYTE_PARAM , int first_byte
DEFINE_RADIX(lf_radix_sort, lf_keyed, KEYED_KEY, NO_PARAMS, 0)
DEFINE_RADIX(lf_radix_sort_u64, uint64_t, WORD_KEY, FIRST_BYTE_PARAM, first_byte)
