/* Fuzz cases: the structured meaning of a fuzzer's input bytes (docs/fuzzing.md, "Input format").
 *
 * A case is an invocation matrix in the spirit of Line-Up ([Burckhardt10]): a few threads, each with
 * a short body of (method, argument) pairs that it repeats `rounds` times, an optional serial prefix run
 * before the threads start (prefill), an optional drain after they stop (observers that make lost updates
 * visible: pop until empty, contains of every key, a final get), a tiny key domain so that keys collide,
 * the knobs of the runner's perturbation (free mode), and the schedule (controlled mode: which thread runs at
 * each scheduling point, runtime/include/runtime/schedule.h). One fuzzer execution runs the case `repeats` times; in
 * controlled mode repetition r follows the schedule derived for run r (lf_schedule_for_run), so the same input
 * always gives the same runs.
 *
 * Every byte string decodes to a valid case (missing bytes read as 0, every field is reduced into its
 * range), and lf_fuzz_case_encode writes the canonical bytes of a case, so decode(encode(c)) == c. Each
 * byte has one meaning that does not depend on the others (apart from the per-thread lengths), so libFuzzer's
 * byte mutations change one knob or one call; lf_fuzz_case_mutate mutates the structure directly, and
 * lf_fuzz_case_mutate_schedule only the schedule.
 *
 * Formats: "fuzz-case 7" (this one: a 53-byte header with the mode and the schedule, the choice sequence
 * after the prefix, then the memory model of controlled runs and its weak choices, docs/memory-models.md; the
 * strategy byte is read modulo the seven strategies, ABA included; key bytes 240..255 are the wide key
 * domains 32 << (b % 4)), "fuzz-case 6" (the same with key domains 1..16 only: 1 + b % 16), "fuzz-case 5" (that with six: the
 * strategy byte modulo 6, SURW the last), "fuzz-case 4" (five: modulo 5, POS the last), "fuzz-case 3" (four
 * strategies: modulo 4), "fuzz-case 2" (that without the memory model: sc whatever follows the choices) and
 * "fuzz-case 1" (the 20-byte header of the first version, recorded in older corpus entries: it decodes as a
 * free-mode case). The canonical bytes of a case of at most 16 keys are the same in formats 6 and 7, those of a
 * case without ABA the same in formats 5 and 6, those of a case
 * without SURW the same in formats 4 and 5, those of a case without POS the same in formats 3 and 4, and those
 * of an sc case of format 3 the same in format 2. */
#ifndef LINFUZZ_FUZZ_CASE_H
#define LINFUZZ_FUZZ_CASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/adapter.h"
#include "runtime/perturb.h"
#include "runtime/schedule.h"

#define LF_FUZZ_CASE_FORMAT "fuzz-case 7"    /* recorded in corpus entries as workload_format */
#define LF_FUZZ_CASE_FORMAT_V6 "fuzz-case 6" /* the sixth: key domains 1..16 only (no wide ones) */
#define LF_FUZZ_CASE_FORMAT_V5 "fuzz-case 5" /* the fifth: six strategies (no ABA) */
#define LF_FUZZ_CASE_FORMAT_V4 "fuzz-case 4" /* the fourth: five strategies (no SURW) */
#define LF_FUZZ_CASE_FORMAT_V3 "fuzz-case 3" /* the third: four strategies (no POS) */
#define LF_FUZZ_CASE_FORMAT_V2 "fuzz-case 2" /* the second: no memory model (sc), trailing bytes ignored */
#define LF_FUZZ_CASE_FORMAT_V1 "fuzz-case 1" /* the first version: no mode or schedule (free mode) */

