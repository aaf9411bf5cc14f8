/* Litmus programs and the axiomatic oracles the weak memory models are tested against (test_litmus.c).
 *
 * A litmus program is a few threads of straight-line accesses to a few locations (all 0 at the start). The
 * oracles enumerate its candidate executions — a store for every load to read from (rf), a modification order
 * for every location (mo) — and keep those the axioms allow; an outcome is the registers' values and the
 * final value of every location. They share nothing with runtime/sched/weak_memory.c:
 *
 *  - RC11 (Lahav, Vafeiadis, Kang, Hur, Dreyer, "Repairing Sequential Consistency in C/C++11", PLDI 2017, as
 *    herdtools7's rc11.cat encodes it): hb = (sb ∪ sw)+ with RC11's release sequences and the four fence
 *    shapes of sw; coherence irreflexive(hb ; eco?); atomicity of RMWs; acyclic(psc_base ∪ psc_F); no
 *    out-of-thin-air acyclic(sb ∪ rf). Plain (non-atomic) accesses read and write like relaxed ones here
 *    and never synchronise; a program with a race is undefined in RC11, and the oracle reports the race.
 *  - x86-TSO (Owens, Sarkar, Sewell, TPHOLs 2009; Sewell et al., CACM 2010; herdtools7's x86tso.cat) of the
 *    program compiled with the standard mapping (Batty et al., POPL 2011): loads are MOV, non-seq_cst stores
 *    MOV, seq_cst stores XCHG (locked), RMWs locked, seq_cst fences MFENCE, other fences nothing. Axioms:
 *    uniproc acyclic(po-loc ∪ rf ∪ co ∪ fr), atomicity, acyclic(ppo ∪ implied ∪ rfe ∪ fr ∪ co) with ppo
 *    = po without store→load pairs and implied = the po edges into and out of locked events and MFENCEs.
 *
 * Both are brute force over at most 16 events and 3 locations. */
#ifndef LINFUZZ_LITMUS_ORACLE_H
#define LINFUZZ_LITMUS_ORACLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { LI_ST, LI_LD, LI_FAA, LI_XCHG, LI_F, LI_STP, LI_LDP }; /* STP/LDP: plain (non-atomic) store/load */
enum { LMO_RLX = 0, LMO_ACQ = 2, LMO_REL = 3, LMO_AR = 4, LMO_SC = 5 }; /* the TSan ABI's numbers */

#define LIT_THREADS 4
#define LIT_LEN 4
#define LIT_LOCS 3
#define LIT_REGS 4

typedef struct lit_instr {
    uint8_t op, loc, mo, reg; /* reg: where a load or RMW puts what it read */
    uint8_t val;              /* a store's value, an RMW's operand */
} lit_instr;

typedef struct litmus {
    const char *name;
    unsigned threads;
    unsigned len[LIT_THREADS];
    lit_instr code[LIT_THREADS][LIT_LEN];
} litmus;

/* An outcome: every register of every thread (4 bits each) and the final value of every location. */
typedef struct lit_outcome {
    uint8_t reg[LIT_THREADS][LIT_REGS];
    uint8_t mem[LIT_LOCS];
} lit_outcome;

#define LIT_MAX_OUTCOMES 512
typedef struct lit_set {
    unsigned n;
    lit_outcome o[LIT_MAX_OUTCOMES];
    bool race; /* RC11: some consistent execution has a data race */
} lit_set;

static inline bool lit_outcome_eq(const lit_outcome *a, const lit_outcome *b) { return !memcmp(a, b, sizeof *a); }

static inline bool lit_set_has(const lit_set *s, const lit_outcome *o) {
    for (unsigned i = 0; i < s->n; i++)
        if (lit_outcome_eq(&s->o[i], o)) return true;
    return false;
}

static inline void lit_set_add(lit_set *s, const lit_outcome *o) {
    if (!lit_set_has(s, o) && s->n < LIT_MAX_OUTCOMES) s->o[s->n++] = *o;
}

static inline int lit_outcome_print(char *buf, size_t len, const litmus *p, const lit_outcome *o) {
    size_t w = 0;
    for (unsigned t = 0; t < p->threads; t++)
        for (unsigned i = 0; i < p->len[t]; i++) {
            const lit_instr *in = &p->code[t][i];
            if (in->op == LI_LD || in->op == LI_LDP || in->op == LI_FAA || in->op == LI_XCHG)
                w += (size_t)snprintf(buf + w, w < len ? len - w : 0, "%u:r%u=%u ", t, in->reg, o->reg[t][in->reg]);
        }
    for (unsigned l = 0; l < LIT_LOCS; l++)
        w += (size_t)snprintf(buf + w, w < len ? len - w : 0, "[%c]=%u ", "xyz"[l], o->mem[l]);
    return (int)w;
}

