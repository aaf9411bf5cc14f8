/* Tests of the brute-force oracle (engines/brute): the hand-checked cases of tests/data/monitor_cases and
 * tests/data/search_cases (the .hist files, expected verdict on their first line), hand-verified
 * cases for the types and features those do not cover (cas-register, kv, counter, deque, nil values, pending
 * ops), witness validity checked by an independent sequential replay, and the op-count, time and memory
 * limits. */
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute/brute.h"
#include "linfuzz/format.h"
#include "test_util.h"

/* ---- an independent sequential model, used only to replay witnesses and prefixes ----
 * Plain arrays and linear scans, sharing nothing with brute.c's canonical byte strings. */

typedef struct {
    bool nil;
    int64_t v;
} value;

typedef struct {
    value key, val;
} entry;

typedef struct {
    value items[128]; /* register: items[0]; set, pqueue: unordered; stack: bottom..top; queue, deque: front..back */
    size_t len;
    entry kv[128];
    size_t kv_len;
    int64_t counter;
} model;

static bool value_eq(value a, value b) { return a.nil == b.nil && (a.nil || a.v == b.v); }
/* pqueue order: nil below every integer. */
static bool value_lt(value a, value b) { return a.nil ? !b.nil : (!b.nil && a.v < b.v); }
static value arg_value(const lf_op *op, int i) { return (value){lf_arg_is_nil(op, i), op->arg[i]}; }

static void model_init(model *m, const lf_history *h) {
    memset(m, 0, sizeof *m);
    if (h->type == LF_TYPE_REGISTER || h->type == LF_TYPE_CAS_REGISTER) {
        m->items[0] = h->has_init ? (value){h->init_kind == LF_K_NIL, h->init} : (value){false, 0};
        m->len = 1;
    }
}

static size_t find_item(const model *m, value v) {
    for (size_t i = 0; i < m->len; i++)
        if (value_eq(m->items[i], v)) return i;
    return SIZE_MAX;
}

static void remove_item(model *m, size_t i) {
    memmove(&m->items[i], &m->items[i + 1], (m->len - i - 1) * sizeof *m->items);
    m->len--;
}

/* Does an observed value match the op's recorded result? (absent -> `absent_kind`) */
static bool observed(const lf_op *op, const value *v, lf_kind absent_kind) {
    if (!v) return op->res_kind == absent_kind;
    if (v->nil) return op->res_kind == LF_K_NIL;
    return op->res_kind == LF_K_INT && op->res == v->v;
}

/* Applies op; returns false when its recorded result is not what the sequential object returns. Pending
 * ops take effect but their result is not checked. */
