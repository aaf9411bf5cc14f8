/* Property tests of the built-in specs against an independent reference model (plain arrays), on long
 * random sequential runs that reach the big-state representations (sets over hundreds of values and maps
 * over dozens of keys, which switch to hash-consed handles; sequences hundreds long, which exercise the
 * memoised front operations of the sequence store):
 *  - step accepts the model's result and rejects a wrong one;
 *  - step is pure (the input state is unchanged) and deterministic;
 *  - a pending op is accepted and has the same effect as with its true result;
 *  - an op the spec calls an observer never changes a state in which it is legal;
 *  - an op the spec says overwrites the state is legal in every state and leaves the same state in all;
 *  - two states are equal iff the model's contents are equal, and equal states hash equally. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/generate.h"
#include "linfuzz/spec.h"
#include "test_util.h"

#define MAXV 2048

/* ---- reference model ---- */

typedef struct model {
    int64_t v[MAXV];  /* set, pqueue: any order; stack: bottom..top; queue, deque: front..back */
    bool nil[MAXV];   /* register: nil[0]; kv: value is nil */
    int64_t key[MAXV]; /* kv keys (values in v) */
    size_t len;
    int64_t counter;
} model;

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Canonical text of the model's contents: equal iff the abstract states are equal. */
static void model_text(const model *m, lf_type t, char *buf, size_t len) {
    size_t w = 0;
    int64_t *tmp = malloc((m->len + 1) * sizeof *tmp);
    memcpy(tmp, t == LF_TYPE_KV ? m->key : m->v, m->len * sizeof *tmp);
    if (t == LF_TYPE_SET || t == LF_TYPE_PQUEUE) qsort(tmp, m->len, sizeof *tmp, cmp_i64);
    if (t == LF_TYPE_REGISTER || t == LF_TYPE_CAS_REGISTER) {
        w += (size_t)snprintf(buf, len, m->nil[0] ? "nil" : "%" PRId64, m->v[0]);
    } else if (t == LF_TYPE_COUNTER) {
        w += (size_t)snprintf(buf, len, "%" PRId64, m->counter);
    } else if (t == LF_TYPE_KV) {
        /* (key, value) pairs in key order */
        qsort(tmp, m->len, sizeof *tmp, cmp_i64);
        for (size_t i = 0; i < m->len && w < len; i++) {
            size_t j = 0;
            while (m->key[j] != tmp[i]) j++;
            w += (size_t)snprintf(buf + w, len - w, m->nil[j] ? "%" PRId64 ":nil," : "%" PRId64 ":%" PRId64 ",",
                                  tmp[i], m->v[j]);
        }
    } else {
        for (size_t i = 0; i < m->len && w < len; i++) w += (size_t)snprintf(buf + w, len - w, "%" PRId64 ",", tmp[i]);
    }
    if (w == 0 && len) buf[0] = '\0';
    free(tmp);
}

static size_t find(const int64_t *a, size_t n, int64_t x) {
    for (size_t i = 0; i < n; i++)
        if (a[i] == x) return i;
    return SIZE_MAX;
}

static void remove_at(model *m, size_t i) {
    memmove(&m->v[i], &m->v[i + 1], (m->len - i - 1) * sizeof *m->v);
    memmove(&m->key[i], &m->key[i + 1], (m->len - i - 1) * sizeof *m->key);
    memmove(&m->nil[i], &m->nil[i + 1], (m->len - i - 1) * sizeof *m->nil);
    m->len--;
}

static void set_int(lf_op *op, int64_t v) {
    op->res_kind = LF_K_INT;
    op->res = v;
}
static void set_bool(lf_op *op, bool b) { op->res_kind = b ? LF_K_TRUE : LF_K_FALSE; }