/* ---- events ---- */

enum { EV_R = 1, EV_W = 2, EV_F = 4, EV_INIT = 8, EV_PLAIN = 16, EV_LOCKED = 32 };
#define LIT_MAX_EV (LIT_THREADS * LIT_LEN + LIT_LOCS)

typedef struct lit_exec {
    unsigned n;                 /* events: program events, then one init write per location */
    uint8_t flags[LIT_MAX_EV], mo_of[LIT_MAX_EV], loc[LIT_MAX_EV], thread[LIT_MAX_EV], idx[LIT_MAX_EV];
    const lit_instr *in[LIT_MAX_EV];
    uint32_t sbr[LIT_MAX_EV];   /* sb: same thread, earlier in program order */
    int rf[LIT_MAX_EV];         /* the write each read event reads from */
    uint32_t mo[LIT_MAX_EV];    /* mo: row a has bit b when a is mo-before b (same location) */
    uint8_t val[LIT_MAX_EV];    /* value read (reads) / written (writes) */
} lit_exec;

typedef uint32_t rel_t[LIT_MAX_EV];

static inline void rel_clear(rel_t r, unsigned n) { memset(r, 0, n * sizeof r[0]); }
static inline void rel_union(rel_t d, const rel_t a, unsigned n) {
    for (unsigned i = 0; i < n; i++) d[i] |= a[i];
}
/* d = a ; b */
static inline void rel_seq(rel_t d, const rel_t a, const rel_t b, unsigned n) {
    rel_t r;
    for (unsigned i = 0; i < n; i++) {
        r[i] = 0;
        for (unsigned j = 0; j < n; j++)
            if (a[i] >> j & 1) r[i] |= b[j];
    }
    memcpy(d, r, n * sizeof r[0]);
}
static inline void rel_closure(rel_t r, unsigned n) { /* transitive (Warshall) */
    for (unsigned k = 0; k < n; k++)
        for (unsigned i = 0; i < n; i++)
            if (r[i] >> k & 1) r[i] |= r[k];
}
static inline bool rel_acyclic(const rel_t a, unsigned n) {
    rel_t r;
    memcpy(r, a, n * sizeof r[0]);
    rel_closure(r, n);
    for (unsigned i = 0; i < n; i++)
        if (r[i] >> i & 1) return false;
    return true;
}
/* [S] ; r ; [T] for event sets S, T (masks) */
static inline void rel_restrict(rel_t d, const rel_t r, uint32_t from, uint32_t to, unsigned n) {
    for (unsigned i = 0; i < n; i++) d[i] = (from >> i & 1) ? r[i] & to : 0;
}

static inline bool lit_is_release(const lit_exec *x, unsigned e) {
    return !(x->flags[e] & (EV_PLAIN | EV_INIT)) && (x->mo_of[e] == LMO_REL || x->mo_of[e] == LMO_AR || x->mo_of[e] == LMO_SC);
}
static inline bool lit_is_acquire(const lit_exec *x, unsigned e) {
    return !(x->flags[e] & (EV_PLAIN | EV_INIT)) && (x->mo_of[e] == LMO_ACQ || x->mo_of[e] == LMO_AR || x->mo_of[e] == LMO_SC);
}

/* The events of p (tso: as compiled for x86, where non-seq_cst fences disappear and seq_cst stores become
 * locked exchanges). */
