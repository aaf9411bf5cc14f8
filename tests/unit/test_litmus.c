/* The memory models of controlled runs against the litmus tables (docs/memory-models.md).
 *
 * Each litmus program runs on the model directly (runtime/sched/weak_memory.h: no threads, no scheduler),
 * under every interleaving and every weak choice (a stateless depth-first enumeration of the decisions), and
 * the set of outcomes is compared with the axiomatic oracles of litmus_oracle.h (RC11 for c11, x86-TSO for
 * tso, every interleaving for sc):
 *   - no outcome the oracle forbids ever appears (a false alarm of the model: the worst bug);
 *   - every outcome the oracle allows appears, except the ones tier-1 seq_cst forbids on purpose (listed
 *     below as KNOWN_MISSES, so that losing any other outcome fails);
 *   - the oracles themselves agree with the published verdicts of the classic outcomes: the RC11 and TSO
 *     columns computed with herd7 (rc11.cat, x86tso.cat) for Lahav et al. PLDI 2017 and Sewell et al. CACM
 *     2010 (the `rc11`/`tso` fields of the table);
 * then random programs (a fixed number, 300, 60 under sanitizers; seeded; a failure prints its seed and
 * program) are compared the same way: sound for c11, exact for tso. */
#include <stdlib.h>
#include <string.h>

#include "litmus_oracle.h"
#include "sched/weak_memory.h"
#include "test_util.h"

/* ---- programs ---- */

#define ST(l, v, m) {LI_ST, l, m, 0, v}
#define STP(l, v) {LI_STP, l, 0, 0, v}
#define LD(r, l, m) {LI_LD, l, m, r, 0}
#define LDP(r, l) {LI_LDP, l, 0, r, 0}
#define FAA(r, l, v, m) {LI_FAA, l, m, r, v}
#define XCHG(r, l, v, m) {LI_XCHG, l, m, r, v}
#define FENCE(m) {LI_F, 0, m, 0, 0}
enum { X, Y, Z };
enum { RLX = LMO_RLX, ACQ = LMO_ACQ, REL = LMO_REL, AR = LMO_AR, SC = LMO_SC };

typedef struct table_test {
    litmus p;
    const char *outcome; /* "1:r0=1 1:r1=0 [x]=2": the classic outcome of the shape */
    char rc11, tso;      /* its verdict: 'A' allowed, 'F' forbidden (herd7 on rc11.cat / x86tso.cat) */
} table_test;

/* (brace-enclosed instruction lists per thread) */
#define P1(name, a) {name, 1, {sizeof((lit_instr[])a) / sizeof(lit_instr)}, {a}}
#define P2(name, a, b)                                                                                       \
    {name, 2, {sizeof((lit_instr[])a) / sizeof(lit_instr), sizeof((lit_instr[])b) / sizeof(lit_instr)}, {a, b}}
#define P3(name, a, b, c)                                                                                    \
    {name,                                                                                                   \
     3,                                                                                                      \
     {sizeof((lit_instr[])a) / sizeof(lit_instr), sizeof((lit_instr[])b) / sizeof(lit_instr),               \
      sizeof((lit_instr[])c) / sizeof(lit_instr)},                                                           \
     {a, b, c}}
#define P4(name, a, b, c, d)                                                                                 \
    {name,                                                                                                   \
     4,                                                                                                      \
     {sizeof((lit_instr[])a) / sizeof(lit_instr), sizeof((lit_instr[])b) / sizeof(lit_instr),               \
      sizeof((lit_instr[])c) / sizeof(lit_instr), sizeof((lit_instr[])d) / sizeof(lit_instr)},               \
     {a, b, c, d}}
#define L(...) {__VA_ARGS__}

