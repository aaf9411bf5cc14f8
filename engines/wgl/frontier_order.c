/* Paths of the frontier sweep as linearization orders (see frontier_order.h).
 *
 * Blocks. The sweep's block state closes its last block at every step's end (a SEALED mark in the path)
 * and at every remove or peek, so the inserts of one block are a run of consecutive insert ops of the
 * path, all open at one return: any order of them respects real time. Replaying the path with each block's
 * values still unplaced, every remove (or peek) of value v from the front block (queue) or top block
 * (stack) picks a member with value v and gives it the block's next free place from the front (queue) or
 * from the back (stack); a peeked member is pinned there, and the next remove takes it. Members never
 * removed fill the places left. The block state allowed exactly these choices, so the order replays.
 *
 * Kills. A killed op goes just before the last overwrite before its kill mark (the overwrite made it
 * invisible; docs/frontier.md), several before one overwrite in kill order. */
#include "wgl/frontier_order.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct bag {
    size_t start, end;  /* its members: raw[start..end), consecutive inserts */
    size_t front, back; /* next free places of perm from each end */
    size_t left;        /* members not removed */
    size_t pinned;      /* a peeked member the next remove takes, or SIZE_MAX */
} bag;

static bool is_insert(const lf_op *op) { return op->method == LF_M_ENQ || op->method == LF_M_PUSH; }

static bool is_remove_or_peek(const lf_op *op) {
    return !lf_op_pending(op) && (op->method == LF_M_DEQ || op->method == LF_M_POP || op->method == LF_M_PEEK);
}

/* Whether insert op `ins` puts the value that `obs` returned. */
static bool same_value(const lf_op *ins, const lf_op *obs) {
    if (lf_arg_is_nil(ins, 0)) return obs->res_kind == LF_K_NIL;
    return obs->res_kind == LF_K_INT && obs->res == ins->arg[0];
}

/* Reorders the inserts of each block of raw[0..len) (marks dropped) into seq; returns its length. */
static size_t order_blocks(const uint32_t *raw, size_t len, const lf_op *ops, bool stack, uint32_t *seq,
                           bag *bags, size_t *bag_of, size_t *perm, unsigned char *placed, unsigned char *gone) {
    size_t nb = 0, open = SIZE_MAX;
    for (size_t i = 0; i < len; i++) {
        bag_of[i] = SIZE_MAX;
        placed[i] = gone[i] = 0;
        if (raw[i] == LF_FPATH_SEALED) {
            open = SIZE_MAX;
        } else if (is_insert(&ops[raw[i]])) {
            if (open == SIZE_MAX) {
                open = nb++;
                bags[open] = (bag){i, i, i, i, 0, SIZE_MAX};
            }
            bag *b = &bags[open];
            b->end = b->back = i + 1;
            b->left++;
            bag_of[i] = open;
        } else if (is_remove_or_peek(&ops[raw[i]])) {
            open = SIZE_MAX;
        }
    }
    /* Replay: the bags holding values, front to back (queue: a moving head; stack: a stack of bags). */
    size_t *live = malloc((nb ? nb : 1) * sizeof *live);
    if (!live) return SIZE_MAX;
    size_t head = 0, top = 0;
    for (size_t i = 0; i < len; i++) {
        if (raw[i] == LF_FPATH_SEALED) continue;
        const lf_op *op = &ops[raw[i]];
        if (bag_of[i] != SIZE_MAX) {
            if (i == bags[bag_of[i]].start) live[top++] = bag_of[i];
            continue;
        }
        if (!is_remove_or_peek(op) || op->res_kind == LF_K_EMPTY) continue;
        while (!stack && head < top && bags[live[head]].left == 0) head++;
        while (stack && top > head && bags[live[top - 1]].left == 0) top--;
        if (head == top) continue; /* (cannot happen on a path of the sweep) */
        bag *b = &bags[stack ? live[top - 1] : live[head]];
        bool remove = op->method != LF_M_PEEK;
        size_t m = b->pinned;
        if (m == SIZE_MAX) {
            for (size_t j = b->start; j < b->end && m == SIZE_MAX; j++)
                if (!gone[j] && !placed[j] && same_value(&ops[raw[j]], op)) m = j;
            if (m == SIZE_MAX) continue; /* (cannot happen either) */
            perm[stack ? --b->back : b->front++] = m;
            placed[m] = 1;
            if (!remove) b->pinned = m;
        }
        if (remove) {
            gone[m] = 1;
            b->left--;
            b->pinned = SIZE_MAX;
        }
    }
    free(live);
    /* Members never removed nor peeked take the places left, in path order. */
    for (size_t k = 0; k < nb; k++) {
        bag *b = &bags[k];
        for (size_t j = b->start; j < b->end; j++)
            if (!placed[j]) perm[b->front++] = j;
    }
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (raw[i] == LF_FPATH_SEALED) continue;
        if (bag_of[i] == SIZE_MAX) {
            seq[n++] = raw[i];
        } else if (i == bags[bag_of[i]].start) {
            for (size_t j = bags[bag_of[i]].start; j < bags[bag_of[i]].end; j++) seq[n++] = raw[perm[j]];
        }
    }
    return n;
}

