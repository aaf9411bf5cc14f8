/* Tests of engines/minimize: on many random violating histories of every type (lf_gen_history with bad > 0),
 * the minimised history is still a violation for the independent brute-force oracle, is an order-preserving
 * sub-history of the input, and was obtained only by removing whole values (or keys) and state-preserving
 * ops (plus, with the prefix cut, ops called after the cut and in-flight ops turned pending). Also: the
 * classic unsound deletion is never made, linearizable input is returned as is, budgets stay sound. */
#include <string.h>

#include "brute/brute.h"
#include "linfuzz/generate.h"
#include "linfuzz/minimize.h"
#include "test_util.h"

static lf_verdict brute(const lf_history *h) {
    lf_brute_options o;
    lf_brute_options_default(&o);
    o.max_ops = 24;
    lf_result r;
    lf_result_init(&r);
    lf_brute_check(h, &o, &r);
    lf_verdict v = r.verdict;
    lf_result_free(&r);
    return v;
}

static bool same_op(const lf_op *a, const lf_op *b) {
    return a->call == b->call && a->ret == b->ret && a->thread == b->thread && a->method == b->method &&
           a->arg[0] == b->arg[0] && a->arg[1] == b->arg[1] && a->arg_nil == b->arg_nil && a->res == b->res &&
           a->res_kind == b->res_kind;
}

/* out's op is in's op made pending by a cut at `cut`. */
static bool pending_version(const lf_op *out, const lf_op *in, uint64_t cut) {
    return lf_op_pending(out) && !lf_op_pending(in) && out->call == in->call && out->thread == in->thread &&
           out->method == in->method && out->arg[0] == in->arg[0] && out->arg[1] == in->arg[1] && in->call <= cut &&
           in->ret > cut;
}

/* The test's own statement of the rules (independent of the library's lf_op_state_preserving and
 * lf_op_value_key, which the minimiser uses): an op may go alone when it cannot change the state... */
static bool may_go_alone(lf_type t, const lf_op *op) {
    const lf_method_info *mi = lf_method_info_of(t, (lf_method)op->method);
    if (mi->role == LF_ROLE_OBSERVE) return true;
    return !lf_op_pending(op) &&
           (op->res_kind == LF_K_EMPTY || op->res_kind == LF_K_FALSE || op->res_kind == LF_K_FAIL);
}

/* ... and otherwise only with every op of its value: the inserted value, the value returned, or the key of a
 * set or kv op. cas-register and counter ops have none. */
typedef struct value_of {
    bool has;
    bool nil;
    int64_t v;
} value_of;

static value_of value(lf_type t, const lf_op *op) {
    const lf_method_info *mi = lf_method_info_of(t, (lf_method)op->method);
    value_of r = {false, false, 0};
    if (t == LF_TYPE_CAS_REGISTER || t == LF_TYPE_COUNTER) return r;
    if (t == LF_TYPE_SET || t == LF_TYPE_KV || mi->role == LF_ROLE_INSERT) {
        r.has = true;
        r.nil = lf_arg_is_nil(op, 0);
        r.v = r.nil ? 0 : op->arg[0];
    } else if (op->res_kind == LF_K_INT || op->res_kind == LF_K_NIL) {
        r.has = true;
        r.nil = op->res_kind == LF_K_NIL;
        r.v = r.nil ? 0 : op->res;
    }
    return r;
}

/* Checks the removal rule; returns false (and says why) when out is not a sound reduction of in. */
static bool sound_reduction(const lf_history *in, const lf_history *out, const lf_minimize_stats *st, char *why,
                            size_t len) {
    bool *kept = calloc(in->n ? in->n : 1, sizeof *kept);
    size_t i = 0;
    for (size_t j = 0; j < out->n; j++) {
        while (i < in->n && !same_op(&out->ops[j], &in->ops[i]) &&
               !(st->cut && pending_version(&out->ops[j], &in->ops[i], st->cut_stamp)))
            i++;
        if (i == in->n) {
            snprintf(why, len, "op %zu of the result is not an op of the input (in order)", j);
            free(kept);
            return false;
        }
        kept[i++] = true;
    }
    for (i = 0; i < in->n; i++) {
        const lf_op *op = &in->ops[i];
        if (kept[i] || may_go_alone(in->type, op)) continue;
        if (st->cut && op->call > st->cut_stamp) continue;      /* after the cut */
        if (st->suffix && op->call < st->suffix_stamp) continue; /* before the forced state */
        value_of k = value(in->type, op);
        if (!k.has) {
            snprintf(why, len, "op %zu was removed but has no value and changes the state", i);
            free(kept);
            return false;
        }
        for (size_t j = 0; j < in->n; j++) {
            value_of kj = value(in->type, &in->ops[j]);
            if (kept[j] && kj.has && kj.nil == k.nil && kj.v == k.v) {
                snprintf(why, len, "op %zu was removed, op %zu of the same value kept: not a whole value", i, j);
                free(kept);
                return false;
            }
        }
    }
    free(kept);
    return true;
}