static const table_test TABLE[] = {
    {P2("MP+rlx", L(ST(X, 1, RLX), ST(Y, 1, RLX)), L(LD(0, Y, RLX), LD(1, X, RLX))), "1:r0=1 1:r1=0", 'A', 'F'},
    {P2("MP+rel+acq", L(ST(X, 1, RLX), ST(Y, 1, REL)), L(LD(0, Y, ACQ), LD(1, X, RLX))), "1:r0=1 1:r1=0", 'F', 'F'},
    {P2("MP+rel+rlx", L(ST(X, 1, RLX), ST(Y, 1, REL)), L(LD(0, Y, RLX), LD(1, X, RLX))), "1:r0=1 1:r1=0", 'A', 'F'},
    {P2("MP+rlx+acq", L(ST(X, 1, RLX), ST(Y, 1, RLX)), L(LD(0, Y, ACQ), LD(1, X, RLX))), "1:r0=1 1:r1=0", 'A', 'F'},
    {P2("MP+fences", L(ST(X, 1, RLX), FENCE(REL), ST(Y, 1, RLX)), L(LD(0, Y, RLX), FENCE(ACQ), LD(1, X, RLX))),
     "1:r0=1 1:r1=0", 'F', 'F'},
    {P2("MP+frel+acq", L(ST(X, 1, RLX), FENCE(REL), ST(Y, 1, RLX)), L(LD(0, Y, ACQ), LD(1, X, RLX))),
     "1:r0=1 1:r1=0", 'F', 'F'},
    {P2("MP+rel+facq", L(ST(X, 1, RLX), ST(Y, 1, REL)), L(LD(0, Y, RLX), FENCE(ACQ), LD(1, X, RLX))),
     "1:r0=1 1:r1=0", 'F', 'F'},
    {P2("MP+sc", L(ST(X, 1, SC), ST(Y, 1, SC)), L(LD(0, Y, SC), LD(1, X, SC))), "1:r0=1 1:r1=0", 'F', 'F'},
    {P2("MP+na+rel+acq", L(STP(X, 1), ST(Y, 1, REL)), L(LD(0, Y, ACQ), LDP(1, X))), "1:r0=1 1:r1=0", 'F', 'F'},
    {P2("MP+na+rlx", L(STP(X, 1), ST(Y, 1, RLX)), L(LD(0, Y, RLX), LDP(1, X))), "1:r0=1 1:r1=0", 'A', 'F'},
    {P2("MP+na+rel+rlx", L(STP(X, 1), ST(Y, 1, REL)), L(LD(0, Y, RLX), LDP(1, X))), "1:r0=1 1:r1=0", 'A', 'F'},
    {P2("SB+rlx", L(ST(X, 1, RLX), LD(0, Y, RLX)), L(ST(Y, 1, RLX), LD(0, X, RLX))), "0:r0=0 1:r0=0", 'A', 'A'},
    {P2("SB+rel+acq", L(ST(X, 1, REL), LD(0, Y, ACQ)), L(ST(Y, 1, REL), LD(0, X, ACQ))), "0:r0=0 1:r0=0", 'A', 'A'},
    {P2("SB+sc", L(ST(X, 1, SC), LD(0, Y, SC)), L(ST(Y, 1, SC), LD(0, X, SC))), "0:r0=0 1:r0=0", 'F', 'F'},
    {P2("SB+scst+rlxld", L(ST(X, 1, SC), LD(0, Y, RLX)), L(ST(Y, 1, SC), LD(0, X, RLX))), "0:r0=0 1:r0=0", 'A',
     'F'},
    {P2("SB+rlxst+scld", L(ST(X, 1, RLX), LD(0, Y, SC)), L(ST(Y, 1, RLX), LD(0, X, SC))), "0:r0=0 1:r0=0", 'A',
     'A'},
    {P2("SB+scfences", L(ST(X, 1, RLX), FENCE(SC), LD(0, Y, RLX)), L(ST(Y, 1, RLX), FENCE(SC), LD(0, X, RLX))),
     "0:r0=0 1:r0=0", 'F', 'F'},
    {P2("SB+scfence+po", L(ST(X, 1, RLX), FENCE(SC), LD(0, Y, RLX)), L(ST(Y, 1, RLX), LD(0, X, RLX))),
     "0:r0=0 1:r0=0", 'A', 'A'},
    {P2("SB+acqrelfences", L(ST(X, 1, RLX), FENCE(AR), LD(0, Y, RLX)), L(ST(Y, 1, RLX), FENCE(AR), LD(0, X, RLX))),
     "0:r0=0 1:r0=0", 'A', 'A'},
    {P2("SB+rmw-rlx", L(ST(X, 1, RLX), FAA(0, Y, 0, RLX)), L(ST(Y, 1, RLX), FAA(0, X, 0, RLX))), "0:r0=0 1:r0=0",
     'A', 'F'},
    {P2("SB+rmw-sc", L(ST(X, 1, RLX), FAA(0, Y, 0, SC)), L(ST(Y, 1, RLX), FAA(0, X, 0, SC))), "0:r0=0 1:r0=0", 'A',
     'F'},
    {P2("SB+stamps-sc", L(ST(X, 1, RLX), FAA(1, Z, 1, SC), LD(0, Y, RLX)), L(ST(Y, 1, RLX), FAA(1, Z, 1, SC), LD(0, X, RLX))),
     "0:r0=0 1:r0=0", 'F', 'F'},
    {P2("SB+stamps-rlx", L(ST(X, 1, RLX), FAA(1, Z, 1, RLX), LD(0, Y, RLX)),
        L(ST(Y, 1, RLX), FAA(1, Z, 1, RLX), LD(0, X, RLX))),
     "0:r0=0 1:r0=0", 'A', 'F'},
    {P2("MP+stamps-sc", L(ST(X, 1, RLX), FAA(1, Z, 1, SC)), L(FAA(0, Z, 1, SC), LD(1, X, RLX))), "1:r0=1 1:r1=0",
     'F', 'F'},
    {P2("MP+stamps-na", L(STP(X, 1), FAA(1, Z, 1, SC)), L(FAA(0, Z, 1, SC), LDP(1, X))), "1:r0=1 1:r1=0", 'F', 'F'},
    {P2("LB+rlx", L(LD(0, X, RLX), ST(Y, 1, RLX)), L(LD(0, Y, RLX), ST(X, 1, RLX))), "0:r0=1 1:r0=1", 'F', 'F'},
    {P2("LB+acq+rel", L(LD(0, X, ACQ), ST(Y, 1, REL)), L(LD(0, Y, ACQ), ST(X, 1, REL))), "0:r0=1 1:r0=1", 'F', 'F'},
    {P4("IRIW+rlx", L(ST(X, 1, RLX)), L(ST(Y, 1, RLX)), L(LD(0, X, RLX), LD(1, Y, RLX)), L(LD(0, Y, RLX), LD(1, X, RLX))),
     "2:r0=1 2:r1=0 3:r0=1 3:r1=0", 'A', 'F'},
    {P4("IRIW+rel+acq", L(ST(X, 1, REL)), L(ST(Y, 1, REL)), L(LD(0, X, ACQ), LD(1, Y, ACQ)),
        L(LD(0, Y, ACQ), LD(1, X, ACQ))),
     "2:r0=1 2:r1=0 3:r0=1 3:r1=0", 'A', 'F'},
    {P4("IRIW+sc", L(ST(X, 1, SC)), L(ST(Y, 1, SC)), L(LD(0, X, SC), LD(1, Y, SC)), L(LD(0, Y, SC), LD(1, X, SC))),
     "2:r0=1 2:r1=0 3:r0=1 3:r1=0", 'F', 'F'},
    {P4("IRIW+scfences", L(ST(X, 1, RLX)), L(ST(Y, 1, RLX)), L(LD(0, X, RLX), FENCE(SC), LD(1, Y, RLX)),
        L(LD(0, Y, RLX), FENCE(SC), LD(1, X, RLX))),
     "2:r0=1 2:r1=0 3:r0=1 3:r1=0", 'F', 'F'},
    {P4("IRIW+sc+rlxst", L(ST(X, 1, RLX)), L(ST(Y, 1, RLX)), L(LD(0, X, SC), LD(1, Y, SC)),
        L(LD(0, Y, SC), LD(1, X, SC))),
     "2:r0=1 2:r1=0 3:r0=1 3:r1=0", 'A', 'F'},
    {P3("WRC+rlx", L(ST(X, 1, RLX)), L(LD(0, X, RLX), ST(Y, 1, RLX)), L(LD(1, Y, RLX), LD(2, X, RLX))),
     "1:r0=1 2:r1=1 2:r2=0", 'A', 'F'},
    {P3("WRC+rel+acq", L(ST(X, 1, RLX)), L(LD(0, X, RLX), ST(Y, 1, REL)), L(LD(1, Y, ACQ), LD(2, X, RLX))),
     "1:r0=1 2:r1=1 2:r2=0", 'F', 'F'},
    {P3("ISA2+rlx", L(ST(X, 1, RLX), ST(Y, 1, RLX)), L(LD(0, Y, RLX), ST(Z, 1, RLX)), L(LD(1, Z, RLX), LD(2, X, RLX))),
     "1:r0=1 2:r1=1 2:r2=0", 'A', 'F'},
    {P3("ISA2+rel+acq", L(ST(X, 1, RLX), ST(Y, 1, REL)), L(LD(0, Y, ACQ), ST(Z, 1, REL)), L(LD(1, Z, ACQ), LD(2, X, RLX))),
     "1:r0=1 2:r1=1 2:r2=0", 'F', 'F'},
    {P2("2+2W+rlx", L(ST(X, 1, RLX), ST(Y, 2, RLX)), L(ST(Y, 1, RLX), ST(X, 2, RLX))), "[x]=1 [y]=1", 'A', 'F'},
    {P2("2+2W+rel", L(ST(X, 1, REL), ST(Y, 2, REL)), L(ST(Y, 1, REL), ST(X, 2, REL))), "[x]=1 [y]=1", 'A', 'F'},
    {P2("2+2W+sc", L(ST(X, 1, SC), ST(Y, 2, SC)), L(ST(Y, 1, SC), ST(X, 2, SC))), "[x]=1 [y]=1", 'F', 'F'},
    {P2("S+rlx", L(ST(X, 2, RLX), ST(Y, 1, RLX)), L(LD(0, Y, RLX), ST(X, 1, RLX))), "1:r0=1 [x]=2", 'A', 'F'},
    {P2("S+rel+acq", L(ST(X, 2, RLX), ST(Y, 1, REL)), L(LD(0, Y, ACQ), ST(X, 1, RLX))), "1:r0=1 [x]=2", 'F', 'F'},
    {P2("R+rlx", L(ST(X, 1, RLX), ST(Y, 1, RLX)), L(ST(Y, 2, RLX), LD(0, X, RLX))), "[y]=2 1:r0=0", 'A', 'A'},
    {P2("R+rel+acq", L(ST(X, 1, RLX), ST(Y, 1, REL)), L(ST(Y, 2, REL), LD(0, X, ACQ))), "[y]=2 1:r0=0", 'A', 'A'},
    {P2("R+sc", L(ST(X, 1, SC), ST(Y, 1, SC)), L(ST(Y, 2, SC), LD(0, X, SC))), "[y]=2 1:r0=0", 'F', 'F'},
    {P2("R+scfences", L(ST(X, 1, RLX), FENCE(SC), ST(Y, 1, RLX)), L(ST(Y, 2, RLX), FENCE(SC), LD(0, X, RLX))),
     "[y]=2 1:r0=0", 'F', 'F'},
    {P2("CoRR", L(ST(X, 1, RLX)), L(LD(0, X, RLX), LD(1, X, RLX))), "1:r0=1 1:r1=0", 'F', 'F'},
    {P4("CoRR2", L(ST(X, 1, RLX)), L(ST(X, 2, RLX)), L(LD(0, X, RLX), LD(1, X, RLX)), L(LD(0, X, RLX), LD(1, X, RLX))),
     "2:r0=1 2:r1=2 3:r0=2 3:r1=1", 'F', 'F'},
    {P2("CoWR", L(ST(X, 1, RLX), LD(0, X, RLX)), L(ST(X, 2, RLX))), "0:r0=2 [x]=1", 'F', 'F'},
    {P1("CoWR0", L(ST(X, 1, RLX), LD(0, X, RLX))), "0:r0=0", 'F', 'F'},
    {P1("CoRW1", L(LD(0, X, RLX), ST(X, 1, RLX))), "0:r0=1", 'F', 'F'},
    {P2("CoRW2", L(LD(0, X, RLX), ST(X, 1, RLX)), L(ST(X, 2, RLX))), "0:r0=2 [x]=2", 'F', 'F'},
    {P1("CoWW", L(ST(X, 1, RLX), ST(X, 2, RLX))), "[x]=1", 'F', 'F'},
    {P2("RMW-atomicity", L(FAA(0, X, 1, RLX)), L(FAA(0, X, 1, RLX))), "0:r0=0 1:r0=0", 'F', 'F'},
    {P3("MP+relseq-rmw", L(ST(X, 1, RLX), ST(Y, 1, REL)), L(FAA(0, Y, 1, RLX)), L(LD(1, Y, ACQ), LD(2, X, RLX))),
     "1:r0=1 2:r1=2 2:r2=0", 'F', 'F'},
    {P3("MP+relseq-broken", L(ST(X, 1, RLX), ST(Y, 1, REL)), L(LD(0, Y, RLX), ST(Y, 2, RLX)),
        L(LD(1, Y, ACQ), LD(2, X, RLX))),
     "1:r0=1 2:r1=2 2:r2=0", 'A', 'F'},
    {P2("MP+relseq-samethread", L(ST(X, 1, RLX), ST(Y, 1, REL), ST(Y, 2, RLX)), L(LD(1, Y, ACQ), LD(2, X, RLX))),
     "1:r1=2 1:r2=0", 'F', 'F'},
    {P3("MP+frel+rmw+facq", L(ST(X, 1, RLX), FENCE(REL), ST(Y, 1, RLX)), L(FAA(0, Y, 1, RLX)),
        L(LD(1, Y, RLX), FENCE(ACQ), LD(2, X, RLX))),
     "1:r0=1 2:r1=2 2:r2=0", 'F', 'F'},
    {P2("MP+rel+rmw-acq", L(ST(X, 1, RLX), ST(Y, 1, REL)), L(FAA(0, Y, 1, ACQ), LD(1, X, RLX))), "1:r0=1 1:r1=0",
     'F', 'F'},
    {P2("MP+rlx+rmw-acq", L(ST(X, 1, RLX), ST(Y, 1, RLX)), L(FAA(0, Y, 1, ACQ), LD(1, X, RLX))), "1:r0=1 1:r1=0",
     'A', 'F'},
    {P2("2RMW-stale-xchg", L(XCHG(0, X, 1, RLX)), L(XCHG(0, X, 2, RLX))), "0:r0=0 1:r0=0", 'F', 'F'},
    {P3("W+RWC+sc", L(ST(X, 1, SC), ST(Y, 1, SC)), L(LD(0, Y, SC), LD(1, Z, SC)), L(ST(Z, 1, SC), LD(2, X, SC))),
     "1:r0=1 1:r1=0 2:r2=0", 'F', 'F'},
    {P3("RWC+scfences", L(ST(X, 1, RLX)), L(LD(0, X, RLX), FENCE(SC), LD(1, Y, RLX)),
        L(ST(Y, 1, RLX), FENCE(SC), LD(2, X, RLX))),
     "1:r0=1 1:r1=0 2:r2=0", 'F', 'F'},
    {P3("RWC+sc", L(ST(X, 1, SC)), L(LD(0, X, SC), LD(1, Y, SC)), L(ST(Y, 1, SC), LD(2, X, SC))),
     "1:r0=1 1:r1=0 2:r2=0", 'F', 'F'},
    {P2("SB+scfence+scacc", L(ST(X, 1, SC), LD(0, Y, SC)), L(ST(Y, 1, RLX), FENCE(SC), LD(0, X, RLX))),
     "0:r0=0 1:r0=0", 'F', 'F'},
    {P2("Seqlock-ok", L(ST(X, 1, RLX), FENCE(REL), ST(Y, 1, RLX), ST(X, 2, REL)),
        L(LD(0, X, ACQ), LD(1, Y, RLX), FENCE(ACQ), LD(2, X, RLX))),
     "1:r0=0 1:r1=1 1:r2=0", 'F', 'F'},
    {P2("Seqlock-nofence", L(ST(X, 1, RLX), ST(Y, 1, RLX), ST(X, 2, REL)), L(LD(0, X, ACQ), LD(1, Y, RLX), LD(2, X, RLX))),
     "1:r0=0 1:r1=1 1:r2=0", 'A', 'F'},
    {P2("MP+sc-store+sc-load", L(ST(X, 1, RLX), ST(Y, 1, SC)), L(LD(0, Y, SC), LD(1, X, RLX))), "1:r0=1 1:r1=0", 'F',
     'F'},
    /* a relaxed flag store after a seq_cst load of another word: the seq_cst loads are no fences (a Michael-Scott
     * queue whose link is relaxed, with seq_cst loads of the tail between the node's write and the link) */
    {P2("MP+rlx+scld-between", L(ST(X, 1, RLX), LD(0, Z, SC), ST(Y, 1, RLX)), L(LD(0, Y, SC), LD(1, X, RLX))),
     "1:r0=1 1:r1=0", 'A', 'F'},
};