static bool model_apply(model *m, lf_type type, const lf_op *op) {
    bool pending = lf_op_pending(op);
    bool ok = true;
    value a0 = arg_value(op, 0), a1 = arg_value(op, 1);
    switch ((lf_method)op->method) {
    case LF_M_WRITE: m->items[0] = a0; break;
    case LF_M_READ: ok = observed(op, &m->items[0], LF_K_NIL); break;
    case LF_M_CAS: {
        bool success = value_eq(m->items[0], a0);
        if (success) m->items[0] = a1;
        ok = op->res_kind == (success ? LF_K_OK : LF_K_FAIL);
        break;
    }
    case LF_M_ADD: {
        bool absent = find_item(m, a0) == SIZE_MAX;
        if (absent) m->items[m->len++] = a0;
        ok = op->res_kind == (absent ? LF_K_TRUE : LF_K_FALSE);
        break;
    }
    case LF_M_REMOVE: {
        size_t i = find_item(m, a0);
        if (i != SIZE_MAX) remove_item(m, i);
        ok = op->res_kind == (i != SIZE_MAX ? LF_K_TRUE : LF_K_FALSE);
        break;
    }
    case LF_M_CONTAINS: ok = op->res_kind == (find_item(m, a0) != SIZE_MAX ? LF_K_TRUE : LF_K_FALSE); break;
    case LF_M_PUSH:
    case LF_M_ENQ:
    case LF_M_INSERT:
    case LF_M_PUSH_BACK: m->items[m->len++] = a0; break;
    case LF_M_PUSH_FRONT:
        memmove(&m->items[1], &m->items[0], m->len * sizeof *m->items);
        m->items[0] = a0;
        m->len++;
        break;
    case LF_M_POP:
    case LF_M_POP_BACK:
    case LF_M_PEEK_BACK:
        ok = observed(op, m->len ? &m->items[m->len - 1] : NULL, LF_K_EMPTY);
        if (op->method != LF_M_PEEK_BACK && m->len) m->len--;
        break;
    case LF_M_DEQ:
    case LF_M_POP_FRONT:
    case LF_M_PEEK_FRONT:
        ok = observed(op, m->len ? &m->items[0] : NULL, LF_K_EMPTY);
        if (op->method != LF_M_PEEK_FRONT && m->len) remove_item(m, 0);
        break;
    case LF_M_POLL:
    case LF_M_PEEK: {
        if (type == LF_TYPE_STACK) {
            ok = observed(op, m->len ? &m->items[m->len - 1] : NULL, LF_K_EMPTY);
            break;
        }
        size_t best = 0; /* queue: the front; pqueue: the smallest */
        if (type == LF_TYPE_PQUEUE)
            for (size_t i = 1; i < m->len; i++)
                if (value_lt(m->items[i], m->items[best])) best = i;
        ok = observed(op, m->len ? &m->items[best] : NULL, LF_K_EMPTY);
        if (op->method == LF_M_POLL && m->len) remove_item(m, best);
        break;
    }
    case LF_M_PUT: {
        size_t i = 0;
        while (i < m->kv_len && !value_eq(m->kv[i].key, a0)) i++;
        if (i == m->kv_len) m->kv_len++;
        m->kv[i] = (entry){a0, a1};
        break;
    }
    case LF_M_GET:
        if (type == LF_TYPE_COUNTER) {
            ok = op->res_kind == LF_K_INT && op->res == m->counter;
        } else {
            size_t i = 0;
            while (i < m->kv_len && !value_eq(m->kv[i].key, a0)) i++;
            ok = observed(op, i < m->kv_len ? &m->kv[i].val : NULL, LF_K_NIL);
        }
        break;
    case LF_M_DELETE: {
        size_t i = 0;
        while (i < m->kv_len && !value_eq(m->kv[i].key, a0)) i++;
        ok = op->res_kind == (i < m->kv_len ? LF_K_TRUE : LF_K_FALSE);
        if (i < m->kv_len) m->kv[i] = m->kv[--m->kv_len];
        break;
    }
    case LF_M_INC: m->counter++; break;
    case LF_M_ENQ_BULK: case LF_M_ENQ_BURST: case LF_M_DEQ_BULK: case LF_M_DEQ_BURST: /* test_bulk.c's */
    case LF_M_PUSH_BULK: case LF_M_PUSH_BURST: case LF_M_POP_BULK: case LF_M_POP_BURST:
    case LF_M_COUNT: return false;
    }
    return pending || ok;
}

/* True when order[0..len) is a legal sequential run respecting real-time order; when complete, it must also
 * contain every completed op exactly once (pending ops at most once). */
static bool replay_ok(const lf_history *h, const uint32_t *order, size_t len, bool complete, char *why,
                      size_t whylen) {
    bool *seen = calloc(h->n + 1, 1);
    model *m = malloc(sizeof *m);
    bool ok = seen && m;
    if (ok) model_init(m, h);
    for (size_t p = 0; ok && p < len; p++) {
        uint32_t j = order[p];
        if (j >= h->n || seen[j]) {
            snprintf(why, whylen, "position %zu: op %u out of range or repeated", p, j);
            ok = false;
            break;
        }
        seen[j] = true;
        for (size_t q = p + 1; q < len; q++)
            if (order[q] < h->n && lf_precedes(&h->ops[order[q]], &h->ops[j])) {
                snprintf(why, whylen, "op %u is placed before op %u, which returned before it was called", j,
                         order[q]);
                ok = false;
            }
        if (ok && !model_apply(m, h->type, &h->ops[j])) {
            snprintf(why, whylen, "position %zu: op %u returns something else in this order", p, j);
            ok = false;
        }
    }
    for (size_t j = 0; ok && complete && j < h->n; j++)
        if (!seen[j] && !lf_op_pending(&h->ops[j])) {
            snprintf(why, whylen, "completed op %zu is missing", j);
            ok = false;
        }
    free(seen);
    free(m);
    return ok;
}

