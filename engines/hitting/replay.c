/* Replaying schedules against the spec, with prefix sharing, and with pending ops that take effect at any
 * later point or never (a frontier of configurations per position; see replay.h). */
#include "hitting/replay.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

#define NO_NODE UINT32_MAX

static size_t round8(size_t x) { return (x + 7) & ~(size_t)7; }

bool lf_hit_replay_init(hit_replay *r, const lf_spec_inst *spec, const lf_op *ops, const hit_poset *p,
                     size_t frontier_cap) {
    memset(r, 0, sizeof *r);
    r->spec = spec;
    r->ops = ops;
    r->p = p;
    size_t n = r->n = p->n, np = p->n_pending;
    r->ssz = round8(spec->state_size ? spec->state_size : 1); /* slots stay 8-byte aligned */
    r->words = (np + 63) / 64;
    r->cap = np ? (frontier_cap >= 2 ? frontier_cap : 2) : 1;
    r->tcap = np ? 4 * r->cap : 0;
    size_t slots = (n + 1) * r->cap, W = r->words;
    /* One block: the 8-byte arrays, then the 4-byte ones (padded to 8), then the states. */
    size_t b64 = (slots + slots * W + r->tcap + r->tcap * W + W) * sizeof(uint64_t) + (n + 1) * sizeof(size_t);
    size_t b32 = round8((slots + (n + 1) + 3 * (n ? n : 1) + r->tcap) * sizeof(uint32_t));
    size_t bst = (slots + r->tcap + 1) * r->ssz;
    unsigned char *block = calloc(1, b64 + b32 + bst);
    if (!block) return false;
    uint64_t *w64 = (uint64_t *)block;
    r->hashes = w64, w64 += slots;
    r->avail = w64, w64 += slots * W;
    r->t_hashes = w64, w64 += r->tcap;
    r->t_avail = w64, w64 += r->tcap * W;
    w64 += W; /* the candidate mask, see cand_mask() */
    r->node_end = (size_t *)w64;
    uint32_t *w32 = (uint32_t *)(block + b64);
    r->node = w32, w32 += slots;
    r->count = w32, w32 += n + 1;
    r->prev = w32, w32 += n ? n : 1;
    r->pending_no = w32, w32 += n ? n : 1;
    r->pending_op = w32, w32 += n ? n : 1;
    r->t_node = w32;
    r->states = block + b64 + b32;
    r->t_states = r->states + slots * r->ssz;
    r->scratch = r->t_states + r->tcap * r->ssz;
    uint32_t k = 0;
    for (size_t i = 0; i < n; i++) {
        bool pending = hit_pending(p, (uint32_t)i);
        r->pending_no[i] = pending ? k : UINT32_MAX;
        if (pending) r->pending_op[k++] = (uint32_t)i;
    }
    lf_spec_init(spec, r->states);
    r->hashes[0] = W ? lf_spec_hash(spec, r->states) : 0;
    r->node[0] = NO_NODE;
    r->count[0] = 1;
    r->fail_pos = SIZE_MAX;
    return true;
}

void lf_hit_replay_free(hit_replay *r) {
    free(r->hashes); /* the one block */
    free(r->node_op);
    free(r->node_parent);
    memset(r, 0, sizeof *r);
}

static inline unsigned char *slot_state(const hit_replay *r, size_t slot) { return r->states + slot * r->ssz; }
static inline unsigned char *t_state(const hit_replay *r, size_t t) { return r->t_states + t * r->ssz; }
/* Scratch mask for a candidate configuration (the word after the closure masks). */
static inline uint64_t *cand_mask(const hit_replay *r) { return r->t_avail + r->tcap * r->words; }

static bool subset(const uint64_t *a, const uint64_t *b, size_t words) {
    for (size_t w = 0; w < words; w++)
        if (a[w] & ~b[w]) return false;
    return true;
}

/* A new witness node; NO_NODE when out of memory. */
static uint32_t new_node(hit_replay *r, uint32_t op, uint32_t parent) {
    if (r->nodes == r->node_cap) {
        size_t cap = lf_grow_capacity(r->node_cap, r->nodes + 1, sizeof *r->node_op, 256);
        if (!cap || cap >= UINT32_MAX) return NO_NODE;
        uint32_t *o = realloc(r->node_op, cap * sizeof *o);
        if (!o) return NO_NODE;
        r->node_op = o;
        uint32_t *pa = realloc(r->node_parent, cap * sizeof *pa);
        if (!pa) return NO_NODE;
        r->node_parent = pa;
        r->node_cap = cap;
    }
    r->node_op[r->nodes] = op;
    r->node_parent[r->nodes] = parent;
    return (uint32_t)r->nodes++;
}

/* A list of configurations: the frontier of one position, or the closure workspace. */
typedef struct config_list {
    unsigned char *states;
    uint64_t *hashes, *avail;
    uint32_t *node;
    uint32_t *count;
    size_t cap;
    bool replace; /* a new configuration may take the slot of one it subsumes */
} config_list;

/* Adds the configuration (state, mask, node (op, parent)) to l unless one there subsumes it (same state,
 * superset of available pending ops). state may already sit in the list's next free slot. Returns false
 * when out of memory. */
