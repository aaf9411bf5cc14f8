/* Fuzz cases: byte decoding and canonical encoding, structured mutation, description (see fuzz_case.h for
 * the layout's intent; docs/fuzzing.md for the byte table). */
#include "testcase/fuzz_case.h"

#include <stdio.h>
#include <string.h>

#include "runtime/adapter_type.h"
#include "util/appendf.h"

unsigned lf_fuzz_case_methods(const lf_adapter *a, lf_method out[LF_M_COUNT]) { return lf_adapter_methods(a, out); }

lf_method lf_fuzz_case_call_method(const lf_fuzz_case *c, const lf_adapter *a, unsigned t, uint8_t method_byte) {
    lf_method ms[LF_M_COUNT];
    /* the serial prefix runs while no worker does: every method is its to call */
    unsigned n = t >= c->threads ? lf_fuzz_case_methods(a, ms) : lf_adapter_thread_methods(a, t, c->threads, ms);
    return n ? ms[method_byte % n] : LF_M_COUNT;
}

/* ---- bytes ---- */

typedef struct byte_reader {
    const uint8_t *p;
    size_t len, pos;
} byte_reader;

/* Past the end every byte reads as 0, so every input decodes. */
static uint8_t next_byte(byte_reader *r) { return r->pos < r->len ? r->p[r->pos++] : (r->pos++, 0); }

static uint16_t next_u16(byte_reader *r) {
    uint16_t lo = next_byte(r);
    return (uint16_t)(lo | (uint16_t)next_byte(r) << 8);
}

static uint64_t next_u64(byte_reader *r) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)next_byte(r) << (8 * i);
    return v;
}

size_t lf_fuzz_case_run_ops(const lf_fuzz_case *c) {
    size_t body = 0;
    for (unsigned t = 0; t < c->threads; t++) body += c->body_len[t];
    return body * c->rounds;
}

/* ---- key domains ----
 * 1..16 (a key byte b of any format: 1 + b % 16), and since "fuzz-case 7" the wide ones 32, 64, 128 and 256
 * (key bytes 240..255: 32 << (b % 4)), for the bugs of a set that holds many keys (a hash table's resize; a
 * set of a wide domain takes stress's keys, case_runner.h) and of a kv map of many keys (arg mod the domain:
 * arguments are bytes, so 256 keys is the most it can use). */

bool lf_fuzz_case_key_domain_valid(unsigned d) {
    return (d >= 1 && d <= LF_FC_MAX_KEYS) || d == 32 || d == 64 || d == 128 || d == LF_FC_WIDE_KEYS_MAX;
}

#define WIDE_KEY_BYTE 240

static uint16_t key_domain_of_byte(uint8_t b, bool wide) {
    return wide && b >= WIDE_KEY_BYTE ? (uint16_t)(LF_FC_WIDE_KEYS_MIN << (b % 4)) : (uint16_t)(1 + b % LF_FC_MAX_KEYS);
}

static uint8_t key_byte_of_domain(uint16_t d) {
    if (d < 1) d = 1;
    if (d <= LF_FC_MAX_KEYS) return (uint8_t)(d - 1);
    uint8_t b = WIDE_KEY_BYTE;
    while (b < WIDE_KEY_BYTE + 3 && (unsigned)LF_FC_WIDE_KEYS_MIN << (b % 4) < d) b++;
    return b;
}

/* A wide key domain drawn from *rng. */
static uint16_t random_wide_domain(uint64_t *rng) {
    return (uint16_t)(LF_FC_WIDE_KEYS_MIN << lf_rand_below(rng, 4));
}

