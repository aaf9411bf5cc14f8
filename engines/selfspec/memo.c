/* The self-spec's memo of serial prefixes: nodes, the edge and fingerprint tables, positioning the live
 * instance, the comparisons that detect serial nondeterminism, and the determinism probe (see memo.h). */
#include "selfspec/memo.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/hash.h"

/* ---- ops as the memo keys them ---- */

/* The identity of an op: its method and the arguments it has (unused slots and nil values zeroed). */
typedef struct op_key {
    int64_t arg[LF_CUSTOM_MAX_ARGS];
    uint8_t method, nil;
} op_key;

static op_key key_of(const ss_memo *m, const lf_op *op) {
    op_key k = {{0}, op->method, 0};
    unsigned nargs = op->method < 64 ? m->nargs[op->method] : 0;
    k.nil = (uint8_t)(op->arg_nil & ((1u << nargs) - 1));
    for (unsigned i = 0; i < nargs; i++)
        if (!((k.nil >> i) & 1)) k.arg[i] = op->arg[i];
    return k;
}

static uint64_t edge_hash(uint32_t parent, const op_key *k) {
    uint64_t h = lf_mix64(((uint64_t)parent << 16) ^ ((uint64_t)k->method << 8) ^ k->nil ^ 0x51ed5e1f5e1f);
    h = lf_mix64(h ^ (uint64_t)k->arg[0]);
    h = lf_mix64(h ^ (uint64_t)k->arg[1] * 0x9e3779b97f4a7c15ull);
    for (int i = 2; i < LF_CUSTOM_MAX_ARGS; i++) h = lf_mix64(h ^ (uint64_t)k->arg[i] * (0x9e3779b97f4a7c15ull + 2u * (unsigned)i));
    return h;
}

static bool node_has_key(const ss_node *n, uint32_t parent, const op_key *k) {
    return n->parent == parent && n->method == k->method && n->arg_nil == k->nil &&
           !memcmp(n->arg, k->arg, sizeof n->arg);
}

static lf_op op_of_node(const ss_node *n) {
    lf_op op;
    memset(&op, 0, sizeof op);
    op.method = n->method;
    op.arg_nil = n->arg_nil;
    memcpy(op.arg, n->arg, sizeof op.arg);
    op.thread = n->thread;
    op.res_kind = n->res_kind == SS_BLOCKED ? LF_K_PENDING : n->res_kind;
    op.res = n->res;
    op.call = 2 * (uint64_t)n->depth + 1;
    op.ret = op.call + 1;
    return op;
}

int lf_ss_describe_node(const ss_memo *m, uint32_t node, char *buf, size_t len) {
    lf_op op = op_of_node(&m->nodes[node]);
    char full[256];
    lf_history_describe_op(&m->type, &op, full, sizeof full);
    /* drop "tN [a,b] ": the stamps of a serial replay say nothing */
    const char *p = strchr(full, ']');
    p = p ? p + 2 : full;
    if (m->nodes[node].res_kind == SS_BLOCKED) return snprintf(buf, len, "%s (blocks)", p);
    return snprintf(buf, len, "%s", p);
}

/* ---- tables ---- */

static bool grow_edges(ss_memo *m) {
    size_t cap = m->edge_cap ? m->edge_cap * 2 : 1024;
    uint32_t *node = malloc(cap * sizeof *node);
    uint64_t *hash = malloc(cap * sizeof *hash);
    if (!node || !hash) {
        free(node);
        free(hash);
        return false;
    }
    memset(node, 0xff, cap * sizeof *node);
    for (size_t i = 0; i < m->edge_cap; i++) {
        if (m->edge_node[i] == SS_NONE) continue;
        size_t s = m->edge_hash[i] & (cap - 1);
        while (node[s] != SS_NONE) s = (s + 1) & (cap - 1);
        node[s] = m->edge_node[i];
        hash[s] = m->edge_hash[i];
    }
    free(m->edge_node);
    free(m->edge_hash);
    m->edge_node = node;
    m->edge_hash = hash;
    m->edge_cap = cap;
    return true;
}

/* The first node of edge (parent, k), or SS_NONE; *slot is where a new edge would go. */
static uint32_t edge_find(const ss_memo *m, uint32_t parent, const op_key *k, uint64_t h, size_t *slot) {
    size_t s = h & (m->edge_cap - 1);
    while (m->edge_node[s] != SS_NONE) {
        if (m->edge_hash[s] == h && node_has_key(&m->nodes[m->edge_node[s]], parent, k)) {
            *slot = s;
            return m->edge_node[s];
        }
        s = (s + 1) & (m->edge_cap - 1);
    }
    *slot = s;
    return SS_NONE;
}