static const lf_type TYPES[] = {LF_TYPE_STACK, LF_TYPE_QUEUE,        LF_TYPE_PQUEUE,  LF_TYPE_SET,  LF_TYPE_REGISTER,
                                LF_TYPE_KV,    LF_TYPE_CAS_REGISTER, LF_TYPE_COUNTER, LF_TYPE_DEQUE};

static void property_random(void) {
    size_t tested = 0, in_ops = 0, out_ops = 0, suffixes = 0;
    for (size_t ti = 0; ti < sizeof TYPES / sizeof TYPES[0]; ti++) {
        size_t tested_type = 0;
        for (uint64_t seed = 1; seed <= 400 && tested_type < 60; seed++) {
            lf_gen_options g;
            lf_gen_options_default(&g);
            g.type = TYPES[ti];
            g.seed = seed * 7919 + ti;
            g.n_ops = 6 + seed % 13;
            g.threads = 2 + (uint32_t)(seed % 3);
            g.bad = 1 + seed % 2;
            g.peek = 0.3;
            g.empty = 0.3;
            g.values = seed % 4 == 0 ? 3 : 0; /* some ambiguous histories too */
            g.pending = seed % 5 == 0 ? 0.3 : 0;
            lf_history h;
            char err[256];
            if (!lf_gen_history(&g, &h, err, sizeof err)) {
                CHECKF(false, "gen: %s", err);
                continue;
            }
            if (brute(&h) != LF_VIOLATION) {
                lf_history_free(&h);
                continue;
            }
            for (int cut = 0; cut < 2; cut++) {
                lf_minimize_options o;
                lf_minimize_options_default(&o);
                o.cut_prefix = cut;
                o.drop_forced_prefix = cut;
                lf_minimize_stats st;
                lf_history out;
                lf_verdict v = lf_minimize(&h, &o, &out, &st);
                CHECKF(v == LF_VIOLATION, "%s seed %llu: verdict %d", lf_type_name(g.type), (unsigned long long)g.seed,
                       (int)v);
                CHECKF(brute(&out) == LF_VIOLATION, "%s seed %llu cut %d: the minimized history is not a violation",
                       lf_type_name(g.type), (unsigned long long)g.seed, cut);
                CHECKF(lf_history_validate(&out, err, sizeof err) == SIZE_MAX, "invalid result: %s", err);
                char why[256] = "";
                CHECKF(sound_reduction(&h, &out, &st, why, sizeof why), "%s seed %llu cut %d: %s", lf_type_name(g.type),
                       (unsigned long long)g.seed, cut, why);
                CHECK(out.n <= h.n && out.n > 0);
                CHECK(st.complete);
                if (!cut) CHECK(!st.cut && !st.suffix);
                if (st.suffix) {
                    /* The result starts with the op that forces the state, alone at that point in time (unless
                     * a later value drop removed that op too, which is a sound step of its own). */
                    size_t first = 0;
                    for (size_t i = 1; i < out.n; i++)
                        if (out.ops[i].call < out.ops[first].call) first = i;
                    const lf_op *f = &out.ops[first];
                    bool forcing = f->call > st.suffix_stamp;
                    if (f->call == st.suffix_stamp) {
                        bool one_key = true;
                        for (size_t i = 0; i < out.n; i++) one_key = one_key && out.ops[i].arg[0] == f->arg[0];
                        bool keyed = (g.type == LF_TYPE_SET || g.type == LF_TYPE_KV) && one_key &&
                                     ((f->method == LF_M_ADD && f->res_kind == LF_K_TRUE) ||
                                      f->res_kind == LF_K_FALSE || f->res_kind == LF_K_NIL || f->method == LF_M_PUT);
                        forcing = !lf_op_pending(f) &&
                                  (f->method == LF_M_WRITE || f->res_kind == LF_K_EMPTY || keyed);
                        for (size_t i = 0; i < out.n; i++)
                            if (i != first && !lf_precedes(f, &out.ops[i])) forcing = false;
                    }
                    CHECKF(forcing, "%s seed %llu: the suffix does not start at a quiescent forcing op",
                           lf_type_name(g.type), (unsigned long long)g.seed);
                    suffixes++;
                }
                if (cut) {
                    in_ops += h.n;
                    out_ops += out.n;
                }
                lf_history_free(&out);
            }
            tested++;
            tested_type++;
            lf_history_free(&h);
        }
        CHECKF(tested_type >= 20, "%s: only %zu violating histories tested", lf_type_name(TYPES[ti]), tested_type);
    }
    printf("minimize property: %zu violating histories, %zu ops -> %zu ops (%.0f%%), %zu forced-state suffixes\n",
           tested, in_ops, out_ops, in_ops ? 100.0 * (double)out_ops / (double)in_ops : 0, suffixes);
    CHECK(suffixes > 0);
    /* Not a proof of minimality, but a minimiser that removes nothing would pass every check above. */
    CHECKF(out_ops * 10 < in_ops * 7, "the minimizer barely reduces: %zu -> %zu ops", in_ops, out_ops);
}