/* ---- helpers ---- */

static bool parse(const char *text, lf_history *h) {
    char err[512];
    lf_status st = lf_text_read_buffer(text, strlen(text), "inline", h, err, sizeof err);
    if (st != LF_OK) fprintf(stderr, "parse error: %s\n", err);
    return st == LF_OK;
}

/* Runs brute on h, checks the verdict, and for linearizable answers the witness, for violations the prefix. */
static void check_history(const lf_history *h, lf_verdict want, const char *name) {
    lf_brute_options o;
    lf_brute_options_default(&o);
    o.want_witness = true;
    lf_result r;
    lf_result_init(&r);
    lf_brute_check(h, &o, &r);
    CHECKF(r.verdict == want, "%s: want %s, got %s (%s)", name, lf_verdict_name(want), lf_verdict_name(r.verdict),
           r.reason);
    char why[256] = "";
    if (r.verdict == LF_LINEARIZABLE) {
        bool any_completed = false;
        for (size_t i = 0; i < h->n; i++) any_completed |= !lf_op_pending(&h->ops[i]);
        CHECKF(!any_completed || r.witness_len > 0, "%s: no witness", name);
        CHECKF(replay_ok(h, r.witness, r.witness_len, true, why, sizeof why), "%s: bad witness: %s", name, why);
    } else if (r.verdict == LF_VIOLATION) {
        CHECKF(replay_ok(h, r.prefix, r.prefix_len, false, why, sizeof why), "%s: bad prefix: %s", name, why);
        CHECKF(r.n_culprits > 0, "%s: a violation names no op", name);
    }
    lf_result_free(&r);
}

static void check_text(const char *text, lf_verdict want, const char *name) {
    lf_history h;
    bool parsed = parse(text, &h);
    CHECKF(parsed, "%s does not parse", name);
    if (!parsed) return;
    check_history(&h, want, name);
    lf_history_free(&h);
}

/* Checks every .hist in dir against its "# expect:" line; returns the number of files checked. */
static int check_directory(const char *dir) {
    DIR *d = opendir(dir);
    CHECKF(d != NULL, "cannot open %s", dir);
    if (!d) return 0;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".hist")) continue;
        char path[1024], line[256] = "";
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f || !fgets(line, sizeof line, f)) line[0] = '\0';
        if (f) fclose(f);
        lf_verdict want;
        if (!strncmp(line, "# expect: linearizable", 22))
            want = LF_LINEARIZABLE;
        else if (!strncmp(line, "# expect: violation", 19))
            want = LF_VIOLATION;
        else {
            CHECKF(false, "%s: first line is not '# expect: ...'", path);
            continue;
        }
        lf_history h;
        char err[512];
        lf_status st = lf_history_read(path, &h, err, sizeof err);
        CHECKF(st == LF_OK, "%s: %s", path, err);
        if (st != LF_OK) continue;
        check_history(&h, want, path);
        lf_history_free(&h);
        count++;
    }
    closedir(d);
    return count;
}

/* ---- hand-verified cases beyond the seeds ---- */

typedef struct {
    const char *name;
    lf_verdict want;
    const char *text;
} hand_case;

#define L LF_LINEARIZABLE
#define N LF_VIOLATION

