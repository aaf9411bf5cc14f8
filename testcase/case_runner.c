/* Running fuzz cases: plan expansion (argument scheme in case_runner.h) and the serial-concurrent-serial run. */
#include "testcase/case_runner.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/controlled.h"
#include "runtime/adapter_type.h"
#include "runtime/perturb.h"
#include "util/hash.h"

/* A custom type's key domain: at most LF_FC_MAX_KEYS, as stress's (a wide domain is for sets). */
static unsigned custom_keys(unsigned keys) { return keys < LF_FC_MAX_KEYS ? keys : LF_FC_MAX_KEYS; }

/* Above every fresh key of a case (arg * 65536 + call index + 1 < 2^24): a key no add of it adds. */
#define WIDE_ABSENT_KEY ((int64_t)1 << 24)

/* Concrete arguments of one call. u is the call's unique index within the run. */
static void concrete_call(lf_planned_op *op, const lf_adapter *a, lf_method m, uint8_t arg, unsigned keys, size_t u) {
    if (a->type == LF_TYPE_CUSTOM) { /* the adapter's argument ranges (runner/adapter_type.h) */
        const lf_method_decl *d = lf_adapter_method(a, m);
        op->method = (uint8_t)m;
        op->nargs = d ? d->nargs : 0;
        lf_custom_args_select(a, m, arg, custom_keys(keys), op->args);
        return;
    }
    const lf_method_info *mi = lf_method_info_of(a->type, m);
    int64_t unique = (int64_t)arg * 65536 + (int64_t)u + 1;
    if (lf_method_is_bulk(m)) { /* n from the argument byte: 1..LF_BULK_MAX */
        lf_plan_bulk_call(op, m, 1 + arg % LF_BULK_MAX, unique);
        return;
    }
    op->method = (uint8_t)m;
    op->nargs = mi ? mi->nargs : 0;
    memset(op->args, 0, sizeof op->args);
    switch (a->type) {
    case LF_TYPE_SET: /* (a wide domain: adds take fresh keys, the others are set by wide_set_keys) */
        op->args[0] = keys > LF_FC_MAX_KEYS && m == LF_M_ADD ? unique : 1 + arg % keys;
        break;
    case LF_TYPE_KV:
        op->args[0] = arg % keys;
        op->args[1] = unique;
        break;
    case LF_TYPE_CAS_REGISTER:
        if (keys > LF_FC_MAX_KEYS) keys = LF_FC_MAX_KEYS; /* (a cas's expected value reaches 15 at most) */
        if (m == LF_M_CAS) {
            op->args[0] = (arg & 15) % (keys + 1);
            op->args[1] = 1 + (arg >> 4) % keys;
        } else {
            op->args[0] = 1 + arg % keys;
        }
        break;
    default:
        op->args[0] = unique;
        break;
    }
    for (unsigned j = op->nargs; j < 2; j++) op->args[j] = 0;
}

/* The method that observes everything left after the threads stop, if a implements it and it cannot block
 * (a blocking deq of an empty queue would wait forever: no drain then). */
static lf_method drain_method_of(const lf_adapter *a) {
    if (a->type == LF_TYPE_CUSTOM) return LF_M_COUNT; /* custom types drain with lf_custom_drain */
    static const lf_method by_type[LF_TYPE_COUNT][2] = {
        [LF_TYPE_REGISTER] = {LF_M_READ, LF_M_READ},     [LF_TYPE_CAS_REGISTER] = {LF_M_READ, LF_M_READ},
        [LF_TYPE_SET] = {LF_M_CONTAINS, LF_M_REMOVE},    [LF_TYPE_STACK] = {LF_M_POP, LF_M_POP},
        [LF_TYPE_QUEUE] = {LF_M_DEQ, LF_M_DEQ},          [LF_TYPE_PQUEUE] = {LF_M_POLL, LF_M_POLL},
        [LF_TYPE_KV] = {LF_M_GET, LF_M_DELETE},          [LF_TYPE_COUNTER] = {LF_M_GET, LF_M_GET},
        [LF_TYPE_DEQUE] = {LF_M_POP_FRONT, LF_M_POP_BACK},
    };
    for (int k = 0; k < 2; k++) {
        lf_method m = by_type[a->type][k];
        if ((a->methods & LF_METHOD_BIT(m)) && !(a->may_block & LF_METHOD_BIT(m)) && lf_method_info_of(a->type, m))
            return m;
    }
    return LF_M_COUNT;
}