static void push_op(lf_history *h, uint32_t thread, uint64_t call, uint64_t ret, lf_method m, int64_t arg,
                    lf_kind kind, int64_t res) {
    lf_op op = {.call = call, .ret = ret, .thread = thread, .method = (uint8_t)m, .res_kind = (uint8_t)kind};
    op.arg[0] = arg;
    op.res = res;
    lf_history_push(h, &op);
}

/* [Cirisci20]: dropping push(b) from push(b); pop->b || pop->b leaves a violation for a fake reason.
 * The value is one unit: either all three ops stay or none; and none would leave nothing. */
static void never_fake_reasons(void) {
    lf_history h, out;
    lf_history_init(&h, LF_TYPE_STACK);
    push_op(&h, 0, 1, 2, LF_M_PUSH, 5, LF_K_NONE, 0);
    push_op(&h, 0, 3, 6, LF_M_POP, 0, LF_K_INT, 5);
    push_op(&h, 1, 4, 7, LF_M_POP, 0, LF_K_INT, 5);
    push_op(&h, 1, 8, 9, LF_M_PUSH, 6, LF_K_NONE, 0); /* an unrelated value: may go */
    push_op(&h, 0, 10, 11, LF_M_POP, 0, LF_K_INT, 6);
    lf_minimize_options o;
    lf_minimize_options_default(&o);
    lf_minimize_stats st;
    CHECK(lf_minimize(&h, &o, &out, &st) == LF_VIOLATION);
    CHECKF(out.n == 3, "kept %zu ops", out.n);
    size_t pushes = 0;
    for (size_t i = 0; i < out.n; i++) pushes += out.ops[i].method == LF_M_PUSH && out.ops[i].arg[0] == 5;
    CHECK(pushes == 1);
    CHECK(st.values_dropped == 1);
    lf_history_free(&out);
    lf_history_free(&h);
}

/* A counter's incs never go (no value projection), its gets may; a linearizable history comes back as is. */
static void counter_and_linearizable(void) {
    lf_history h, out;
    lf_history_init(&h, LF_TYPE_COUNTER);
    push_op(&h, 0, 1, 4, LF_M_INC, 0, LF_K_NONE, 0);
    push_op(&h, 1, 2, 3, LF_M_GET, 0, LF_K_INT, 0);
    push_op(&h, 1, 5, 6, LF_M_INC, 0, LF_K_NONE, 0);
    push_op(&h, 0, 7, 8, LF_M_GET, 0, LF_K_INT, 1); /* lost update: two incs done, get says 1 */
    push_op(&h, 0, 9, 10, LF_M_GET, 0, LF_K_INT, 2);
    lf_minimize_options o;
    lf_minimize_options_default(&o);
    o.cut_prefix = false;
    lf_minimize_stats st;
    CHECK(lf_minimize(&h, &o, &out, &st) == LF_VIOLATION);
    size_t incs = 0, gets = 0;
    for (size_t i = 0; i < out.n; i++) incs += out.ops[i].method == LF_M_INC, gets += out.ops[i].method == LF_M_GET;
    CHECKF(incs == 2 && gets == 1, "incs %zu gets %zu", incs, gets);
    lf_history_free(&out);

    h.n = 2; /* inc || get -> 0: linearizable */
    CHECK(lf_minimize(&h, &o, &out, &st) == LF_LINEARIZABLE);
    CHECK(out.n == 2 && same_op(&out.ops[0], &h.ops[0]) && same_op(&out.ops[1], &h.ops[1]));
    lf_history_free(&out);
    lf_history_free(&h);
}

/* A budget of a few checks stops early; the result is still a verified violation. */
static void budget_is_sound(void) {
    lf_gen_options g;
    lf_gen_options_default(&g);
    g.type = LF_TYPE_QUEUE;
    g.n_ops = 400;
    g.bad = 1;
    size_t stopped = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        g.seed = seed;
        lf_history h, out;
        char err[256];
        if (!lf_gen_history(&g, &h, err, sizeof err)) continue;
        lf_minimize_options o;
        lf_minimize_options_default(&o);
        o.max_checks = 5;
        lf_minimize_stats st;
        if (lf_minimize(&h, &o, &out, &st) == LF_VIOLATION) {
            lf_result r;
            lf_result_init(&r);
            lf_check(&out, &o.check, &r);
            CHECK(r.verdict == LF_VIOLATION);
            CHECK(st.checks <= 5);
            stopped += !st.complete;
            lf_result_free(&r);
        }
        lf_history_free(&out);
        lf_history_free(&h);
    }
    CHECK(stopped > 0);
}

int main(void) {
    property_random();
    never_fake_reasons();
    counter_and_linearizable();
    budget_is_sound();
    TEST_DONE();
}
