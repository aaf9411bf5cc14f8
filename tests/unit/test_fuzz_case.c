/* Tests of testcase: every byte string decodes to a valid case and the encoding is canonical
 * (decode(encode(c)) == c), the first format ("fuzz-case 1") still decodes (as free mode), structured and
 * schedule-only mutations keep cases canonical, plans follow the argument scheme
 * (distinct inserted values, small key domains), runs of correct adapters give well-formed linearizable
 * histories with the serial prefix and drain where they belong, and the history signal responds to what a
 * history contains. */
#include <string.h>

#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "linfuzz/generate.h"
#include "runtime/adapter_check.h"
#include "runtime/adapter_type.h"
#include "test_util.h"
#include "testcase/case_runner.h"
#include "testcase/fuzz_case.h"
#include "testcase/history_signal.h"

static bool same_schedule(const lf_schedule *a, const lf_schedule *b) {
    if (a->strategy != b->strategy || a->bound != b->bound || a->walk_chance != b->walk_chance ||
        a->seed != b->seed || a->n_choices != b->n_choices || memcmp(a->priority, b->priority, sizeof a->priority) ||
        memcmp(a->choices, b->choices, sizeof a->choices))
        return false;
    for (unsigned i = 0; i < LF_SCHED_MAX_CHANGES; i++)
        if (a->change[i].thread != b->change[i].thread || a->change[i].op != b->change[i].op ||
            a->change[i].step != b->change[i].step)
            return false;
    return true;
}

static bool same_case(const lf_fuzz_case *a, const lf_fuzz_case *b) {
    /* compare field by field: the struct has padding */
    if (a->threads != b->threads || a->rounds != b->rounds || a->repeats != b->repeats ||
        a->key_domain != b->key_domain || a->drain != b->drain || a->seed != b->seed ||
        a->prefix_len != b->prefix_len || memcmp(&a->perturb, &b->perturb, sizeof a->perturb) ||
        memcmp(a->body_len, b->body_len, sizeof a->body_len) || memcmp(a->body, b->body, sizeof a->body) ||
        memcmp(a->prefix, b->prefix, sizeof a->prefix) || a->mode != b->mode ||
        !same_schedule(&a->schedule, &b->schedule))
        return false;
    return true;
}

static bool valid_case(const lf_fuzz_case *c, unsigned nm) {
    if (c->threads < 1 || c->threads > LF_FC_MAX_THREADS || c->rounds < 1 || c->rounds > LF_FC_MAX_ROUNDS ||
        c->repeats < 1 || c->repeats > LF_FC_MAX_REPEATS || !lf_fuzz_case_key_domain_valid(c->key_domain) ||
        c->prefix_len > LF_FC_MAX_PREFIX || c->perturb.point_chance > 1024 || c->perturb.gap_chance > 1024 || c->perturb.spin_max > LF_FC_MAX_SPIN ||
        lf_fuzz_case_run_ops(c) > LF_FC_MAX_RUN_OPS)
        return false;
    const lf_schedule *sch = &c->schedule;
    if (c->mode > LF_FC_FREE || sch->strategy >= LF_SCHED_STRATEGY_COUNT || sch->bound > LF_SCHED_MAX_CHANGES ||
        sch->n_choices > LF_SCHED_MAX_CHOICES)
        return false;
    for (unsigned i = 0; i < LF_SCHED_MAX_CHANGES; i++)
        if (sch->change[i].thread >= LF_FC_MAX_THREADS || sch->change[i].op >= LF_FC_MAX_RUN_OPS) return false;
    for (unsigned t = LF_FC_MAX_THREADS; t < LF_SCHED_MAX_THREADS; t++)
        if (sch->priority[t]) return false;
    for (unsigned t = 0; t < LF_FC_MAX_THREADS; t++) {
        if (c->body_len[t] > LF_FC_MAX_BODY || (t >= c->threads && c->body_len[t])) return false;
        for (unsigned i = 0; i < c->body_len[t]; i++)
            if (c->body[t][i].method >= nm) return false;
    }
    return true;
}

