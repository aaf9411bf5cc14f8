/* The growth helper (util/grow.h): capacities double from the first one until they hold what is needed, are
 * clamped where the size in bytes would overflow size_t, and a growth that cannot happen (overflow, out of
 * memory) leaves the array and its capacity as they were. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "util/grow.h"

/* The out-of-memory case asks for nearly all of size_t: under ASan, have the allocator return NULL as libc's
 * does instead of stopping the test. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

static void test_capacity(void) {
    CHECK(lf_grow_capacity(0, 1, 4, 16) == 16);   /* empty: the first capacity */
    CHECK(lf_grow_capacity(0, 17, 4, 16) == 32);  /* doubled from it until it holds need */
    CHECK(lf_grow_capacity(0, 1, 4, 0) == 1);     /* no first capacity: from 1 */
    CHECK(lf_grow_capacity(0, 5, 4, 0) == 8);
    CHECK(lf_grow_capacity(16, 17, 4, 1) == 32);  /* a full array doubles, whatever first is */
    CHECK(lf_grow_capacity(16, 100, 4, 1) == 128);
    CHECK(lf_grow_capacity(16, 16, 4, 1) == 16);  /* already holds need: unchanged */
    CHECK(lf_grow_capacity(16, 0, 4, 1) == 16);
    CHECK(lf_grow_capacity(0, 0, 4, 8) == 0);     /* nothing needed, nothing held */
    CHECK(lf_grow_capacity(3, 4, 4, 1) == 6);     /* doubles odd capacities too */
    CHECK(lf_grow_capacity(0, 1, 0, 8) == 0);     /* zero-sized elements: refused */
    /* need * size overflows size_t: refused */
    CHECK(lf_grow_capacity(0, SIZE_MAX / 8 + 1, 8, 16) == 0);
    CHECK(lf_grow_capacity(0, SIZE_MAX, 2, 16) == 0);
    CHECK(lf_grow_capacity(16, SIZE_MAX, 1, 16) == SIZE_MAX); /* bytes: the whole of size_t is measurable */
    /* doubling would overflow but need fits: clamped to the largest measurable count */
    size_t most = SIZE_MAX / 8;
    CHECK(lf_grow_capacity(most / 2 + 1, most / 2 + 2, 8, 16) == most);
    CHECK(lf_grow_capacity(most - 1, most, 8, 16) == most);
    CHECK(lf_grow_capacity(0, most, 8, 16) == most);
    CHECK(lf_grow_capacity(0, 3, 8, SIZE_MAX) == most); /* a first capacity beyond it: clamped too */
    /* the result always holds need and its size in bytes fits */
    for (size_t size = 1; size <= 64; size *= 4)
        for (size_t cap = 0; cap < 40; cap++)
            for (size_t need = 0; need < 100; need++) {
                size_t n = lf_grow_capacity(cap, need, size, 4);
                CHECKF(n >= need && n >= cap && n <= SIZE_MAX / size, "cap %zu need %zu size %zu -> %zu", cap,
                       need, size, n);
            }
}

static void test_grow(void) {
    uint32_t *a = NULL;
    size_t cap = 0;
    CHECK(LF_GROW(a, cap, 0, 8)); /* nothing needed: no allocation */
    CHECK(a == NULL && cap == 0);
    size_t n = 0;
    for (uint32_t i = 0; i < 1000; i++) {
        if (!LF_GROW(a, cap, n + 1, 8)) break;
        a[n++] = i * 7;
    }
    CHECK(n == 1000 && cap == 1024); /* 8, 16, ..., 1024 */
    int kept = 1;
    for (uint32_t i = 0; i < 1000; i++) kept &= a[i] == i * 7;
    CHECK(kept); /* realloc kept the contents */
    uint32_t *before = a;
    CHECK(LF_GROW(a, cap, 1024, 8) && a == before && cap == 1024); /* holds it already: untouched */
    /* huge need: overflow of need * size, refused with the array as it was */
    CHECK(!LF_GROW(a, cap, SIZE_MAX / 2, 8));
    CHECK(a == before && cap == 1024 && a[999] == 999 * 7);
    /* a need that fits size_t but no allocator can give: out of memory, the array as it was */
    CHECK(!LF_GROW(a, cap, SIZE_MAX / sizeof *a - 1, 8));
    CHECK(a == before && cap == 1024 && a[999] == 999 * 7);
    free(a);

    /* arrays of structs and of pointers */
    struct pair {
        uint64_t k;
        char *v;
    } *p = NULL;
    size_t pcap = 0;
    CHECK(LF_GROW(p, pcap, 3, 0) && pcap == 4);
    p[2].k = 9;
    CHECK(LF_GROW(p, pcap, 5, 0) && pcap == 8 && p[2].k == 9);
    free(p);
}

int main(void) {
    test_capacity();
    test_grow();
    TEST_DONE();
}
