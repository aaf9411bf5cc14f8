/* Fingerprint set of replayed schedules (open addressing, linear probing). */
#include "hitting/schedule_set.h"

#include "util/hash.h"

#include <stdlib.h>
#include <string.h>

void lf_hit_schedule_set_init(hit_schedule_set *s) { memset(s, 0, sizeof *s); }

void lf_hit_schedule_set_free(hit_schedule_set *s) {
    free(s->slots);
    memset(s, 0, sizeof *s);
}

uint64_t lf_hit_schedule_hash(const uint32_t *sch, size_t n) {
    /* Multiply-xorshift per element (order-sensitive, one multiply each: this runs once per index built),
     * then a full avalanche. */
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ (sch[i] + 0x632be59bd9b4e019ULL)) * 0xff51afd7ed558ccdULL;
        h ^= h >> 31;
    }
    h = lf_mix64(h);
    return h ? h : 1;
}

static bool grow(hit_schedule_set *s) {
    size_t cap = s->cap ? s->cap * 2 : 64;
    uint64_t *slots = calloc(cap, sizeof *slots);
    if (!slots) return false;
    for (size_t i = 0; i < s->cap; i++) {
        uint64_t f = s->slots[i];
        if (!f) continue;
        size_t j = (size_t)f & (cap - 1);
        while (slots[j]) j = (j + 1) & (cap - 1);
        slots[j] = f;
    }
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
    return true;
}

int lf_hit_schedule_set_add(hit_schedule_set *s, uint64_t fingerprint) {
    if (!fingerprint) fingerprint = 1;
    if ((s->count + 1) * 2 > s->cap && !grow(s)) return -1;
    size_t j = (size_t)fingerprint & (s->cap - 1);
    while (s->slots[j]) {
        if (s->slots[j] == fingerprint) return 0;
        j = (j + 1) & (s->cap - 1);
    }
    s->slots[j] = fingerprint;
    s->count++;
    return 1;
}