static bool grow_fps(ss_memo *m) {
    size_t cap = m->fp_cap ? m->fp_cap * 2 : 1024;
    uint64_t *key = malloc(cap * sizeof *key);
    uint32_t *node = malloc(cap * sizeof *node);
    if (!key || !node) {
        free(key);
        free(node);
        return false;
    }
    memset(node, 0xff, cap * sizeof *node);
    for (size_t i = 0; i < m->fp_cap; i++) {
        if (m->fp_node[i] == SS_NONE) continue;
        size_t s = lf_mix64(m->fp_key[i]) & (cap - 1);
        while (node[s] != SS_NONE) s = (s + 1) & (cap - 1);
        node[s] = m->fp_node[i];
        key[s] = m->fp_key[i];
    }
    free(m->fp_key);
    free(m->fp_node);
    m->fp_key = key;
    m->fp_node = node;
    m->fp_cap = cap;
    return true;
}

/* The canonical node of fingerprint fp, after inserting node under it when it is new. SS_NONE: no memory. */
static uint32_t fp_canon(ss_memo *m, uint64_t fp, uint32_t node) {
    if (2 * (m->fp_count + 1) > m->fp_cap && !grow_fps(m)) return SS_NONE;
    size_t s = lf_mix64(fp) & (m->fp_cap - 1);
    while (m->fp_node[s] != SS_NONE) {
        if (m->fp_key[s] == fp) return m->fp_node[s];
        s = (s + 1) & (m->fp_cap - 1);
    }
    m->fp_key[s] = fp;
    m->fp_node[s] = node;
    m->fp_count++;
    return node;
}

static void fail(ss_memo *m, ss_failure f, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(ss_memo *m, ss_failure f, const char *fmt, ...) {
    if (m->failure != SS_FINE) return; /* the first failure explains the check */
    m->failure = f;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->why, sizeof m->why, fmt, ap);
    va_end(ap);
}

static uint32_t new_node(ss_memo *m) {
    if (m->n_nodes >= m->opts.max_nodes) {
        fail(m, SS_TOO_BIG, "the memo of serial prefixes reached its limit of %zu states", m->opts.max_nodes);
        return SS_NONE;
    }
    if (!LF_GROW(m->nodes, m->cap_nodes, m->n_nodes + 1, 1024)) {
        fail(m, SS_NOMEM, "out of memory for the memo of serial prefixes");
        return SS_NONE;
    }
    uint32_t id = (uint32_t)m->n_nodes++;
    memset(&m->nodes[id], 0, sizeof m->nodes[id]);
    m->nodes[id].sibling = SS_NONE;
    if (m->stats && id != SS_ROOT) m->stats->nodes++;
    return id;
}

/* ---- life cycle ---- */

bool lf_ss_memo_init(ss_memo *m, const lf_oracle *oracle, const lf_selfspec_options *opts, lf_selfspec_stats *stats) {
    memset(m, 0, sizeof *m);
    m->oracle = oracle;
    m->opts = *opts;
    if (m->opts.nondet_tries < 1) m->opts.nondet_tries = 1;
    if (m->opts.max_nodes < 2) m->opts.max_nodes = 2;
    if (m->opts.max_nodes > UINT32_MAX - 1) m->opts.max_nodes = UINT32_MAX - 1;
    m->stats = stats;
    m->use_fp = opts->use_fingerprint && oracle->fingerprint;
    lf_history_init(&m->type, LF_TYPE_REGISTER);
    m->live = SS_NONE;
    lf_ss_memo_clear(m);
    return m->edge_node != NULL && m->n_nodes == 1;
}

void lf_ss_memo_free(ss_memo *m) {
    free(m->nodes);
    free(m->edge_node);
    free(m->edge_hash);
    free(m->fp_key);
    free(m->fp_node);
    free(m->path);
    lf_history_free(&m->type);
    memset(m, 0, sizeof *m);
}