static bool config_add(hit_replay *r, config_list *l, const unsigned char *state, const uint64_t *mask, uint32_t op,
                       uint32_t parent) {
    const size_t W = r->words;
    uint64_t h = lf_spec_hash(r->spec, state);
    size_t slot = *l->count;
    for (size_t j = 0; j < *l->count; j++) {
        if (l->hashes[j] != h || !lf_spec_equal(r->spec, l->states + j * r->ssz, state)) continue;
        if (subset(mask, l->avail + j * W, W)) return true; /* nothing new */
        if (l->replace && subset(l->avail + j * W, mask, W)) {
            slot = j; /* the new one can do everything the old one could */
            break;
        }
    }
    if (slot == l->cap) {
        r->dropped++;
        return true;
    }
    uint32_t nd = new_node(r, op, parent);
    if (nd == NO_NODE) return false;
    unsigned char *dst = l->states + slot * r->ssz;
    if (dst != state) memcpy(dst, state, r->ssz);
    l->hashes[slot] = h;
    memcpy(l->avail + slot * W, mask, W * sizeof *mask);
    l->node[slot] = nd;
    if (slot == *l->count) (*l->count)++;
    return true;
}

/* Computes frontier i+1 from frontier i by local op o. Returns false on a spec or memory failure. */
static bool advance(hit_replay *r, size_t i, uint32_t o) {
    const lf_spec_inst *spec = r->spec;
    const lf_op *op = &r->ops[r->p->op_of[o]];
    const size_t from = i * r->cap, to = (i + 1) * r->cap, W = r->words;
    if (W == 0) { /* no pending op anywhere: a single state per position */
        r->steps++;
        if (lf_spec_step(spec, slot_state(r, from), op, slot_state(r, to))) {
            r->count[i + 1] = 1;
        } else {
            r->count[i + 1] = 0;
            if (lf_spec_failed(spec)) return false;
        }
        return true;
    }
    uint32_t pno = r->pending_no[o];
    if (pno != UINT32_MAX) { /* a pending op becomes available; nothing takes effect yet */
        uint32_t c = r->count[i];
        memcpy(slot_state(r, to), slot_state(r, from), c * r->ssz);
        memcpy(r->hashes + to, r->hashes + from, c * sizeof *r->hashes);
        memcpy(r->node + to, r->node + from, c * sizeof *r->node);
        memcpy(r->avail + to * W, r->avail + from * W, c * W * sizeof *r->avail);
        for (uint32_t j = 0; j < c; j++) r->avail[(to + j) * W + pno / 64] |= UINT64_C(1) << (pno % 64);
        r->count[i + 1] = c;
        r->node_end[i + 1] = r->nodes;
        return true;
    }
    /* Closure: every configuration reachable by applying available pending ops, in any order. */
    uint32_t tcount = r->count[i];
    memcpy(r->t_states, slot_state(r, from), tcount * r->ssz);
    memcpy(r->t_hashes, r->hashes + from, tcount * sizeof *r->hashes);
    memcpy(r->t_node, r->node + from, tcount * sizeof *r->node);
    memcpy(r->t_avail, r->avail + from * W, tcount * W * sizeof *r->avail);
    config_list T = {r->t_states, r->t_hashes, r->t_avail, r->t_node, &tcount, r->tcap, false};
    uint64_t *mask = cand_mask(r);
    for (uint32_t t = 0; t < tcount; t++)
        for (size_t w = 0; w < W; w++)
            for (uint64_t bits = r->t_avail[t * W + w]; bits; bits &= bits - 1) {
                uint32_t q = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(bits));
                uint32_t local = r->pending_op[q];
                r->steps++;
                if (!lf_spec_step(spec, t_state(r, t), &r->ops[r->p->op_of[local]], r->scratch)) {
                    if (lf_spec_failed(spec)) return false;
                    continue;
                }
                memcpy(mask, r->t_avail + t * W, W * sizeof *mask);
                mask[q / 64] &= ~(UINT64_C(1) << (q % 64));
                if (!config_add(r, &T, r->scratch, mask, r->p->op_of[local], r->t_node[t])) return false;
            }
    /* Then the completed op, where its recorded result is legal. */
    r->count[i + 1] = 0;
    config_list F = {slot_state(r, to), r->hashes + to, r->avail + to * W, r->node + to, &r->count[i + 1], r->cap, true};
    for (uint32_t t = 0; t < tcount; t++) {
        r->steps++;
        unsigned char *dst = r->count[i + 1] < r->cap ? slot_state(r, to + r->count[i + 1]) : r->scratch;
        if (!lf_spec_step(spec, t_state(r, t), op, dst)) {
            if (lf_spec_failed(spec)) return false;
            continue;
        }
        if (!config_add(r, &F, dst, r->t_avail + t * W, r->p->op_of[o], r->t_node[t])) return false;
    }
    r->node_end[i + 1] = r->nodes;
    return true;
}

hit_replay_status lf_hit_replay_run(hit_replay *r, const uint32_t *sch) {
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
    r->nodes = r->node_end[lcp];
    memcpy(r->prev + lcp, sch + lcp, (r->n - lcp) * sizeof *sch);
    r->fail_pos = SIZE_MAX;
    for (size_t i = lcp; i < r->n; i++) {
        r->valid = i;
        if (!advance(r, i, sch[i])) {
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

size_t lf_hit_replay_witness(const hit_replay *r, uint32_t *out) {
    size_t len = 0;
    if (r->words == 0) { /* no pending op: the schedule itself */
        for (size_t i = 0; i < r->n; i++) out[len++] = r->p->op_of[r->prev[i]];
        return len;
    }
    for (uint32_t nd = r->node[r->n * r->cap]; nd != NO_NODE; nd = r->node_parent[nd]) out[len++] = r->node_op[nd];
    for (size_t a = 0, b = len; a + 1 < b; a++, b--) {
        uint32_t t = out[a];
        out[a] = out[b - 1];
        out[b - 1] = t;
    }
    return len;
}