static const hand_case HAND[] = {
    /* cas-register (initial value 0 unless an init line says otherwise) */
    {"cas_seq_ok", L, "type cas-register\n0 1 2 write 1\n0 3 4 cas 1 2 -> ok\n0 5 6 read -> 2\n"},
    {"cas_seq_wrong_expected", N, "type cas-register\n0 1 2 write 1\n0 3 4 cas 0 2 -> ok\n"},
    {"cas_fail_is_checked", N, "type cas-register\n0 1 2 cas 0 2 -> fail\n"},
    {"cas_initial_zero", L, "type cas-register\n0 1 2 cas 0 2 -> ok\n0 3 4 cas 0 3 -> fail\n0 5 6 read -> 2\n"},
    /* cas(0,1) [1,4] around write 5 [2,3]: cas first (0->1) then write: the read sees 5, never 1. */
    {"cas_concurrent_write_read1", N,
     "type cas-register\n0 1 4 cas 0 1 -> ok\n1 2 3 write 5\n2 5 6 read -> 1\n"},
    {"cas_concurrent_write_read5", L,
     "type cas-register\n0 1 4 cas 0 1 -> ok\n1 2 3 write 5\n2 5 6 read -> 5\n"},
    {"cas_two_winners", N, "type cas-register\n0 1 4 cas 0 1 -> ok\n1 2 5 cas 0 2 -> ok\n"},
    {"cas_one_winner", L, "type cas-register\n0 1 4 cas 0 1 -> ok\n1 2 5 cas 0 2 -> fail\n2 6 7 read -> 1\n"},
    {"cas_nil_init", L, "type cas-register\ninit nil\n0 1 2 read -> nil\n0 3 4 cas nil 3 -> ok\n0 5 6 read -> 3\n"},
    {"cas_nil_vs_zero", N, "type cas-register\n0 1 2 cas nil 3 -> ok\n"},
    {"cas_pending_took_effect", L, "type cas-register\n0 1 ? cas 0 1\n1 2 3 read -> 0\n1 4 5 read -> 1\n"},
    {"cas_pending_cannot_undo", N, "type cas-register\n0 1 ? cas 0 1\n1 2 3 read -> 1\n1 4 5 read -> 0\n"},
    /* register initial values and nil */
    {"reg_default_init_zero", L, "type register\n0 1 2 read -> 0\n"},
    {"reg_default_init_not_nil", N, "type register\n0 1 2 read -> nil\n"},
    {"reg_init_nil", L, "type register\ninit nil\n0 1 2 read -> nil\n0 3 4 write 4\n0 5 6 read -> 4\n"},
    {"reg_init_7", N, "type register\ninit 7\n0 1 2 read -> 0\n"},
    {"reg_write_nil", L, "type register\n0 1 2 write nil\n1 3 4 read -> nil\n"},
    /* a pending write takes effect after its call or never */
    {"reg_pending_write_before_call", N, "type register\n0 1 2 read -> 2\n1 5 ? write 2\n"},
    {"reg_pending_write_after_call", L, "type register\n1 1 ? write 2\n0 3 4 read -> 2\n"},
    {"reg_pending_write_never", L, "type register\n1 1 ? write 2\n0 3 4 read -> 0\n"},
    /* kv: absent key reads nil; delete is true iff present (even when the stored value is nil) */
    {"kv_sequential", L,
     "type kv\n0 1 2 get 1 -> nil\n0 3 4 put 1 5\n0 5 6 get 1 -> 5\n0 7 8 delete 1 -> true\n0 9 10 delete 1 -> false\n"
     "0 11 12 get 1 -> nil\n"},
    {"kv_nil_value_present", L, "type kv\n0 1 2 put 1 nil\n0 3 4 get 1 -> nil\n0 5 6 delete 1 -> true\n"},
    {"kv_keys_independent", N, "type kv\n0 1 2 put 1 5\n0 3 4 put 2 6\n0 5 6 get 2 -> 5\n"},
    {"kv_delete_absent_true", N, "type kv\n0 1 2 delete 3 -> true\n"},
    {"kv_overwrite_sequential", N, "type kv\n0 1 2 put 1 5\n0 3 4 put 1 6\n0 5 6 get 1 -> 5\n"},
    {"kv_overwrite_concurrent", L, "type kv\n0 1 4 put 1 5\n1 2 3 put 1 6\n2 5 6 get 1 -> 5\n"},
    {"kv_nil_key", L, "type kv\n0 1 2 put nil 3\n0 3 4 get nil -> 3\n0 5 6 get 0 -> nil\n"},
    /* counter: starts at 0, inc adds one, get reads */
    {"counter_initial", L, "type counter\n0 1 2 get -> 0\n"},
    {"counter_initial_wrong", N, "type counter\n0 1 2 get -> 1\n"},
    {"counter_two_incs", L, "type counter\n0 1 2 inc\n1 3 4 inc\n0 5 6 get -> 2\n"},
    {"counter_lost_inc", N, "type counter\n0 1 2 inc\n1 3 4 inc\n0 5 6 get -> 1\n"},
    {"counter_concurrent_inc", L, "type counter\n0 1 10 inc\n1 2 3 get -> 0\n1 4 5 get -> 1\n"},
    {"counter_goes_back", N, "type counter\n0 1 10 inc\n1 2 3 get -> 1\n1 4 5 get -> 0\n"},
    {"counter_pending_inc", L, "type counter\n0 1 ? inc\n1 2 3 get -> 1\n1 4 5 get -> 1\n"},
    {"counter_pending_inc_once", N, "type counter\n0 1 ? inc\n1 2 3 get -> 2\n"},
    /* deque */
    {"deque_front_back", L,
     "type deque\n0 1 2 push_back 1\n0 3 4 push_back 2\n0 5 6 peek_front -> 1\n0 7 8 peek_back -> 2\n"
     "0 9 10 pop_back -> 2\n0 11 12 pop_back -> 1\n0 13 14 pop_front -> empty\n0 15 16 peek_back -> empty\n"},
    {"deque_push_front_order", L, "type deque\n0 1 2 push_front 1\n0 3 4 push_front 2\n0 5 6 pop_back -> 1\n"},
    {"deque_push_front_wrong_end", N, "type deque\n0 1 2 push_front 1\n0 3 4 push_front 2\n0 5 6 pop_front -> 1\n"},
    {"deque_lost_value", N, "type deque\n0 1 2 push_back 1\n0 3 4 pop_front -> empty\n"},
    /* push_front 1 and push_back 2 concurrent: in either order the deque is [1, 2]. */
    {"deque_concurrent_front", N, "type deque\n0 1 4 push_front 1\n1 2 3 push_back 2\n2 5 6 pop_front -> 2\n"},
    {"deque_concurrent_back", L, "type deque\n0 1 4 push_front 1\n1 2 3 push_back 2\n2 5 6 pop_back -> 2\n"},
    {"deque_nil", L, "type deque\n0 1 2 push_front nil\n0 3 4 peek_back -> nil\n0 5 6 pop_front -> nil\n"},
    /* nil values in containers; pqueue orders nil below every integer */
    {"stack_nil", L, "type stack\n0 1 2 push nil\n0 3 4 pop -> nil\n0 5 6 pop -> empty\n"},
    {"stack_nil_is_not_empty", N, "type stack\n0 1 2 push nil\n0 3 4 pop -> empty\n"},
    {"pqueue_nil_smallest", L, "type pqueue\n0 1 2 insert 5\n0 3 4 insert nil\n0 5 6 poll -> nil\n0 7 8 poll -> 5\n"},
    {"pqueue_nil_not_last", N, "type pqueue\n0 1 2 insert 5\n0 3 4 insert nil\n0 5 6 poll -> 5\n"},
    {"pqueue_negative", L, "type pqueue\n0 1 2 insert 3\n0 3 4 insert -4\n0 5 6 peek -> -4\n0 7 8 poll -> -4\n"},
    {"pqueue_duplicates", L, "type pqueue\n0 1 2 insert 2\n0 3 4 insert 2\n0 5 6 poll -> 2\n0 7 8 poll -> 2\n"},
    {"pqueue_duplicates_once", N, "type pqueue\n0 1 2 insert 2\n0 3 4 poll -> 2\n0 5 6 poll -> 2\n"},
    {"set_nil", L, "type set\n0 1 2 add nil -> true\n0 3 4 contains nil -> true\n0 5 6 contains 0 -> false\n"},
    {"set_add_false_first", N, "type set\n0 1 2 add 1 -> false\n0 3 4 add 1 -> true\n"},
    {"set_readd", L, "type set\n0 1 2 add 1 -> true\n0 3 4 remove 1 -> true\n0 5 6 add 1 -> true\n"},
    {"queue_duplicates", L, "type queue\n0 1 2 enq 1\n0 3 4 enq 1\n0 5 6 deq -> 1\n0 7 8 deq -> 1\n"},
    /* pending removes */
    {"stack_pending_pop_took_value", L, "type stack\n0 1 2 push 1\n1 3 ? pop\n2 4 5 pop -> empty\n"},
    {"stack_without_pending_pop", N, "type stack\n0 1 2 push 1\n2 4 5 pop -> empty\n"},
    {"stack_pending_pop_after", L, "type stack\n0 1 2 push 1\n1 3 ? pop\n2 4 5 pop -> 1\n"},
    {"queue_pending_deq_too_early", N, "type queue\n0 1 2 enq 1\n2 3 4 deq -> empty\n1 5 ? deq\n"},
    {"queue_pending_deq_takes_one", N, "type queue\n0 1 2 enq 1\n0 3 4 enq 2\n1 5 ? deq\n2 6 7 deq -> empty\n"},
    {"queue_pending_deq_takes_front", L, "type queue\n0 1 2 enq 1\n0 3 4 enq 2\n1 5 ? deq\n2 6 7 deq -> 2\n2 8 9 deq -> empty\n"},
    {"set_pending_add", L, "type set\n0 1 ? add 1\n1 2 3 contains 1 -> true\n1 4 5 remove 1 -> true\n"},
    {"pending_only", L, "type queue\n0 1 ? enq 1\n1 2 ? deq\n"},
};