void lf_fuzz_case_normalize(lf_fuzz_case *c, unsigned n_methods) {
    if (n_methods == 0) n_methods = 1;
    if (c->threads < 1) c->threads = 1;
    if (c->threads > LF_FC_MAX_THREADS) c->threads = LF_FC_MAX_THREADS;
    if (c->rounds < 1) c->rounds = 1;
    if (c->rounds > LF_FC_MAX_ROUNDS) c->rounds = LF_FC_MAX_ROUNDS;
    if (c->repeats < 1) c->repeats = 1;
    if (c->repeats > LF_FC_MAX_REPEATS) c->repeats = LF_FC_MAX_REPEATS;
    if (c->key_domain < 1) c->key_domain = 1;
    if (c->key_domain > LF_FC_WIDE_KEYS_MAX) c->key_domain = LF_FC_WIDE_KEYS_MAX;
    while (!lf_fuzz_case_key_domain_valid(c->key_domain)) c->key_domain--; /* down to a wide one, or 16 */
    if (c->perturb.point_chance > 1024) c->perturb.point_chance = 1024;
    if (c->perturb.gap_chance > 1024) c->perturb.gap_chance = 1024;
    if (c->perturb.spin_max > LF_FC_MAX_SPIN) c->perturb.spin_max = LF_FC_MAX_SPIN;
    if (c->prefix_len > LF_FC_MAX_PREFIX) c->prefix_len = LF_FC_MAX_PREFIX;
    for (unsigned t = 0; t < LF_FC_MAX_THREADS; t++) {
        if (t >= c->threads) c->body_len[t] = 0;
        if (c->body_len[t] > LF_FC_MAX_BODY) c->body_len[t] = LF_FC_MAX_BODY;
        for (unsigned i = 0; i < LF_FC_MAX_BODY; i++) {
            if (i < c->body_len[t])
                c->body[t][i].method = (uint8_t)(c->body[t][i].method % n_methods);
            else
                c->body[t][i] = (lf_fc_call){0, 0};
        }
    }
    for (unsigned i = 0; i < LF_FC_MAX_PREFIX; i++) {
        if (i < c->prefix_len)
            c->prefix[i].method = (uint8_t)(c->prefix[i].method % n_methods);
        else
            c->prefix[i] = (lf_fc_call){0, 0};
    }
    size_t body = lf_fuzz_case_run_ops(c) / c->rounds;
    if (body && body * c->rounds > LF_FC_MAX_RUN_OPS) c->rounds = (uint8_t)(LF_FC_MAX_RUN_OPS / body);
    /* The schedule: positions keep their raw thread and op (reduced at run time, modulo the run's threads
     * and ops), within what the bytes can say. */
    c->mode = c->mode == LF_FC_FREE ? LF_FC_FREE : LF_FC_CONTROLLED;
    lf_schedule *sch = &c->schedule;
    lf_schedule_normalize(sch);
    for (unsigned t = LF_FC_MAX_THREADS; t < LF_SCHED_MAX_THREADS; t++) sch->priority[t] = 0;
    for (unsigned i = 0; i < LF_SCHED_MAX_CHANGES; i++) {
        sch->change[i].thread %= LF_FC_MAX_THREADS;
        sch->change[i].op %= LF_FC_MAX_RUN_OPS;
    }
    for (unsigned i = 0; i < sch->n_choices; i++) sch->choices[i].target %= LF_FC_MAX_THREADS;
}

/* The 20-byte header shared by all formats (wide: "fuzz-case 7" and later, the wide key domains). */
static void decode_header(byte_reader *r, bool wide, lf_fuzz_case *c) {
    uint8_t b0 = next_byte(r);
    c->threads = (uint8_t)(1 + (b0 & 7));
    c->drain = (b0 >> 3) & 1;
    c->rounds = (uint8_t)(1 + next_byte(r) % LF_FC_MAX_ROUNDS);
    c->repeats = (uint8_t)(1 + next_byte(r) % LF_FC_MAX_REPEATS);
    c->key_domain = key_domain_of_byte(next_byte(r), wide);
    c->perturb.point_chance = (uint16_t)(next_u16(r) % 1025);
    c->perturb.gap_chance = (uint16_t)(next_u16(r) % 1025);
    c->perturb.spin_max = (uint16_t)(next_u16(r) % (LF_FC_MAX_SPIN + 1));
    c->perturb.yield_share = next_byte(r);
    c->prefix_len = (uint8_t)(next_byte(r) % (LF_FC_MAX_PREFIX + 1));
    c->seed = next_u64(r);
}

/* The schedule header of "fuzz-case 2" and later (bytes 20..52; the choices come after the prefix): the
 * strategy byte modulo the format's number of strategies. */
static void decode_schedule_header(byte_reader *r, unsigned strategies, lf_fuzz_case *c) {
    lf_schedule *sch = &c->schedule;
    c->mode = next_byte(r) >= LF_FC_FREE_MODE_BYTE ? LF_FC_FREE : LF_FC_CONTROLLED;
    sch->strategy = (uint8_t)(next_byte(r) % strategies);
    sch->bound = (uint8_t)(next_byte(r) % (LF_SCHED_MAX_CHANGES + 1));
    sch->walk_chance = next_byte(r);
    for (unsigned t = 0; t < LF_FC_MAX_THREADS; t++) sch->priority[t] = next_byte(r);
    sch->seed = next_u64(r);
    for (unsigned i = 0; i < LF_SCHED_MAX_CHANGES; i++) {
        sch->change[i].thread = (uint8_t)(next_byte(r) % LF_FC_MAX_THREADS);
        sch->change[i].op = (uint16_t)(next_u16(r) % LF_FC_MAX_RUN_OPS);
        sch->change[i].step = next_byte(r);
    }
    sch->n_choices = (uint8_t)(next_byte(r) % (LF_SCHED_MAX_CHOICES + 1));
}