/* Applies op to the model and writes the correct result into op. */
static void model_apply(model *m, lf_type t, lf_op *op) {
    int64_t a = op->arg[0];
    size_t i;
    op->res_kind = LF_K_NONE;
    switch ((lf_method)op->method) {
    case LF_M_WRITE:
        m->v[0] = a;
        m->nil[0] = lf_arg_is_nil(op, 0);
        break;
    case LF_M_READ:
        if (m->nil[0])
            op->res_kind = LF_K_NIL;
        else
            set_int(op, m->v[0]);
        break;
    case LF_M_CAS: {
        bool match = m->nil[0] ? lf_arg_is_nil(op, 0) : (!lf_arg_is_nil(op, 0) && m->v[0] == a);
        op->res_kind = match ? LF_K_OK : LF_K_FAIL;
        if (match) {
            m->v[0] = op->arg[1];
            m->nil[0] = lf_arg_is_nil(op, 1);
        }
        break;
    }
    case LF_M_ADD:
        i = find(m->v, m->len, a);
        set_bool(op, i == SIZE_MAX);
        if (i == SIZE_MAX) m->v[m->len++] = a;
        break;
    case LF_M_REMOVE:
        i = find(m->v, m->len, a);
        set_bool(op, i != SIZE_MAX);
        if (i != SIZE_MAX) remove_at(m, i);
        break;
    case LF_M_CONTAINS: set_bool(op, find(m->v, m->len, a) != SIZE_MAX); break;
    case LF_M_PUSH:
    case LF_M_ENQ:
    case LF_M_INSERT:
    case LF_M_PUSH_BACK: m->v[m->len++] = a; break;
    case LF_M_PUSH_FRONT:
        memmove(&m->v[1], &m->v[0], m->len * sizeof *m->v);
        m->v[0] = a;
        m->len++;
        break;
    case LF_M_POP:
    case LF_M_POP_BACK:
    case LF_M_PEEK_BACK:
        if (!m->len) {
            op->res_kind = LF_K_EMPTY;
            break;
        }
        set_int(op, m->v[m->len - 1]);
        if (op->method != LF_M_PEEK_BACK) m->len--;
        break;
    case LF_M_PEEK:
        if (!m->len) {
            op->res_kind = LF_K_EMPTY;
            break;
        }
        if (t == LF_TYPE_STACK)
            set_int(op, m->v[m->len - 1]);
        else if (t == LF_TYPE_QUEUE)
            set_int(op, m->v[0]);
        else {
            int64_t mn = m->v[0];
            for (size_t k = 1; k < m->len; k++) mn = m->v[k] < mn ? m->v[k] : mn;
            set_int(op, mn);
        }
        break;
    case LF_M_DEQ:
    case LF_M_POP_FRONT:
    case LF_M_PEEK_FRONT:
        if (!m->len) {
            op->res_kind = LF_K_EMPTY;
            break;
        }
        set_int(op, m->v[0]);
        if (op->method != LF_M_PEEK_FRONT) remove_at(m, 0);
        break;
    case LF_M_POLL: {
        if (!m->len) {
            op->res_kind = LF_K_EMPTY;
            break;
        }
        size_t mi = 0;
        for (size_t k = 1; k < m->len; k++)
            if (m->v[k] < m->v[mi]) mi = k;
        set_int(op, m->v[mi]);
        remove_at(m, mi);
        break;
    }
    case LF_M_PUT:
        i = find(m->key, m->len, a);
        if (i == SIZE_MAX) i = m->len++;
        m->key[i] = a;
        m->v[i] = op->arg[1];
        m->nil[i] = lf_arg_is_nil(op, 1);
        break;
    case LF_M_GET:
        if (t == LF_TYPE_COUNTER) {
            set_int(op, m->counter);
            break;
        }
        i = find(m->key, m->len, a);
        if (i == SIZE_MAX || m->nil[i])
            op->res_kind = LF_K_NIL;
        else
            set_int(op, m->v[i]);
        break;
    case LF_M_DELETE:
        i = find(m->key, m->len, a);
        set_bool(op, i != SIZE_MAX);
        if (i != SIZE_MAX) remove_at(m, i);
        break;
    case LF_M_INC: m->counter++; break;
    default: break;
    }
}

/* A wrong result for op (same method), or false when the method has no result to get wrong. */
static bool wrong_result(const lf_op *op, lf_op *bad, int64_t other_value) {
    *bad = *op;
    switch (op->res_kind) {
    case LF_K_TRUE: bad->res_kind = LF_K_FALSE; return true;
    case LF_K_FALSE: bad->res_kind = LF_K_TRUE; return true;
    case LF_K_OK: bad->res_kind = LF_K_FAIL; return true;
    case LF_K_FAIL: bad->res_kind = LF_K_OK; return true;
    case LF_K_INT:
        if (other_value != op->res)
            bad->res = other_value;
        else
            bad->res_kind = op->method == LF_M_GET ? LF_K_NIL : LF_K_EMPTY;
        return true;
    case LF_K_EMPTY:
    case LF_K_NIL: bad->res_kind = LF_K_INT; bad->res = other_value; return true;
    default: return false;
    }
}

/* ---- one run ---- */

typedef struct run_params {
    lf_type type;
    size_t ops;
    int64_t values;  /* value (and kv key) domain 1..values */
    int grow_bias;   /* percent of inserting ops, so that big states are reached */
} run_params;