static void decoding_is_total_and_canonical(void) {
    uint64_t rng = 42;
    uint8_t bytes[700], enc[LF_FC_MAX_ENCODED], enc2[LF_FC_MAX_ENCODED];
    size_t bad = 0;
    for (int k = 0; k < 20000; k++) {
        size_t len = (size_t)lf_rand_below(&rng, sizeof bytes);
        for (size_t i = 0; i < len; i++) bytes[i] = (uint8_t)lf_rand_next(&rng);
        unsigned nm = 1 + (unsigned)lf_rand_below(&rng, 6);
        lf_fuzz_case c, c2;
        lf_fuzz_case_decode(bytes, len, nm, &c);
        size_t n = lf_fuzz_case_encode(&c, enc);
        lf_fuzz_case_decode(enc, n, nm, &c2);
        size_t n2 = lf_fuzz_case_encode(&c2, enc2);
        if (!valid_case(&c, nm) || !same_case(&c, &c2) || n != n2 || memcmp(enc, enc2, n) || n > LF_FC_MAX_ENCODED)
            bad++;
    }
    CHECKF(bad == 0, "%zu inputs not decoded to a valid canonical case", bad);
    lf_fuzz_case c;
    lf_fuzz_case_decode(NULL, 0, 3, &c);
    CHECK(c.threads == 1 && c.rounds == 1 && c.repeats == 1 && c.body_len[0] == 0 && valid_case(&c, 3));
    CHECK(c.mode == LF_FC_CONTROLLED && c.schedule.strategy == LF_SCHED_PCT && c.schedule.bound == 0);
    /* the documented header (docs/fuzzing.md): byte 0 = threads-1 | drain<<3, byte 1 = rounds-1, byte 20 = mode
     * (>= 224: free), 21 strategy, 22 bound, 24-31 priorities, 40-43 the first change point (thread, op LE,
     * step), 52 the number of choices, 53 = thread 0's length; the choices follow the prefix */
    uint8_t hdr[64] = {0x0b, 5, 2, 1};
    hdr[20] = 7;
    hdr[21] = 8; /* strategy 8 % 7 = CHOICES */
    hdr[22] = 2;
    hdr[24] = 99;
    hdr[40] = 9; /* thread 9 % 8 = 1 */
    hdr[41] = 0x34;
    hdr[42] = 0x12; /* op 0x1234 % 2048 = 0x234 */
    hdr[43] = 17;
    hdr[52] = 1;
    hdr[53] = 1;
    hdr[54] = 4; /* method 4 % 3 = 1 */
    hdr[55] = 9;
    /* three empty threads, then the choice: after 130 points (128 + 2 * 16 = 160), target 10 % 8 = 2 */
    hdr[59] = 130;
    hdr[60] = 10;
    lf_fuzz_case_decode(hdr, sizeof hdr, 3, &c);
    CHECK(c.threads == 4 && c.drain && c.rounds == 6 && c.repeats == 3 && c.key_domain == 2);
    CHECK(c.body_len[0] == 1 && c.body[0][0].method == 1 && c.body[0][0].arg == 9 && c.body_len[1] == 0);
    CHECK(c.mode == LF_FC_CONTROLLED && c.schedule.strategy == LF_SCHED_CHOICES && c.schedule.bound == 2);
    CHECK(c.schedule.priority[0] == 99 && c.schedule.change[0].thread == 1 && c.schedule.change[0].op == 0x234 &&
          c.schedule.change[0].step == 17);
    CHECK(c.schedule.n_choices == 1 && c.schedule.choices[0].after == 130 && c.schedule.choices[0].target == 2 &&
          lf_sched_choice_steps(130) == 160);
    /* format 3 had four strategies: its byte 5 is CHOICES (5 % 4), format 6's byte 4 is POS */
    hdr[21] = 5;
    CHECK(lf_fuzz_case_decode_as(LF_FUZZ_CASE_FORMAT_V3, hdr, sizeof hdr, 3, &c) &&
          c.schedule.strategy == LF_SCHED_CHOICES);
    hdr[21] = 4;
    CHECK(lf_fuzz_case_decode_as(LF_FUZZ_CASE_FORMAT_V3, hdr, sizeof hdr, 3, &c) && c.schedule.strategy == LF_SCHED_PCT);
    lf_fuzz_case_decode(hdr, sizeof hdr, 3, &c);
    CHECK(c.schedule.strategy == LF_SCHED_POS);
    /* format 4 had five strategies: its byte 5 is PCT (5 % 5), format 6's byte 5 is SURW */
    hdr[21] = 5;
    CHECK(lf_fuzz_case_decode_as(LF_FUZZ_CASE_FORMAT_V4, hdr, sizeof hdr, 3, &c) &&
          c.schedule.strategy == LF_SCHED_PCT);
    hdr[21] = 11;
    CHECK(lf_fuzz_case_decode_as(LF_FUZZ_CASE_FORMAT_V4, hdr, sizeof hdr, 3, &c) &&
          c.schedule.strategy == LF_SCHED_CHOICES);
    lf_fuzz_case_decode(hdr, sizeof hdr, 3, &c);
    CHECK(c.schedule.strategy == LF_SCHED_POS); /* (11 % 7) */
    hdr[21] = 5;
    lf_fuzz_case_decode(hdr, sizeof hdr, 3, &c);
    CHECK(c.schedule.strategy == LF_SCHED_SURW);
    /* format 5 had six strategies: its byte 6 is PCT (6 % 6), its byte 13 CHOICES; format 6's are ABA */
    hdr[21] = 6;
    CHECK(lf_fuzz_case_decode_as(LF_FUZZ_CASE_FORMAT_V5, hdr, sizeof hdr, 3, &c) &&
          c.schedule.strategy == LF_SCHED_PCT);
    lf_fuzz_case_decode(hdr, sizeof hdr, 3, &c);
    CHECK(c.schedule.strategy == LF_SCHED_ABA);
    hdr[21] = 13;
    CHECK(lf_fuzz_case_decode_as(LF_FUZZ_CASE_FORMAT_V5, hdr, sizeof hdr, 3, &c) &&
          c.schedule.strategy == LF_SCHED_CHOICES);
    lf_fuzz_case_decode(hdr, sizeof hdr, 3, &c);
    CHECK(c.schedule.strategy == LF_SCHED_ABA);
    /* the key byte: 1 + b % 16 in every format; format 7 reads 240..255 as the wide domains 32 << (b % 4), where
     * format 6 (and 1) read 1..16, so that their entries replay as they were found */
    const struct {
        uint8_t byte;
        unsigned v7, v6;
    } keys[] = {{0, 1, 1}, {15, 16, 16}, {16, 1, 1}, {239, 16, 16}, {240, 32, 1}, {241, 64, 2}, {242, 128, 3},
                {243, 256, 4}, {255, 256, 16}};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        hdr[3] = keys[k].byte;
        lf_fuzz_case_decode(hdr, sizeof hdr, 3, &c);
        CHECKF(c.key_domain == keys[k].v7, "key byte %u: domain %u in format 7", keys[k].byte, c.key_domain);
        uint8_t encoded[LF_FC_MAX_ENCODED];
        lf_fuzz_case again;
        lf_fuzz_case_decode(encoded, lf_fuzz_case_encode(&c, encoded), 3, &again);
        CHECKF(same_case(&c, &again), "key domain %u does not survive encoding", c.key_domain);
        CHECK(lf_fuzz_case_decode_as(LF_FUZZ_CASE_FORMAT_V6, hdr, sizeof hdr, 3, &c) && c.key_domain == keys[k].v6);
        CHECK(lf_fuzz_case_decode_as(LF_FUZZ_CASE_FORMAT_V1, hdr, sizeof hdr, 3, &c) && c.key_domain == keys[k].v6);
    }
    hdr[3] = 1;
    hdr[21] = 4;
    hdr[20] = LF_FC_FREE_MODE_BYTE;
    lf_fuzz_case_decode(hdr, sizeof hdr, 3, &c);
    CHECK(c.mode == LF_FC_FREE);
    hdr[20] = LF_FC_FREE_MODE_BYTE - 1;
    lf_fuzz_case_decode(hdr, sizeof hdr, 3, &c);
    CHECK(c.mode == LF_FC_CONTROLLED);
}