static void decode_calls(byte_reader *r, lf_fuzz_case *c) {
    for (unsigned t = 0; t < c->threads; t++) {
        c->body_len[t] = (uint8_t)(next_byte(r) % (LF_FC_MAX_BODY + 1));
        for (unsigned i = 0; i < c->body_len[t]; i++) {
            c->body[t][i].method = next_byte(r);
            c->body[t][i].arg = next_byte(r);
        }
    }
    for (unsigned i = 0; i < c->prefix_len; i++) {
        c->prefix[i].method = next_byte(r);
        c->prefix[i].arg = next_byte(r);
    }
}

/* Formats 2 to 7 (strategies: 4 before POS, 5 before SURW, 6 before ABA); formats 3 to 7 (weak) read the
 * memory model and its weak choices after the choice pairs; format 7 (wide_keys) has the wide key domains. */
static void decode_scheduled(const uint8_t *data, size_t len, unsigned n_methods, bool weak, unsigned strategies,
                             bool wide_keys, lf_fuzz_case *c) {
    memset(c, 0, sizeof *c);
    byte_reader r = {data, len, 0};
    decode_header(&r, wide_keys, c);
    decode_schedule_header(&r, strategies, c);
    decode_calls(&r, c);
    for (unsigned i = 0; i < c->schedule.n_choices; i++) {
        c->schedule.choices[i].after = next_byte(&r);
        c->schedule.choices[i].target = (uint8_t)(next_byte(&r) % LF_FC_MAX_THREADS);
    }
    if (weak && r.pos < len) { /* (no memory-model bytes: mixed, each repetition draws its model) */
        c->schedule.memory_model = (uint8_t)lf_memory_model_of_byte(next_byte(&r));
        c->schedule.weak_chance = next_byte(&r);
        c->schedule.weak_seed = next_u64(&r);
    } else {
        c->schedule.memory_model = weak ? LF_SCHED_MEMORY_MIXED : LF_MM_SC;
    }
    lf_fuzz_case_normalize(c, n_methods);
}

void lf_fuzz_case_decode(const uint8_t *data, size_t len, unsigned n_methods, lf_fuzz_case *c) {
    decode_scheduled(data, len, n_methods, true, LF_SCHED_STRATEGY_COUNT, true, c);
}

bool lf_fuzz_case_format_known(const char *format) {
    return format && (lf_fuzz_case_format_scheduled(format) || !strcmp(format, LF_FUZZ_CASE_FORMAT_V1));
}

bool lf_fuzz_case_format_scheduled(const char *format) {
    return format && (!strcmp(format, LF_FUZZ_CASE_FORMAT) || !strcmp(format, LF_FUZZ_CASE_FORMAT_V6) ||
                      !strcmp(format, LF_FUZZ_CASE_FORMAT_V5) ||
                      !strcmp(format, LF_FUZZ_CASE_FORMAT_V4) ||
                      !strcmp(format, LF_FUZZ_CASE_FORMAT_V3) || !strcmp(format, LF_FUZZ_CASE_FORMAT_V2));
}

bool lf_fuzz_case_decode_as(const char *format, const uint8_t *data, size_t len, unsigned n_methods,
                            lf_fuzz_case *c) {
    if (lf_fuzz_case_format_scheduled(format)) {
        bool current = !strcmp(format, LF_FUZZ_CASE_FORMAT), v6 = !strcmp(format, LF_FUZZ_CASE_FORMAT_V6),
             v5 = !strcmp(format, LF_FUZZ_CASE_FORMAT_V5), v4 = !strcmp(format, LF_FUZZ_CASE_FORMAT_V4);
        decode_scheduled(data, len, n_methods, current || v6 || v5 || v4 || !strcmp(format, LF_FUZZ_CASE_FORMAT_V3),
                         current ? LF_SCHED_STRATEGY_COUNT
                         : v6    ? LF_SCHED_ABA + 1 /* (a later strategy must not change how v6 decodes) */
                         : v5      ? LF_SCHED_ABA
                         : v4      ? LF_SCHED_SURW
                                   : LF_SCHED_POS,
                         current, c);
        return true;
    }
    if (!format || strcmp(format, LF_FUZZ_CASE_FORMAT_V1) != 0) return false;
    memset(c, 0, sizeof *c);
    byte_reader r = {data, len, 0};
    decode_header(&r, false, c);
    decode_calls(&r, c);
    c->mode = LF_FC_FREE; /* the first version had no controlled mode */
    lf_fuzz_case_normalize(c, n_methods);
    return true;
}