#undef L
#undef N

/* ---- limits ---- */

/* Case fan(k): k concurrent adds of 1..k, then contains 0 -> true. Not linearizable; without the
 * memo the search tries every order of the adds. */
static void make_fan(lf_history *h, size_t k) {
    lf_history_init(h, LF_TYPE_SET);
    for (size_t i = 0; i < k; i++) {
        lf_op op = {.call = 1 + i, .ret = 1 + k + i, .arg = {(int64_t)i + 1}, .thread = (uint32_t)i,
                    .method = LF_M_ADD, .res_kind = LF_K_TRUE};
        lf_history_push(h, &op);
    }
    lf_op last = {.call = 2 * k + 1, .ret = 2 * k + 2, .arg = {0}, .thread = 0, .method = LF_M_CONTAINS,
                  .res_kind = LF_K_TRUE};
    lf_history_push(h, &last);
}

static void make_sequential_queue(lf_history *h, size_t pairs) {
    lf_history_init(h, LF_TYPE_QUEUE);
    uint64_t t = 1;
    for (size_t i = 0; i < pairs; i++) {
        lf_op enq = {.call = t, .ret = t + 1, .arg = {(int64_t)i}, .thread = 0, .method = LF_M_ENQ,
                     .res_kind = LF_K_NONE};
        t += 2;
        lf_history_push(h, &enq);
    }
    for (size_t i = 0; i < pairs; i++) {
        lf_op deq = {.call = t, .ret = t + 1, .res = (int64_t)i, .thread = 1, .method = LF_M_DEQ,
                     .res_kind = LF_K_INT};
        t += 2;
        lf_history_push(h, &deq);
    }
}