/* "fuzz-case 1" (the 20-byte header, no schedule), as older corpus entries record it: it decodes as a free-mode
 * case with the same calls, and an unknown format is refused. */
static void first_format_still_decodes(void) {
    uint8_t v1[24] = {0x0b, 5, 2, 1};
    v1[11] = 1; /* a prefix of one call (its bytes are past the end: 0) */
    v1[20] = 1; /* thread 0's length, right after the 20-byte header, and its call */
    v1[21] = 4;
    v1[22] = 9;
    v1[23] = 0; /* thread 1: empty (threads 2 and 3 too: past the end) */
    lf_fuzz_case c;
    CHECK(lf_fuzz_case_decode_as(LF_FUZZ_CASE_FORMAT_V1, v1, sizeof v1, 3, &c));
    CHECK(c.mode == LF_FC_FREE && c.threads == 4 && c.rounds == 6 && c.prefix_len == 1);
    CHECK(c.body_len[0] == 1 && c.body[0][0].method == 1 && c.body[0][0].arg == 9 && c.body_len[1] == 0);
    lf_fuzz_case d;
    CHECK(lf_fuzz_case_decode_as(LF_FUZZ_CASE_FORMAT, v1, sizeof v1, 3, &d));
    CHECK(!same_case(&c, &d)); /* the same bytes mean something else in the current format */
    CHECK(!lf_fuzz_case_decode_as("fuzz-case 9", v1, sizeof v1, 3, &d));
    CHECK(!lf_fuzz_case_decode_as(NULL, v1, sizeof v1, 3, &d));
}

/* Whether c is valid and canonical: it decodes from its encoding to itself. */
static bool canonical_case(const lf_fuzz_case *c, unsigned n_methods) {
    uint8_t enc[LF_FC_MAX_ENCODED];
    lf_fuzz_case back;
    size_t len = lf_fuzz_case_encode(c, enc);
    lf_fuzz_case_decode(enc, len, n_methods, &back);
    return valid_case(c, n_methods) && same_case(c, &back);
}

static void mutations_stay_canonical(void) {
    uint64_t rng = 7;
    lf_fuzz_case c;
    lf_fuzz_case_decode(NULL, 0, 4, &c);
    size_t bad = 0, changed = 0, max_threads = 0;
    for (int k = 0; k < 20000; k++) {
        lf_fuzz_case before = c;
        lf_fuzz_case_mutate(&c, 4, &rng);
        if (!canonical_case(&c, 4)) bad++;
        changed += !same_case(&before, &c);
        if (c.threads > max_threads) max_threads = c.threads;
    }
    CHECKF(bad == 0, "%zu mutations left a non-canonical case", bad);
    CHECKF(changed > 15000, "only %zu of 20000 mutations changed the case", changed);
    CHECK(max_threads == LF_FC_MAX_THREADS);
    /* Schedule-only mutations change the schedule and nothing else; free mode about one time in eight among
     * the mode mutations (over all of them: 1/16 * 1/8 of the cases move to free, and back). */
    size_t workload_changed = 0, schedule_changed = 0, free_cases = 0;
    bad = 0;
    for (int k = 0; k < 20000; k++) {
        lf_fuzz_case before = c;
        lf_fuzz_case_mutate_schedule(&c, &rng);
        lf_fuzz_case_normalize(&c, 4);
        if (!canonical_case(&c, 4)) bad++;
        lf_fuzz_case w = c;
        w.mode = before.mode;
        w.schedule = before.schedule;
        workload_changed += !same_case(&before, &w);
        schedule_changed += before.mode != c.mode || !same_schedule(&before.schedule, &c.schedule);
        free_cases += c.mode == LF_FC_FREE;
    }
    CHECKF(bad == 0, "%zu schedule mutations left a non-canonical case", bad);
    CHECKF(workload_changed == 0, "%zu schedule mutations changed the workload", workload_changed);
    CHECKF(schedule_changed > 14000, "only %zu of 20000 schedule mutations changed the schedule", schedule_changed);
    CHECKF(free_cases > 20000 / 8 / 3 && free_cases < 20000 / 8 * 3, "%zu of 20000 mutated cases in free mode",
           free_cases);
}