static inline void lit_events(const litmus *p, bool tso, lit_exec *x) {
    memset(x, 0, sizeof *x);
    for (unsigned t = 0; t < p->threads; t++)
        for (unsigned i = 0; i < p->len[t]; i++) {
            const lit_instr *in = &p->code[t][i];
            unsigned e = x->n;
            uint8_t f = 0;
            switch (in->op) {
            case LI_ST: f = EV_W; break;
            case LI_STP: f = EV_W | EV_PLAIN; break;
            case LI_LD: f = EV_R; break;
            case LI_LDP: f = EV_R | EV_PLAIN; break;
            case LI_FAA:
            case LI_XCHG: f = EV_R | EV_W | (tso ? EV_LOCKED : 0); break;
            default: f = EV_F; break;
            }
            if (tso && in->op == LI_F && in->mo != LMO_SC) continue;
            if (tso && in->op == LI_ST && in->mo == LMO_SC) f = EV_R | EV_W | EV_LOCKED;
            x->flags[e] = f;
            x->mo_of[e] = in->mo;
            x->loc[e] = in->loc;
            x->thread[e] = (uint8_t)t;
            x->idx[e] = (uint8_t)i;
            x->in[e] = in;
            x->n++;
        }
    unsigned prog = x->n;
    for (unsigned a = 0; a < prog; a++)
        for (unsigned b = 0; b < prog; b++)
            if (x->thread[a] == x->thread[b] && x->idx[a] < x->idx[b]) x->sbr[a] |= 1u << b;
    for (unsigned l = 0; l < LIT_LOCS; l++) {
        unsigned e = x->n++;
        x->flags[e] = EV_W | EV_INIT;
        x->loc[e] = (uint8_t)l;
        x->thread[e] = 0xff;
    }
}

static inline unsigned lit_init_of(const lit_exec *x, unsigned l) { return x->n - LIT_LOCS + l; }
static inline bool lit_mem(const lit_exec *x, unsigned e) { return !(x->flags[e] & EV_F); }

/* Values along sb ∪ rf (false when that has a cycle: no out-of-thin-air). */
static inline bool lit_values(lit_exec *x) {
    unsigned n = x->n;
    bool done[LIT_MAX_EV] = {false};
    for (unsigned l = 0; l < LIT_LOCS; l++) {
        done[lit_init_of(x, l)] = true;
        x->val[lit_init_of(x, l)] = 0;
    }
    for (unsigned round = 0; round < n; round++) {
        bool progress = false;
        for (unsigned e = 0; e < n; e++) {
            if (done[e]) continue;
            bool ready = true;
            for (unsigned a = 0; a < n && ready; a++)
                if ((x->sbr[a] >> e & 1) && !done[a]) ready = false;
            if ((x->flags[e] & EV_R) && !done[x->rf[e]]) ready = false;
            if (!ready) continue;
            const lit_instr *in = x->in[e];
            uint8_t r = (x->flags[e] & EV_R) ? x->val[x->rf[e]] : 0;
            if (in->op == LI_FAA) x->val[e] = (uint8_t)(r + in->val);
            else if (in->op == LI_LD || in->op == LI_LDP) x->val[e] = r;
            else x->val[e] = in->val; /* stores, exchanges (and seq_cst stores as exchanges) */
            done[e] = true;
            progress = true;
        }
        if (!progress) break;
    }
    for (unsigned e = 0; e < n; e++)
        if (!done[e]) return false;
    return true;
}

static inline uint8_t lit_read_value(const lit_exec *x, unsigned e) { return x->val[x->rf[e]]; }

/* rb = (rf⁻¹ ; mo) \ id */
static inline void lit_rb(const lit_exec *x, rel_t rb) {
    rel_clear(rb, x->n);
    for (unsigned r = 0; r < x->n; r++)
        if (x->flags[r] & EV_R) rb[r] = x->mo[x->rf[r]] & ~(1u << r);
}

static inline void lit_rf_rel(const lit_exec *x, rel_t rf) {
    rel_clear(rf, x->n);
    for (unsigned r = 0; r < x->n; r++)
        if (x->flags[r] & EV_R) rf[x->rf[r]] |= 1u << r;
}

/* An RMW's write follows the store it read immediately in mo. */
static inline bool lit_atomicity(const lit_exec *x) {
    for (unsigned u = 0; u < x->n; u++) {
        if ((x->flags[u] & (EV_R | EV_W)) != (EV_R | EV_W)) continue;
        unsigned w = (unsigned)x->rf[u];
        if (!(x->mo[w] >> u & 1)) return false;
        if (x->mo[w] & ~x->mo[u] & ~(1u << u)) return false; /* a write mo-between them */
    }
    return true;
}