static void test_limits(void) {
    lf_brute_options o;
    lf_result r;
    lf_history h;

    /* Memoisation: fan(12) is decided in about k * 2^k steps (without the memo: ~e * 12! = 1.3e9). */
    make_fan(&h, 12);
    lf_brute_options_default(&o);
    lf_result_init(&r);
    lf_brute_check(&h, &o, &r);
    CHECKF(r.verdict == LF_VIOLATION, "fan(12): %s", r.reason);
    CHECKF(r.steps < 20u * 12u * 4096u, "fan(12) took %llu steps: memoisation not effective",
           (unsigned long long)r.steps);
    lf_result_free(&r);
    lf_history_free(&h);

    /* More ops than max_ops: refused with a reason. */
    make_sequential_queue(&h, 13); /* 26 ops */
    lf_brute_options_default(&o);
    CHECK(o.max_ops == 24);
    lf_result_init(&r);
    lf_brute_check(&h, &o, &r);
    CHECKF(r.verdict == LF_UNKNOWN && strstr(r.reason, "limited"), "26 ops: %s", r.reason);
    lf_result_free(&r);
    lf_history_free(&h);

    /* 63 ops work when asked for (64-bit masks), with a full witness. */
    make_sequential_queue(&h, 31);
    lf_op extra = {.call = 1000, .ret = 1001, .thread = 2, .method = LF_M_DEQ, .res_kind = LF_K_EMPTY};
    lf_history_push(&h, &extra);
    CHECK(h.n == 63);
    o.max_ops = 63;
    o.want_witness = true;
    lf_result_init(&r);
    lf_brute_check(&h, &o, &r);
    CHECKF(r.verdict == LF_LINEARIZABLE && r.witness_len == 63, "63 ops: %s (witness %zu)", r.reason,
           r.witness_len);
    lf_result_free(&r);
    h.ops[62].res_kind = LF_K_INT; /* a final deq -> 0 of a value already dequeued */
    h.ops[62].res = 0;
    lf_result_init(&r);
    lf_brute_check(&h, &o, &r);
    CHECKF(r.verdict == LF_VIOLATION, "63 ops, corrupted: %s", r.reason);
    CHECK(r.prefix_len == 62);
    lf_result_free(&r);
    lf_history_free(&h);

    /* Memory budget: fan(20) needs ~2^20 configurations; 256 KiB does not hold them. */
    make_fan(&h, 20);
    lf_brute_options_default(&o);
    o.max_memory_bytes = 256 << 10;
    lf_result_init(&r);
    lf_brute_check(&h, &o, &r);
    CHECKF(r.verdict == LF_UNKNOWN && strstr(r.reason, "memory"), "fan(20) in 256 KiB: %s", r.reason);
    lf_result_free(&r);
    lf_history_free(&h);

    /* Timeout: fan(40) has 2^40 configurations. */
    make_fan(&h, 40);
    lf_brute_options_default(&o);
    o.max_ops = 63;
    o.timeout_s = 0.2;
    lf_result_init(&r);
    lf_brute_check(&h, &o, &r);
    CHECKF(r.verdict == LF_UNKNOWN && strstr(r.reason, "timeout"), "fan(40) in 0.2 s: %s", r.reason);
    lf_result_free(&r);
    lf_history_free(&h);

    /* A malformed history (overlapping ops of one thread; the reader refuses it, so build it) gets no verdict. */
    lf_history_init(&h, LF_TYPE_STACK);
    lf_op push = {.call = 1, .ret = 5, .arg = {1}, .thread = 0, .method = LF_M_PUSH, .res_kind = LF_K_NONE};
    lf_op pop = {.call = 3, .ret = 4, .res = 1, .thread = 0, .method = LF_M_POP, .res_kind = LF_K_INT};
    lf_history_push(&h, &push);
    lf_history_push(&h, &pop);
    lf_brute_options_default(&o);
    lf_result_init(&r);
    lf_brute_check(&h, &o, &r);
    CHECKF(r.verdict == LF_UNKNOWN, "malformed: %s", r.reason);
    lf_result_free(&r);
    lf_history_free(&h);
}