/* Places the killed ops of seq[0..len) before their overwriters, into out; returns the length. first and
 * next (len each) are scratch: the killed ops of each overwriter, a list in kill order. */
static size_t place_kills(const uint32_t *seq, size_t len, const unsigned char *overwrites, uint32_t *out,
                          size_t *first, size_t *next) {
    size_t last = SIZE_MAX, *tail = malloc((len ? len : 1) * sizeof *tail);
    unsigned char *moved = calloc(len ? len : 1, 1);
    if (!tail || !moved) {
        free(tail);
        free(moved);
        return SIZE_MAX;
    }
    for (size_t i = 0; i < len; i++) first[i] = next[i] = SIZE_MAX;
    for (size_t i = 0; i < len; i++) {
        if (!(seq[i] & LF_FPATH_KILLED)) {
            if (overwrites[seq[i]]) last = i;
            continue;
        }
        if (last == SIZE_MAX) continue; /* (never: a kill needs an overwrite before it; kept in place) */
        moved[i] = 1;
        if (first[last] == SIZE_MAX)
            first[last] = i;
        else
            next[tail[last]] = i;
        tail[last] = i;
    }
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (moved[i]) continue;
        for (size_t j = first[i]; j != SIZE_MAX; j = next[j]) out[n++] = seq[j] & ~LF_FPATH_KILLED;
        out[n++] = seq[i] & ~LF_FPATH_KILLED;
    }
    free(tail);
    free(moved);
    return n;
}

size_t lf_frontier_order(const lf_fpaths *paths, uint32_t path, const lf_op *ops, const unsigned char *overwrites,
                         lf_forder_kind kind, uint32_t *out) {
    size_t len = lf_fpaths_len(paths, path), l1 = len ? len : 1;
    uint32_t *raw = malloc(l1 * sizeof *raw), *seq = malloc(l1 * sizeof *seq);
    size_t *a = malloc(l1 * sizeof *a), *b = malloc(l1 * sizeof *b);
    bag *bags = kind != LF_FORDER_PLAIN ? malloc(l1 * sizeof *bags) : NULL;
    unsigned char *placed = kind != LF_FORDER_PLAIN ? malloc(l1) : NULL, *gone = placed ? malloc(l1) : NULL;
    size_t n = SIZE_MAX;
    if (raw && seq && a && b && (kind == LF_FORDER_PLAIN || (bags && placed && gone))) {
        lf_fpaths_read(paths, path, raw);
        size_t m = 0;
        if (kind == LF_FORDER_PLAIN) {
            for (size_t i = 0; i < len; i++)
                if (raw[i] != LF_FPATH_SEALED) seq[m++] = raw[i];
        } else {
            m = order_blocks(raw, len, ops, kind == LF_FORDER_STACK_BLOCKS, seq, bags, a, b, placed, gone);
        }
        if (m != SIZE_MAX) n = place_kills(seq, m, overwrites, out, a, b);
    }
    free(raw);
    free(seq);
    free(a);
    free(b);
    free(bags);
    free(placed);
    free(gone);
    return n;
}
