/* Growing arrays: doubling, overflow-checked, the old array kept on failure (see grow.h). */
#include "util/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t lf_grow_capacity(size_t cap, size_t need, size_t size, size_t first) {
    if (size == 0) return 0;
    size_t most = SIZE_MAX / size;
    if (need > most) return 0;
    if (cap >= need) return cap;
    size_t n = cap ? cap : first ? first : 1;
    while (n < need) n = n > most / 2 ? most : n * 2;
    return n > most ? most : n;
}

bool lf_grow(void *array_ptr, size_t *cap, size_t need, size_t size, size_t first) {
    if (*cap >= need) return true;
    size_t n = lf_grow_capacity(*cap, need, size, first);
    if (!n) return false;
    void *old;
    memcpy(&old, array_ptr, sizeof old); /* array_ptr is a T **: read and write the T * as bytes */
    void *grown = realloc(old, n * size);
    if (!grown) return false;
    memcpy(array_ptr, &grown, sizeof grown);
    *cap = n;
    return true;
}