void lf_ss_memo_clear(ss_memo *m) {
    m->n_nodes = 0;
    m->edge_count = m->fp_count = 0;
    if (m->edge_node) memset(m->edge_node, 0xff, m->edge_cap * sizeof *m->edge_node);
    else grow_edges(m);
    if (m->fp_node) memset(m->fp_node, 0xff, m->fp_cap * sizeof *m->fp_node);
    m->live = SS_NONE;
    m->failure = SS_FINE;
    uint32_t root = new_node(m);
    if (root != SS_NONE) {
        m->nodes[root].parent = SS_NONE;
        m->nodes[root].canon = root;
        m->nodes[root].res_kind = LF_K_NONE;
        m->nodes[root].tries = 0; /* the root's fingerprint is known once tries is 1 */
    }
}

/* The same type (method arities, flags and names)? */
static bool same_type(const lf_history *a, const lf_history *b) {
    if (a->type != b->type) return false;
    return a->type != LF_TYPE_CUSTOM || lf_type_desc_equal(a->custom, b->custom);
}

bool lf_ss_memo_begin(ss_memo *m, const lf_history *h) {
    bool clear = !m->bound || !same_type(&m->type, h) || m->failure != SS_FINE || m->n_nodes == 0 ||
                 2 * m->n_nodes > m->opts.max_nodes;
    if (!m->bound || !same_type(&m->type, h)) {
        lf_history_free(&m->type);
        lf_history_init(&m->type, h->type);
        if (!lf_history_set_type_of(&m->type, h)) return false;
        memset(m->nargs, 0, sizeof m->nargs);
        memset(m->flags, 0, sizeof m->flags);
        unsigned count = lf_history_method_count(h);
        for (unsigned i = 0; i < count && i < 64; i++) {
            const lf_method_decl *d = lf_history_method(h, i);
            if (d) m->nargs[i] = d->nargs, m->flags[i] = d->flags;
        }
        m->bound = true;
    }
    if (clear) lf_ss_memo_clear(m);
    m->failure = SS_FINE;
    m->why[0] = 0;
    m->uncertain = m->incomplete = false;
    m->uncertain_why[0] = 0;
    return m->n_nodes > 0;
}

/* ---- running the implementation ---- */

static lf_oracle_status apply_node_op(ss_memo *m, const ss_node *n, lf_kind *kind, int64_t *value) {
    lf_op op = op_of_node(n);
    op.res_kind = LF_K_NONE;
    op.res = 0;
    *kind = LF_K_NONE;
    *value = 0;
    if (m->stats) m->stats->oracle_ops++;
    return m->oracle->apply(m->oracle->self, &op, kind, value);
}

static bool do_reset(ss_memo *m) {
    m->live = SS_NONE;
    if (m->stats) m->stats->resets++;
    if (!m->oracle->reset(m->oracle->self)) {
        fail(m, SS_ORACLE_ERROR, "the implementation could not make a fresh instance");
        return false;
    }
    if (m->use_fp) {
        ss_node *root = &m->nodes[SS_ROOT];
        uint64_t fp = m->oracle->fingerprint(m->oracle->self);
        if (!root->tries) {
            root->fp = fp;
            root->tries = 1;
            if (fp_canon(m, fp, SS_ROOT) == SS_NONE) {
                fail(m, SS_NOMEM, "out of memory for the fingerprint table");
                return false;
            }
        } else if (fp != root->fp) {
            m->nd_node = SS_ROOT;
            fail(m, SS_NONDETERMINISM,
                 "two fresh instances have different state fingerprints (%016" PRIx64 " and %016" PRIx64 ")", root->fp,
                 fp);
            return false;
        }
    }
    m->live = SS_ROOT;
    return true;
}

static bool result_equal(const ss_node *n, lf_oracle_status st, lf_kind kind, int64_t value) {
    if (n->res_kind == SS_BLOCKED) return st == LF_ORACLE_BLOCKED;
    return st == LF_ORACLE_OK && n->res_kind == (uint8_t)kind && (kind != LF_K_INT || n->res == value);
}

static void describe_result(lf_oracle_status st, lf_kind kind, int64_t value, char *buf, size_t len) {
    if (st == LF_ORACLE_BLOCKED)
        snprintf(buf, len, "blocks");
    else if (kind == LF_K_INT)
        snprintf(buf, len, "-> %" PRId64, value);
    else if (kind == LF_K_NONE)
        snprintf(buf, len, "no result");
    else
        snprintf(buf, len, "-> %s", lf_kind_name(kind));
}

