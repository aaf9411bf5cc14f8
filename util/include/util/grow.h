/* Growing arrays: the one place where "double the capacity, check the size for overflow, realloc, keep the
 * old array on failure" is written, for every array in linfuzz that grows as elements are appended.
 *
 * The capacity doubles (from `first` when the array is empty) until it holds what is needed, and is clamped to
 * the largest count whose size in bytes fits in size_t; when even that is too small, or the allocation fails,
 * nothing changes and the caller's out-of-memory path runs with its old array still valid. */
#ifndef LINFUZZ_GROW_H
#define LINFUZZ_GROW_H

#include <stdbool.h>
#include <stddef.h>

/* The capacity an array of cap elements of size bytes grows to so that it holds need elements: cap (first when
 * cap is 0, 1 when first is 0 too) doubled until it is at least need, at most SIZE_MAX / size. cap itself when
 * it already holds need; 0 when need elements of size bytes do not fit in size_t (or size is 0). */
size_t lf_grow_capacity(size_t cap, size_t need, size_t size, size_t first);

/* Grows the array at *(T **)array_ptr, of *cap elements of size bytes, with realloc to hold at least need
 * (capacity per lf_grow_capacity). True when it holds need (already, or after growing: *array_ptr and *cap
 * updated); false on overflow or out of memory, with *array_ptr and *cap unchanged. */
bool lf_grow(void *array_ptr, size_t *cap, size_t need, size_t size, size_t first);

/* lf_grow for an array variable `arr` (any T *) with its size_t capacity `cap`. */
#define LF_GROW(arr, cap, need, first) lf_grow(&(arr), &(cap), (need), sizeof *(arr), (first))

#endif