/* A hash of what the case's threads do (threads, rounds, keys, drain, every call of the bodies and the prefix):
 * the salt of the derived schedules, so that a mutated test gets fresh interleavings in its repetitions. */
static uint64_t calls_hash(const lf_fuzz_case *c) {
    uint64_t h = 0x6a09e667f3bcc909ull;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 0x100000001b3ull)
    MIX(c->threads);
    MIX(c->rounds);
    MIX(c->key_domain);
    MIX(c->drain);
    for (unsigned t = 0; t < c->threads; t++) {
        MIX(c->body_len[t]);
        for (unsigned i = 0; i < c->body_len[t]; i++) MIX(c->body[t][i].method << 8 | c->body[t][i].arg);
    }
    MIX(c->prefix_len);
    for (unsigned i = 0; i < c->prefix_len; i++) MIX(c->prefix[i].method << 8 | c->prefix[i].arg);
#undef MIX
    return h;
}

/* A set case of a wide key domain takes stress's keys (lf_workload_plan): every add a fresh key (concrete_call),
 * every remove and contains one of the case's added keys, 7 times in 8, or else a key never added; the drain
 * asks for every added key. Which key is a hash of the call's argument byte and its place in the plan (thread,
 * index), so that each round of a body asks for other keys and every added key can be picked, as stress's
 * uniform draws do. So the set grows to as many keys as the case adds, and its hash table resizes, while
 * removes and contains still find what was added. The domain's size (32 to 256) does not matter here: it
 * only salts the derived schedules, as any knob. False when out of memory. */
static bool wide_set_keys(lf_fc_plan *p, const lf_fuzz_case *c) {
    size_t n = p->prefix_len;
    for (unsigned t = 0; t < p->threads; t++) n += p->len[t];
    int64_t *added = malloc((n ? n : 1) * sizeof *added);
    if (!added) return false;
    size_t n_added = 0;
    for (int pass = 0; pass < 2; pass++) /* 0: collect the adds' keys; 1: give the others theirs */
        for (int part = -1; part < (int)p->threads; part++) {
            size_t len = part < 0 ? p->prefix_len : p->len[part];
            for (size_t i = 0; i < len; i++) {
                lf_planned_op *op = part < 0 ? &p->prefix[i] : &p->ops[part][i];
                uint8_t arg = part < 0 ? c->prefix[i].arg : c->body[part][i % c->body_len[part]].arg;
                if (op->method == LF_M_ADD) {
                    if (pass == 0) added[n_added++] = op->args[0];
                } else if (pass == 1) {
                    uint64_t h = lf_mix64((uint64_t)arg << 40 ^ (uint64_t)(part + 1) << 32 ^ i);
                    op->args[0] = n_added && h % 8 ? added[(h >> 3) % n_added] : WIDE_ABSENT_KEY + arg;
                }
            }
        }
    p->drain_keys = added;
    if (p->drain_method != LF_M_COUNT) p->drain_max = n_added;
    return true;
}

void lf_fc_plan_free(lf_fc_plan *p) {
    free(p->drain_keys);
    free(p->ops[0]);
    memset(p, 0, sizeof *p);
}

