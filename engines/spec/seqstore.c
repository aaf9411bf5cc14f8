/* Hash-consed persistent sequences: node creation, and the memoised front operations (see seqstore.h). */
#include "spec/seqstore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

static uint64_t pair_key(uint32_t a, uint32_t b) { return ((uint64_t)a << 32) | b; }

bool lf_seqstore_init(lf_seqstore *s) {
    memset(s, 0, sizeof *s);
    s->cap = 256;
    s->nodes = malloc(s->cap * sizeof *s->nodes);
    if (!s->nodes) return false;
    s->nodes[0] = (lf_seq_node){LF_SEQ_EMPTY, 0, 0, 0, LF_SEQ_NONE};
    s->n = 1;
    return true;
}

void lf_seqstore_free(lf_seqstore *s) {
    free(s->nodes);
    free(s->chain);
    lf_u64map_free(&s->child);
    lf_u64map_free(&s->cons);
    lf_u64map_free(&s->ins);
    memset(s, 0, sizeof *s);
}

size_t lf_seqstore_bytes(const lf_seqstore *s) {
    return s->cap * sizeof *s->nodes + s->chain_cap * sizeof *s->chain + lf_u64map_bytes(&s->child) +
           lf_u64map_bytes(&s->cons) + lf_u64map_bytes(&s->ins);
}

uint32_t lf_seq_push_back(lf_seqstore *s, uint32_t seq, uint32_t v) {
    uint64_t key = pair_key(seq, v);
    uint32_t found = lf_u64map_get(&s->child, key);
    if (found != UINT32_MAX) return found;
    if (s->failed) return LF_SEQ_NONE;
    if (s->n == s->cap) {
        size_t cap = lf_grow_capacity(s->cap, (size_t)s->n + 1, sizeof *s->nodes, 1);
        lf_seq_node *nodes = cap && cap <= UINT32_MAX ? realloc(s->nodes, cap * sizeof *nodes) : NULL;
        if (!nodes) goto oom;
        s->nodes = nodes;
        s->cap = (uint32_t)cap;
    }
    uint32_t id = s->n;
    const lf_seq_node *p = &s->nodes[seq];
    s->nodes[id] = (lf_seq_node){seq, v, seq == LF_SEQ_EMPTY ? v : p->first, p->len + 1, LF_SEQ_NONE};
    if (!lf_u64map_put(&s->child, key, id)) goto oom;
    s->n++;
    return id;
oom:
    s->failed = true;
    return LF_SEQ_NONE;
}

/* Appends node to the scratch chain. */
static bool chain_push(lf_seqstore *s, size_t *len, uint32_t node) {
    if (!LF_GROW(s->chain, s->chain_cap, *len + 1, 64)) {
        s->failed = true;
        return false;
    }
    s->chain[(*len)++] = node;
    return true;
}

/* Rebuilds the chained nodes (deepest last in the chain, processed first) on top of base: for each node x
 * taken from the end of the chain, base := base + [last(x)], and memo[x] := base (the memo is chosen by
 * the caller: the tail field, or a (node, value) map). */
typedef enum { MEMO_TAIL, MEMO_CONS, MEMO_INS } memo_kind;

static uint32_t rebuild(lf_seqstore *s, size_t len, uint32_t base, memo_kind kind, uint32_t v) {
    while (len > 0) {
        uint32_t x = s->chain[--len];
        base = lf_seq_push_back(s, base, s->nodes[x].last);
        if (base == LF_SEQ_NONE) return LF_SEQ_NONE;
        if (kind == MEMO_TAIL) {
            s->nodes[x].tail = base;
        } else if (!lf_u64map_put(kind == MEMO_CONS ? &s->cons : &s->ins, pair_key(x, v), base)) {
            s->failed = true;
            return LF_SEQ_NONE;
        }
    }
    return base;
}

uint32_t lf_seq_pop_front(lf_seqstore *s, uint32_t seq) {
    /* tail(p + [x]) = tail(p) + [x], and tail([x]) = empty: walk up to a node whose tail is known. */
    size_t len = 0;
    uint32_t x = seq;
    while (s->nodes[x].tail == LF_SEQ_NONE && s->nodes[x].parent != LF_SEQ_EMPTY) {
        if (!chain_push(s, &len, x)) return LF_SEQ_NONE;
        x = s->nodes[x].parent;
    }
    if (s->nodes[x].tail == LF_SEQ_NONE) s->nodes[x].tail = LF_SEQ_EMPTY; /* x holds one element */
    return rebuild(s, len, s->nodes[x].tail, MEMO_TAIL, 0);
}

uint32_t lf_seq_push_front(lf_seqstore *s, uint32_t seq, uint32_t v) {
    /* [v] + (p + [x]) = ([v] + p) + [x]: walk up to a node with a known answer, or to the empty sequence. */
    size_t len = 0;
    uint32_t x = seq, base = LF_SEQ_NONE;
    while (x != LF_SEQ_EMPTY && (base = lf_u64map_get(&s->cons, pair_key(x, v))) == UINT32_MAX) {
        if (!chain_push(s, &len, x)) return LF_SEQ_NONE;
        x = s->nodes[x].parent;
    }
    if (x == LF_SEQ_EMPTY) base = lf_seq_push_back(s, LF_SEQ_EMPTY, v);
    if (base == LF_SEQ_NONE) return LF_SEQ_NONE;
    return rebuild(s, len, base, MEMO_CONS, v);
}

uint32_t lf_seq_insert_sorted(lf_seqstore *s, uint32_t seq, uint32_t v) {
    /* insert(p + [x], v) = p + [x] + [v] when x <= v, else insert(p, v) + [x]. */
    size_t len = 0;
    uint32_t x = seq, base = UINT32_MAX;
    while (x != LF_SEQ_EMPTY && s->nodes[x].last > v &&
           (base = lf_u64map_get(&s->ins, pair_key(x, v))) == UINT32_MAX) {
        if (!chain_push(s, &len, x)) return LF_SEQ_NONE;
        x = s->nodes[x].parent;
    }
    if (base == UINT32_MAX) base = lf_seq_push_back(s, x, v); /* x is empty or its last value is <= v */
    if (base == LF_SEQ_NONE) return LF_SEQ_NONE;
    return rebuild(s, len, base, MEMO_INS, v);
}

int lf_seq_describe(const lf_seqstore *s, uint32_t seq, const lf_value_table *t, char *buf, size_t len) {
    /* Nodes link backwards, so collect up to the last 16 values; the front ones may be elided. */
    enum { SHOW = 16 };
    uint32_t vals[SHOW];
    uint32_t n = s->nodes[seq].len, k = 0;
    for (uint32_t x = seq; x != LF_SEQ_EMPTY && k < SHOW; x = s->nodes[x].parent) vals[k++] = s->nodes[x].last;
    int w = snprintf(buf, len, "[%s", n > k ? "... " : "");
    for (uint32_t i = k; i-- > 0;) {
        char v[32];
        lf_value_table_describe(t, vals[i], v, sizeof v);
        size_t off = w > 0 && (size_t)w < len ? (size_t)w : len;
        w += snprintf(buf + off, len - off, "%s%s", v, i ? " " : "");
    }
    size_t off = w > 0 && (size_t)w < len ? (size_t)w : len;
    w += snprintf(buf + off, len - off, "]");
    return w;
}
