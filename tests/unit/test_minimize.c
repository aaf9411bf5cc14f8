/* Tests of engines/minimize: on many random violating histories of every type (lf_gen_history with bad > 0),
 * the minimised history is still a violation for the independent brute-force oracle, is an order-preserving
 * sub-history of the input, and was obtained only by removing whole values (or keys) and state-preserving
 * ops (plus, with the prefix cut, ops called after the cut and in-flight ops turned pending; on counters,
 * incs ordered with every get, the gets after them lowered by one each). With the cut, the minimised
 * history keeps the input's first impossible return, and it is its first impossible return too (both checked
 * with the oracle on prefixes). Also: the classic unsound deletion is never made, counters keep a racing pair
 * of incs, the counter reductions stay off under any other spec than the built-in one (the first impossible
 * return still kept), linearizable input is returned as is, budgets stay sound. */
#include <string.h>

#include "brute/brute.h"
#include "history_test_util.h"
#include "linfuzz/generate.h"
#include "linfuzz/minimize.h"
#include "linfuzz/spec.h"
#include "test_util.h"

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

/* out's op is in's counter get with a lowered result (the shift rule; checked below). */
static bool lowered_get(const lf_op *out, const lf_op *in) {
    return in->method == LF_M_GET && in->res_kind == LF_K_INT && out->res_kind == LF_K_INT && out->call == in->call &&
           out->ret == in->ret && out->thread == in->thread && out->method == in->method && out->res <= in->res;
}

/* A counter's lost-update witness: in, the first impossible return is a get that returned fewer than the incs
 * returned before it was called; out is that get with one inc that preceded it (get -> 0), or two that
 * preceded it and overlap each other (get -> 1). */
static bool lost_update_witness(const lf_history *in, const lf_history *out, const lf_minimize_stats *st, char *why,
                                size_t len) {
    size_t x = SIZE_MAX, gets = 0, incs = 0;
    for (size_t i = 0; i < in->n; i++)
        if (!lf_op_pending(&in->ops[i]) && in->ops[i].ret == st->first_bad_stamp) x = i;
    if (x == SIZE_MAX || in->ops[x].method != LF_M_GET) {
        snprintf(why, len, "lost-update witness, but the first impossible return is not a get");
        return false;
    }
    int64_t done = 0;
    for (size_t i = 0; i < in->n; i++) done += in->ops[i].method == LF_M_INC && lf_precedes(&in->ops[i], &in->ops[x]);
    if (in->ops[x].res >= done) {
        snprintf(why, len, "lost-update witness, but the get saw %lld of %lld incs", (long long)in->ops[x].res,
                 (long long)done);
        return false;
    }
    const lf_op *kept_incs[2] = {NULL, NULL};
    for (size_t j = 0; j < out->n; j++) {
        const lf_op *o = &out->ops[j];
        if (o->method == LF_M_GET) {
            gets++;
            if (o->call != in->ops[x].call || o->ret != in->ops[x].ret || o->thread != in->ops[x].thread) gets = 99;
        } else if (incs < 2) {
            bool from_in = false;
            for (size_t i = 0; i < in->n; i++) from_in |= same_op(o, &in->ops[i]) && lf_precedes(o, &in->ops[x]);
            if (!from_in) incs = 99;
            else kept_incs[incs++] = o;
        } else {
            incs = 99;
        }
    }
    bool pair_overlaps = incs == 2 && !lf_precedes(kept_incs[0], kept_incs[1]) && !lf_precedes(kept_incs[1], kept_incs[0]);
    int64_t seen = -1;
    for (size_t j = 0; j < out->n; j++)
        if (out->ops[j].method == LF_M_GET) seen = out->ops[j].res;
    if (gets != 1 || (incs != 1 && !pair_overlaps) || seen != (int64_t)incs - 1) {
        snprintf(why, len, "not a lost-update witness: %zu gets, %zu incs", gets, incs);
        return false;
    }
    return true;
}