static inline bool lit_rc11_consistent(const lit_exec *x, bool *race) {
    unsigned n = x->n;
    rel_t sb, rf, rb, mo, eco, hb, sw, rs, tmp, tmp2;
    memcpy(sb, x->sbr, n * sizeof sb[0]);
    lit_rf_rel(x, rf);
    lit_rb(x, rb);
    memcpy(mo, x->mo, n * sizeof mo[0]);
    /* no out-of-thin-air */
    memcpy(tmp, sb, n * sizeof tmp[0]);
    rel_union(tmp, rf, n);
    if (!rel_acyclic(tmp, n)) return false;
    if (!lit_atomicity(x)) return false;
    uint32_t W = 0, R = 0, F = 0, RMW = 0, ATOMIC = 0, INIT = 0, REL = 0, ACQ = 0, SC = 0, FSC = 0;
    for (unsigned e = 0; e < n; e++) {
        if (x->flags[e] & EV_W) W |= 1u << e;
        if (x->flags[e] & EV_R) R |= 1u << e;
        if (x->flags[e] & EV_F) F |= 1u << e;
        if ((x->flags[e] & (EV_R | EV_W)) == (EV_R | EV_W)) RMW |= 1u << e;
        if (!(x->flags[e] & (EV_PLAIN | EV_INIT))) ATOMIC |= 1u << e;
        if (x->flags[e] & EV_INIT) INIT |= 1u << e;
        if (lit_is_release(x, e)) REL |= 1u << e;
        if (lit_is_acquire(x, e)) ACQ |= 1u << e;
        if (!(x->flags[e] & (EV_PLAIN | EV_INIT)) && x->mo_of[e] == LMO_SC) SC |= 1u << e;
    }
    FSC = SC & F;
    /* rs = [W] ; (sb ∩ loc)? ; [W ∩ atomic] ; (rf ; rmw)* */
    rel_clear(rs, n);
    for (unsigned w = 0; w < n; w++) {
        if (!(W >> w & 1)) continue;
        if (ATOMIC >> w & 1) rs[w] |= 1u << w;
        for (unsigned v = 0; v < n; v++)
            if ((sb[w] >> v & 1) && (W & ATOMIC) >> v & 1 && x->loc[v] == x->loc[w] && lit_mem(x, v)) rs[w] |= 1u << v;
    }
    for (bool grew = true; grew;) {
        grew = false;
        for (unsigned w = 0; w < n; w++) {
            uint32_t add = 0;
            for (unsigned v = 0; v < n; v++)
                if (rs[w] >> v & 1) add |= rf[v] & RMW;
            if (add & ~rs[w]) {
                rs[w] |= add;
                grew = true;
            }
        }
    }
    /* sw = [REL] ; ([F] ; sb)? ; rs ; rf ; [R ∩ atomic] ; (sb ; [F])? ; [ACQ] */
    rel_clear(sw, n);
    for (unsigned a = 0; a < n; a++) {
        if (!(REL >> a & 1)) continue;
        uint32_t heads = (F >> a & 1) ? sb[a] & W : (W >> a & 1) ? 1u << a : 0;
        uint32_t reads = 0;
        for (unsigned h = 0; h < n; h++)
            if (heads >> h & 1)
                for (unsigned v = 0; v < n; v++)
                    if (rs[h] >> v & 1) reads |= rf[v] & R & ATOMIC;
        for (unsigned r = 0; r < n; r++) {
            if (!(reads >> r & 1)) continue;
            if (ACQ >> r & 1) sw[a] |= 1u << r;
            sw[a] |= sb[r] & F & ACQ;
        }
    }
    memcpy(hb, sb, n * sizeof hb[0]);
    rel_union(hb, sw, n);
    for (unsigned e = 0; e < n; e++)
        if (INIT >> e & 1) hb[e] |= ~INIT & ((n >= 32) ? ~0u : (1u << n) - 1);
    rel_closure(hb, n);
    /* coherence: irreflexive(hb ; eco?) */
    memcpy(eco, rf, n * sizeof eco[0]);
    rel_union(eco, mo, n);
    rel_union(eco, rb, n);
    rel_closure(eco, n);
    for (unsigned a = 0; a < n; a++) {
        if (hb[a] >> a & 1) return false;
        for (unsigned b = 0; b < n; b++)
            if ((hb[a] >> b & 1) && (eco[b] >> a & 1)) return false;
    }
    /* seq_cst: acyclic(psc_base ∪ psc_F) */
    rel_t loc, sbneq, hbloc, scb, pscb, pscf, left, right, hbq;
    for (unsigned a = 0; a < n; a++) {
        loc[a] = 0;
        for (unsigned b = 0; b < n; b++)
            if (lit_mem(x, a) && lit_mem(x, b) && x->loc[a] == x->loc[b]) loc[a] |= 1u << b;
        sbneq[a] = sb[a] & ~loc[a];
        hbloc[a] = hb[a] & loc[a];
        hbq[a] = hb[a] | 1u << a;
    }
    memcpy(scb, sb, n * sizeof scb[0]);
    rel_seq(tmp, sbneq, hb, n);
    rel_seq(tmp, tmp, sbneq, n);
    rel_union(scb, tmp, n);
    rel_union(scb, hbloc, n);
    rel_union(scb, mo, n);
    rel_union(scb, rb, n);
    /* left = [SC] ∪ [F_SC] ; hb ; right = [SC] ∪ hb ; [F_SC] */
    for (unsigned a = 0; a < n; a++) {
        left[a] = (SC >> a & 1) ? 1u << a : 0;
        if (FSC >> a & 1) left[a] |= hbq[a];
        right[a] = ((SC >> a & 1) ? 1u << a : 0) | (hbq[a] & FSC);
    }
    rel_seq(pscb, left, scb, n);
    rel_seq(pscb, pscb, right, n);
    /* pscf = [F_SC] ; (hb ∪ hb ; eco ; hb) ; [F_SC] */
    rel_seq(tmp, hb, eco, n);
    rel_seq(tmp, tmp, hb, n);
    rel_union(tmp, hb, n);
    rel_restrict(pscf, tmp, FSC, FSC, n);
    /* psc edges are between SC events only */
    memcpy(tmp2, pscb, n * sizeof tmp2[0]);
    for (unsigned a = 0; a < n; a++) tmp2[a] &= SC;
    for (unsigned a = 0; a < n; a++)
        if (!(SC >> a & 1)) tmp2[a] = 0;
    rel_union(tmp2, pscf, n);
    if (!rel_acyclic(tmp2, n)) return false;
    /* data races: conflicting, one plain, different threads, unordered by hb */
    for (unsigned a = 0; a < n; a++)
        for (unsigned b = a + 1; b < n; b++) {
            if (!lit_mem(x, a) || !lit_mem(x, b) || x->loc[a] != x->loc[b] || ((INIT >> a | INIT >> b) & 1)) continue;
            if (!((W >> a | W >> b) & 1) || x->thread[a] == x->thread[b]) continue;
            if (!(((x->flags[a] | x->flags[b]) & EV_PLAIN))) continue;
            if (!(hb[a] >> b & 1) && !(hb[b] >> a & 1)) *race = true;
        }
    return true;
}