bool lf_fc_plan_build(lf_fc_plan *p, const lf_fuzz_case *c, const lf_adapter *a) {
    memset(p, 0, sizeof *p);
    lf_method ms[LF_M_COUNT];
    unsigned nm = lf_fuzz_case_methods(a, ms);
    p->adapter = a;
    p->threads = c->threads;
    p->key_domain = c->key_domain;
    p->perturb = c->perturb;
    p->seed = c->seed;
    p->mode = (lf_fc_mode)c->mode;
    p->schedule = c->schedule;
    p->schedule_salt = calls_hash(c);
    size_t total = lf_fuzz_case_run_ops(c), inserts = 0;
    lf_planned_op *block = malloc((total ? total : 1) * sizeof *block);
    if (!block || nm == 0) {
        free(block);
        return false;
    }
    size_t u = 0;
    for (unsigned i = 0; i < c->prefix_len; i++, u++) {
        lf_method m = lf_fuzz_case_call_method(c, a, c->threads, c->prefix[i].method);
        concrete_call(&p->prefix[i], a, m, c->prefix[i].arg, c->key_domain, u);
        inserts += a->type != LF_TYPE_CUSTOM && lf_method_info_of(a->type, m)->role == LF_ROLE_INSERT;
    }
    p->prefix_len = c->prefix_len;
    size_t at = 0;
    for (unsigned t = 0; t < c->threads; t++) {
        p->ops[t] = block + at;
        /* a worker that may call nothing (it owns no group, and every method is in one) stays idle */
        p->len[t] = lf_fuzz_case_call_method(c, a, t, 0) == LF_M_COUNT ? 0 : (size_t)c->body_len[t] * c->rounds;
        if (!p->len[t]) continue;
        for (unsigned r = 0; r < c->rounds; r++)
            for (unsigned i = 0; i < c->body_len[t]; i++, u++) {
                lf_method m = lf_fuzz_case_call_method(c, a, t, c->body[t][i].method);
                concrete_call(&block[at++], a, m, c->body[t][i].arg, c->key_domain, u);
                inserts += a->type != LF_TYPE_CUSTOM && lf_method_info_of(a->type, m)->role == LF_ROLE_INSERT;
            }
    }
    p->drain_method = c->drain ? drain_method_of(a) : LF_M_COUNT;
    if (c->drain && a->type == LF_TYPE_CUSTOM)
        p->n_custom_drain = lf_custom_drain(a, custom_keys(c->key_domain), p->custom_drain, LF_FC_MAX_CUSTOM_DRAIN);
    if (p->drain_method != LF_M_COUNT) {
        lf_role role = lf_method_info_of(a->type, p->drain_method)->role;
        if (a->type == LF_TYPE_SET || a->type == LF_TYPE_KV)
            p->drain_max = c->key_domain;
        else if (role == LF_ROLE_REMOVE)
            p->drain_max = inserts + 1;
        else
            p->drain_max = 1;
    }
    if (a->type == LF_TYPE_SET && c->key_domain > LF_FC_MAX_KEYS && !wide_set_keys(p, c)) {
        lf_fc_plan_free(p);
        return false;
    }
    return true;
}

/* ---- execution ---- */

bool lf_fc_executor_init(lf_fc_executor *x, lf_clock_kind clock) {
    memset(x, 0, sizeof *x);
    if (!lf_clock_available(clock)) return false;
    x->clock = clock;
    lf_sched_options_default(&x->sched_options);
    x->pool = lf_pool_create(LF_FC_MAX_THREADS);
    if (!x->pool) return false;
    x->watch = lf_stuck_watch_create();
    if (!x->watch || !lf_recorder_init(&x->recorder, clock, LF_FC_MAX_THREADS + 1, 0)) {
        lf_stuck_watch_destroy(x->watch);
        lf_pool_destroy(x->pool);
        x->pool = NULL;
        x->watch = NULL;
        return false;
    }
    return true;
}

void lf_fc_executor_free(lf_fc_executor *x) {
    if (x->pool) lf_pool_destroy(x->pool);
    lf_stuck_watch_destroy(x->watch);
    lf_sched_destroy(x->sched);
    lf_recorder_free(&x->recorder);
    memset(x, 0, sizeof *x);
}

void lf_fc_executor_on_stuck(lf_fc_executor *x, lf_stuck_fn fn, void *ctx) { lf_stuck_watch_set_handler(x->watch, fn, ctx); }

size_t lf_fc_plan_balance_blocking(lf_fc_plan *p) {
    return lf_plan_balance_blocking(p->adapter, p->prefix, p->prefix_len, p->ops, p->len, p->threads);
}