/* Checks the removal rule; returns false (and says why) when out is not a sound reduction of in. */
static bool sound_reduction(const lf_history *in, const lf_history *out, const lf_minimize_stats *st, char *why,
                            size_t len) {
    if (st->lost_update) return lost_update_witness(in, out, st, why, len);
    bool *kept = calloc(in->n ? in->n : 1, sizeof *kept), *made_pending = calloc(in->n ? in->n : 1, 1);
    size_t *out_of = calloc(in->n ? in->n : 1, sizeof *out_of);
    bool ok = true;
    size_t i = 0;
    for (size_t j = 0; j < out->n && ok; j++) {
        while (i < in->n && !same_op(&out->ops[j], &in->ops[i]) &&
               !(st->cut && pending_version(&out->ops[j], &in->ops[i], st->cut_stamp)) &&
               !(in->type == LF_TYPE_COUNTER && lowered_get(&out->ops[j], &in->ops[i])))
            i++;
        if (i == in->n) {
            snprintf(why, len, "op %zu of the result is not an op of the input (in order)", j);
            ok = false;
            break;
        }
        made_pending[i] = lf_op_pending(&out->ops[j]) && !lf_op_pending(&in->ops[i]);
        out_of[i] = j;
        kept[i++] = true;
    }
    for (i = 0; i < in->n && ok; i++) {
        const lf_op *op = &in->ops[i];
        if (kept[i] || may_go_alone(in->type, op)) continue;
        if (st->cut && op->call > st->cut_stamp) continue;      /* after the cut */
        if (st->suffix && op->call < st->suffix_stamp) continue; /* before the forced state */
        if (in->type == LF_TYPE_COUNTER && op->method == LF_M_INC && !lf_op_pending(op)) {
            /* an inc may go when ordered with every get kept */
            for (size_t j = 0; j < in->n && ok; j++)
                if (kept[j] && in->ops[j].method == LF_M_GET && !lf_precedes(op, &in->ops[j]) &&
                    !lf_precedes(&in->ops[j], op)) {
                    snprintf(why, len, "inc %zu was removed but overlaps get %zu, which was kept", i, j);
                    ok = false;
                }
            continue;
        }
        value_of k = value(in->type, op);
        if (!k.has) {
            snprintf(why, len, "op %zu was removed but has no value and changes the state", i);
            ok = false;
            break;
        }
        /* The whole value goes, except ops the cut made pending: a pending op has no value, and a witness may
         * leave it out (so it may also be the one that took the value away). */
        for (size_t j = 0; j < in->n && ok; j++) {
            value_of kj = value(in->type, &in->ops[j]);
            if (kept[j] && !made_pending[j] && kj.has && kj.nil == k.nil && kj.v == k.v) {
                snprintf(why, len, "op %zu was removed, op %zu of the same value kept: not a whole value", i, j);
                ok = false;
            }
        }
    }
    /* Counters: each get kept is lowered by exactly the incs removed before it (not those the cut removed). */
    for (size_t j = 0; ok && in->type == LF_TYPE_COUNTER && j < in->n; j++) {
        if (!kept[j] || in->ops[j].method != LF_M_GET || in->ops[j].res_kind != LF_K_INT) continue;
        int64_t lowered = 0;
        for (i = 0; i < in->n; i++)
            if (!kept[i] && in->ops[i].method == LF_M_INC && lf_precedes(&in->ops[i], &in->ops[j])) lowered++;
        if (out->ops[out_of[j]].res != in->ops[j].res - lowered) {
            snprintf(why, len, "get %zu returns %lld, recorded %lld with %lld incs before it removed", j,
                     (long long)out->ops[out_of[j]].res, (long long)in->ops[j].res, (long long)lowered);
            ok = false;
        }
    }
    free(kept);
    free(made_pending);
    free(out_of);
    return ok;
}

/* The prefix of h made of the events stamped <= t (the minimiser's cut, restated): ops returned by then kept,
 * ops called by then and returned later made pending, later ops dropped. */
static void prefix_until(const lf_history *h, uint64_t t, lf_history *out) {
    lf_history_init(out, h->type);
    out->has_init = h->has_init;
    out->init_kind = h->init_kind;
    out->init = h->init;
    for (size_t i = 0; i < h->n; i++) {
        lf_op op = h->ops[i];
        if (op.call > t) continue;
        if (!lf_op_pending(&op) && op.ret > t) {
            op.res_kind = LF_K_PENDING;
            op.ret = op.res = 0;
        }
        lf_history_push(out, &op);
    }
}

