/* Schedules: the plain data that decides a controlled run's interleaving (docs/scheduling.md).
 *
 * A schedule names a strategy and its parameters. Positions are per-thread ("thread t, its op j, its k-th
 * scheduling point in that op") rather than global step numbers, so that a schedule keeps its meaning when
 * libFuzzer changes another thread's calls or an op elsewhere takes more or fewer steps.
 *
 *  PCT        every thread has a priority; the highest-priority runnable thread runs. At each change point
 *             (thread, op, step) that thread's priority drops below every other one (Burckhardt et al., "A
 *             randomized scheduler with probabilistic guarantees of finding bugs", with thread-local change
 *             points). bound = the number of change points used (0..3): bugs of depth bound + 1.
 *  CHOICES    a direct choice sequence: "after n more scheduling points, switch to the k-th other runnable
 *             thread", one pair per switch; when the sequence is used up, threads run without preemption.
 *  PREEMPT    bounded preemptions: no preemption except at the change points (at most bound), where the
 *             highest-priority other runnable thread takes over; otherwise a thread runs until it blocks
 *             or finishes, and the highest-priority runnable thread follows.
 *  WALK       a random walk: at every point, switch to a random other runnable thread with chance
 *             walk_chance / 4096 (from a generator seeded by `seed`). Many switches: slower, but it explores
 *             bugs of any depth.
 *  POS        partial order sampling (Yuan, Yang, Gu, "Partial Order Aware Concurrency Sampling", CAV 2018):
 *             every thread's next event (the access it stands at) has a random priority, the runnable
 *             thread whose event has the highest one runs it, and the events of other threads that conflict
 *             with an event just made (the same address, one of the two a write) draw new priorities. A
 *             switch can come at any point, as often as the events' priorities say: runs of heavy contention
 *             (a CAS that fails again and again) that a walk of a few switches per thousand points rarely
 *             makes. From a generator seeded by `seed`.
 *  SURW       selectively uniform random walk (Zhao, Wolff, Mathur, Roychoudhury, "Selectively Uniform
 *             Concurrency Testing", ASPLOS 2025): at each interesting event the thread to make the next
 *             interesting event is drawn with a weight of its remaining interesting events (estimated: its
 *             remaining ops times the run's interesting events per finished op, less those of its current
 *             op), which makes every interleaving of the interesting events about equally likely, where a
 *             walk favours switching early; a thread runs its other events without a switch. Interesting:
 *             the accesses (of memory, locks, library objects) made at a subset of the run's code sites,
 *             numbered by first use (bound 0: all of them, 1, 2, 3: each of the first 127 with chance 1/2,
 *             1/4, 1/8, the later ones together). From a generator seeded by `seed`.
 *  ABA        park at a compare-and-swap until its word comes back: at a read-modify-write of a word of 1 to
 *             16 bytes, with chance walk_chance / 256 (0: 16 / 256, from a generator seeded by `seed`), the
 *             thread is parked there, its word's value noted; the others run by priority (as PREEMPT without
 *             preemptions), and the moment one of them has written the word back to that value, after it
 *             changed, the parked thread resumes and makes its access: the ABA of a lock-free pop whose
 *             head went A, B, A, or of a tag that wrapped around after 256 updates, in one run instead of
 *             the luck of a preemption that ends at the right one of hundreds of updates. It also resumes
 *             when no other thread can run or one spins (it may be what they wait for). One thread at a time.
 *
 * Run 0 of a fuzz case follows the schedule as given. Runs 1, 2, ... of the same case (its repeats) derive
 * their own schedules from it (lf_schedule_for_run): same strategy, priorities shuffled and change points
 * or choices (SURW: its selectivity; ABA: its chance to park) drawn from (seed, the test's hash, run
 * index), so that one input explores several deterministic interleavings. */
#ifndef LINFUZZ_SCHEDULE_H
#define LINFUZZ_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/memory_model.h"

#define LF_SCHED_MAX_THREADS 64 /* the runner's limit (lf_workload) */
#define LF_SCHED_MAX_CHANGES 3  /* change points / preemptions of PCT and PREEMPT */
#define LF_SCHED_MAX_CHOICES 32 /* switches of a choice sequence */
#define LF_SCHED_MEMORY_MIXED LF_MM_COUNT /* lf_schedule.memory_model: drawn per repetition */
#define LF_SCHED_ABA_CHANCE 16 /* ABA's chance to park at a read-modify-write (of 256) when walk_chance is 0 */

typedef enum lf_sched_strategy {
    LF_SCHED_PCT,
    LF_SCHED_CHOICES,
    LF_SCHED_PREEMPT,
    LF_SCHED_WALK,
    LF_SCHED_POS, /* (after the others: the strategy byte of older cases keeps its meaning) */
    LF_SCHED_SURW, /* (likewise, after POS) */
    LF_SCHED_ABA,  /* (likewise, after SURW) */
    LF_SCHED_STRATEGY_COUNT
} lf_sched_strategy;