/* Plans: arguments follow the scheme of case_runner.h. */
static void plans_follow_the_argument_scheme(void) {
    uint64_t rng = 99;
    uint8_t bytes[400];
    for (size_t ai = 0; ai < lf_adapter_count(); ai++) {
        const lf_adapter *a = lf_adapter_at(ai);
        lf_method ms[LF_M_COUNT];
        unsigned nm = lf_fuzz_case_methods(a, ms);
        for (int k = 0; k < 20; k++) {
            for (size_t i = 0; i < sizeof bytes; i++) bytes[i] = (uint8_t)lf_rand_next(&rng);
            lf_fuzz_case c;
            lf_fuzz_case_decode(bytes, sizeof bytes, nm, &c);
            lf_fc_plan p;
            CHECK(lf_fc_plan_build(&p, &c, a));
            int64_t *inserted = malloc(LF_BULK_MAX * (lf_fuzz_case_run_ops(&c) + LF_FC_MAX_PREFIX + 1) * sizeof *inserted);
            size_t n_ins = 0, bad = 0, n_asked = 0;
            bool wide_set = a->type == LF_TYPE_SET && c.key_domain > LF_FC_MAX_KEYS;
            int64_t *asked = malloc((lf_fuzz_case_run_ops(&c) + LF_FC_MAX_PREFIX + 1) * sizeof *asked);
            for (int part = 0; part <= (int)p.threads; part++) {
                const lf_planned_op *ops = part < (int)p.threads ? p.ops[part] : p.prefix;
                size_t n = part < (int)p.threads ? p.len[part] : p.prefix_len;
                for (size_t i = 0; i < n; i++) {
                    const lf_planned_op *op = &ops[i];
                    if (a->type == LF_TYPE_CUSTOM) { /* custom types: the adapter's argument ranges */
                        const lf_method_decl *d = lf_adapter_method(a, op->method);
                        if (!d || op->nargs != d->nargs) bad++;
                        for (unsigned j = 0; d && j < 2; j++) {
                            if (j >= d->nargs) {
                                bad += op->args[j] != 0;
                                continue;
                            }
                            lf_arg_range rg = a->arg_ranges ? a->arg_ranges[op->method][j]
                                                            : (lf_arg_range){0, (c.key_domain < LF_FC_MAX_KEYS
                                                                                    ? c.key_domain
                                                                                    : LF_FC_MAX_KEYS) - 1};
                            if (op->args[j] < rg.lo || op->args[j] > rg.hi) bad++;
                        }
                        continue;
                    }
                    const lf_method_info *mi = lf_method_info_of(a->type, (lf_method)op->method);
                    if (mi && lf_method_is_bulk(op->method)) { /* n in nargs, an insert's values in args */
                        if (!(a->methods & LF_METHOD_BIT(op->method)) || op->nargs < 1 || op->nargs > LF_BULK_MAX) bad++;
                        for (unsigned j = 0; j < LF_CUSTOM_MAX_ARGS; j++) {
                            if (lf_method_is_bulk_insert(op->method) && j < op->nargs)
                                inserted[n_ins++] = op->args[j];
                            else
                                bad += op->args[j] != 0;
                        }
                        continue;
                    }
                    if (!mi || !(a->methods & LF_METHOD_BIT(op->method)) || op->nargs != mi->nargs) bad++;
                    /* a wide set: fresh keys for the adds, added or never-added keys for the others (below) */
                    if (wide_set && op->method == LF_M_ADD) inserted[n_ins++] = op->args[0];
                    if (wide_set && op->method != LF_M_ADD) asked[n_asked++] = op->args[0];
                    if (a->type == LF_TYPE_SET && !wide_set && (op->args[0] < 1 || op->args[0] > c.key_domain)) bad++;
                    if (a->type == LF_TYPE_KV && (op->args[0] < 0 || op->args[0] >= c.key_domain)) bad++;
                    if (a->type == LF_TYPE_CAS_REGISTER && (op->args[0] < 0 || op->args[0] > c.key_domain)) bad++;
                    if (a->type != LF_TYPE_SET && a->type != LF_TYPE_CAS_REGISTER && mi && mi->role == LF_ROLE_INSERT &&
                        mi->nargs)
                        inserted[n_ins++] = op->args[mi->nargs - 1];
                }
            }
            for (size_t i = 0; i < n_ins; i++)
                for (size_t j = i + 1; j < n_ins; j++) bad += inserted[i] == inserted[j] || inserted[i] < 1;
            for (size_t i = 0; i < n_asked; i++) {
                bool known = asked[i] >= (int64_t)1 << 24 && asked[i] < ((int64_t)1 << 24) + 256;
                for (size_t j = 0; j < n_ins && !known; j++) known = asked[i] == inserted[j];
                bad += !known;
            }
            if (wide_set && p.drain_method != LF_M_COUNT) { /* the drain asks for every added key (all distinct) */
                bad += p.drain_max != n_ins;
                for (size_t i = 0; i < p.drain_max && i < n_ins; i++) {
                    bool known = false;
                    for (size_t j = 0; j < n_ins && !known; j++) known = p.drain_keys[i] == inserted[j];
                    bad += !known;
                }
            }
            free(asked);
            /* a custom type's drain: its observers, once per value of their first argument */
            for (size_t i = 0; i < p.n_custom_drain; i++) {
                const lf_method_decl *d = lf_adapter_method(a, p.custom_drain[i].method);
                if (!d || !(d->flags & LF_MF_OBSERVER)) bad++;
            }
            bool observers = false; /* (a custom type without observer methods has nothing to drain with) */
            for (unsigned m = 0; a->type == LF_TYPE_CUSTOM && m < a->custom->n_methods; m++)
                observers |= (a->custom->methods[m].flags & LF_MF_OBSERVER) != 0;
            if (a->type == LF_TYPE_CUSTOM && c.drain && observers) bad += p.n_custom_drain == 0;
            CHECKF(bad == 0, "%s: %zu calls break the argument scheme", a->name, bad);
            free(inserted);
            lf_fc_plan_free(&p);
        }
    }
}