void lf_fc_executor_set_feedback(lf_fc_executor *x, uint8_t *counters, size_t n, unsigned parts) {
    x->feedback = counters;
    x->feedback_n = n;
    x->feedback_parts = parts;
    if (x->sched) lf_sched_set_feedback(x->sched, counters, n, parts);
}

typedef struct run_context {
    lf_fc_executor *x;
    const lf_fc_plan *plan;
    void *object;
    unsigned run;
    _Atomic uint64_t perturbations;
} run_context;

/* A worker of a controlled run: no perturbation, the scheduler decides. */
static void controlled_worker(unsigned t, void *arg) {
    run_context *c = arg;
    const lf_fc_plan *p = c->plan;
    const lf_adapter *a = p->adapter;
    if (a->thread_enter) a->thread_enter(c->object);
    /* (a STUCK run is reported by lf_sched_run_end) */
    (void)lf_controlled_worker(c->x->sched, t, &c->x->recorder, a, c->object, p->ops[t], p->len[t]);
    if (a->thread_leave) a->thread_leave(c->object);
}

static void worker(unsigned t, void *arg) {
    run_context *c = arg;
    const lf_fc_plan *p = c->plan;
    const lf_adapter *a = p->adapter;
    lf_perturb_state ps;
    uint64_t seed = p->seed ^ (0x9e3779b97f4a7c15ull * (c->run + 1)) ^ (0xd1342543de82ef95ull * (t + 1));
    lf_perturb_state_init(&ps, &p->perturb, seed);
    lf_perturb_bind(&ps);
    if (a->thread_enter) a->thread_enter(c->object);
    for (size_t i = 0; i < p->len[t]; i++) {
        const lf_planned_op *op = &p->ops[t][i];
        if (op->method == LF_PLAN_SKIP) continue;
        lf_perturb_gap(&ps);
        lf_recorder_call(&c->x->recorder, t, a, c->object, (lf_method)op->method, op->args, op->nargs);
    }
    if (a->thread_leave) a->thread_leave(c->object);
    lf_perturb_bind(NULL);
    atomic_fetch_add_explicit(&c->perturbations, ps.events, memory_order_relaxed);
}

/* The serial drain: removes until empty, one observer per key, or one final observer. */
static void drain(lf_fc_executor *x, const lf_fc_plan *p, void *obj) {
    const lf_adapter *a = p->adapter;
    unsigned serial = p->threads;
    lf_thread_log *log = &x->recorder.logs[serial];
    lf_role role = lf_method_info_of(a->type, p->drain_method)->role;
    for (size_t k = 0; k < p->drain_max; k++) {
        lf_planned_op op;
        concrete_call(&op, a, p->drain_method, 0, p->key_domain, 0);
        if (a->type == LF_TYPE_SET) op.args[0] = p->drain_keys ? p->drain_keys[k] : 1 + (int64_t)k;
        if (a->type == LF_TYPE_KV) op.args[0] = (int64_t)k;
        lf_recorder_call(&x->recorder, serial, a, obj, p->drain_method, op.args, op.nargs);
        if (role == LF_ROLE_REMOVE && a->type != LF_TYPE_SET && a->type != LF_TYPE_KV &&
            log->ops[log->n - 1].res_kind == LF_K_EMPTY)
            break;
    }
}

/* The serial drain of a custom type: its observers, once per value of their first argument. */
static void custom_drain(lf_fc_executor *x, const lf_fc_plan *p, void *obj) {
    for (size_t k = 0; k < p->n_custom_drain; k++)
        lf_recorder_call(&x->recorder, p->threads, p->adapter, obj, (lf_method)p->custom_drain[k].method,
                         p->custom_drain[k].args, p->custom_drain[k].nargs);
}

static bool ensure_capacity(lf_fc_executor *x, size_t need) {
    if (need <= x->log_cap) return true;
    lf_recorder_free(&x->recorder);
    if (!lf_recorder_init(&x->recorder, x->clock, LF_FC_MAX_THREADS + 1, need)) {
        x->log_cap = 0;
        lf_recorder_init(&x->recorder, x->clock, LF_FC_MAX_THREADS + 1, 0);
        return false;
    }
    x->log_cap = need;
    return true;
}

