/* Replaying schedules against the spec, with prefix sharing and a frontier of states for pending ops. */
#include "hitting/replay.h"

#include <stdlib.h>
#include <string.h>

bool hit_replay_init(hit_replay *r, const lf_spec_inst *spec, const lf_op *ops, const hit_poset *p,
                     size_t frontier_cap) {
    memset(r, 0, sizeof *r);
    r->spec = spec;
    r->ops = ops;
    r->p = p;
    r->n = p->n;
    r->ssz = spec->state_size ? spec->state_size : 1;
    r->cap = p->n_pending ? (frontier_cap >= 2 ? frontier_cap : 2) : 1;
    size_t slots = (r->n + 1) * r->cap;
    /* One block: hashes (8-byte aligned first), parent, count, prev, then the states and the scratch state
     * (rounded up to 8 bytes each so that specs may read their states as aligned words). */
    size_t ssz_aligned = (r->ssz + 7) & ~(size_t)7;
    size_t words = slots * sizeof(uint64_t), u32s = (slots + (r->n + 1) + (r->n ? r->n : 1)) * sizeof(uint32_t);
    u32s = (u32s + 7) & ~(size_t)7;
    unsigned char *block = calloc(1, words + u32s + (slots + 1) * ssz_aligned);
    if (!block) return false;
    r->hashes = (uint64_t *)block;
    r->parent = (uint32_t *)(block + words);
    r->count = r->parent + slots;
    r->prev = r->count + r->n + 1;
    r->states = block + words + u32s;
    r->scratch = r->states + slots * ssz_aligned;
    r->ssz = ssz_aligned;
    lf_spec_init(spec, r->states);
    r->hashes[0] = r->cap > 1 ? lf_spec_hash(spec, r->states) : 0;
    r->parent[0] = 0;
    r->count[0] = 1;
    r->valid = 0;
    r->fail_pos = SIZE_MAX;
    return true;
}

void hit_replay_free(hit_replay *r) {
    free(r->hashes); /* the one block */
    memset(r, 0, sizeof *r);
}

static inline unsigned char *slot_state(const hit_replay *r, size_t slot) { return r->states + slot * r->ssz; }

/* Adds the state in *cand (already written, possibly in its slot) to frontier `to`, unless an equal state
 * is there already or the frontier is full. */
static void frontier_add(hit_replay *r, size_t to, const unsigned char *cand, uint32_t parent_bits) {
    size_t base = to * r->cap;
    uint32_t cnt = r->count[to];
    uint64_t h = lf_spec_hash(r->spec, cand);
    for (uint32_t j = 0; j < cnt; j++)
        if (r->hashes[base + j] == h && lf_spec_equal(r->spec, slot_state(r, base + j), cand)) return;
    if (cnt == r->cap) {
        r->dropped++;
        return;
    }
    unsigned char *dst = slot_state(r, base + cnt);
    if (dst != cand) memcpy(dst, cand, r->ssz);
    r->hashes[base + cnt] = h;
    r->parent[base + cnt] = parent_bits;
    r->count[to] = cnt + 1;
}

/* Computes frontier i+1 from frontier i by op. Returns false when the spec failed (out of memory). */
static bool advance(hit_replay *r, size_t i, const lf_op *op) {
    const lf_spec_inst *spec = r->spec;
    size_t from = i * r->cap, to = (i + 1) * r->cap;
    if (r->cap == 1) { /* no pending op anywhere: a single state per position */
        r->steps++;
        if (lf_spec_step(spec, slot_state(r, from), op, slot_state(r, to))) {
            r->parent[to] = 0;
            r->count[i + 1] = 1;
        } else {
            r->count[i + 1] = 0;
            if (lf_spec_failed(spec)) return false;
        }
        return true;
    }
    r->count[i + 1] = 0;
    bool pending = lf_op_pending(op);
    for (uint32_t j = 0; j < r->count[i]; j++) {
        const unsigned char *s = slot_state(r, from + j);
        if (pending) frontier_add(r, i + 1, s, j << 1); /* the op never takes effect (or not yet) */
        r->steps++;
        /* Write the successor straight into the next free slot when there is one. */
        unsigned char *dst = r->count[i + 1] < r->cap ? slot_state(r, to + r->count[i + 1]) : r->scratch;
        if (lf_spec_step(spec, s, op, dst))
            frontier_add(r, i + 1, dst, (j << 1) | (pending ? 1u : 0u));
        else if (lf_spec_failed(spec))
            return false;
    }
    return true;
}

hit_replay_status hit_replay_run(hit_replay *r, const uint32_t *sch) {
    /* Longest common prefix with the previous schedule, over the positions whose outcome is known. */
    size_t known = r->valid + (r->fail_pos != SIZE_MAX ? 1 : 0);
    size_t lcp = 0;
    while (lcp < known && r->prev[lcp] == sch[lcp]) lcp++;
    if (r->fail_pos != SIZE_MAX && lcp == known) {
        r->reused += lcp;
        return HIT_REPLAY_MISMATCH; /* same failing prefix as the previous schedule */
    }
    if (lcp > r->valid) lcp = r->valid;
    r->reused += lcp;
    memcpy(r->prev + lcp, sch + lcp, (r->n - lcp) * sizeof *sch);
    r->fail_pos = SIZE_MAX;
    for (size_t i = lcp; i < r->n; i++) {
        r->valid = i;
        if (!advance(r, i, &r->ops[r->p->op_of[sch[i]]])) {
            r->fail_pos = SIZE_MAX;
            r->valid = 0; /* nothing after position 0 can be trusted any more */
            return HIT_REPLAY_ERROR;
        }
        if (r->count[i + 1] == 0) {
            r->fail_pos = i;
            return HIT_REPLAY_MISMATCH;
        }
    }
    r->valid = r->n;
    return HIT_REPLAY_MATCH;
}

size_t hit_replay_witness(const hit_replay *r, uint32_t *out) {
    /* Walk the parents back from any state of the last frontier, then reverse. */
    size_t len = 0, slot = 0;
    for (size_t i = r->n; i > 0; i--) {
        uint32_t bits = r->parent[i * r->cap + slot];
        uint32_t local = r->prev[i - 1];
        uint32_t op = r->p->op_of[local];
        if (!lf_op_pending(&r->ops[op]) || (bits & 1u)) out[len++] = op;
        slot = bits >> 1;
    }
    for (size_t a = 0, b = len; a + 1 < b; a++, b--) {
        uint32_t t = out[a];
        out[a] = out[b - 1];
        out[b - 1] = t;
    }
    return len;
}