/* Runs of correct adapters: well-formed, linearizable, with the prefix first and the drain last. */
static void runs_of_correct_adapters(void) {
    lf_fc_executor x;
    CHECK(lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    lf_history h;
    lf_history_init(&h, LF_TYPE_REGISTER);
    uint64_t rng = 5;
    uint8_t bytes[200];
    char err[256];
    for (size_t ai = 0; ai < lf_adapter_count(); ai++) {
        const lf_adapter *a = lf_adapter_at(ai);
        if (!a->linearizable) continue;
        lf_method ms[LF_M_COUNT];
        unsigned nm = lf_fuzz_case_methods(a, ms);
        for (int k = 0; k < 4; k++) {
            for (size_t i = 0; i < sizeof bytes; i++) bytes[i] = (uint8_t)lf_rand_next(&rng);
            bytes[0] = (uint8_t)(bytes[0] | 8); /* drain */
            bytes[11] = 3;                      /* a prefix of 3 calls */
            bytes[20] = k % 2 ? LF_FC_FREE_MODE_BYTE : 0; /* both modes; controlled with a random schedule */
            lf_fuzz_case c;
            lf_fuzz_case_decode(bytes, sizeof bytes, nm, &c);
            lf_fc_plan p;
            CHECK(lf_fc_plan_build(&p, &c, a));
            if (a->may_block) lf_fc_plan_balance_blocking(&p); /* or a correct blocking queue waits forever */
            CHECK(lf_fc_execute(&x, &p, (unsigned)k, &h));
            size_t expected = 0;
            for (size_t i = 0; i < p.prefix_len; i++) expected += p.prefix[i].method != LF_PLAN_SKIP;
            for (unsigned t = 0; t < p.threads; t++)
                for (size_t i = 0; i < p.len[t]; i++) expected += p.ops[t][i].method != LF_PLAN_SKIP;
            size_t serial = 0, first_worker_call = SIZE_MAX;
            uint64_t last_worker_ret = 0, first_serial_call_after = UINT64_MAX;
            for (size_t i = 0; i < h.n; i++) {
                if (h.ops[i].thread == p.threads) {
                    serial++;
                    if (serial > p.prefix_len && h.ops[i].call < first_serial_call_after)
                        first_serial_call_after = h.ops[i].call;
                } else {
                    if (first_worker_call == SIZE_MAX) first_worker_call = i;
                    if (h.ops[i].ret > last_worker_ret) last_worker_ret = h.ops[i].ret;
                }
            }
            CHECKF(h.n >= expected && h.n <= expected + p.drain_max + p.n_custom_drain, "%s: %zu ops, expected %zu + drain",
                   a->name, h.n, expected);
            CHECK(p.drain_method == LF_M_COUNT || h.n > expected);
            CHECK(a->type != LF_TYPE_CUSTOM || h.n == expected + p.n_custom_drain);
            CHECK(first_serial_call_after == UINT64_MAX || first_serial_call_after > last_worker_ret);
            CHECKF(lf_history_validate(&h, err, sizeof err) == SIZE_MAX, "%s: %s", a->name, err);
            lf_check_options o;
            lf_check_options_default(&o);
            o.timeout_s = 10;
            lf_adapter_checker checker; /* the self-spec for a custom type without a spec */
            CHECK(lf_adapter_checker_init(&checker, a, LF_SPEC_AUTO, &o, err, sizeof err));
            lf_result r;
            lf_result_init(&r);
            lf_adapter_checker_check(&checker, &h, &r);
            CHECKF(r.verdict != LF_VIOLATION, "%s: correct adapter violated: %s", a->name, r.reason);
            lf_result_free(&r);
            lf_adapter_checker_free(&checker);
            lf_fc_plan_free(&p);
        }
    }
    lf_history_free(&h);
    lf_fc_executor_free(&x);
}

/* Exclusive groups: every call of a group's method is planned on the group's owner (worker g % T), in fuzz
 * cases and in stress workloads alike; a worker that owns nothing and has no shared method stays idle. */
static void roles_in_plans(void) {
    const lf_adapter *deque = lf_adapter_find("chase_lev_deque");
    CHECK(deque != NULL);
    /* a single-producer/single-consumer declaration: group 0 = enq, group 1 = deq, nothing shared */
    lf_adapter spsc = *lf_adapter_find("mutex_queue");
    spsc.methods = LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ);
    spsc.exclusive[0] = LF_METHOD_BIT(LF_M_ENQ);
    spsc.exclusive[1] = LF_METHOD_BIT(LF_M_DEQ);
    char err[256];
    CHECK(lf_adapter_check(&spsc, err, sizeof err));
    const lf_adapter *subjects[] = {deque, &spsc};
    uint64_t rng = 17;
    uint8_t bytes[300];
    for (int si = 0; si < 2; si++) {
        const lf_adapter *a = subjects[si];
        lf_method ms[LF_M_COUNT];
        unsigned nm = lf_fuzz_case_methods(a, ms);
        size_t bad = 0, owned_calls = 0, shared_calls = 0, idle = 0;
        for (int k = 0; k < 300; k++) {
            for (size_t i = 0; i < sizeof bytes; i++) bytes[i] = (uint8_t)lf_rand_next(&rng);
            lf_fuzz_case c;
            lf_fuzz_case_decode(bytes, sizeof bytes, nm, &c);
            lf_fc_plan p;
            CHECK(lf_fc_plan_build(&p, &c, a));
            for (unsigned t = 0; t < p.threads; t++) {
                idle += p.len[t] == 0 && c.body_len[t] > 0;
                for (size_t i = 0; i < p.len[t]; i++) {
                    int owner = lf_adapter_method_owner(a, (lf_method)p.ops[t][i].method, p.threads);
                    if (owner >= 0 && (unsigned)owner != t) bad++;
                    owner >= 0 ? owned_calls++ : shared_calls++;
                }
            }
            lf_fc_plan_free(&p);
            lf_workload w;
            lf_workload_random(&w, (uint64_t)k + 1, 1 + (uint32_t)(k % 5), 40);
            lf_plan wp;
            CHECK(lf_plan_build(&wp, &w, a));
            for (uint32_t t = 0; t < wp.threads; t++)
                for (uint32_t i = 0; i < wp.ops_per_thread; i++) {
                    const lf_planned_op *op = &wp.ops[(size_t)t * wp.ops_per_thread + i];
                    if (op->method == LF_PLAN_SKIP) continue;
                    int owner = lf_adapter_method_owner(a, (lf_method)op->method, wp.threads);
                    if (owner >= 0 && (unsigned)owner != t) bad++;
                }
            lf_plan_free(&wp);
        }
        CHECKF(bad == 0, "%s: %zu calls planned on a worker that does not own them", a->name, bad);
        CHECK(owned_calls > 1000);
        CHECK(si == 1 ? shared_calls == 0 && idle > 0 : shared_calls > 1000);
    }
    /* inconsistent declarations are refused, naming the adapter and the problem */
    lf_adapter bad_decl = spsc;
    bad_decl.exclusive[1] = LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ);
    CHECK(!lf_adapter_check(&bad_decl, err, sizeof err) && strstr(err, "mutex_queue: exclusive groups must be disjoint"));
    bad_decl = spsc;
    bad_decl.exclusive[2] = LF_METHOD_BIT(LF_M_PEEK);
    CHECK(!lf_adapter_check(&bad_decl, err, sizeof err) && strstr(err, "does not have: peek"));
    bad_decl = spsc;
    bad_decl.may_block = LF_METHOD_BIT(LF_M_POP);
    CHECK(!lf_adapter_check(&bad_decl, err, sizeof err) && strstr(err, "may_block"));
    bad_decl = *lf_adapter_find("mutex_set");
    bad_decl.capacity = 4;
    CHECK(!lf_adapter_check(&bad_decl, err, sizeof err) && strstr(err, "a capacity is only for"));
}