size_t lf_fuzz_case_encode(const lf_fuzz_case *c, uint8_t *out) {
    size_t n = 0;
    out[n++] = (uint8_t)(((c->threads - 1) & 7) | (c->drain ? 8 : 0));
    out[n++] = (uint8_t)(c->rounds - 1);
    out[n++] = (uint8_t)(c->repeats - 1);
    out[n++] = key_byte_of_domain(c->key_domain);
    out[n++] = (uint8_t)(c->perturb.point_chance & 255);
    out[n++] = (uint8_t)(c->perturb.point_chance >> 8);
    out[n++] = (uint8_t)(c->perturb.gap_chance & 255);
    out[n++] = (uint8_t)(c->perturb.gap_chance >> 8);
    out[n++] = (uint8_t)(c->perturb.spin_max & 255);
    out[n++] = (uint8_t)(c->perturb.spin_max >> 8);
    out[n++] = c->perturb.yield_share;
    out[n++] = c->prefix_len;
    for (int i = 0; i < 8; i++) out[n++] = (uint8_t)(c->seed >> (8 * i));
    const lf_schedule *sch = &c->schedule;
    out[n++] = c->mode == LF_FC_FREE ? LF_FC_FREE_MODE_BYTE : 0;
    out[n++] = sch->strategy;
    out[n++] = sch->bound;
    out[n++] = sch->walk_chance;
    for (unsigned t = 0; t < LF_FC_MAX_THREADS; t++) out[n++] = sch->priority[t];
    for (int i = 0; i < 8; i++) out[n++] = (uint8_t)(sch->seed >> (8 * i));
    for (unsigned i = 0; i < LF_SCHED_MAX_CHANGES; i++) {
        out[n++] = sch->change[i].thread;
        out[n++] = (uint8_t)(sch->change[i].op & 255);
        out[n++] = (uint8_t)(sch->change[i].op >> 8);
        out[n++] = sch->change[i].step;
    }
    out[n++] = sch->n_choices;
    for (unsigned t = 0; t < c->threads; t++) {
        out[n++] = c->body_len[t];
        for (unsigned i = 0; i < c->body_len[t]; i++) {
            out[n++] = c->body[t][i].method;
            out[n++] = c->body[t][i].arg;
        }
    }
    for (unsigned i = 0; i < c->prefix_len; i++) {
        out[n++] = c->prefix[i].method;
        out[n++] = c->prefix[i].arg;
    }
    for (unsigned i = 0; i < c->schedule.n_choices; i++) {
        out[n++] = c->schedule.choices[i].after;
        out[n++] = c->schedule.choices[i].target;
    }
    if (sch->memory_model != LF_SCHED_MEMORY_MIXED) { /* (a mixed case ends here, as one of format 2) */
        out[n++] = lf_memory_model_byte((lf_memory_model)sch->memory_model);
        out[n++] = sch->weak_chance;
        for (int i = 0; i < 8; i++) out[n++] = (uint8_t)(sch->weak_seed >> (8 * i));
    }
    return n;
}

bool lf_fc_memory_from_name(const char *name, int *out) {
    lf_memory_model m;
    if (name && !strcmp(name, "mixed")) {
        *out = LF_FC_MEMORY_MIXED;
        return true;
    }
    if (!lf_memory_model_from_name(name, &m)) return false;
    *out = (int)m;
    return true;
}

void lf_fuzz_case_force_memory(lf_fuzz_case *c, int m) {
    if (m == LF_FC_MEMORY_MIXED || m == c->schedule.memory_model) return;
    if (m == LF_MM_SC || c->schedule.memory_model == LF_MM_SC || c->schedule.memory_model == LF_SCHED_MEMORY_MIXED)
        lf_schedule_set_memory(&c->schedule, (lf_memory_model)m, c->schedule.seed ^ c->seed);
    else
        c->schedule.memory_model = (uint8_t)m; /* tso <-> c11: the same chance and seed */
}

/* ---- structured mutation ---- */

static uint64_t rnd(uint64_t *rng, uint64_t n) { return lf_rand_below(rng, n); }

static lf_fc_call random_call(uint64_t *rng, unsigned n_methods) {
    return (lf_fc_call){(uint8_t)rnd(rng, n_methods), (uint8_t)rnd(rng, 256)};
}

/* A thread with calls (or any thread when all are empty). */
static unsigned pick_thread(const lf_fuzz_case *c, uint64_t *rng, bool need_calls) {
    unsigned start = (unsigned)rnd(rng, c->threads);
    for (unsigned k = 0; k < c->threads; k++) {
        unsigned t = (start + k) % c->threads;
        if (!need_calls || c->body_len[t]) return t;
    }
    return start;
}

static void insert_call(lf_fc_call *calls, uint8_t *len, unsigned cap, unsigned pos, lf_fc_call call) {
    if (*len >= cap) return;
    if (pos > *len) pos = *len;
    memmove(&calls[pos + 1], &calls[pos], (*len - pos) * sizeof *calls);
    calls[pos] = call;
    (*len)++;
}

static void delete_call(lf_fc_call *calls, uint8_t *len, unsigned pos) {
    if (pos >= *len) return;
    memmove(&calls[pos], &calls[pos + 1], (*len - pos - 1) * sizeof *calls);
    (*len)--;
}

/* A position somewhere in the case's runs: a thread with calls, one of its ops, a step that is small most
 * of the time (most race windows are a few accesses into an op). */