/* Outcomes RC11 allows that the c11 model does not produce, on purpose: a seq_cst store or read-modify-write
 * is a full fence there (docs/memory-models.md; a seq_cst load is not, since SB+rlxst+scld and IRIW+sc+rlxst
 * left this list). Each test lists the classic outcome it misses; any other miss fails. */
static const char *const KNOWN_MISSES[] = {"SB+scst+rlxld", "SB+rmw-sc"};

/* ---- conditions ---- */

/* Whether outcome o satisfies "1:r0=1 [x]=2 ...". */
static bool matches(const lit_outcome *o, const char *cond) {
    const char *s = cond;
    while (*s) {
        while (*s == ' ') s++;
        if (!*s) break;
        if (*s == '[') {
            unsigned l = (unsigned)(s[1] - 'x'), v = (unsigned)strtoul(s + 4, NULL, 10);
            if (o->mem[l] != v) return false;
        } else {
            unsigned t = (unsigned)(s[0] - '0'), r = (unsigned)(s[3] - '0'), v = (unsigned)strtoul(s + 5, NULL, 10);
            if (o->reg[t][r] != v) return false;
        }
        while (*s && *s != ' ') s++;
    }
    return true;
}

static bool any_matches(const lit_set *s, const char *cond) {
    for (unsigned i = 0; i < s->n; i++)
        if (matches(&s->o[i], cond)) return true;
    return false;
}