/* Records that node's op, replayed in its parent's state, answered (st, kind, value) or fp unlike before. */
static void nondeterminism(ss_memo *m, uint32_t node, lf_oracle_status st, lf_kind kind, int64_t value,
                           bool fp_only, uint64_t fp) {
    char was[220], got[64];
    lf_ss_describe_node(m, node, was, sizeof was);
    describe_result(st, kind, value, got, sizeof got);
    m->nd_node = node;
    if (fp_only)
        fail(m, SS_NONDETERMINISM,
             "replaying %" PRIu32 " serial ops on a fresh instance: op %" PRIu32 " (%s) left another state "
             "(fingerprint %016" PRIx64 ", was %016" PRIx64 ")",
             m->nodes[node].depth, m->nodes[node].depth, was, fp, m->nodes[node].fp);
    else
        fail(m, SS_NONDETERMINISM,
             "replaying %" PRIu32 " serial ops on a fresh instance: op %" PRIu32 " (%s) answered %s this time",
             m->nodes[node].depth, m->nodes[node].depth, was, got);
}

/* Brings the live instance to state x (continuing on it when it stands on x's path, else from a fresh one),
 * comparing every replayed op with its stored result and fingerprint. False when x cannot be reached: the
 * memo failed, or x lies behind outcomes of nondeterministic methods that nondet_tries replays did not give
 * again (m->uncertain). */
static bool bring_to(ss_memo *m, uint32_t x) {
    if (m->live == x) return true;
    for (unsigned attempt = 0; attempt < m->opts.nondet_tries; attempt++) {
        size_t k = 0;
        uint32_t cur = x;
        while (cur != SS_ROOT && cur != m->live) {
            if (!LF_GROW(m->path, m->path_cap, k + 1, 256)) {
                fail(m, SS_NOMEM, "out of memory");
                return false;
            }
            m->path[k++] = cur;
            cur = m->nodes[cur].parent;
        }
        if (cur != m->live && !do_reset(m)) return false; /* the path starts at the root */
        bool diverged = false;
        while (k > 0 && !diverged) {
            uint32_t id = m->path[--k];
            const ss_node *n = &m->nodes[id];
            lf_kind kind;
            int64_t value;
            lf_oracle_status st = apply_node_op(m, n, &kind, &value);
            if (m->stats) m->stats->replayed_ops++;
            if (st == LF_ORACLE_ERROR) {
                m->live = SS_NONE;
                fail(m, SS_ORACLE_ERROR, "the implementation failed replaying a serial prefix");
                return false;
            }
            bool nondet = m->flags[n->method] & LF_MF_NONDET;
            if (!result_equal(n, st, kind, value)) {
                m->live = SS_NONE;
                if (!nondet) {
                    nondeterminism(m, id, st, kind, value, false, 0);
                    return false;
                }
                diverged = true;
                break;
            }
            if (m->use_fp) {
                uint64_t fp = m->oracle->fingerprint(m->oracle->self);
                if (fp != n->fp) {
                    m->live = SS_NONE;
                    if (!nondet) {
                        nondeterminism(m, id, st, kind, value, true, fp);
                        return false;
                    }
                    diverged = true;
                    break;
                }
            }
            m->live = id;
        }
        if (!diverged) {
            m->live = x;
            return true;
        }
    }
    m->uncertain = true;
    snprintf(m->uncertain_why, sizeof m->uncertain_why,
             "a state behind results of nondeterministic methods was not reached again in %u serial replays",
             m->opts.nondet_tries);
    return false;
}

/* Runs the op of edge (x, k) once from state x, on `thread`; returns its node (an existing one of the edge
 * with the same outcome, or a new one), or SS_NONE when x could not be reached or the memo failed. */