static lf_sched_position random_position(const lf_fuzz_case *c, uint64_t *rng) {
    unsigned t = pick_thread(c, rng, true);
    size_t ops = (size_t)c->body_len[t] * c->rounds;
    lf_sched_position p = {(uint8_t)t, (uint16_t)(ops ? rnd(rng, ops) : 0), 0};
    p.step = (uint8_t)(rnd(rng, 4) ? rnd(rng, 24) : rnd(rng, 256));
    return p;
}

/* A weak chance (out of 256): a few values that measured well, or any. */
static uint8_t random_weak_chance(uint64_t *rng) {
    static const uint8_t chances[] = {16, 32, 64, 128};
    return rnd(rng, 4) ? chances[rnd(rng, 4)] : (uint8_t)(1 + rnd(rng, 255));
}

void lf_fuzz_case_mutate_schedule(lf_fuzz_case *c, uint64_t *rng) {
    lf_schedule *sch = &c->schedule;
    unsigned i;
    switch (rnd(rng, 19)) {
    case 16: /* the memory model: mixed (drawn per repetition), or one as the decoder's byte ranges */
        sch->memory_model = rnd(rng, 4) == 0 ? LF_SCHED_MEMORY_MIXED : (uint8_t)lf_memory_model_of_byte((uint8_t)rnd(rng, 256));
        if ((sch->memory_model == LF_MM_TSO || sch->memory_model == LF_MM_C11) && !sch->weak_chance) {
            sch->weak_chance = random_weak_chance(rng);
            sch->weak_seed = lf_rand_next(rng);
        }
        break;
    case 17: /* how often weak choices are taken */
        if (sch->memory_model == LF_MM_TSO || sch->memory_model == LF_MM_C11) sch->weak_chance = random_weak_chance(rng);
        break;
    case 18: /* other weak choices */
        if (sch->memory_model == LF_MM_TSO || sch->memory_model == LF_MM_C11) sch->weak_seed = lf_rand_next(rng);
        break;
    case 0: /* the mode: free one time in eight, as the decoder's byte range */
        c->mode = rnd(rng, 8) == 0 ? LF_FC_FREE : LF_FC_CONTROLLED;
        break;
    case 1:
        sch->strategy = (uint8_t)rnd(rng, LF_SCHED_STRATEGY_COUNT);
        break;
    case 2:
        sch->bound = (uint8_t)rnd(rng, LF_SCHED_MAX_CHANGES + 1);
        break;
    case 3: /* one thread's priority */
        sch->priority[rnd(rng, c->threads)] = (uint8_t)lf_rand_next(rng);
        break;
    case 4: { /* swap two threads' priorities */
        unsigned a = (unsigned)rnd(rng, c->threads), b = (unsigned)rnd(rng, c->threads);
        uint8_t tmp = sch->priority[a];
        sch->priority[a] = sch->priority[b];
        sch->priority[b] = tmp;
        break;
    }
    case 5: /* a change point somewhere new (and in use) */
        i = (unsigned)rnd(rng, LF_SCHED_MAX_CHANGES);
        sch->change[i] = random_position(c, rng);
        if (sch->bound <= i) sch->bound = (uint8_t)(i + 1);
        break;
    case 6: /* a change point a few steps later or earlier: the same window, another access */
    case 7:
        i = (unsigned)rnd(rng, sch->bound ? sch->bound : 1);
        sch->change[i].step = rnd(rng, 2) ? (uint8_t)(sch->change[i].step + 1 + rnd(rng, 4))
                                          : (uint8_t)(sch->change[i].step - 1 - rnd(rng, 4));
        break;
    case 8: /* a change point one op later or earlier */
        i = (unsigned)rnd(rng, sch->bound ? sch->bound : 1);
        sch->change[i].op = (uint16_t)(sch->change[i].op + (rnd(rng, 2) ? 1 : -1));
        break;
    case 9: /* a change point on another thread */
        i = (unsigned)rnd(rng, sch->bound ? sch->bound : 1);
        sch->change[i].thread = (uint8_t)rnd(rng, c->threads);
        break;
    case 10: /* a choice more */
        if (sch->n_choices < LF_SCHED_MAX_CHOICES) {
            i = (unsigned)rnd(rng, sch->n_choices + 1u);
            memmove(&sch->choices[i + 1], &sch->choices[i], (sch->n_choices - i) * sizeof sch->choices[0]);
            sch->choices[i] = (lf_sched_choice){(uint8_t)(rnd(rng, 2) ? rnd(rng, 48) : rnd(rng, 256)),
                                                (uint8_t)rnd(rng, LF_FC_MAX_THREADS)};
            sch->n_choices++;
        }
        break;
    case 11: /* a choice less */
        if (sch->n_choices) {
            i = (unsigned)rnd(rng, sch->n_choices);
            memmove(&sch->choices[i], &sch->choices[i + 1], (sch->n_choices - i - 1) * sizeof sch->choices[0]);
            sch->n_choices--;
        }
        break;
    case 12: /* a choice's delay or target */
        if (sch->n_choices) {
            lf_sched_choice *ch = &sch->choices[rnd(rng, sch->n_choices)];
            if (rnd(rng, 2))
                ch->after = (uint8_t)(ch->after + (rnd(rng, 2) ? 1 : -1));
            else
                ch->target = (uint8_t)rnd(rng, LF_FC_MAX_THREADS);
        }
        break;
    case 13:
        sch->walk_chance = (uint8_t)(rnd(rng, 2) ? 1 + rnd(rng, 32) : rnd(rng, 256));
        break;
    default: /* 14, 15: a new seed: the derived schedules of runs 1, 2, ... are all new */
        sch->seed = lf_rand_next(rng);
        break;
    }
}

