/* The adapter probe of a campaign's start (probe.h). */
#include "testcase/probe.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "code_scan.h"
#include "runtime/adapter_type.h"
#include "runtime/sched.h"
#include "testcase/case_runner.h"
#include "testcase/fuzz_case.h"

#define PROBE_THREADS 2
#define PROBE_PCS 4096 /* distinct access sites remembered */

typedef struct probe_ctx {
    const lf_fc_plan *plan;
    lf_probe_report *r;
    uintptr_t pcs[PROBE_PCS];
    size_t n_pcs;
} probe_ctx;

/* Whether addr is the harness's memory, not the structure's: a planned call's arguments, or the worker's own
 * stack (the result the adapter writes back, its locals); the hook runs on the worker that made the access. */
static bool harness_memory(const lf_fc_plan *plan, const void *addr) {
    uintptr_t a = (uintptr_t)addr, here = (uintptr_t)&a;
    if (a - (here - (1u << 20)) < (2u << 20)) return true; /* within a megabyte of this frame: the stack */
    for (unsigned t = 0; t < plan->threads; t++)
        if (a >= (uintptr_t)plan->ops[t] && a < (uintptr_t)(plan->ops[t] + plan->len[t])) return true;
    return false;
}

static void on_event(void *ctx, const lf_sched_event *e) {
    probe_ctx *p = ctx;
    if (e->kind == LF_EV_CALL || e->kind == LF_EV_RETURN) return;
    if (e->thread >= p->plan->threads || e->op >= p->plan->len[e->thread]) return;
    if ((e->kind == LF_EV_READ || e->kind == LF_EV_WRITE) && harness_memory(p->plan, e->addr)) return;
    unsigned method = p->plan->ops[e->thread][e->op].method;
    if (method >= LF_M_COUNT) return;
    p->r->m[method].points++;
    if (e->kind == LF_EV_LIBCALL) p->r->m[method].libcalls++;
    else if (e->pc && p->n_pcs < PROBE_PCS) p->pcs[p->n_pcs++] = e->pc;
}

/* The case: both workers call each of their non-blocking methods four times (two arguments each), after a
 * serial prefix of one call of each. */
static bool build_case(const lf_adapter *a, lf_fuzz_case *c, lf_probe_report *r) {
    memset(c, 0, sizeof *c);
    c->threads = PROBE_THREADS;
    c->rounds = 2;
    c->repeats = 1;
    c->key_domain = 2;
    c->mode = LF_FC_CONTROLLED;
    uint32_t blocking = lf_adapter_blocking(a);
    lf_method all[LF_M_COUNT];
    unsigned n_all = lf_fuzz_case_methods(a, all);
    for (unsigned k = 0; k < n_all; k++) r->skipped_blocking += (blocking & LF_METHOD_BIT(all[k])) != 0;
    for (unsigned t = 0; t <= PROBE_THREADS; t++) {
        lf_method ms[LF_M_COUNT];
        /* the serial prefix (t == threads) may call every method */
        unsigned n = t < PROBE_THREADS ? lf_adapter_thread_methods(a, t, PROBE_THREADS, ms) : n_all;
        if (t == PROBE_THREADS) memcpy(ms, all, sizeof ms);
        for (unsigned k = 0; k < n; k++) {
            if (blocking & LF_METHOD_BIT(ms[k])) continue;
            for (unsigned arg = 0; arg < (t < PROBE_THREADS ? 2u : 1u); arg++) {
                lf_fc_call call = {(uint8_t)k, (uint8_t)(arg * 17 + t)};
                if (t < PROBE_THREADS && c->body_len[t] < LF_FC_MAX_BODY)
                    c->body[t][c->body_len[t]++] = call;
                else if (t == PROBE_THREADS && c->prefix_len < LF_FC_MAX_PREFIX)
                    c->prefix[c->prefix_len++] = call;
            }
        }
    }
    lf_fuzz_case_normalize(c, n_all);
    return c->body_len[0] || c->body_len[1];
}

/* The instrumented functions the operations ran (their access sites, the op function) and their inline-assembly
 * atomics. */
static void scan_code(const lf_adapter *a, probe_ctx *p, lf_probe_report *r) {
    lf_code_map map;
    if (!lf_code_map_load(&map)) return;
    r->code_scanned = true;
    const lf_code_fn *seen[LF_PROBE_MAX_ASM * 8];
    size_t n_seen = 0;
    if (p->n_pcs < PROBE_PCS) p->pcs[p->n_pcs++] = (uintptr_t)a->op;
    for (size_t i = 0; i < p->n_pcs; i++) {
        const lf_code_fn *f = lf_code_map_find(&map, p->pcs[i]);
        bool known = !f;
        for (size_t k = 0; k < n_seen && !known; k++) known = seen[k] == f;
        if (known || n_seen == sizeof seen / sizeof seen[0]) continue;
        seen[n_seen++] = f;
        unsigned count = lf_code_asm_atomics((const uint8_t *)f->lo, f->hi - f->lo);
        if (count && r->n_asm < LF_PROBE_MAX_ASM) {
            snprintf(r->asm_atomics[r->n_asm].function, sizeof r->asm_atomics[r->n_asm].function, "%s", f->name);
            r->asm_atomics[r->n_asm++].count = count;
        }
    }
    lf_code_map_free(&map);
}