static inline bool lit_tso_consistent(const lit_exec *x) {
    unsigned n = x->n;
    rel_t po, rf, rb, co, tmp, ghb;
    memcpy(po, x->sbr, n * sizeof po[0]);
    lit_rf_rel(x, rf);
    lit_rb(x, rb);
    memcpy(co, x->mo, n * sizeof co[0]);
    if (!lit_atomicity(x)) return false;
    /* uniproc: acyclic(po-loc ∪ rf ∪ co ∪ fr) */
    for (unsigned a = 0; a < n; a++) {
        tmp[a] = 0;
        for (unsigned b = 0; b < n; b++)
            if ((po[a] >> b & 1) && lit_mem(x, a) && lit_mem(x, b) && x->loc[a] == x->loc[b]) tmp[a] |= 1u << b;
    }
    rel_union(tmp, rf, n);
    rel_union(tmp, co, n);
    rel_union(tmp, rb, n);
    if (!rel_acyclic(tmp, n)) return false;
    /* ghb = ppo ∪ implied ∪ rfe ∪ fr ∪ co */
    uint32_t ORDERING = 0, PURE_W = 0, PURE_R = 0;
    for (unsigned e = 0; e < n; e++) {
        if ((x->flags[e] & EV_LOCKED) || (x->flags[e] & EV_F)) ORDERING |= 1u << e;
        if ((x->flags[e] & (EV_R | EV_W)) == EV_W) PURE_W |= 1u << e;
        if ((x->flags[e] & (EV_R | EV_W)) == EV_R) PURE_R |= 1u << e;
    }
    for (unsigned a = 0; a < n; a++) {
        ghb[a] = 0;
        for (unsigned b = 0; b < n; b++) {
            if (!(po[a] >> b & 1)) continue;
            bool store_load = (PURE_W >> a & 1) && (PURE_R >> b & 1);
            bool implied = ((ORDERING >> a) | (ORDERING >> b)) & 1;
            if (!store_load || implied) ghb[a] |= 1u << b;
        }
        for (unsigned b = 0; b < n; b++)
            if ((rf[a] >> b & 1) && x->thread[a] != x->thread[b]) ghb[a] |= 1u << b;
    }
    rel_union(ghb, rb, n);
    rel_union(ghb, co, n);
    return rel_acyclic(ghb, n);
}