/* lf_fuzz_case_random (short_case false: bodies of 16 to 32 calls, 3 or 4 rounds) and
 * lf_fuzz_case_random_short (bodies of 1 to 4 calls, one round, always controlled). */
static void random_case(lf_fuzz_case *c, unsigned n_methods, uint64_t *rng, bool short_case, bool wide_keys) {
    if (n_methods == 0) n_methods = 1;
    static const uint16_t points[] = {0, 16, 64, 256, 512, 1024}, gaps[] = {0, 32, 128, 512};
    static const uint16_t spins[] = {0, 30, 300, 3000};
    static const uint8_t yields[] = {0, 16, 64, 160, 255}, keys[] = {1, 2, 3, 4, 8};
    memset(c, 0, sizeof *c);
    c->threads = (uint8_t)(2 + rnd(rng, 4));
    c->repeats = (uint8_t)(1 + rnd(rng, 4));
    c->key_domain = keys[rnd(rng, sizeof keys)];
    c->drain = rnd(rng, 2);
    if (wide_keys && rnd(rng, 4) != 0) { /* and a drain: a lost key is seldom asked about again among many */
        c->key_domain = random_wide_domain(rng);
        c->drain = true;
    }
    c->perturb.point_chance = points[rnd(rng, sizeof points / sizeof points[0])];
    c->perturb.gap_chance = gaps[rnd(rng, sizeof gaps / sizeof gaps[0])];
    c->perturb.spin_max = spins[rnd(rng, sizeof spins / sizeof spins[0])];
    c->perturb.yield_share = yields[rnd(rng, sizeof yields)];
    c->seed = lf_rand_next(rng);
    /* a skewed mix, as the stress workloads': some methods called much more often than others */
    unsigned weight[LF_M_COUNT], total = 0;
    for (unsigned m = 0; m < n_methods && m < LF_M_COUNT; m++) total += weight[m] = 1 + (unsigned)rnd(rng, 8);
    unsigned body = short_case ? 1 + (unsigned)rnd(rng, 4) : 16 + (unsigned)rnd(rng, LF_FC_MAX_BODY - 15);
    c->rounds = (uint8_t)(short_case ? 1 : 3 + rnd(rng, 2)); /* long: 48 to 128 calls a thread (stress: 100) */
    for (unsigned t = 0; t < c->threads; t++) {
        c->body_len[t] = (uint8_t)body;
        for (unsigned i = 0; i < body; i++) {
            unsigned w = (unsigned)rnd(rng, total), m = 0;
            while (m + 1 < n_methods && m + 1 < LF_M_COUNT && w >= weight[m]) w -= weight[m++];
            c->body[t][i] = (lf_fc_call){(uint8_t)m, (uint8_t)rnd(rng, 256)};
        }
    }
    c->mode = rnd(rng, 4) == 0 && !short_case ? LF_FC_FREE : LF_FC_CONTROLLED;
    size_t ops[LF_FC_MAX_THREADS];
    for (unsigned t = 0; t < c->threads; t++) ops[t] = (size_t)body * c->rounds;
    lf_schedule_random(&c->schedule, lf_rand_next(rng), c->threads, ops);
    /* One time in eight SURW, one in eight ABA, otherwise a third of the time a random walk instead, and a third
     * partial order sampling (stress draws the walk and POS one time in eight each, SURW and ABA never):
     * measured, forcing the walk found 5 of 6 hard bundled bugs fastest of the first four strategies, POS finds
     * the bugs of long runs of contention (a CAS failing again and again) 10 to 20 times sooner than the walk,
     * and SURW was the fastest or close to it on the bugs where the others differ most; its runs switch at most
     * interesting events, 5 to 20 times slower than the others', so one case in eight gives it about half of
     * the time (docs/fuzzing.md, "Fuzz target against stress"). ABA finds the ABA of a compare-and-swap whose
     * word comes back, the tag of treiber_tag_wrap after 256 updates included, which no other strategy finds
     * but by the luck of a preemption that ends at the right update (docs/scheduling.md, "ABA"). */
    unsigned pick = (unsigned)rnd(rng, 24);
    if (pick < 3) {
        c->schedule.strategy = LF_SCHED_SURW;
        c->schedule.bound = (uint8_t)rnd(rng, LF_SCHED_MAX_CHANGES + 1);
    } else if (pick < 6) {
        c->schedule.strategy = LF_SCHED_ABA;
        c->schedule.walk_chance = (uint8_t)(1 + rnd(rng, rnd(rng, 2) ? 16 : 128));
    } else if (pick % 3 == 0) {
        c->schedule.strategy = LF_SCHED_WALK;
        c->schedule.walk_chance = (uint8_t)(1 + rnd(rng, 64));
    } else if (pick % 3 == 1) {
        c->schedule.strategy = LF_SCHED_POS;
    }
    c->schedule.memory_model = LF_SCHED_MEMORY_MIXED; /* each repetition draws its own, as stress's runs */
    lf_fuzz_case_normalize(c, n_methods);
}

