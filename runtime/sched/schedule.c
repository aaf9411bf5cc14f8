/* Schedules: names, normalisation, the derived schedules of later repetitions, random schedules for
 * `linfuzz stress`, and descriptions (see schedule.h). */
#include "runtime/schedule.h"

#include <stdio.h>
#include <string.h>

#include "util/appendf.h"
#include "util/prng.h"

static const char *const STRATEGY_NAMES[LF_SCHED_STRATEGY_COUNT] = {"pct",  "choices", "preempt", "walk",
                                                                    "pos",  "surw",    "aba"};

static const char *sched_strategy_name(lf_sched_strategy s) {
    return (unsigned)s < LF_SCHED_STRATEGY_COUNT ? STRATEGY_NAMES[s] : "?";
}

bool lf_schedule_strategy_from_name(const char *name, lf_sched_strategy *out) {
    for (unsigned i = 0; name && i < LF_SCHED_STRATEGY_COUNT; i++)
        if (!strcmp(name, STRATEGY_NAMES[i])) {
            *out = (lf_sched_strategy)i;
            return true;
        }
    return false;
}

uint32_t lf_sched_choice_steps(uint8_t after) { return after < 128 ? after : 128 + (uint32_t)(after - 128) * 16; }

void lf_schedule_normalize(lf_schedule *s) {
    s->strategy %= LF_SCHED_STRATEGY_COUNT;
    if (s->bound > LF_SCHED_MAX_CHANGES) s->bound = LF_SCHED_MAX_CHANGES;
    if (s->n_choices > LF_SCHED_MAX_CHOICES) s->n_choices = LF_SCHED_MAX_CHOICES;
    for (unsigned i = s->n_choices; i < LF_SCHED_MAX_CHOICES; i++) s->choices[i] = (lf_sched_choice){0, 0};
    if (s->memory_model > LF_SCHED_MEMORY_MIXED) s->memory_model = LF_MM_SC;
    if (s->memory_model == LF_MM_SC || s->memory_model == LF_SCHED_MEMORY_MIXED) {
        s->weak_chance = 0;
        s->weak_seed = 0;
    }
}

/* A thread with ops, drawn uniformly (thread 0 when none has any). */
static unsigned random_busy_thread(uint64_t *rng, unsigned threads, const size_t *ops) {
    unsigned busy = 0;
    for (unsigned t = 0; t < threads; t++) busy += ops[t] > 0;
    if (!busy) return 0;
    unsigned k = (unsigned)lf_rand_below(rng, busy);
    for (unsigned t = 0; t < threads; t++)
        if (ops[t] > 0 && k-- == 0) return t;
    return 0;
}

/* A random position: a thread with ops, one of its ops, and a step that is small most of the time (most race
 * windows are a few accesses into an op: half of the draws are below 10) and sometimes deep (long
 * traversals). A step past the op's end falls on the next op's call. */
static lf_sched_position random_position(uint64_t *rng, unsigned threads, const size_t *ops) {
    lf_sched_position p;
    unsigned t = random_busy_thread(rng, threads, ops);
    p.thread = (uint8_t)t;
    p.op = (uint16_t)(ops[t] ? lf_rand_below(rng, ops[t]) : 0);
    unsigned depth = (unsigned)lf_rand_below(rng, 4);
    p.step = (uint8_t)lf_rand_below(rng, depth < 2 ? 10 : depth == 2 ? 32 : 256);
    return p;
}

static void random_priorities(lf_schedule *s, uint64_t *rng) {
    for (unsigned t = 0; t < LF_SCHED_MAX_THREADS; t++) s->priority[t] = (uint8_t)lf_rand_next(rng);
}

static void random_choices(lf_schedule *s, uint64_t *rng, unsigned n) {
    s->n_choices = (uint8_t)n;
    for (unsigned i = 0; i < n; i++)
        s->choices[i] = (lf_sched_choice){(uint8_t)(lf_rand_below(rng, 2) ? lf_rand_below(rng, 48)
                                                                           : lf_rand_below(rng, 256)),
                                          (uint8_t)lf_rand_next(rng)};
}

void lf_schedule_for_run(const lf_schedule *base, uint64_t salt, unsigned run, unsigned threads, const size_t *ops,
                         lf_schedule *out) {
    *out = *base;
    lf_schedule_normalize(out);
    if (out->memory_model == LF_SCHED_MEMORY_MIXED) {
        uint64_t mrng = base->seed ^ (0x632be59bd9b4e019ull * (run + 1)) ^ (salt * 0x9e3779b97f4a7c15ull);
        uint64_t draw = lf_rand_next(&mrng);
        lf_memory_model m = lf_memory_model_of_byte((uint8_t)(draw >> 56));
        if (m == LF_MM_SC) out->memory_model = LF_MM_SC;
        else lf_schedule_set_memory(out, m, lf_rand_next(&mrng));
    }
    if (run == 0) return;
    uint64_t rng = base->seed ^ (0x9e3779b97f4a7c15ull * (run + 1)) ^ (salt * 0xd1342543de82ef95ull);
    out->seed = lf_rand_next(&rng);
    random_priorities(out, &rng);
    /* Depths 1, 2, ... up to the case's bound (or 3) in turn: most bugs need one or two preemptions, and a
     * change point too many can undo the one that matters. At least one: a repetition without any would
     * only reorder whole threads. */
    unsigned bound = 1 + (unsigned)((run - 1) % (out->bound ? out->bound : LF_SCHED_MAX_CHANGES));
    out->bound = (uint8_t)bound;
    for (unsigned i = 0; i < LF_SCHED_MAX_CHANGES; i++)
        out->change[i] = i < bound ? random_position(&rng, threads, ops) : (lf_sched_position){0, 0, 0};
    if (out->strategy == LF_SCHED_CHOICES) random_choices(out, &rng, 1 + (unsigned)lf_rand_below(&rng, 6));
    if (out->strategy == LF_SCHED_WALK && out->walk_chance == 0) out->walk_chance = (uint8_t)(1 + lf_rand_below(&rng, 64));
    if (out->memory_model != LF_MM_SC) out->weak_seed = lf_rand_next(&rng); /* same model and chance, new choices */
    if (out->strategy == LF_SCHED_SURW) /* its bound is how selective it is: each of the four */
        out->bound = (uint8_t)lf_rand_below(&rng, LF_SCHED_MAX_CHANGES + 1);
    if (out->strategy == LF_SCHED_ABA) /* where it parks: early in the run, or any of its RMWs */
        out->walk_chance = (uint8_t)(1 + lf_rand_below(&rng, lf_rand_below(&rng, 2) ? 16 : 128));
}