/* Balanced blocking: the prefix never has a blocking remove on an empty object, and the workers keep no more
 * removes than the values certain to come (prefix leftovers, inserts before each worker's first blocking
 * call). */
static void balanced_blocking_plans(void) {
    const lf_adapter *a = lf_adapter_find("blocking_queue");
    CHECK(a != NULL && a->may_block);
    lf_method ms[LF_M_COUNT];
    unsigned nm = lf_fuzz_case_methods(a, ms);
    uint64_t rng = 23;
    uint8_t bytes[300];
    size_t skipped = 0, kept_removes = 0;
    for (int k = 0; k < 500; k++) {
        for (size_t i = 0; i < sizeof bytes; i++) bytes[i] = (uint8_t)lf_rand_next(&rng);
        lf_fuzz_case c;
        lf_fuzz_case_decode(bytes, sizeof bytes, nm, &c);
        lf_fc_plan p;
        CHECK(lf_fc_plan_build(&p, &c, a));
        skipped += lf_fc_plan_balance_blocking(&p);
        long values = 0;
        bool ok = true;
        for (size_t i = 0; i < p.prefix_len; i++) {
            if (p.prefix[i].method == LF_M_ENQ) values++;
            if (p.prefix[i].method == LF_M_DEQ && values-- <= 0) ok = false;
        }
        if (values < 0) values = 0;
        for (unsigned t = 0; t < p.threads; t++)
            for (size_t i = 0; i < p.len[t] && p.ops[t][i].method != LF_M_DEQ; i++)
                values += p.ops[t][i].method == LF_M_ENQ;
        long removes = 0;
        for (unsigned t = 0; t < p.threads; t++)
            for (size_t i = 0; i < p.len[t]; i++) removes += p.ops[t][i].method == LF_M_DEQ;
        kept_removes += (size_t)removes;
        CHECKF(ok && removes <= values, "case %d: %ld removes kept for %ld certain values", k, removes, values);
        lf_fc_plan_free(&p);
    }
    CHECK(skipped > 100 && kept_removes > 100);
}

static size_t nonzero(const uint8_t *c, size_t from, size_t to) {
    size_t n = 0;
    for (size_t i = from; i < to; i++) n += c[i] != 0;
    return n;
}