/* ---- the model, under every decision ---- */

#define MAX_DECISIONS 64
typedef struct decisions {
    unsigned depth, len;
    unsigned n[MAX_DECISIONS], pick[MAX_DECISIONS];
    unsigned delay_options; /* tso: delays 0..delay_options-2, and "until drained" */
} decisions;

static unsigned decide(decisions *d, unsigned n) {
    unsigned i = d->depth++;
    if (i >= MAX_DECISIONS) return 0;
    if (i < d->len) return d->pick[i];
    d->n[i] = n;
    d->pick[i] = 0;
    d->len = i + 1;
    return 0;
}

/* The next decision sequence (the last decision with an option left, advanced); false when all were run. */
static bool next_decisions(decisions *d) {
    while (d->len > 0) {
        unsigned i = d->len - 1;
        if (d->pick[i] + 1 < d->n[i]) {
            d->pick[i]++;
            return true;
        }
        d->len--;
    }
    return false;
}

static unsigned choose_all(void *ctx, lf_wm_choice_kind kind, unsigned n) {
    decisions *d = ctx;
    if (kind == LF_WM_CHOOSE_DELAY) {
        unsigned k = decide(d, d->delay_options < n ? d->delay_options : n);
        return k + 1 == d->delay_options ? n - 1 : k;
    }
    return decide(d, n);
}