#define LF_FC_MAX_THREADS 8
#define LF_FC_MAX_BODY 32    /* calls in one thread's body */
#define LF_FC_MAX_ROUNDS 64  /* times each thread runs its body */
#define LF_FC_MAX_REPEATS 16 /* runs per fuzzer execution */
#define LF_FC_MAX_PREFIX 16  /* serial calls before the threads start */
#define LF_FC_MAX_KEYS 16    /* key domain of sets, kv and cas values: 1..16, or a wide one (below) */
#define LF_FC_WIDE_KEYS_MIN 32  /* the wide key domains: 32, 64, 128, 256 (a set of many keys: resizes) */
#define LF_FC_WIDE_KEYS_MAX 256
#define LF_FC_MAX_RUN_OPS 2048 /* concurrent calls per run: rounds are reduced to stay within it */
#define LF_FC_MAX_SPIN 4000    /* longest busy-wait of one perturbation (cpu-relax iterations) */
#define LF_FC_HEADER_BYTES 53
#define LF_FC_HEADER_BYTES_V1 20
#define LF_FC_FREE_MODE_BYTE 224 /* mode byte values from here on mean free mode (1 in 8 random bytes) */
/* Largest canonical encoding: header, per thread a length byte and its body, the prefix, the choices. */
#define LF_FC_WEAK_BYTES 10 /* memory model, weak chance, weak seed: after the choices, only when not sc */
#define LF_FC_MAX_ENCODED                                                                                    \
    (LF_FC_HEADER_BYTES + LF_FC_MAX_THREADS * (1 + 2 * LF_FC_MAX_BODY) + 2 * LF_FC_MAX_PREFIX +              \
     2 * LF_SCHED_MAX_CHOICES + LF_FC_WEAK_BYTES)

/* How a case's runs are scheduled. */
typedef enum lf_fc_mode {
    LF_FC_CONTROLLED, /* one thread at a time, switching where the schedule says: deterministic */
    LF_FC_FREE,       /* the operating system's interleaving, widened by the perturbation knobs */
} lf_fc_mode;

/* One call: method = index into the adapter's methods (lf_fuzz_case_methods), arg = argument selector. */
typedef struct lf_fc_call {
    uint8_t method;
    uint8_t arg;
} lf_fc_call;

typedef struct lf_fuzz_case {
    uint8_t threads;    /* 1..LF_FC_MAX_THREADS */
    uint8_t rounds;     /* 1..LF_FC_MAX_ROUNDS */
    uint8_t repeats;    /* 1..LF_FC_MAX_REPEATS */
    uint16_t key_domain; /* 1..LF_FC_MAX_KEYS, or a wide domain (lf_fuzz_case_key_domain_valid) */
    bool drain;         /* observe everything after the threads stop */
    lf_perturb perturb; /* point/gap chances 0..1024, spin_max 0..LF_FC_MAX_SPIN */
    uint64_t seed;      /* perturbation seed (run r, thread t get derived seeds) */
    uint8_t body_len[LF_FC_MAX_THREADS];
    lf_fc_call body[LF_FC_MAX_THREADS][LF_FC_MAX_BODY];
    uint8_t prefix_len;
    lf_fc_call prefix[LF_FC_MAX_PREFIX];
    uint8_t mode;         /* lf_fc_mode */
    lf_schedule schedule; /* controlled mode; priorities of threads >= LF_FC_MAX_THREADS are 0 */
} lf_fuzz_case;

/* The methods of a's type that a implements, in lf_method order (what lf_fc_call.method indexes). */
unsigned lf_fuzz_case_methods(const lf_adapter *a, lf_method out[LF_M_COUNT]);
/* The method of a call byte of worker t (t == c->threads: the serial prefix): the byte indexes the methods
 * that worker may call (lf_adapter_thread_methods: an adapter with exclusive groups gives each group's
 * methods to its owner only; without groups these are all of the adapter's methods, as
 * lf_fuzz_case_methods lists them). LF_M_COUNT when the worker may call nothing. */
lf_method lf_fuzz_case_call_method(const lf_fuzz_case *c, const lf_adapter *a, unsigned t, uint8_t method_byte);

/* Decodes any bytes into a case for an adapter with n_methods methods (>= 1). */
void lf_fuzz_case_decode(const uint8_t *data, size_t len, unsigned n_methods, lf_fuzz_case *c);
/* The same for bytes of the named format (LF_FUZZ_CASE_FORMAT, _V6 to _V1); false when the format is not one of
 * them. */
bool lf_fuzz_case_decode_as(const char *format, const uint8_t *data, size_t len, unsigned n_methods,
                            lf_fuzz_case *c);