static void signal_responds(void) {
    static uint8_t a[LF_SIGNAL_SIZE], b[LF_SIGNAL_SIZE];
    /* A sequential history: no overlaps, depth 0 only, every greedy step in call order, never stuck. */
    lf_history h;
    lf_history_init(&h, LF_TYPE_QUEUE);
    lf_history_push(&h, &(lf_op){.call = 1, .ret = 2, .method = LF_M_ENQ, .arg = {1}});
    lf_history_push(&h, &(lf_op){.call = 3, .ret = 4, .method = LF_M_ENQ, .arg = {2}, .thread = 1});
    lf_history_push(&h, &(lf_op){.call = 5, .ret = 6, .method = LF_M_DEQ, .res_kind = LF_K_INT, .res = 1});
    CHECK(lf_history_signal(&h, a));
    CHECK(nonzero(a, LF_SIGNAL_OVERLAP, LF_SIGNAL_DEPTH) == 0);
    CHECK(a[LF_SIGNAL_DEPTH] == 3 && nonzero(a, LF_SIGNAL_DEPTH, LF_SIGNAL_RANK) == 1);
    CHECK(nonzero(a, LF_SIGNAL_STUCK, LF_SIGNAL_SIZE) == 0);
    for (size_t i = LF_SIGNAL_RANK; i < LF_SIGNAL_STUCK; i++)
        if (a[i]) CHECK((i - LF_SIGNAL_RANK) % LF_SIGNAL_RANKS == 0);
    /* Two overlapping deqs that return in the other order than called: an overlap pair, depth 1, and a
     * greedy step that had to take the second candidate. */
    memset(a, 0, sizeof a);
    h.n = 0;
    lf_history_push(&h, &(lf_op){.call = 1, .ret = 2, .method = LF_M_ENQ, .arg = {1}});
    lf_history_push(&h, &(lf_op){.call = 3, .ret = 4, .method = LF_M_ENQ, .arg = {2}});
    lf_history_push(&h, &(lf_op){.call = 5, .ret = 8, .method = LF_M_DEQ, .res_kind = LF_K_INT, .res = 2, .thread = 1});
    lf_history_push(&h, &(lf_op){.call = 6, .ret = 7, .method = LF_M_DEQ, .res_kind = LF_K_INT, .res = 1, .thread = 2});
    CHECK(lf_history_signal(&h, a));
    unsigned om_deq = LF_M_DEQ * LF_SIGNAL_OUTCOMES + 1; /* deq returning a value */
    CHECK(a[LF_SIGNAL_OVERLAP + om_deq * LF_SIGNAL_OM + om_deq] == 1);
    CHECK(nonzero(a, LF_SIGNAL_OVERLAP, LF_SIGNAL_DEPTH) == 1);
    CHECK(a[LF_SIGNAL_DEPTH + 1] == 1);
    CHECK(a[LF_SIGNAL_RANK + om_deq * LF_SIGNAL_RANKS + 1] == 1);
    CHECK(nonzero(a, LF_SIGNAL_STUCK, LF_SIGNAL_SIZE) == 0);
    /* Deterministic, and additive across runs (saturating). */
    memcpy(b, a, sizeof a);
    CHECK(lf_history_signal(&h, a));
    for (size_t i = 0; i < LF_SIGNAL_SIZE; i++) CHECK(a[i] == (b[i] ? 2 * b[i] : 0));
    /* A violation gets stuck, at the op that cannot go. */
    memset(a, 0, sizeof a);
    h.ops[2].res = 7;
    CHECK(lf_history_signal(&h, a));
    CHECK(nonzero(a, LF_SIGNAL_STUCK, LF_SIGNAL_SIZE) == 1);
    CHECK(a[LF_SIGNAL_STUCK + om_deq] == 1);
    /* So does a linearizable history that needs backtracking (the greedy cannot know that of two overlapping
     * enqs the later-called one must go first): the signal marks it as near a bug, which it is. */
    memset(a, 0, sizeof a);
    h.n = 0;
    lf_history_push(&h, &(lf_op){.call = 1, .ret = 4, .method = LF_M_ENQ, .arg = {1}});
    lf_history_push(&h, &(lf_op){.call = 2, .ret = 3, .method = LF_M_ENQ, .arg = {2}, .thread = 1});
    lf_history_push(&h, &(lf_op){.call = 5, .ret = 6, .method = LF_M_DEQ, .res_kind = LF_K_INT, .res = 2});
    CHECK(lf_history_signal(&h, a));
    CHECK(a[LF_SIGNAL_STUCK + om_deq] == 1);
    lf_history_free(&h);
}

/* lf_fuzz_case_random: canonical cases shaped like stress's workloads (2 to 5 threads of 48 to 128 calls, a
 * skewed method mix, free mode about one time in four, mixed memory models), the same for the same rng. */