static _Alignas(8) volatile uint64_t locs[LIT_LOCS];

/* One execution of p on w, following d; o receives its outcome. */
static void run_once(lf_wm *w, lf_memory_model m, const litmus *p, decisions *d, lit_outcome *o) {
    memset(o, 0, sizeof *o);
    for (unsigned l = 0; l < LIT_LOCS; l++) locs[l] = 0;
    lf_wm_run_begin(w, m, p->threads);
    unsigned pc[LIT_THREADS] = {0};
    bool done[LIT_THREADS] = {false};
    int running = -1;
    /* tso: the end of a thread that stores (its buffer drains) is a step of its own, which may come late */
    bool late_end[LIT_THREADS] = {false};
    for (unsigned t = 0; t < p->threads && m == LF_MM_TSO; t++)
        for (unsigned i = 0; i < p->len[t]; i++)
            late_end[t] |= p->code[t][i].op == LI_ST || p->code[t][i].op == LI_STP;
    for (;;) {
        unsigned runnable[LIT_THREADS], nr = 0;
        for (unsigned t = 0; t < p->threads; t++)
            if (!done[t]) runnable[nr++] = t;
        if (!nr) break;
        unsigned t = runnable[nr > 1 ? decide(d, nr) : 0];
        if ((int)t != running) {
            if (running >= 0) lf_wm_switch_out(w, (unsigned)running);
            lf_wm_switch_in(w, t);
            running = (int)t;
        }
        lf_wm_enter(w, t);
        if (pc[t] >= p->len[t]) {
            lf_wm_thread_end(w, t);
            done[t] = true;
            continue;
        }
        const lit_instr *in = &p->code[t][pc[t]++];
        volatile uint64_t *a = &locs[in->loc];
        uintptr_t site = 0x1000 + t * 16 + pc[t];
        switch (in->op) {
        case LI_ST: lf_wm_store(w, t, a, 8, in->val, in->mo, site); break;
        case LI_STP:
            lf_wm_plain_write(w, t, (void *)a, 8, site);
            *a = in->val;
            break;
        case LI_LD: o->reg[t][in->reg] = (uint8_t)lf_wm_load(w, t, a, 8, in->mo, site); break;
        case LI_LDP:
            lf_wm_plain_read(w, t, (const void *)a, 8, site);
            o->reg[t][in->reg] = (uint8_t)*a;
            break;
        case LI_FAA: o->reg[t][in->reg] = (uint8_t)lf_wm_rmw(w, t, a, 8, LF_RMW_ADD, in->val, in->mo, site); break;
        case LI_XCHG: o->reg[t][in->reg] = (uint8_t)lf_wm_rmw(w, t, a, 8, LF_RMW_XCHG, in->val, in->mo, site); break;
        default: lf_wm_fence(w, t, in->mo, site); break;
        }
        if (!late_end[t] && pc[t] == p->len[t]) {
            lf_wm_thread_end(w, t);
            done[t] = true;
        }
    }
    if (running >= 0) lf_wm_switch_out(w, (unsigned)running);
    lf_wm_run_end(w, NULL);
    for (unsigned l = 0; l < LIT_LOCS; l++) o->mem[l] = (uint8_t)locs[l];
}

