/* Whether every linearisation of a prefix returns to the initial state: a depth-first search over (set of ops
 * taken, state) configurations with a visited set (see initial_prefix.h). */
#include "minimize/initial_prefix.h"

#include <stdlib.h>
#include <string.h>

#include "util/hash.h"

typedef struct visited {
    uint64_t *mask;    /* per slot: the configuration's set of ops (0 and no state: free) */
    uint64_t *hash;
    unsigned char *states;
    uint8_t *used;
    size_t cap, count, ssz;
} visited;

static bool visited_grow(visited *v) {
    size_t cap = v->cap ? v->cap * 2 : 1024;
    visited nv = {calloc(cap, sizeof *nv.mask), calloc(cap, sizeof *nv.hash), calloc(cap, v->ssz), calloc(cap, 1),
                  cap, 0, v->ssz};
    if (!nv.mask || !nv.hash || !nv.states || !nv.used) {
        free(nv.mask);
        free(nv.hash);
        free(nv.states);
        free(nv.used);
        return false;
    }
    for (size_t i = 0; i < v->cap; i++) {
        if (!v->used[i]) continue;
        size_t s = v->hash[i] & (cap - 1);
        while (nv.used[s]) s = (s + 1) & (cap - 1);
        nv.used[s] = 1;
        nv.mask[s] = v->mask[i];
        nv.hash[s] = v->hash[i];
        memcpy(nv.states + s * v->ssz, v->states + i * v->ssz, v->ssz);
    }
    nv.count = v->count;
    free(v->mask);
    free(v->hash);
    free(v->states);
    free(v->used);
    *v = nv;
    return true;
}

/* Adds (mask, state); returns 1 when new, 0 when seen, -1 when out of memory. */
static int visited_add(visited *v, const lf_spec_inst *in, uint64_t mask, const void *state) {
    if (2 * (v->count + 1) > v->cap && !visited_grow(v)) return -1;
    uint64_t h = lf_mix64(mask ^ lf_spec_hash(in, state));
    size_t s = h & (v->cap - 1);
    while (v->used[s]) {
        if (v->hash[s] == h && v->mask[s] == mask && lf_spec_equal(in, v->states + s * v->ssz, state)) return 0;
        s = (s + 1) & (v->cap - 1);
    }
    v->used[s] = 1;
    v->mask[s] = mask;
    v->hash[s] = h;
    memcpy(v->states + s * v->ssz, state, in->state_size);
    v->count++;
    return 1;
}

typedef struct search {
    const lf_spec_inst *in;
    const lf_op *ops;
    size_t n;
    uint64_t *before;   /* per op: the mask of the ops that precede it in real time */
    unsigned char *init, *states; /* the initial state; one state per depth */
    size_t ssz;
    visited seen;
    uint64_t steps, max_steps;
} search;

/* 1: every complete order from (mask, state at depth) ends in the initial state; 0: one does not; -1: stop. */
static int explore(search *s, uint64_t mask, size_t depth) {
    const unsigned char *state = s->states + depth * s->ssz;
    if (depth == s->n) return lf_spec_equal(s->in, state, s->init) ? 1 : 0;
    int added = visited_add(&s->seen, s->in, mask, state);
    if (added < 0) return -1;
    if (added == 0) return 1; /* explored before from here: it answered 1, or the search would have stopped */
    unsigned char *next = s->states + (depth + 1) * s->ssz;
    for (size_t i = 0; i < s->n; i++) {
        uint64_t bit = UINT64_C(1) << i;
        if ((mask & bit) || (s->before[i] & ~mask)) continue;
        if (++s->steps > s->max_steps) return -1;
        if (!lf_spec_step(s->in, state, &s->ops[i], next)) {
            if (lf_spec_failed(s->in)) return -1;
            continue;
        }
        int r = explore(s, mask | bit, depth + 1);
        if (r != 1) return r;
    }
    return 1;
}

int lf_prefix_returns_to_initial(const lf_spec *spec, const lf_spec_env *env, uint64_t max_steps) {
    size_t n = env->n;
    if (n > LF_PREFIX_MAX_OPS) return -1;
    for (size_t i = 0; i < n; i++)
        if (lf_op_pending(&env->ops[i])) return -1; /* not a prefix of a quiescent point */
    lf_spec_inst in;
    if (!lf_spec_open(spec, env, &in)) return -1;
    search s = {.in = &in, .ops = env->ops, .n = n, .max_steps = max_steps};
    s.ssz = (in.state_size + 7) & ~(size_t)7;
    if (!s.ssz) s.ssz = 8;
    s.seen.ssz = s.ssz;
    s.before = calloc(n ? n : 1, sizeof *s.before);
    s.init = calloc(1, s.ssz);
    s.states = calloc(n + 1, s.ssz);
    int r = -1;
    if (s.before && s.init && s.states) {
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                if (lf_precedes(&env->ops[j], &env->ops[i])) s.before[i] |= UINT64_C(1) << j;
        lf_spec_init(&in, s.init);
        memcpy(s.states, s.init, s.ssz);
        r = explore(&s, 0, 0);
        if (r >= 0 && lf_spec_failed(&in)) r = -1;
    }
    free(s.before);
    free(s.init);
    free(s.states);
    free(s.seen.mask);
    free(s.seen.hash);
    free(s.seen.states);
    free(s.seen.used);
    lf_spec_close(&in);
    return r;
}
