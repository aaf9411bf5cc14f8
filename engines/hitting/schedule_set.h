/* The set of schedules already replayed for one (sub)history, across all depths, so that every distinct
 * schedule is replayed once ([Ozkan19] "Dedup").
 *
 * Schedules are kept as 64-bit fingerprints only. A collision can only make the prover skip a schedule it
 * has not replayed — a lost chance of a proof, never a wrong one — and with at most a few million schedules
 * per history its probability is below 1e-6. */
#ifndef LINFUZZ_HIT_SCHEDULE_SET_H
#define LINFUZZ_HIT_SCHEDULE_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hit_schedule_set {
    uint64_t *slots; /* open addressing; 0 marks an empty slot */
    size_t cap, count;
} hit_schedule_set;

void lf_hit_schedule_set_init(hit_schedule_set *s);
void lf_hit_schedule_set_free(hit_schedule_set *s);
/* Fingerprint of sch[0..n). */
uint64_t lf_hit_schedule_hash(const uint32_t *sch, size_t n);
/* Adds a fingerprint: 1 when it was new, 0 when already present, -1 when out of memory. */
int lf_hit_schedule_set_add(hit_schedule_set *s, uint64_t fingerprint);

#endif