/* Every outcome of p under model m; *runs gets the executions made. */
static void model_outcomes(lf_wm *w, lf_memory_model m, const litmus *p, lit_set *out, unsigned long *runs) {
    memset(out, 0, sizeof *out);
    decisions d;
    memset(&d, 0, sizeof d);
    /* delays 0..5 points and "until its thread drains": enough for programs of this size (the random
     * programs check that every x86-TSO outcome is reached) */
    d.delay_options = 7;
    lf_wm_set_chooser(w, choose_all, &d);
    *runs = 0;
    do {
        d.depth = 0;
        lit_outcome o;
        run_once(w, m, p, &d, &o);
        lit_set_add(out, &o);
        ++*runs;
    } while (next_decisions(&d));
    lf_wm_set_chooser(w, NULL, NULL);
}

/* Every interleaving, nothing weak: what sc must give. */
static void sc_outcomes(lf_wm *w, const litmus *p, lit_set *out) {
    unsigned long runs;
    model_outcomes(w, LF_MM_SC, p, out, &runs);
}

static void print_set(const char *what, const litmus *p, const lit_set *s) {
    fprintf(stderr, "  %s (%u):\n", what, s->n);
    for (unsigned i = 0; i < s->n; i++) {
        char b[256];
        lit_outcome_print(b, sizeof b, p, &s->o[i]);
        fprintf(stderr, "    %s\n", b);
    }
}

static bool known_miss(const char *name) {
    for (size_t i = 0; i < sizeof KNOWN_MISSES / sizeof *KNOWN_MISSES; i++)
        if (!strcmp(KNOWN_MISSES[i], name)) return true;
    return false;
}

/* Compares the model's outcomes with the oracle's: never one outside (sound), every one inside unless
 * allowed_misses. Returns the number of outcomes missed. */
static unsigned compare(const char *model, const litmus *p, const lit_set *got, const lit_set *want, bool allowed_misses) {
    unsigned extra = 0, missing = 0;
    for (unsigned i = 0; i < got->n; i++) extra += !lit_set_has(want, &got->o[i]);
    for (unsigned i = 0; i < want->n; i++) missing += !lit_set_has(got, &want->o[i]);
    CHECKF(extra == 0, "%s: %s produced %u outcome(s) the oracle forbids", p->name, model, extra);
    CHECKF(missing == 0 || allowed_misses, "%s: %s misses %u outcome(s) the oracle allows", p->name, model, missing);
    if (extra || (missing && !allowed_misses)) {
        print_set("model", p, got);
        print_set("oracle", p, want);
    }
    return missing;
}

static void test_table(lf_wm *w) {
    unsigned long total_runs = 0;
    for (size_t i = 0; i < sizeof TABLE / sizeof *TABLE; i++) {
        const table_test *tt = &TABLE[i];
        const litmus *p = &tt->p;
        lit_set rc11, tso, got, sc;
        lit_oracle(p, false, &rc11);
        lit_oracle(p, true, &tso);
        /* the oracles agree with the published verdicts */
        CHECKF(any_matches(&rc11, tt->outcome) == (tt->rc11 == 'A'), "%s: RC11 oracle says %s for %s, herd7 %c",
               p->name, any_matches(&rc11, tt->outcome) ? "allowed" : "forbidden", tt->outcome, tt->rc11);
        CHECKF(any_matches(&tso, tt->outcome) == (tt->tso == 'A'), "%s: TSO oracle says %s for %s, herd7 %c", p->name,
               any_matches(&tso, tt->outcome) ? "allowed" : "forbidden", tt->outcome, tt->tso);
        unsigned long runs, before = total_runs;
        /* c11 against RC11 */
        model_outcomes(w, LF_MM_C11, p, &got, &runs);
        total_runs += runs;
        unsigned missing = compare("c11", p, &got, &rc11, known_miss(p->name));
        CHECKF(any_matches(&got, tt->outcome) == (tt->rc11 == 'A' && !known_miss(p->name)),
               "%s: c11 %s %s", p->name, any_matches(&got, tt->outcome) ? "produced" : "never produced", tt->outcome);
        if (known_miss(p->name)) CHECKF(missing > 0, "%s: listed as a known miss but c11 reaches everything", p->name);
        /* tso against x86-TSO */
        model_outcomes(w, LF_MM_TSO, p, &got, &runs);
        total_runs += runs;
        compare("tso", p, &got, &tso, false);
        if (getenv("LITMUS_VERBOSE")) printf("  %-24s %lu executions (tso %lu)\n", p->name, total_runs - before, runs);
        /* sc: exactly the interleavings, a subset of both */
        sc_outcomes(w, p, &sc);
        for (unsigned k = 0; k < sc.n; k++) {
            CHECKF(lit_set_has(&rc11, &sc.o[k]) && lit_set_has(&tso, &sc.o[k]), "%s: an sc outcome the oracles forbid",
                   p->name);
        }
    }
    printf("litmus table: %zu tests, %lu model executions\n", sizeof TABLE / sizeof *TABLE, total_runs);
}