static void gen_ops(const run_params *p, lf_rng *rng, lf_op *ops) {
    const lf_method_info *methods[LF_M_COUNT];
    size_t nm = 0, ni = 0;
    const lf_method_info *inserts[LF_M_COUNT];
    for (int m = 0; m < LF_M_COUNT; m++) {
        const lf_method_info *mi = lf_method_info_of(p->type, (lf_method)m);
        if (!mi || lf_method_is_bulk((unsigned)m)) continue; /* single-value ops: test_bulk.c has the bulk ones */
        methods[nm++] = mi;
        if (mi->role == LF_ROLE_INSERT) inserts[ni++] = mi;
    }
    for (size_t i = 0; i < p->ops; i++) {
        lf_op *op = &ops[i];
        memset(op, 0, sizeof *op);
        bool grow = (int)lf_rng_below(rng, 100) < p->grow_bias;
        const lf_method_info *mi = grow ? inserts[lf_rng_below(rng, ni)] : methods[lf_rng_below(rng, nm)];
        op->method = (uint8_t)mi->method;
        op->thread = 0;
        op->call = 2 * i + 1;
        op->ret = 2 * i + 2;
        for (int a = 0; a < mi->nargs; a++) {
            op->arg[a] = 1 + (int64_t)lf_rng_below(rng, (uint64_t)p->values);
            /* nil values for registers and kv values (not keys: the model keys by integer) */
            bool may_nil = p->type == LF_TYPE_REGISTER || p->type == LF_TYPE_CAS_REGISTER ||
                           (p->type == LF_TYPE_KV && a == 1);
            if (may_nil && lf_rng_below(rng, 10) == 0) {
                op->arg_nil |= (uint8_t)(1u << a);
                op->arg[a] = 0;
            }
        }
    }
}

typedef struct seen_state {
    char *text;
    unsigned char *bytes;
} seen_state;

static void run(const run_params *p, uint64_t seed, size_t *max_len) {
    lf_rng rng;
    lf_rng_seed(&rng, seed);
    lf_op *ops = calloc(p->ops, sizeof *ops);
    gen_ops(p, &rng, ops);
    /* First pass: the model fills in the correct results (the spec is opened on the final ops). */
    model *m = calloc(1, sizeof *m); /* a register starts at 0, like the spec without an init line */
    for (size_t i = 0; i < p->ops; i++) {
        model_apply(m, p->type, &ops[i]);
        if (m->len > *max_len) *max_len = m->len;
    }
    const lf_spec *spec = lf_spec_builtin(p->type);
    lf_spec_env env = {ops, p->ops, LF_K_INT, 0, NULL, 0, NULL};
    lf_spec_inst in;
    CHECK(lf_spec_open(spec, &env, &in));
    size_t ss = in.state_size;
    unsigned char *cur = calloc(1, ss), *next = calloc(1, ss), *again = calloc(1, ss), *copy = calloc(1, ss);
    seen_state *seen = calloc(p->ops + 1, sizeof *seen);
    size_t n_seen = 0;
    lf_spec_init(&in, cur);
    memset(m, 0, sizeof *m);
    char text[8192];
    int failures = 0;
    for (size_t i = 0; i <= p->ops && failures < 5; i++) {
        /* Equality and hashing against the model's contents (a sample of earlier states). */
        model_text(m, p->type, text, sizeof text);
        uint64_t h = lf_spec_hash(&in, cur);
        for (size_t k = n_seen > 300 ? n_seen - 300 : 0; k < n_seen; k++) {
            bool same_text = strcmp(seen[k].text, text) == 0;
            bool eq = lf_spec_equal(&in, seen[k].bytes, cur);
            if (same_text != eq) failures++;
            CHECKF(same_text == eq, "%s seed %llu step %zu: equal()=%d but contents %s vs %s", spec->name,
                   (unsigned long long)seed, i, eq, seen[k].text, text);
            if (eq) CHECKF(lf_spec_hash(&in, seen[k].bytes) == h, "%s: equal states hash differently", spec->name);
        }
        seen[n_seen].text = strdup(text);
        seen[n_seen].bytes = malloc(ss);
        memcpy(seen[n_seen++].bytes, cur, ss);
        if (i == p->ops) break;

        lf_op op = ops[i];
        model_apply(m, p->type, &op); /* same result as the first pass */
        memcpy(copy, cur, ss);
        bool ok = lf_spec_step(&in, cur, &op, next);
        CHECKF(ok, "%s seed %llu step %zu: the correct result is rejected", spec->name, (unsigned long long)seed, i);
        CHECKF(memcmp(copy, cur, ss) == 0, "%s: step changed its input state", spec->name);
        CHECKF(lf_spec_step(&in, cur, &op, again) && lf_spec_equal(&in, next, again),
               "%s: step is not deterministic", spec->name);
        lf_op pend = op;
        pend.res_kind = LF_K_PENDING;
        CHECKF(lf_spec_step(&in, cur, &pend, again) && lf_spec_equal(&in, next, again),
               "%s step %zu: a pending op must be accepted with the same effect", spec->name, i);
        /* An observer (a read, or an op whose result says nothing changed) leaves every state in which it
         * is legal unchanged: try this one here, and a few other ops of the run from this state. */
        if (lf_spec_observer(spec, &op))
            CHECKF(lf_spec_equal(&in, cur, next), "%s step %zu: observer op changed the state", spec->name, i);
        for (int k = 0; k < 4; k++) {
            const lf_op *other_op = &ops[lf_rng_below(&rng, p->ops)];
            if (lf_spec_observer(spec, other_op) && lf_spec_step(&in, cur, other_op, again))
                CHECKF(lf_spec_equal(&in, cur, again), "%s step %zu: a legal observer (method %s) changed the state",
                       spec->name, i, lf_method_name((lf_method)other_op->method));
        }
        /* An overwriting op (a register write, a put into a one-key map): legal from every earlier state, with
         * the same successor. */
        if (lf_spec_overwrites(&in, &op))
            for (size_t k = n_seen > 40 ? n_seen - 40 : 0; k < n_seen; k++)
                CHECKF(lf_spec_step(&in, seen[k].bytes, &op, again) && lf_spec_equal(&in, next, again),
                       "%s step %zu: an overwriting op depends on the state it is applied to", spec->name, i);
        lf_op bad;
        int64_t other = 1 + (int64_t)lf_rng_below(&rng, (uint64_t)p->values);
        if (wrong_result(&op, &bad, other)) {
            bool accepted = lf_spec_step(&in, cur, &bad, again);
            if (accepted) failures++;
            CHECKF(!accepted, "%s seed %llu step %zu: a wrong result is accepted (method %s)", spec->name,
                   (unsigned long long)seed, i, lf_method_name((lf_method)op.method));
        }
        unsigned char *t = cur;
        cur = next;
        next = t;
        if (!ok) break;
    }
    CHECKF(!lf_spec_failed(&in), "%s: the spec context ran out of memory", spec->name);
    for (size_t k = 0; k < n_seen; k++) {
        free(seen[k].text);
        free(seen[k].bytes);
    }
    free(seen);
    free(cur);
    free(next);
    free(again);
    free(copy);
    free(m);
    free(ops);
    lf_spec_close(&in);
}