/* The verdict does not depend on the order ops are listed in; the witness stays valid. */
static void test_permutation_invariance(void) {
    for (size_t c = 0; c < sizeof HAND / sizeof HAND[0]; c++) {
        lf_history h;
        if (!parse(HAND[c].text, &h)) continue;
        for (size_t i = 0, j = h.n ? h.n - 1 : 0; i < j; i++, j--) { /* reversed: a different op order */
            lf_op t = h.ops[i];
            h.ops[i] = h.ops[j];
            h.ops[j] = t;
        }
        char name[128];
        snprintf(name, sizeof name, "%s (reversed)", HAND[c].name);
        check_history(&h, HAND[c].want, name);
        lf_history_free(&h);
    }
}

int main(void) {
    int n2 = check_directory(LINFUZZ_TEST_DATA "/monitor_cases");
    CHECKF(n2 == 86, "monitor_cases: %d cases, want 86 (73 of the paper's types, 13 deques)", n2);
    int n1 = check_directory(LINFUZZ_TEST_DATA "/search_cases");
    CHECKF(n1 == 31, "search_cases: %d cases, want 31 (H22 cannot be written in format v1)", n1);
    for (size_t c = 0; c < sizeof HAND / sizeof HAND[0]; c++) check_text(HAND[c].text, HAND[c].want, HAND[c].name);
    test_permutation_invariance();
    test_limits();
    TEST_DONE();
}