/* ---- random programs ---- */

static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void random_program(uint64_t seed, litmus *p) {
    static const uint8_t orders[] = {RLX, RLX, ACQ, REL, AR, SC};
    memset(p, 0, sizeof *p);
    p->name = "random";
    uint64_t s = seed;
    p->threads = 2 + (unsigned)(rng_next(&s) % 2);
    unsigned locs_used = 2 + (unsigned)(rng_next(&s) % 2);
    for (unsigned t = 0; t < p->threads; t++) {
        /* 2 threads of up to 3 accesses, or 3 of up to 2: small enough to enumerate every tso delay */
        p->len[t] = 1 + (unsigned)(rng_next(&s) % (p->threads == 2 ? 3 : 2));
        unsigned reg = 0;
        for (unsigned i = 0; i < p->len[t]; i++) {
            lit_instr *in = &p->code[t][i];
            unsigned k = (unsigned)(rng_next(&s) % 16);
            in->loc = (uint8_t)(rng_next(&s) % locs_used);
            in->mo = orders[rng_next(&s) % sizeof orders];
            in->val = (uint8_t)(1 + t);
            if (k < 5) {
                in->op = LI_ST;
                if (in->mo == ACQ) in->mo = RLX;
                if (in->mo == AR) in->mo = REL;
            } else if (k < 10) {
                in->op = LI_LD;
                in->reg = (uint8_t)reg++;
                if (in->mo == REL) in->mo = RLX;
                if (in->mo == AR) in->mo = ACQ;
            } else if (k < 12) {
                in->op = LI_FAA;
                in->reg = (uint8_t)reg++;
                in->val = 1;
            } else if (k < 13) {
                in->op = LI_XCHG;
                in->reg = (uint8_t)reg++;
            } else if (k < 14) {
                in->op = LI_F;
                in->mo = orders[2 + rng_next(&s) % 4];
            } else if (k < 15) {
                in->op = LI_STP;
                in->mo = 0;
            } else {
                in->op = LI_LDP;
                in->mo = 0;
                in->reg = (uint8_t)reg++;
            }
        }
    }
}

static void print_program(const litmus *p) {
    static const char *const ops[] = {"st", "ld", "faa", "xchg", "fence", "st.na", "ld.na"};
    for (unsigned t = 0; t < p->threads; t++) {
        fprintf(stderr, "  T%u:", t);
        for (unsigned i = 0; i < p->len[t]; i++) {
            const lit_instr *in = &p->code[t][i];
            fprintf(stderr, " %s", ops[in->op]);
            if (in->op != LI_F) fprintf(stderr, " %c", "xyz"[in->loc]);
            if (in->op == LI_ST || in->op == LI_STP || in->op == LI_FAA || in->op == LI_XCHG) fprintf(stderr, " %u", in->val);
            if (in->op != LI_STP && in->op != LI_LDP) fprintf(stderr, "@%u", in->mo);
            fprintf(stderr, ";");
        }
        fprintf(stderr, "\n");
    }
}

/* Soundness on random programs, and how much of the allowed outcomes the models reach. */
static void test_random(lf_wm *w, unsigned cases, uint64_t seed0) {
    unsigned long allowed = 0, reached = 0, tso_allowed = 0, tso_reached = 0;
    for (unsigned k = 0; k < cases; k++) {
        uint64_t seed = seed0 + k;
        litmus p;
        random_program(seed, &p);
        lit_set rc11, tso, got;
        unsigned long runs;
        lit_oracle(&p, false, &rc11);
        model_outcomes(w, LF_MM_C11, &p, &got, &runs);
        unsigned extra = 0;
        for (unsigned i = 0; i < got.n; i++) extra += !lit_set_has(&rc11, &got.o[i]);
        for (unsigned i = 0; i < rc11.n; i++) reached += lit_set_has(&got, &rc11.o[i]);
        allowed += rc11.n;
        CHECKF(extra == 0, "random program (seed %llu): c11 produced %u outcome(s) RC11 forbids",
               (unsigned long long)seed, extra);
        if (extra) {
            print_program(&p);
            print_set("c11", &p, &got);
            print_set("rc11", &p, &rc11);
        }
        lit_oracle(&p, true, &tso);
        model_outcomes(w, LF_MM_TSO, &p, &got, &runs);
        extra = 0;
        unsigned missing = 0;
        for (unsigned i = 0; i < got.n; i++) extra += !lit_set_has(&tso, &got.o[i]);
        for (unsigned i = 0; i < tso.n; i++) missing += !lit_set_has(&got, &tso.o[i]);
        tso_allowed += tso.n;
        tso_reached += tso.n - missing;
        CHECKF(extra == 0 && missing == 0, "random program (seed %llu): tso produced %u outcome(s) x86-TSO forbids, "
               "missed %u it allows", (unsigned long long)seed, extra, missing);
        if (extra || missing) {
            print_program(&p);
            print_set("tso", &p, &got);
            print_set("x86-TSO", &p, &tso);
        }
    }
    printf("random programs: %u; c11 reached %lu of %lu RC11 outcomes (%.1f%%), tso %lu of %lu\n", cases, reached,
           allowed, allowed ? 100.0 * (double)reached / (double)allowed : 0.0, tso_reached, tso_allowed);
}