int main(void) {
    /* Small domains (many repeats, states recur) and big ones (big-state representations). */
    static const run_params PARAMS[] = {
        {LF_TYPE_REGISTER, 400, 3, 0},      {LF_TYPE_CAS_REGISTER, 400, 3, 0}, {LF_TYPE_COUNTER, 300, 1, 30},
        {LF_TYPE_SET, 600, 6, 0},           {LF_TYPE_SET, 1500, 400, 80},      {LF_TYPE_KV, 600, 5, 0},
        {LF_TYPE_KV, 1200, 40, 70},         {LF_TYPE_STACK, 600, 3, 0},        {LF_TYPE_STACK, 1000, 50, 70},
        {LF_TYPE_QUEUE, 600, 3, 0},         {LF_TYPE_QUEUE, 1000, 50, 70},     {LF_TYPE_PQUEUE, 600, 3, 0},
        {LF_TYPE_PQUEUE, 1000, 50, 70},     {LF_TYPE_DEQUE, 600, 3, 0},        {LF_TYPE_DEQUE, 1000, 50, 70},
        {LF_TYPE_KV, 300, 1, 0}, /* one key: puts overwrite */
    };
    for (size_t i = 0; i < sizeof PARAMS / sizeof PARAMS[0]; i++) {
        size_t max_len = 0;
        for (uint64_t seed = 1; seed <= 6; seed++) run(&PARAMS[i], seed * 131 + i, &max_len);
        printf("%-13s %5zu ops x 6 runs, domain %3" PRId64 ", largest state %zu elements\n",
               lf_type_name(PARAMS[i].type), PARAMS[i].ops, PARAMS[i].values, max_len);
        if (PARAMS[i].grow_bias >= 70 && PARAMS[i].type != LF_TYPE_COUNTER)
            CHECKF(max_len >= 20, "%s: big states must be reached (%zu)", lf_type_name(PARAMS[i].type), max_len);
        if (PARAMS[i].type == LF_TYPE_SET && PARAMS[i].values > 256)
            CHECKF(max_len > 256, "set: beyond 256 values the state is a hash-consed handle (%zu)", max_len);
    }
    TEST_DONE();
}