/* Thread `thread`, at its `step`-th scheduling point (0 = the op's call) of its op number `op`, or at its
 * first point after that position (an op with fewer points: the next op's call). */
typedef struct lf_sched_position {
    uint8_t thread; /* taken modulo the run's threads */
    uint16_t op;    /* taken modulo that thread's number of ops */
    uint8_t step;
} lf_sched_position;

/* One switch of a choice sequence. */
typedef struct lf_sched_choice {
    uint8_t after;  /* scheduling points since the last switch, before this one (see lf_sched_choice_steps) */
    uint8_t target; /* which other runnable thread, modulo their number, in thread order after the current */
} lf_sched_choice;

typedef struct lf_schedule {
    uint8_t strategy;    /* lf_sched_strategy */
    uint8_t bound;       /* PCT change points / PREEMPT preemptions used: 0..LF_SCHED_MAX_CHANGES; SURW's
                          * selectivity */
    uint8_t walk_chance; /* WALK: chance per point, out of 4096; ABA: chance per read-modify-write, out of 256 */
    uint8_t priority[LF_SCHED_MAX_THREADS]; /* higher runs first; ties go to the lower thread index */
    uint64_t seed;       /* WALK's generator, and the derivation of runs 1, 2, ... */
    lf_sched_position change[LF_SCHED_MAX_CHANGES];
    uint8_t n_choices;
    lf_sched_choice choices[LF_SCHED_MAX_CHOICES];
    /* The memory model of the run (docs/memory-models.md) and its weak choices: with chance weak_chance/256,
     * drawn from weak_seed, a load reads an older store, a store stays buffered, ... (sc: both 0).
     * LF_SCHED_MEMORY_MIXED (fuzz cases without memory-model bytes): each repetition draws its own model,
     * chance and seed (lf_schedule_for_run), so that one input runs sc and weak. */
    uint8_t memory_model; /* lf_memory_model, or LF_SCHED_MEMORY_MIXED */
    uint8_t weak_chance;
    uint64_t weak_seed;
} lf_schedule;

/* Scheduling points before a choice's switch: `after` read on a scale that is fine for short waits and
 * still reaches a few thousand points (0..127 as is, then steps of 16 up to 2160). */
uint32_t lf_sched_choice_steps(uint8_t after);

/* Brings every field into range (strategy, bound, n_choices, the memory model); unused entries are zeroed (the
 * weak fields of an sc schedule too). */
void lf_schedule_normalize(lf_schedule *s);

/* The schedule of repetition `run` of a case whose schedule is base, for threads whose op counts are
 * ops[0..threads-1]: run 0 is base itself; later runs keep base's strategy and draw priorities, change points
 * and choices from (base->seed, salt, run), and a new weak seed. A mixed memory model becomes one model per
 * run, drawn from (base->seed, salt, run), run 0 included (a quarter sc, a quarter tso, half c11); SURW's bound
 * (its selectivity) is drawn anew, 0..3, and ABA's chance to park (walk_chance), 1..16 or 1..128. salt is a
 * hash of the test the schedule drives (the fuzz case's calls), so that a mutated test also gets fresh
 * interleavings in its repetitions. Deterministic. */
void lf_schedule_for_run(const lf_schedule *base, uint64_t salt, unsigned run, unsigned threads, const size_t *ops,
                         lf_schedule *out);

/* The memory model a byte selects (fuzz cases, mixed runs): 0-63 sc, 64-127 tso, 128-255 c11; and the byte that
 * encodes a model (0, 64, 128). */
lf_memory_model lf_memory_model_of_byte(uint8_t b);
uint8_t lf_memory_model_byte(lf_memory_model m);
/* Puts s under model m, with a weak chance and seed drawn from `seed` (sc: none). */
void lf_schedule_set_memory(lf_schedule *s, lf_memory_model m, uint64_t seed);

/* The strategy named "pct", "choices", "preempt", "walk", "pos", "surw" or "aba" (as lf_schedule_describe
 * writes them); false for anything else. */
bool lf_schedule_strategy_from_name(const char *name, lf_sched_strategy *out);
/* A random schedule for `linfuzz stress` (strategy, bound and everything else drawn from seed). */
void lf_schedule_random(lf_schedule *out, uint64_t seed, unsigned threads, const size_t *ops);

/* One line: "pct bound=2 prio=3,1,0 change=t1/op4/s7,t0/op2/s0" and the like; threads limits the lists. */
int lf_schedule_describe(char *buf, size_t len, const lf_schedule *s, unsigned threads);

#endif