/* ---- fixes: an access strengthened by the model is the program with the stronger order ---- */

typedef struct fix_case {
    unsigned table;      /* index into TABLE */
    unsigned n;
    struct {
        unsigned thread, instr; /* the access */
        uint8_t kind, order;    /* lf_wm_fix */
    } f[2];
} fix_case;

static int find_test(const char *name) {
    for (size_t i = 0; i < sizeof TABLE / sizeof *TABLE; i++)
        if (!strcmp(TABLE[i].p.name, name)) return (int)i;
    return -1;
}

/* The program with the fixes written into it: an order raised, or a fence inserted after the access. */
static void strengthened(const litmus *p, const fix_case *fc, litmus *q) {
    *q = *p;
    for (unsigned k = 0; k < fc->n; k++) {
        unsigned t = fc->f[k].thread, i = fc->f[k].instr;
        unsigned shift = 0; /* fences inserted before it in the same thread */
        for (unsigned j = 0; j < k; j++)
            shift += fc->f[j].kind == LF_WM_FIX_FENCE && fc->f[j].thread == t && fc->f[j].instr < i;
        if (fc->f[k].kind == LF_WM_FIX_ORDER) {
            lit_instr *in = &q->code[t][i + shift];
            if (in->op == LI_STP) in->op = LI_ST;
            if (in->op == LI_LDP) in->op = LI_LD;
            in->mo = fc->f[k].order;
        } else {
            memmove(&q->code[t][i + shift + 2], &q->code[t][i + shift + 1],
                    (q->len[t] - i - shift - 1) * sizeof(lit_instr));
            q->code[t][i + shift + 1] = (lit_instr)FENCE(fc->f[k].order);
            q->len[t]++;
        }
    }
}

static void test_fixes(lf_wm *w) {
    /* (thread, instruction): the site the driver gives it is 0x1000 + 16 * thread + instruction + 1 */
    static const struct {
        const char *name;
        fix_case fc;
    } CASES[] = {
        {"MP+rlx", {0, 2, {{0, 1, LF_WM_FIX_ORDER, REL}, {1, 0, LF_WM_FIX_ORDER, ACQ}}}},
        {"MP+rlx", {0, 1, {{0, 1, LF_WM_FIX_ORDER, REL}}}},
        {"MP+rel+rlx", {0, 1, {{1, 0, LF_WM_FIX_FENCE, ACQ}}}},
        {"MP+na+rlx", {0, 2, {{0, 1, LF_WM_FIX_ORDER, REL}, {1, 0, LF_WM_FIX_ORDER, ACQ}}}},
        {"SB+rlx", {0, 2, {{0, 0, LF_WM_FIX_FENCE, SC}, {1, 0, LF_WM_FIX_FENCE, SC}}}},
        {"SB+rlx", {0, 1, {{0, 0, LF_WM_FIX_FENCE, SC}}}},
        {"SB+acqrelfences", {0, 2, {{0, 1, LF_WM_FIX_ORDER, SC}, {1, 1, LF_WM_FIX_ORDER, SC}}}},
        {"Seqlock-nofence", {0, 1, {{1, 1, LF_WM_FIX_FENCE, ACQ}}}},
    };
    for (size_t k = 0; k < sizeof CASES / sizeof *CASES; k++) {
        int i = find_test(CASES[k].name);
        CHECK(i >= 0);
        if (i < 0) continue;
        const litmus *p = &TABLE[i].p;
        fix_case fc = CASES[k].fc;
        litmus q;
        strengthened(p, &fc, &q);
        lf_wm_fix fixes[2];
        for (unsigned f = 0; f < fc.n; f++)
            fixes[f] = (lf_wm_fix){.pc = 0x1000 + 16 * fc.f[f].thread + fc.f[f].instr + 1, .kind = fc.f[f].kind,
                                   .order = fc.f[f].order};
        for (lf_memory_model m = LF_MM_TSO; m <= LF_MM_C11; m++) {
            lit_set fixed, direct;
            unsigned long runs;
            lf_wm_set_fixes(w, fixes, fc.n);
            model_outcomes(w, m, p, &fixed, &runs);
            lf_wm_set_fixes(w, NULL, 0);
            model_outcomes(w, m, &q, &direct, &runs);
            bool same = fixed.n == direct.n;
            for (unsigned o = 0; o < fixed.n && same; o++) same = lit_set_has(&direct, &fixed.o[o]);
            CHECKF(same, "%s with %u fix(es) under %s: not the outcomes of the program written with them", p->name,
                   fc.n, lf_memory_model_name(m));
            if (!same) {
                print_set("fixed", p, &fixed);
                print_set("written", &q, &direct);
            }
        }
    }
}

int main(int argc, char **argv) {
    lf_wm *w = lf_wm_create();
    CHECK(w != NULL);
    if (!w) TEST_DONE();
    test_table(w);
    test_fixes(w);
    /* fewer random programs under sanitizers (the table is enumerated whole) */
    unsigned cases = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : LF_TEST_SANITIZED ? 60 : 300;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x5eed;
    test_random(w, cases, seed);
    lf_wm_destroy(w);
    TEST_DONE();
}
