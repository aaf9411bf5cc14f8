/* Fuzz cases: the structured meaning of a fuzzer's input bytes (docs/fuzzing.md, "Input format").
 *
 * A case is an invocation matrix in the spirit of Line-Up ([Burckhardt10]): a few threads, each with
 * a short body of (method, argument) pairs that it repeats `rounds` times, an optional serial prefix run
 * before the threads start (prefill), an optional drain after they stop (observers that make lost updates
 * visible: pop until empty, contains of every key, a final get), a tiny key domain so that keys collide,
 * and the schedule knobs of the runner's perturbation. One fuzzer execution runs the case `repeats` times.
 *
 * Every byte string decodes to a valid case (missing bytes read as 0, every field is reduced into its
 * range), and lf_fuzz_case_encode writes the canonical bytes of a case, so decode(encode(c)) == c. Each
 * byte has one meaning that does not depend on the others (apart from the per-thread lengths), so libFuzzer's
 * byte mutations change one knob or one call; lf_fuzz_case_mutate mutates the structure directly. */
#ifndef LINFUZZ_FUZZ_CASE_H
#define LINFUZZ_FUZZ_CASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/adapter.h"
#include "runner/perturb.h"

#define LF_FUZZ_CASE_FORMAT "fuzz-case 1" /* recorded in corpus entries as workload_format */

#define LF_FC_MAX_THREADS 8
#define LF_FC_MAX_BODY 32    /* calls in one thread's body */
#define LF_FC_MAX_ROUNDS 64  /* times each thread runs its body */
#define LF_FC_MAX_REPEATS 16 /* runs per fuzzer execution */
#define LF_FC_MAX_PREFIX 16  /* serial calls before the threads start */
#define LF_FC_MAX_KEYS 16    /* key domain of sets, kv and cas values */
#define LF_FC_MAX_RUN_OPS 2048 /* concurrent calls per run: rounds are reduced to stay within it */
#define LF_FC_MAX_SPIN 4000    /* longest busy-wait of one perturbation (cpu-relax iterations) */
#define LF_FC_HEADER_BYTES 20
/* Largest canonical encoding: header, per thread a length byte and its body, the prefix. */
#define LF_FC_MAX_ENCODED \
    (LF_FC_HEADER_BYTES + LF_FC_MAX_THREADS * (1 + 2 * LF_FC_MAX_BODY) + 2 * LF_FC_MAX_PREFIX)

/* One call: method = index into the adapter's methods (lf_fuzz_case_methods), arg = argument selector. */
typedef struct lf_fc_call {
    uint8_t method;
    uint8_t arg;
} lf_fc_call;

typedef struct lf_fuzz_case {
    uint8_t threads;    /* 1..LF_FC_MAX_THREADS */
    uint8_t rounds;     /* 1..LF_FC_MAX_ROUNDS */
    uint8_t repeats;    /* 1..LF_FC_MAX_REPEATS */
    uint8_t key_domain; /* 1..LF_FC_MAX_KEYS */
    bool drain;         /* observe everything after the threads stop */
    lf_perturb perturb; /* point/gap chances 0..1024, spin_max 0..LF_FC_MAX_SPIN */
    uint64_t seed;      /* perturbation seed (run r, thread t get derived seeds) */
    uint8_t body_len[LF_FC_MAX_THREADS];
    lf_fc_call body[LF_FC_MAX_THREADS][LF_FC_MAX_BODY];
    uint8_t prefix_len;
    lf_fc_call prefix[LF_FC_MAX_PREFIX];
} lf_fuzz_case;

/* The methods of a's type that a implements, in lf_method order (what lf_fc_call.method indexes). */
unsigned lf_fuzz_case_methods(const lf_adapter *a, lf_method out[LF_M_COUNT]);

/* Decodes any bytes into a case for an adapter with n_methods methods (>= 1). */
void lf_fuzz_case_decode(const uint8_t *data, size_t len, unsigned n_methods, lf_fuzz_case *c);
/* Writes the canonical bytes of c into out (at least LF_FC_MAX_ENCODED bytes); returns their number. */
size_t lf_fuzz_case_encode(const lf_fuzz_case *c, uint8_t *out);
/* Brings c into its canonical form (fields in range, unused calls zeroed, rounds within the op budget). */
void lf_fuzz_case_normalize(lf_fuzz_case *c, unsigned n_methods);

/* Applies one structured mutation (a knob, a call, an inserted/deleted/copied call, a thread more or less,
 * ...) drawn from *rng; the result is normalised. */
void lf_fuzz_case_mutate(lf_fuzz_case *c, unsigned n_methods, uint64_t *rng);

/* Concurrent calls of one run (sum of bodies times rounds). */
size_t lf_fuzz_case_run_ops(const lf_fuzz_case *c);
/* One line: "threads=3 rounds=8 repeats=4 keys=2 drain prefix=2 perturb(...) seed=..; T0: push,pop T1: ...". */
int lf_fuzz_case_describe(char *buf, size_t len, const lf_fuzz_case *c, const lf_adapter *a);

#endif