/* The verdict of the prefix of h just before the return stamped t (that return and every later event left
 * out, so the ops returning at t are pending). */
static lf_verdict before_return(const lf_history *h, uint64_t t) {
    lf_history p;
    prefix_until(h, t - 1, &p);
    /* ops called at t (after the return at t in the event order? no: calls first) stay, pending */
    for (size_t i = 0; i < h->n; i++)
        if (h->ops[i].call == t) {
            lf_op op = h->ops[i];
            op.res_kind = LF_K_PENDING;
            op.ret = op.res = 0;
            lf_history_push(&p, &op);
        }
    lf_verdict v = brute_verdict(&p, 24);
    lf_history_free(&p);
    return v;
}

/* The minimised history keeps the first impossible return of h, and it is its own first impossible return. */
static bool keeps_first_bad(const lf_history *h, const lf_history *out, const lf_minimize_stats *st, char *why,
                            size_t len) {
    if (!st->first_bad) {
        snprintf(why, len, "no first impossible return recorded");
        return false;
    }
    uint64_t t = st->first_bad_stamp;
    lf_history p;
    prefix_until(h, t, &p);
    lf_verdict at = brute_verdict(&p, 24);
    lf_history_free(&p);
    if (at != LF_VIOLATION || before_return(h, t) != LF_LINEARIZABLE) {
        snprintf(why, len, "the return at %llu is not the input's first impossible return", (unsigned long long)t);
        return false;
    }
    bool there = false;
    for (size_t i = 0; i < out->n; i++) there = there || (!lf_op_pending(&out->ops[i]) && out->ops[i].ret == t);
    if (!there || before_return(out, t) != LF_LINEARIZABLE) {
        snprintf(why, len, "the minimized history %s the return at %llu as its first impossible one",
                 there ? "does not have" : "lost", (unsigned long long)t);
        return false;
    }
    return true;
}

static const lf_type TYPES[] = {LF_TYPE_STACK, LF_TYPE_QUEUE,        LF_TYPE_PQUEUE,  LF_TYPE_SET,  LF_TYPE_REGISTER,
                                LF_TYPE_KV,    LF_TYPE_CAS_REGISTER, LF_TYPE_COUNTER, LF_TYPE_DEQUE};