bool lf_fc_execute(lf_fc_executor *x, const lf_fc_plan *p, unsigned run, lf_history *h) {
    const lf_adapter *a = p->adapter;
    size_t need = p->prefix_len + p->drain_max + p->n_custom_drain;
    for (unsigned t = 0; t < p->threads; t++)
        if (p->len[t] > need) need = p->len[t];
    if (!ensure_capacity(x, need ? need : 1)) return false;
    lf_recorder_reset(&x->recorder);
    size_t ops = p->prefix_len + p->drain_max + p->n_custom_drain;
    for (unsigned t = 0; t < p->threads; t++) ops += p->len[t];
    bool controlled = p->mode == LF_FC_CONTROLLED;
    if (controlled && !x->sched) {
        x->sched = lf_sched_create(&x->sched_options);
        if (!x->sched) return false;
        if (x->feedback) lf_sched_set_feedback(x->sched, x->feedback, x->feedback_n, x->feedback_parts);
    }
    memset(&x->last, 0, sizeof x->last);
    x->last.mode = p->mode;
    run_context c = {.x = x, .plan = p, .run = run};
    atomic_init(&c.perturbations, 0);
    c.object = a->create(ops ? ops : 1);
    if (!c.object) return false;

    /* The serial parts run on this thread, unperturbed and uncontrolled, as thread id `threads`. From the first
     * call to the drain's last one the watchdog declares the run STUCK if it stops making progress (a controlled
     * run that deadlocks is ended by the scheduler first: x->last.stuck). */
    lf_stuck_watch_arm(x->watch, &x->recorder, a, ops);
    lf_perturb_bind(NULL);
    if (a->thread_enter) a->thread_enter(c.object);
    for (size_t i = 0; i < p->prefix_len; i++)
        if (p->prefix[i].method != LF_PLAN_SKIP)
            lf_recorder_call(&x->recorder, p->threads, a, c.object, (lf_method)p->prefix[i].method, p->prefix[i].args,
                             p->prefix[i].nargs);
    if (controlled) {
        lf_schedule_for_run(&p->schedule, p->schedule_salt, run, p->threads, p->len, &x->last.schedule);
        lf_sched_run_begin(x->sched, p->threads, p->len, &x->last.schedule);
        lf_stuck_watch_controlled_by(x->watch, x->sched); /* (the scheduler judges its own part) */
        lf_pool_run_with(x->pool, p->threads, controlled_worker, &c, false);
        x->last.stuck = lf_sched_run_end(x->sched, &x->last.stats) == LF_SCHED_STUCK;
        lf_stuck_watch_controlled_by(x->watch, NULL);
        /* a deadlock: the STUCK handler, when one is set, reports it as the watchdog would (and ends the process) */
        if (x->last.stuck) lf_stuck_watch_deadlock(x->watch);
    } else {
        lf_pool_run(x->pool, p->threads, worker, &c);
    }
    if (x->last.stuck) {
        /* Deadlock: the object may hold locks and half-done updates; it is kept, never destroyed. */
        lf_stuck_watch_disarm(x->watch);
        if (a->thread_leave) a->thread_leave(c.object);
        lf_abandon_object(c.object);
    } else {
        if (p->drain_method != LF_M_COUNT) drain(x, p, c.object);
        if (p->n_custom_drain) custom_drain(x, p, c.object);
        lf_stuck_watch_disarm(x->watch);
        if (a->thread_leave) a->thread_leave(c.object);
        a->destroy(c.object);
    }
    x->perturbations += atomic_load(&c.perturbations);

    lf_adapter_history_reset(h, a);
    return lf_recorder_merge(&x->recorder, h);
}

int lf_fc_describe_stuck(char *buf, size_t len, const lf_fc_executor *x, const lf_fc_plan *p) {
    const lf_planned_op *ops[LF_FC_MAX_THREADS];
    for (unsigned t = 0; t < p->threads; t++) ops[t] = p->ops[t];
    if (!x->sched) {
        if (len) buf[0] = 0;
        return 0;
    }
    return lf_describe_stuck(buf, len, x->sched, p->threads, ops, p->len);
}