static uint32_t run_edge(ss_memo *m, uint32_t x, const op_key *k, uint32_t thread, uint64_t h) {
    if (!bring_to(m, x)) return SS_NONE;
    ss_node probe;
    memset(&probe, 0, sizeof probe);
    probe.method = k->method;
    probe.arg_nil = k->nil;
    memcpy(probe.arg, k->arg, sizeof probe.arg);
    probe.thread = thread;
    probe.depth = m->nodes[x].depth + 1;
    lf_kind kind;
    int64_t value;
    lf_oracle_status st = apply_node_op(m, &probe, &kind, &value);
    if (m->stats) m->stats->new_ops++;
    if (st == LF_ORACLE_ERROR) {
        m->live = SS_NONE;
        fail(m, SS_ORACLE_ERROR, "the implementation failed running an op");
        return SS_NONE;
    }
    uint8_t flags = m->flags[k->method];
    if (st == LF_ORACLE_BLOCKED && !(flags & LF_MF_BLOCKS)) {
        fail(m, SS_BAD_BLOCK, "method %s blocked in a serial run but is not declared to block (LF_MF_BLOCKS)",
             lf_history_method(&m->type, k->method) ? lf_history_method(&m->type, k->method)->name : "?");
        return SS_NONE;
    }
    uint64_t fp = st == LF_ORACLE_OK && m->use_fp ? m->oracle->fingerprint(m->oracle->self) : 0;
    /* an outcome seen before on this edge (nondeterministic methods run an edge several times) */
    size_t slot;
    uint32_t first = edge_find(m, x, k, h, &slot);
    uint32_t last = SS_NONE;
    for (uint32_t c = first; c != SS_NONE; last = c, c = m->nodes[c].sibling)
        if (result_equal(&m->nodes[c], st, kind, value) && (!m->use_fp || st != LF_ORACLE_OK || m->nodes[c].fp == fp)) {
            m->nodes[first].tries = m->nodes[first].tries < 255 ? (uint8_t)(m->nodes[first].tries + 1) : 255;
            m->live = st == LF_ORACLE_OK ? m->nodes[c].canon : x;
            return c;
        }
    if (first == SS_NONE && 2 * (m->edge_count + 1) > m->edge_cap) {
        if (!grow_edges(m)) {
            fail(m, SS_NOMEM, "out of memory for the memo's edges");
            return SS_NONE;
        }
        edge_find(m, x, k, h, &slot);
    }
    uint32_t id = new_node(m);
    if (id == SS_NONE) return SS_NONE;
    ss_node *n = &m->nodes[id];
    *n = probe;
    n->parent = x;
    n->sibling = SS_NONE;
    n->tries = 0;
    if (st == LF_ORACLE_BLOCKED) {
        n->res_kind = SS_BLOCKED;
        n->canon = SS_NONE; /* not a state: the op was not performed, the instance stays at x */
        m->live = x;
    } else {
        n->res_kind = (uint8_t)kind;
        n->res = kind == LF_K_INT ? value : 0;
        n->canon = id;
        if (m->use_fp) {
            n->fp = fp;
            uint32_t canon = fp_canon(m, fp, id);
            if (canon == SS_NONE) {
                fail(m, SS_NOMEM, "out of memory for the fingerprint table");
                return SS_NONE;
            }
            n->canon = canon;
            if (canon != id && m->stats) m->stats->merged++;
            if ((flags & LF_MF_OBSERVER) && fp != m->nodes[x].fp) {
                char d[220];
                lf_ss_describe_node(m, id, d, sizeof d);
                fail(m, SS_BAD_OBSERVER, "%s is declared an observer (LF_MF_OBSERVER) but changed the state fingerprint",
                     d);
                return SS_NONE;
            }
        }
        m->live = n->canon;
    }
    if (first == SS_NONE) {
        m->edge_node[slot] = id;
        m->edge_hash[slot] = h;
        m->edge_count++;
        first = id;
    } else {
        m->nodes[last].sibling = id;
    }
    m->nodes[first].tries = m->nodes[first].tries < 255 ? (uint8_t)(m->nodes[first].tries + 1) : 255;
    return id;
}

static bool outcome_is(const ss_node *n, const lf_op *op) {
    return n->res_kind != SS_BLOCKED && n->res_kind == op->res_kind && (op->res_kind != LF_K_INT || n->res == op->res);
}