/* Every outcome the axioms allow (rc11 or x86-TSO). */
static inline void lit_oracle(const litmus *p, bool tso, lit_set *out) {
    memset(out, 0, sizeof *out);
    lit_exec x;
    lit_events(p, tso, &x);
    unsigned n = x.n;
    unsigned reads[LIT_MAX_EV], nr = 0;
    unsigned writes[LIT_LOCS][LIT_MAX_EV], nw[LIT_LOCS] = {0};
    for (unsigned e = 0; e < n; e++) {
        if (x.flags[e] & EV_R) reads[nr++] = e;
        if ((x.flags[e] & EV_W) && !(x.flags[e] & EV_INIT)) writes[x.loc[e]][nw[x.loc[e]]++] = e;
    }
    /* rf choices: each read from the init write or any other write to its location */
    unsigned rf_choice[LIT_MAX_EV] = {0};
    for (;;) {
        for (unsigned k = 0; k < nr; k++) {
            unsigned r = reads[k], l = x.loc[r], c = rf_choice[k];
            x.rf[r] = c == 0 ? (int)lit_init_of(&x, l) : (int)writes[l][c - 1];
        }
        bool self = false;
        for (unsigned k = 0; k < nr; k++) self |= x.rf[reads[k]] == (int)reads[k];
        /* mo: every permutation of each location's writes (init first) */
        unsigned perm[LIT_LOCS][LIT_MAX_EV];
        for (unsigned l = 0; l < LIT_LOCS; l++)
            for (unsigned i = 0; i < nw[l]; i++) perm[l][i] = i;
        for (bool more_mo = !self; more_mo;) {
            for (unsigned e = 0; e < n; e++) x.mo[e] = 0;
            for (unsigned l = 0; l < LIT_LOCS; l++) {
                unsigned init = lit_init_of(&x, l);
                for (unsigned i = 0; i < nw[l]; i++) {
                    x.mo[init] |= 1u << writes[l][perm[l][i]];
                    for (unsigned j = i + 1; j < nw[l]; j++) x.mo[writes[l][perm[l][i]]] |= 1u << writes[l][perm[l][j]];
                }
            }
            if (lit_values(&x)) {
                bool race = false;
                bool ok = tso ? lit_tso_consistent(&x) : lit_rc11_consistent(&x, &race);
                if (ok) {
                    lit_outcome o;
                    memset(&o, 0, sizeof o);
                    for (unsigned k = 0; k < nr; k++) {
                        unsigned r = reads[k];
                        if (x.in[r]->op != LI_ST) o.reg[x.thread[r]][x.in[r]->reg] = lit_read_value(&x, r);
                    }
                    for (unsigned l = 0; l < LIT_LOCS; l++) {
                        unsigned last = lit_init_of(&x, l);
                        for (unsigned i = 0; i < nw[l]; i++) last = writes[l][perm[l][i]];
                        o.mem[l] = x.val[last];
                    }
                    lit_set_add(out, &o);
                    out->race |= race;
                }
            }
            /* next permutation, location by location */
            more_mo = false;
            for (unsigned l = 0; l < LIT_LOCS && !more_mo; l++) {
                unsigned *a = perm[l], m = nw[l];
                int i = (int)m - 2;
                while (i >= 0 && a[i] > a[i + 1]) i--;
                if (i < 0) {
                    for (unsigned q = 0; q < m; q++) a[q] = q;
                    continue;
                }
                int j = (int)m - 1;
                while (a[j] < a[i]) j--;
                unsigned t = a[i];
                a[i] = a[j];
                a[j] = t;
                for (int lo = i + 1, hi = (int)m - 1; lo < hi; lo++, hi--) {
                    t = a[lo];
                    a[lo] = a[hi];
                    a[hi] = t;
                }
                more_mo = true;
            }
        }
        unsigned k = 0;
        for (; k < nr; k++) {
            if (++rf_choice[k] <= nw[x.loc[reads[k]]]) break;
            rf_choice[k] = 0;
        }
        if (k == nr) break;
    }
}

#endif