void lf_fuzz_case_random(lf_fuzz_case *c, unsigned n_methods, bool wide_keys, uint64_t *rng) {
    random_case(c, n_methods, rng, false, wide_keys);
}

void lf_fuzz_case_random_short(lf_fuzz_case *c, unsigned n_methods, uint64_t *rng) {
    random_case(c, n_methods, rng, true, false);
}

void lf_fuzz_case_mutate(lf_fuzz_case *c, unsigned n_methods, uint64_t *rng) {
    if (n_methods == 0) n_methods = 1;
    if (rnd(rng, 4) == 0) { /* the schedule, a quarter of the time */
        lf_fuzz_case_mutate_schedule(c, rng);
        lf_fuzz_case_normalize(c, n_methods);
        return;
    }
    static const uint16_t chances[] = {0, 16, 64, 256, 512, 1024};
    static const uint16_t spins[] = {0, 30, 300, 3000};
    static const uint8_t rounds[] = {1, 2, 4, 8, 16, 32, 64};
    /* Calls change most often: they are what a mutation of the test means; knobs change the schedule. */
    unsigned kind = (unsigned)rnd(rng, 20);
    unsigned t = pick_thread(c, rng, kind >= 9 && kind <= 13);
    lf_fc_call *body = c->body[t];
    uint8_t *len = &c->body_len[t];
    switch (kind) {
    case 0: /* a thread more (a copy of another, or new) or less */
        if (c->threads < LF_FC_MAX_THREADS && (c->threads == 1 || rnd(rng, 2))) {
            unsigned nt = c->threads++;
            unsigned src = (unsigned)rnd(rng, nt);
            c->body_len[nt] = c->body_len[src];
            memcpy(c->body[nt], c->body[src], sizeof c->body[src]);
        } else if (c->threads > 1) {
            /* drop a random thread: move the last one into its place */
            unsigned last = --c->threads;
            c->body_len[t] = c->body_len[last];
            memcpy(c->body[t], c->body[last], sizeof c->body[t]);
        }
        break;
    case 1:
        c->rounds = rnd(rng, 2) ? rounds[rnd(rng, sizeof rounds)] : (uint8_t)(c->rounds + (rnd(rng, 2) ? 1 : -1));
        break;
    case 2:
        c->repeats = (uint8_t)(1 + rnd(rng, LF_FC_MAX_REPEATS));
        break;
    case 3:
        c->key_domain = rnd(rng, 8) == 0 ? random_wide_domain(rng)
                        : (uint16_t)(1 + (rnd(rng, 2) ? rnd(rng, 4) : rnd(rng, LF_FC_MAX_KEYS)));
        break;
    case 4:
        if (rnd(rng, 2))
            c->drain = !c->drain;
        else
            c->seed = lf_rand_next(rng);
        break;
    case 5:
        switch (rnd(rng, 4)) {
        case 0: c->perturb.point_chance = rnd(rng, 2) ? chances[rnd(rng, 6)] : (uint16_t)rnd(rng, 1025); break;
        case 1: c->perturb.gap_chance = rnd(rng, 2) ? chances[rnd(rng, 6)] : (uint16_t)rnd(rng, 1025); break;
        case 2: c->perturb.spin_max = rnd(rng, 2) ? spins[rnd(rng, 4)] : (uint16_t)rnd(rng, LF_FC_MAX_SPIN + 1); break;
        default: c->perturb.yield_share = (uint8_t)rnd(rng, 256); break;
        }
        break;
    case 6: /* prefix: add, drop or change a call */
    case 7: {
        unsigned op = (unsigned)rnd(rng, 3);
        if (op == 0 || c->prefix_len == 0)
            insert_call(c->prefix, &c->prefix_len, LF_FC_MAX_PREFIX, (unsigned)rnd(rng, c->prefix_len + 1u),
                        random_call(rng, n_methods));
        else if (op == 1)
            delete_call(c->prefix, &c->prefix_len, (unsigned)rnd(rng, c->prefix_len));
        else
            c->prefix[rnd(rng, c->prefix_len)] = random_call(rng, n_methods);
        break;
    }
    case 8: /* new call anywhere in a body */
        insert_call(body, len, LF_FC_MAX_BODY, (unsigned)rnd(rng, *len + 1u), random_call(rng, n_methods));
        break;
    case 9:
    case 10: /* another method for one call */
        if (*len) body[rnd(rng, *len)].method = (uint8_t)rnd(rng, n_methods);
        break;
    case 11: /* another argument: a neighbour key half of the time (keys are arg mod key_domain) */
        if (*len) {
            lf_fc_call *call = &body[rnd(rng, *len)];
            call->arg = rnd(rng, 2) ? (uint8_t)(call->arg + 1) : (uint8_t)rnd(rng, 256);
        }
        break;
    case 12:
        if (*len) delete_call(body, len, (unsigned)rnd(rng, *len));
        break;
    case 13: /* swap two calls of a thread */
        if (*len > 1) {
            unsigned a = (unsigned)rnd(rng, *len), b = (unsigned)rnd(rng, *len);
            lf_fc_call tmp = body[a];
            body[a] = body[b];
            body[b] = tmp;
        }
        break;
    case 14: /* copy a call into another thread (same call racing with itself) */
    case 15:
        if (*len) {
            unsigned u = (unsigned)rnd(rng, c->threads);
            insert_call(c->body[u], &c->body_len[u], LF_FC_MAX_BODY, (unsigned)rnd(rng, c->body_len[u] + 1u),
                        body[rnd(rng, *len)]);
        }
        break;
    case 16: /* duplicate a call in place */
        if (*len) {
            unsigned p = (unsigned)rnd(rng, *len);
            insert_call(body, len, LF_FC_MAX_BODY, p, body[p]);
        }
        break;
    default: /* 17..19: several random call edits at once, a bigger jump */
        for (int k = 0; k < 3; k++) {
            unsigned u = (unsigned)rnd(rng, c->threads);
            if (c->body_len[u] && rnd(rng, 2))
                c->body[u][rnd(rng, c->body_len[u])] = random_call(rng, n_methods);
            else
                insert_call(c->body[u], &c->body_len[u], LF_FC_MAX_BODY, (unsigned)rnd(rng, c->body_len[u] + 1u),
                            random_call(rng, n_methods));
        }
        break;
    }
    lf_fuzz_case_normalize(c, n_methods);
}