bool lf_ss_step(ss_memo *m, uint32_t x, const lf_op *op, uint32_t *next) {
    if (m->stats) m->stats->steps++;
    if (m->failure != SS_FINE || op->method >= 64) return false;
    op_key k = key_of(m, op);
    uint64_t h = edge_hash(x, &k);
    size_t slot;
    uint32_t first = edge_find(m, x, &k, h, &slot);
    bool nondet = m->flags[k.method] & LF_MF_NONDET;
    if (!lf_op_pending(op)) {
        for (uint32_t c = first; c != SS_NONE; c = m->nodes[c].sibling)
            if (outcome_is(&m->nodes[c], op)) {
                if (m->stats) m->stats->memo_hits++;
                *next = m->nodes[c].canon;
                return true;
            }
        unsigned max = nondet ? m->opts.nondet_tries : 1;
        unsigned tries = first != SS_NONE ? m->nodes[first].tries : 0;
        if (first != SS_NONE && tries >= max && m->stats) m->stats->memo_hits++;
        for (; tries < max; tries++) {
            uint32_t c = run_edge(m, x, &k, op->thread, h);
            if (c == SS_NONE) return false;
            if (outcome_is(&m->nodes[c], op)) {
                *next = m->nodes[c].canon;
                return true;
            }
        }
        if (nondet && !m->uncertain) {
            m->uncertain = true;
            char d[160];
            lf_history_describe_op(&m->type, op, d, sizeof d);
            snprintf(m->uncertain_why, sizeof m->uncertain_why,
                     "the result of %.160s (a nondeterministic method) did not come up in %u serial runs from some state",
                     d, max);
        }
        return false;
    }
    /* pending: it takes effect with whatever result the implementation gives (one outcome of a
     * nondeterministic method: the others are not explored) */
    if (first == SS_NONE) {
        first = run_edge(m, x, &k, op->thread, h);
        if (first == SS_NONE) return false;
    } else if (m->stats) {
        m->stats->memo_hits++;
    }
    for (uint32_t c = first; c != SS_NONE; c = m->nodes[c].sibling)
        if (m->nodes[c].res_kind != SS_BLOCKED) {
            if (nondet) m->incomplete = true;
            *next = m->nodes[c].canon;
            return true;
        }
    return false;
}

bool lf_ss_probe(ss_memo *m, const lf_op *ops, const uint32_t *order, size_t n, unsigned extra) {
    if (m->failure != SS_FINE) return false;
    uint32_t *chosen = malloc((n ? n : 1) * sizeof *chosen);
    if (!chosen) {
        fail(m, SS_NOMEM, "out of memory");
        return false;
    }
    /* the serial run of the call order, through the memo */
    size_t len = 0;
    uint32_t cur = SS_ROOT;
    for (size_t i = 0; i < n; i++) {
        const lf_op *op = &ops[order[i]];
        op_key k = key_of(m, op);
        uint64_t h = edge_hash(cur, &k);
        size_t slot;
        uint32_t c = edge_find(m, cur, &k, h, &slot);
        if (c == SS_NONE) c = run_edge(m, cur, &k, op->thread, h);
        if (c == SS_NONE) break;
        if (m->nodes[c].res_kind == SS_BLOCKED) break; /* the serial run cannot go on */
        chosen[len++] = c;
        cur = m->nodes[c].canon;
    }
    /* the same ops again from fresh instances, compared op by op */
    for (unsigned r = 0; r < extra && m->failure == SS_FINE; r++) {
        if (!do_reset(m)) break;
        for (size_t i = 0; i < len; i++) {
            const ss_node *c = &m->nodes[chosen[i]];
            lf_kind kind;
            int64_t value;
            lf_oracle_status st = apply_node_op(m, c, &kind, &value);
            if (m->stats) m->stats->replayed_ops++;
            m->live = SS_NONE;
            if (st == LF_ORACLE_ERROR) {
                fail(m, SS_ORACLE_ERROR, "the implementation failed replaying the call order");
                break;
            }
            bool nondet = m->flags[c->method] & LF_MF_NONDET;
            if (!result_equal(c, st, kind, value)) {
                if (!nondet) nondeterminism(m, chosen[i], st, kind, value, false, 0);
                break; /* a nondeterministic method took another outcome: this replay can go no further */
            }
            if (m->use_fp) {
                uint64_t fp = m->oracle->fingerprint(m->oracle->self);
                if (fp != c->fp) {
                    if (!nondet) nondeterminism(m, chosen[i], st, kind, value, true, fp);
                    break;
                }
            }
            if (i + 1 == len) m->live = c->canon;
        }
    }
    free(chosen);
    return m->failure == SS_FINE;
}

bool lf_ss_memo_path_history(const ss_memo *m, uint32_t node, lf_history *out) {
    lf_history_init(out, m->type.type);
    if (!lf_history_set_type_of(out, &m->type)) return false;
    if (node == SS_ROOT || node >= m->n_nodes) return true;
    size_t k = m->nodes[node].depth;
    lf_op *ops = calloc(k ? k : 1, sizeof *ops);
    if (!ops) return false;
    for (uint32_t cur = node; cur != SS_ROOT && k > 0; cur = m->nodes[cur].parent) {
        lf_op op = op_of_node(&m->nodes[cur]);
        op.thread = 0;
        ops[--k] = op;
    }
    bool ok = true;
    for (size_t i = 0; i < m->nodes[node].depth && ok; i++) ok = lf_history_push(out, &ops[i]);
    free(ops);
    return ok;
}