static void random_cases_are_stress_shaped(void) {
    uint64_t rng = 11;
    size_t bad = 0, shape = 0, free_cases = 0, skewed = 0, strategies[LF_SCHED_STRATEGY_COUNT] = {0};
    const int n = 4000;
    for (int k = 0; k < n; k++) {
        unsigned nm = 1 + (unsigned)lf_rand_below(&rng, 6);
        lf_fuzz_case c;
        lf_fuzz_case_random(&c, nm, false, &rng);
        if (!canonical_case(&c, nm)) bad++;
        bool ok = c.threads >= 2 && c.threads <= 5 && c.repeats <= 4 && c.prefix_len == 0 &&
                  c.schedule.memory_model == LF_SCHED_MEMORY_MIXED;
        unsigned count[LF_M_COUNT] = {0};
        for (unsigned t = 0; t < c.threads; t++) {
            size_t calls = (size_t)c.body_len[t] * c.rounds;
            ok = ok && calls >= 48 && calls <= 128 && c.body_len[t] == c.body_len[0];
            for (unsigned i = 0; i < c.body_len[t]; i++) count[c.body[t][i].method]++;
        }
        shape += ok;
        free_cases += c.mode == LF_FC_FREE;
        strategies[c.schedule.strategy]++;
        unsigned lo = UINT32_MAX, hi = 0;
        for (unsigned m = 0; m < nm; m++) {
            if (count[m] < lo) lo = count[m];
            if (count[m] > hi) hi = count[m];
        }
        skewed += nm > 1 && hi >= 3 * (lo + 1);
    }
    CHECKF(bad == 0, "%zu random cases not canonical", bad);
    CHECKF(shape == (size_t)n, "%zu of %d random cases not stress-shaped", (size_t)n - shape, n);
    CHECKF(free_cases > n / 6 && free_cases < n / 3, "%zu of %d random cases free (expected about a quarter)",
           free_cases, n);
    CHECKF(skewed > n / 10, "only %zu of %d random cases have a skewed method mix", skewed, n);
    for (unsigned s = 0; s < LF_SCHED_STRATEGY_COUNT; s++) CHECKF(strategies[s] > 0, "strategy %u never drawn", s);
    /* SURW one time in eight, ABA one in eight (neither from lf_schedule_random), otherwise a walk a third of
     * the time, POS a third, and lf_schedule_random's mix (half PCT) the rest */
    CHECKF(strategies[LF_SCHED_PCT] > (size_t)n / 10 && strategies[LF_SCHED_WALK] > (size_t)n / 4 &&
               strategies[LF_SCHED_POS] > (size_t)n / 4 && strategies[LF_SCHED_SURW] > (size_t)n / 10 &&
               strategies[LF_SCHED_SURW] < (size_t)n / 6 && strategies[LF_SCHED_ABA] > (size_t)n / 10 &&
               strategies[LF_SCHED_ABA] < (size_t)n / 6,
           "pct %zu, walk %zu, pos %zu, surw %zu, aba %zu of %d", strategies[LF_SCHED_PCT],
           strategies[LF_SCHED_WALK], strategies[LF_SCHED_POS], strategies[LF_SCHED_SURW], strategies[LF_SCHED_ABA],
           n);
    uint64_t r1 = 99, r2 = 99;
    lf_fuzz_case a, b;
    lf_fuzz_case_random(&a, 3, false, &r1);
    lf_fuzz_case_random(&b, 3, false, &r2);
    CHECK(same_case(&a, &b) && r1 == r2);
    /* wide_keys (the fuzz targets of sets): a wide key domain three times in four, each of the four drawn, with a
     * drain */
    size_t wide = 0, domains[5] = {0};
    for (int k = 0; k < n; k++) {
        lf_fuzz_case c;
        lf_fuzz_case_random(&c, 3, true, &rng);
        if (!canonical_case(&c, 3)) bad++;
        if (c.key_domain > LF_FC_MAX_KEYS) {
            wide++;
            bad += !c.drain;
            for (unsigned d = 0; d < 4; d++) domains[d] += c.key_domain == (unsigned)LF_FC_WIDE_KEYS_MIN << d;
        }
    }
    CHECKF(bad == 0 && wide > (size_t)n * 2 / 3 && wide < (size_t)n * 5 / 6 && domains[0] && domains[1] && domains[2] &&
               domains[3] && domains[0] + domains[1] + domains[2] + domains[3] == wide,
           "%zu not canonical; %zu of %d wide (32: %zu, 64: %zu, 128: %zu, 256: %zu)", bad, wide, n, domains[0],
           domains[1], domains[2], domains[3]);
}

/* lf_fuzz_case_random_short: canonical controlled cases of 2 to 5 threads of 1 to 4 calls, every length drawn,
 * the same for the same rng. */
static void short_random_cases_are_short(void) {
    uint64_t rng = 12;
    size_t bad = 0, shape = 0, lengths[5] = {0}, threads[6] = {0};
    const int n = 2000;
    for (int k = 0; k < n; k++) {
        unsigned nm = 1 + (unsigned)lf_rand_below(&rng, 6);
        lf_fuzz_case c;
        lf_fuzz_case_random_short(&c, nm, &rng);
        if (!canonical_case(&c, nm)) bad++;
        bool ok = c.threads >= 2 && c.threads <= 5 && c.mode == LF_FC_CONTROLLED && c.prefix_len == 0;
        for (unsigned t = 0; t < c.threads && ok; t++) {
            size_t calls = (size_t)c.body_len[t] * c.rounds;
            ok = calls >= 1 && calls <= 4 && c.body_len[t] == c.body_len[0];
        }
        shape += ok;
        if (ok) lengths[c.body_len[0]]++, threads[c.threads]++;
    }
    CHECKF(bad == 0, "%zu short random cases not canonical", bad);
    CHECKF(shape == (size_t)n, "%zu of %d short random cases not short", (size_t)n - shape, n);
    for (unsigned l = 1; l <= 4; l++) CHECKF(lengths[l] > 0, "no short case of %u calls a thread", l);
    for (unsigned t = 2; t <= 5; t++) CHECKF(threads[t] > 0, "no short case of %u threads", t);
    uint64_t r1 = 7, r2 = 7;
    lf_fuzz_case a, b;
    lf_fuzz_case_random_short(&a, 3, &r1);
    lf_fuzz_case_random_short(&b, 3, &r2);
    CHECK(same_case(&a, &b) && r1 == r2);
}

int main(void) {
    decoding_is_total_and_canonical();
    first_format_still_decodes();
    mutations_stay_canonical();
    random_cases_are_stress_shaped();
    short_random_cases_are_short();
    plans_follow_the_argument_scheme();
    runs_of_correct_adapters();
    roles_in_plans();
    balanced_blocking_plans();
    signal_responds();
    TEST_DONE();
}