/* ---- description ---- */

/* The name of a call's method, "-" when the worker may call nothing. */
static const char *call_name(const lf_fuzz_case *c, const lf_adapter *a, unsigned t, uint8_t method_byte) {
    lf_method m = lf_fuzz_case_call_method(c, a, t, method_byte);
    return m == LF_M_COUNT ? "-" : lf_adapter_method_name(a, m);
}

int lf_fuzz_case_describe(char *buf, size_t len, const lf_fuzz_case *c, const lf_adapter *a) {
    size_t w = 0;
#define PUT(...) lf_appendf(buf, len, &w, __VA_ARGS__)
    PUT("threads=%u rounds=%u repeats=%u keys=%u drain=%s perturb(point=%u gap=%u spin_max=%u yield_share=%u) "
        "seed=%llu",
        c->threads, c->rounds, c->repeats, c->key_domain, c->drain ? "yes" : "no", c->perturb.point_chance,
        c->perturb.gap_chance, c->perturb.spin_max, (unsigned)c->perturb.yield_share, (unsigned long long)c->seed);
    if (c->mode == LF_FC_FREE) {
        PUT(" mode=free");
    } else {
        char sched[512];
        lf_schedule_describe(sched, sizeof sched, &c->schedule, c->threads);
        PUT(" mode=controlled schedule(%s)", sched);
    }
    if (c->prefix_len) {
        PUT("; prefix (T%u, alone):", (unsigned)c->threads); /* the serial part's thread id in the history */
        for (unsigned i = 0; i < c->prefix_len; i++)
            PUT("%s%s/%u", i ? "," : " ", call_name(c, a, c->threads, c->prefix[i].method), c->prefix[i].arg);
    }
    for (unsigned t = 0; t < c->threads; t++) {
        PUT("; T%u:", t);
        if (c->body_len[t] && lf_fuzz_case_call_method(c, a, t, 0) == LF_M_COUNT) {
            PUT(" idle (every method is another worker's)");
            continue;
        }
        for (unsigned i = 0; i < c->body_len[t]; i++)
            PUT("%s%s/%u", i ? "," : " ", call_name(c, a, t, c->body[t][i].method), c->body[t][i].arg);
    }
#undef PUT
    return (int)w;
}