/* Whether the named format is one lf_fuzz_case_decode_as reads; whether it has a mode and a schedule (a
 * controlled finding replays exactly). */
bool lf_fuzz_case_format_known(const char *format);
bool lf_fuzz_case_format_scheduled(const char *format);
/* Writes the canonical bytes of c into out (at least LF_FC_MAX_ENCODED bytes); returns their number. */
size_t lf_fuzz_case_encode(const lf_fuzz_case *c, uint8_t *out);
/* Whether d is a key domain a case can have: 1..LF_FC_MAX_KEYS or a wide one (32, 64, 128, 256). */
bool lf_fuzz_case_key_domain_valid(unsigned d);
/* Brings c into its canonical form (fields in range, unused calls zeroed, rounds within the op budget). */
void lf_fuzz_case_normalize(lf_fuzz_case *c, unsigned n_methods);

/* Applies one structured mutation (a knob, a call, an inserted/deleted/copied call, a thread more or less,
 * ..., or one of lf_fuzz_case_mutate_schedule's) drawn from *rng; the result is normalised. */
void lf_fuzz_case_mutate(lf_fuzz_case *c, unsigned n_methods, uint64_t *rng);
/* Replaces c by a fresh random case shaped like `linfuzz stress`'s workloads (lf_workload_random): 2 to 5
 * threads of 48 to 128 calls each (a body of 16 to 32 calls repeated), a skewed method mix (a weight of 1 to 8
 * per method), a small key domain (with wide_keys, three times in four a wide one and a drain: a set's adds then
 * take fresh keys, as stress's do, so that it grows to as many keys as the case adds and a hash table resizes;
 * lf_fc_plan_build), a drain half of the time, perturbation knobs from none to heavy, free mode
 * one time in four and otherwise a random schedule (SURW one time in eight, otherwise a third each WALK, POS
 * and lf_schedule_random's mix, PCT mostly) with the memory model drawn per repetition. The fuzz targets run
 * such cases from their first executions (docs/fuzzing.md, "Fuzz target against stress"): a concurrency bug
 * needs long racing threads, which mutations of a small input reach only after many executions. */
void lf_fuzz_case_random(lf_fuzz_case *c, unsigned n_methods, bool wide_keys, uint64_t *rng);
/* The same with short threads: 1 to 4 calls each, always controlled. Some bugs need a run that ends right
 * after them: a lost wakeup leaves a waiter only when no later call wakes it (docs/fuzzing.md, "One CPU and
 * short fresh cases"). */
void lf_fuzz_case_random_short(lf_fuzz_case *c, unsigned n_methods, uint64_t *rng);
/* Mutates only the schedule part: the mode (free 1 time in 8), the strategy, the bound, a priority, a change
 * point moved by a little or put somewhere new, a choice added, dropped or changed, the seed, the memory
 * model, the weak chance, the weak seed. */
void lf_fuzz_case_mutate_schedule(lf_fuzz_case *c, uint64_t *rng);

/* The memory model the controlled runs of a tool use: each case its own (LF_FC_MEMORY_MIXED), or one for every
 * case (an lf_memory_model). From "mixed", "sc", "tso" or "c11"; false for anything else. */
#define LF_FC_MEMORY_MIXED (-1)
bool lf_fc_memory_from_name(const char *name, int *out);
/* Puts c under model m (LF_FC_MEMORY_MIXED: leaves it as it is). A case that had no weak choices gets a weak
 * chance and seed drawn from its own bytes, so the same input always runs the same way. */
void lf_fuzz_case_force_memory(lf_fuzz_case *c, int m);

/* Concurrent calls of one run (sum of bodies times rounds). */
size_t lf_fuzz_case_run_ops(const lf_fuzz_case *c);
/* One line: "threads=3 rounds=8 repeats=4 keys=2 drain prefix=2 perturb(...) seed=.. mode=controlled
 * schedule(pct ...); T0: push,pop T1: ...". */
int lf_fuzz_case_describe(char *buf, size_t len, const lf_fuzz_case *c, const lf_adapter *a);

#endif