static void property_random(void) {
    size_t tested = 0, in_ops = 0, out_ops = 0, suffixes = 0, first_bad_checked = 0;
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
            if (brute_verdict(&h, 24) != LF_VIOLATION) {
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
                CHECKF(brute_verdict(&out, 24) == LF_VIOLATION,
                       "%s seed %llu cut %d: the minimized history is not a violation", lf_type_name(g.type),
                       (unsigned long long)g.seed, cut);
                CHECKF(lf_history_validate(&out, err, sizeof err) == SIZE_MAX, "invalid result: %s", err);
                char why[256] = "";
                CHECKF(sound_reduction(&h, &out, &st, why, sizeof why), "%s seed %llu cut %d: %s", lf_type_name(g.type),
                       (unsigned long long)g.seed, cut, why);
                if (cut) {
                    CHECKF(keeps_first_bad(&h, &out, &st, why, sizeof why), "%s seed %llu: %s", lf_type_name(g.type),
                           (unsigned long long)g.seed, why);
                    first_bad_checked++;
                }
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
    printf("minimize property: %zu violating histories, %zu ops -> %zu ops (%.0f%%), %zu forced-state suffixes, "
           "%zu first impossible returns kept\n",
           tested, in_ops, out_ops, in_ops ? 100.0 * (double)out_ops / (double)in_ops : 0, suffixes, first_bad_checked);
    CHECK(suffixes > 0);
    CHECK(first_bad_checked == tested);
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
    /* value 6 goes with the cut at the second pop -> 5, the first impossible return */
    CHECK(st.first_bad && st.first_bad_stamp == 7 && st.ops_cut == 2);
    lf_history_free(&out);
    lf_history_free(&h);
}

/* Counters: gets may go, and incs that every get orders, the gets after them lowered; a racing pair of incs
 * stays; a get never goes below 0; a linearizable history comes back as is. */
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
    /* the incs do not overlap: one goes, the get is lowered to 0, and the other stays (0 is the floor) */
    CHECKF(out.n == 2 && out.ops[0].method == LF_M_INC && out.ops[1].method == LF_M_GET && out.ops[1].res == 0,
           "kept %zu ops", out.n);
    CHECK(st.incs_dropped == 1);
    lf_history_free(&out);

    /* racing incs: inc || inc, then 3 more incs, get -> 4: a lost update; the racing pair and the get stay,
     * get -> 1 */
    lf_history r;
    lf_history_init(&r, LF_TYPE_COUNTER);
    push_op(&r, 0, 1, 4, LF_M_INC, 0, LF_K_NONE, 0);
    push_op(&r, 1, 2, 3, LF_M_INC, 0, LF_K_NONE, 0);
    push_op(&r, 1, 5, 6, LF_M_INC, 0, LF_K_NONE, 0);
    push_op(&r, 0, 7, 8, LF_M_INC, 0, LF_K_NONE, 0);
    push_op(&r, 1, 9, 10, LF_M_INC, 0, LF_K_NONE, 0);
    push_op(&r, 2, 11, 12, LF_M_GET, 0, LF_K_INT, 4);
    o.cut_prefix = true;
    CHECK(lf_minimize(&r, &o, &out, &st) == LF_VIOLATION);
    CHECKF(out.n == 3 && out.ops[0].call == 1 && out.ops[1].call == 2 && out.ops[2].method == LF_M_GET &&
               out.ops[2].res == 1,
           "kept %zu ops", out.n);
    CHECK(st.first_bad && st.first_bad_stamp == 12 && st.lost_update && st.lost_update_dropped == 3);
    lf_history_free(&out);
    /* a count too high is no lost update: incs go by the shift only, the racing pair stays (get -> 9 after 5
     * incs: lowered by the 3 others to 6) */
    r.ops[5].res = 9;
    CHECK(lf_minimize(&r, &o, &out, &st) == LF_VIOLATION);
    CHECKF(!st.lost_update && out.n == 3 && out.ops[2].res == 6 && st.incs_dropped == 3, "kept %zu ops", out.n);
    lf_history_free(&out);
    r.ops[5].res = 4;
    o.shift_counters = false; /* the incs stay without the shift */
    CHECK(lf_minimize(&r, &o, &out, &st) == LF_VIOLATION);
    CHECK(out.n == 6 && st.incs_dropped == 0);
    lf_history_free(&out);
    lf_history_free(&r);

    h.n = 2; /* inc || get -> 0: linearizable */
    CHECK(lf_minimize(&h, &o, &out, &st) == LF_LINEARIZABLE);
    CHECK(out.n == 2 && same_op(&out.ops[0], &h.ops[0]) && same_op(&out.ops[1], &h.ops[1]));
    lf_history_free(&out);
    lf_history_free(&h);
}

/* Under another spec than the built-in one (lf_check_options.spec, as a custom spec or an adapter's self-spec
 * would be: generic mode), only the spec-independent reductions run: the counter's inc shifts and lost-update
 * witness are facts of the built-in counter spec, so even the counter's own spec given as a plug-in gets none
 * of them; every op of the result is one of the input's, unchanged, and the first impossible return stays. */
