/* LSD radix sort with byte skipping (see radix_sort.h). */
#include "util/radix_sort.h"
#include "util/big_alloc.h"
#include "util/clock.h"

#include <stdlib.h>
#include <string.h>

/* Whether the deadline (0: none) has passed; asked once per LF_SORT_CHUNK elements. */
static bool late(double deadline) { return deadline > 0 && lf_now_s() > deadline; }

#define DEFINE_RADIX(NAME, T, KEY, PARAMS, FIRST)                                                      \
    lf_sort_status NAME(T *a, size_t n PARAMS, double deadline) {                               \
        if (n < 2) return LF_SORT_OK;                                                    \
        size_t(*count)[256] = calloc(8, sizeof *count);                                 \
        if (!count) return LF_SORT_NOMEM;                                               \
        lf_sort_status st = LF_SORT_OK;                                                 \
        for (size_t lo = 0; lo < n && st == LF_SORT_OK; lo += LF_SORT_CHUNK) {          \
            size_t hi = n - lo > LF_SORT_CHUNK ? lo + LF_SORT_CHUNK : n;                \
            for (size_t i = lo; i < hi; i++) {                                          \
                uint64_t k = KEY(a[i]);                                                 \
                for (int b = 0; b < 8; b++) count[b][(k >> (8 * b)) & 0xff]++;          \
            }                                                                           \
            if (late(deadline)) st = LF_SORT_LATE;                                      \
        }                                                                               \
        T *tmp = NULL;                                                                  \
        T *src = a, *dst = NULL;                                                        \
        for (int b = FIRST; b < 8 && st == LF_SORT_OK; b++) {                           \
            size_t *c = count[b];                                                       \
            bool trivial = false;                                                       \
            for (int d = 0; d < 256; d++)                                               \
                if (c[d] == n) trivial = true;                                          \
            if (trivial) continue;                                                      \
            if (!tmp) {                                                                 \
                tmp = lf_big_malloc(n * sizeof *tmp);                                   \
                if (!tmp) {                                                             \
                    st = LF_SORT_NOMEM;                                                 \
                    break;                                                              \
                }                                                                       \
            }                                                                           \
            dst = src == a ? tmp : a;                                                   \
            size_t sum = 0;                                                             \
            for (int d = 0; d < 256; d++) {                                             \
                size_t t = c[d];                                                        \
                c[d] = sum;                                                             \
                sum += t;                                                               \
            }                                                                           \
            for (size_t lo = 0; lo < n && st == LF_SORT_OK; lo += LF_SORT_CHUNK) {      \
                size_t hi = n - lo > LF_SORT_CHUNK ? lo + LF_SORT_CHUNK : n;            \
                for (size_t i = lo; i < hi; i++) dst[c[(KEY(src[i]) >> (8 * b)) & 0xff]++] = src[i]; \
                if (late(deadline)) st = LF_SORT_LATE;                                  \
            }                                                                           \
            src = dst;                                                                  \
        }                                                                               \
        for (size_t lo = 0; st == LF_SORT_OK && src != a && lo < n; lo += LF_SORT_CHUNK) {  \
            memcpy(a + lo, src + lo, (n - lo > LF_SORT_CHUNK ? LF_SORT_CHUNK : n - lo) * sizeof *a); \
            if (late(deadline)) st = LF_SORT_LATE;                                      \
        }                                                                               \
        free(tmp);                                                                      \
        free(count);                                                                    \
        return st;                                                                      \
    }

#define KEYED_KEY(x) ((x).key)
#define WORD_KEY(x) (x)
#define NO_PARAMS
#define FIRST_BYTE_PARAM , int first_byte
DEFINE_RADIX(lf_radix_sort_until, lf_keyed, KEYED_KEY, NO_PARAMS, 0)
DEFINE_RADIX(lf_radix_sort_u64_until, uint64_t, WORD_KEY, FIRST_BYTE_PARAM, first_byte)

bool lf_radix_sort(lf_keyed *a, size_t n) { return lf_radix_sort_until(a, n, 0) == LF_SORT_OK; }

bool lf_radix_sort_u64(uint64_t *a, size_t n, int first_byte) {
    return lf_radix_sort_u64_until(a, n, first_byte, 0) == LF_SORT_OK;
}