void lf_schedule_random(lf_schedule *out, uint64_t seed, unsigned threads, const size_t *ops) {
    memset(out, 0, sizeof *out);
    uint64_t rng = seed * 0xd1342543de82ef95ull + 0x5c4ed;
    /* PCT most of the time: it switches rarely (fast) and covers shallow bugs with good probability; POS and
     * the walk one time in eight each, for the bugs that need many switches. */
    unsigned pick = (unsigned)lf_rand_below(&rng, 8);
    out->strategy = pick < 4    ? LF_SCHED_PCT
                    : pick == 4 ? LF_SCHED_POS
                    : pick == 5 ? LF_SCHED_CHOICES
                    : pick == 6 ? LF_SCHED_PREEMPT
                                : LF_SCHED_WALK;
    out->bound = (uint8_t)(1 + lf_rand_below(&rng, LF_SCHED_MAX_CHANGES));
    out->walk_chance = (uint8_t)(1 + lf_rand_below(&rng, 64));
    out->seed = lf_rand_next(&rng);
    random_priorities(out, &rng);
    for (unsigned i = 0; i < out->bound; i++) out->change[i] = random_position(&rng, threads, ops);
    if (out->strategy == LF_SCHED_CHOICES) random_choices(out, &rng, 1 + (unsigned)lf_rand_below(&rng, 8));
    lf_schedule_normalize(out);
}

lf_memory_model lf_memory_model_of_byte(uint8_t b) { return b < 64 ? LF_MM_SC : b < 128 ? LF_MM_TSO : LF_MM_C11; }

uint8_t lf_memory_model_byte(lf_memory_model m) { return m == LF_MM_TSO ? 64 : m == LF_MM_C11 ? 128 : 0; }

void lf_schedule_set_memory(lf_schedule *s, lf_memory_model m, uint64_t seed) {
    static const uint8_t chances[] = {16, 32, 64, 128};
    uint64_t rng = seed * 0x9e3779b97f4a7c15ull + 0x3c6ef372fe94f82bull;
    s->memory_model = (uint8_t)m;
    s->weak_chance = chances[lf_rand_below(&rng, 4)];
    s->weak_seed = lf_rand_next(&rng);
    lf_schedule_normalize(s);
}

int lf_schedule_describe(char *buf, size_t len, const lf_schedule *s, unsigned threads) {
    size_t w = 0;
#define PUT(...) lf_appendf(buf, len, &w, __VA_ARGS__)
    if (threads > LF_SCHED_MAX_THREADS) threads = LF_SCHED_MAX_THREADS;
    PUT("%s", sched_strategy_name((lf_sched_strategy)s->strategy));
    if (s->strategy == LF_SCHED_PCT || s->strategy == LF_SCHED_PREEMPT) {
        PUT(" bound=%u prio=", s->bound);
        for (unsigned t = 0; t < threads; t++) PUT("%s%u", t ? "," : "", s->priority[t]);
        for (unsigned i = 0; i < s->bound; i++)
            PUT("%st%u/op%u/s%u", i ? "," : " change=", s->change[i].thread, s->change[i].op, s->change[i].step);
    } else if (s->strategy == LF_SCHED_CHOICES) {
        PUT(" choices=");
        if (!s->n_choices) PUT("none");
        for (unsigned i = 0; i < s->n_choices; i++)
            PUT("%s%u>%u", i ? "," : "", lf_sched_choice_steps(s->choices[i].after), s->choices[i].target);
    } else if (s->strategy == LF_SCHED_WALK) {
        PUT(" chance=%u/4096", s->walk_chance);
    } else if (s->strategy == LF_SCHED_SURW) {
        PUT(" addresses=%s", s->bound == 0 ? "all" : s->bound == 1 ? "1/2" : s->bound == 2 ? "1/4" : "1/8");
    } else if (s->strategy == LF_SCHED_ABA) {
        PUT(" park=%u/256 prio=", s->walk_chance ? s->walk_chance : LF_SCHED_ABA_CHANCE);
        for (unsigned t = 0; t < threads; t++) PUT("%s%u", t ? "," : "", s->priority[t]);
    }
    PUT(" seed=%llu", (unsigned long long)s->seed);
    if (s->memory_model == LF_SCHED_MEMORY_MIXED)
        PUT(" memory=mixed");
    else if (s->memory_model != LF_MM_SC)
        PUT(" memory=%s weak=%u/256 wseed=%llu", lf_memory_model_name((lf_memory_model)s->memory_model), s->weak_chance,
            (unsigned long long)s->weak_seed);
#undef PUT
    return (int)w;
}