static void generic_mode_skips_counter_reductions(void) {
    lf_history r, out;
    lf_history_init(&r, LF_TYPE_COUNTER);
    push_op(&r, 0, 1, 4, LF_M_INC, 0, LF_K_NONE, 0);
    push_op(&r, 1, 2, 3, LF_M_INC, 0, LF_K_NONE, 0);
    push_op(&r, 1, 5, 6, LF_M_INC, 0, LF_K_NONE, 0);
    push_op(&r, 0, 7, 8, LF_M_INC, 0, LF_K_NONE, 0);
    push_op(&r, 1, 9, 10, LF_M_INC, 0, LF_K_NONE, 0);
    push_op(&r, 2, 11, 12, LF_M_GET, 0, LF_K_INT, 4); /* a lost update: the first impossible return */
    push_op(&r, 2, 13, 14, LF_M_GET, 0, LF_K_INT, 5);
    lf_minimize_options o;
    lf_minimize_options_default(&o);
    o.check.spec = lf_spec_builtin(LF_TYPE_COUNTER);
    lf_minimize_stats st;
    CHECK(lf_minimize(&r, &o, &out, &st) == LF_VIOLATION);
    CHECKF(!st.lost_update && st.incs_dropped == 0 && st.first_bad && st.first_bad_stamp == 12 && st.cut,
           "lost update %d, %zu incs dropped, first bad %d at %llu", st.lost_update, st.incs_dropped, st.first_bad,
           (unsigned long long)st.first_bad_stamp);
    bool bad_kept = false;
    for (size_t j = 0; j < out.n; j++) {
        bool from_input = false;
        for (size_t i = 0; i < r.n; i++) from_input |= same_op(&out.ops[j], &r.ops[i]);
        CHECKF(from_input, "op %zu of the result is not an op of the input", j);
        bad_kept |= out.ops[j].method == LF_M_GET && out.ops[j].ret == 12 && out.ops[j].res == 4;
    }
    CHECKF(bad_kept && out.n == 6 && brute_verdict(&out, 24) == LF_VIOLATION, "kept %zu ops", out.n);
    lf_history_free(&out);
    /* the built-in spec: the lost-update witness, get -> 1 */
    o.check.spec = NULL;
    CHECK(lf_minimize(&r, &o, &out, &st) == LF_VIOLATION);
    CHECK(st.lost_update && out.n == 3 && out.ops[2].res == 1);
    lf_history_free(&out);
    lf_history_free(&r);
}

/* The bug, not a consequence: a dequeue that observed a never-enqueued value, later a drain that finds the
 * queue empty although a value is in it. Both are violations on their own; the minimised history must keep
 * the first one (issue 13: it used to end as `enq 407; deq -> empty`). */
static void keeps_the_first_bad_result(void) {
    lf_history h, out;
    lf_history_init(&h, LF_TYPE_QUEUE);
    push_op(&h, 0, 1, 4, LF_M_ENQ, 407, LF_K_NONE, 0);
    push_op(&h, 1, 2, 5, LF_M_DEQ, 0, LF_K_INT, 0); /* 0 was never enqueued: the bug */
    push_op(&h, 0, 6, 7, LF_M_ENQ, 408, LF_K_NONE, 0);
    push_op(&h, 1, 8, 9, LF_M_DEQ, 0, LF_K_INT, 408);
    push_op(&h, 2, 10, 11, LF_M_DEQ, 0, LF_K_EMPTY, 0); /* drain: 407 is missing (a consequence) */
    lf_minimize_options o;
    lf_minimize_options_default(&o);
    lf_minimize_stats st;
    CHECK(lf_minimize(&h, &o, &out, &st) == LF_VIOLATION);
    CHECK(st.first_bad && st.first_bad_stamp == 5);
    bool has_bad = false;
    for (size_t i = 0; i < out.n; i++) has_bad |= out.ops[i].method == LF_M_DEQ && out.ops[i].res_kind == LF_K_INT &&
                                                 out.ops[i].res == 0 && out.ops[i].ret == 5;
    CHECKF(has_bad && out.n == 1, "kept %zu ops", out.n);
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
        o.check.timeout_s = 0.2; /* the prefixes of these 400-op histories have many pending ops: a long search */
        lf_minimize_stats st;
        if (lf_minimize(&h, &o, &out, &st) == LF_VIOLATION) {
            lf_result r;
            lf_result_init(&r);
            lf_check_options co = o.check;
            co.timeout_s = 60; /* the minimizer's short budget could run out here on a loaded machine */
            lf_check(&out, &co, &r);
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
    generic_mode_skips_counter_reductions();
    keeps_the_first_bad_result();
    budget_is_sound();
    TEST_DONE();
}