bool lf_probe_adapter(const lf_adapter *a, lf_probe_report *r, char *err, size_t errlen) {
    memset(r, 0, sizeof *r);
    lf_method ms[LF_M_COUNT];
    r->n_methods = lf_fuzz_case_methods(a, ms);
    for (unsigned k = 0; k < r->n_methods; k++) r->m[ms[k]].method = ms[k];
    if (!lf_sched_access_points_available()) {
        snprintf(r->why_not, sizeof r->why_not, "this build has no access points (controlled mode sees only locks and "
                                                "LF_YIELD())");
        return true;
    }
    lf_fuzz_case c;
    if (!build_case(a, &c, r)) {
        snprintf(r->why_not, sizeof r->why_not, "every method may block: nothing to probe");
        return true;
    }
    lf_fc_plan plan;
    if (!lf_fc_plan_build(&plan, &c, a)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    lf_fc_executor x;
    probe_ctx *p = calloc(1, sizeof *p);
    bool ok = p && lf_fc_executor_init(&x, LF_CLOCK_TICKET);
    if (ok && !(x.sched = lf_sched_create(&x.sched_options))) {
        lf_fc_executor_free(&x);
        ok = false;
    }
    if (!ok) {
        free(p);
        lf_fc_plan_free(&plan);
        snprintf(err, errlen, "cannot start the probe's threads (out of memory)");
        return false;
    }
    p->plan = &plan;
    p->r = r;
    lf_sched_set_event_hook(x.sched, on_event, p);
    lf_history h;
    lf_adapter_history_init(&h, a);
    ok = lf_fc_execute(&x, &plan, 0, &h);
    lf_sched_set_event_hook(x.sched, NULL, NULL);
    if (ok) {
        r->ran = true;
        for (unsigned t = 0; t < plan.threads; t++)
            for (size_t i = 0; i < plan.len[t]; i++)
                if (plan.ops[t][i].method < LF_M_COUNT) r->m[plan.ops[t][i].method].calls++;
        if (!x.last.stats.deterministic)
            snprintf(r->why_not, sizeof r->why_not, "the probe's run was released to free running (it waited "
                                                    "inside uninstrumented code)");
        scan_code(a, p, r);
    } else {
        snprintf(err, errlen, "cannot run the probe (out of memory)");
    }
    lf_history_free(&h);
    lf_fc_executor_free(&x);
    lf_fc_plan_free(&plan);
    free(p);
    return ok;
}

unsigned lf_probe_warn(FILE *f, const char *prefix, const lf_adapter *a, const lf_probe_report *r) {
    unsigned warnings = 0;
    if (!r->ran) return 0;
    for (unsigned m = 0; m < LF_M_COUNT; m++) {
        const lf_probe_method *pm = &r->m[m];
        if (!pm->calls) continue;
        const char *name = lf_adapter_method_name(a, m);
        if (pm->points == 0) {
            fprintf(f, "%swarning: %s's %s reached no scheduling point in %" PRIu64 " calls of a controlled probe: "
                       "controlled runs cannot interleave inside it, so they test nothing of its concurrency (its "
                       "code is not instrumented: build the library's sources with linfuzz_add_library_under_test, "
                       "or link its shared library through linfuzz_add_fuzz_target's LIBRARIES so that its calls are "
                       "points; docs/scheduling.md)\n",
                    prefix, a->name, name, pm->calls);
            warnings++;
        } else if (pm->points == pm->libcalls) {
            fprintf(f, "%snote: %s's %s is seen only at its calls into uninstrumented libraries (%" PRIu64
                       " points in %" PRIu64 " calls): what happens inside them is one step\n",
                    prefix, a->name, name, pm->points, pm->calls);
        }
    }
    for (unsigned k = 0; k < r->n_asm; k++) {
        fprintf(f, "%swarning: %s: %s has %u atomic instruction%s in inline assembly (lock cmpxchg/xadd), which "
                   "the scheduler cannot see: controlled runs never switch around them; build with compiler atomics "
                   "(docs/scheduling.md)\n",
                prefix, a->name, r->asm_atomics[k].function, r->asm_atomics[k].count,
                r->asm_atomics[k].count == 1 ? "" : "s");
        warnings++;
    }
    return warnings;
}
