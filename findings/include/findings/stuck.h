/* STUCK findings: runs in which some operation never returned, as corpus entries (docs/formats.md, "STUCK
 * entries") and reports.
 *
 * A STUCK entry is a violation entry (the same container, loaded by lf_entry_load, so that `repro`, `show`
 * and `triage` take both) whose meta "finding" is "stuck": its "history" is the run up to the moment the
 * watchdog (runner/stuck_watch.h) or the controlled scheduler declared it stuck, with every op that never
 * returned pending; "minimized" is the same history (which ops are needed to get stuck is not a property
 * of the history that a checker could verify, so nothing is dropped). The report names the ops that never
 * returned and says why they may be waiting:
 *
 *   STUCK_EMPTY        every op that never returned is a remove declared blocking (lf_adapter.may_block)
 *                      and the ops that returned leave the container empty: under the specification it
 *                      waits forever (the run asked for more values than it gave);
 *   STUCK_FULL         likewise an insert declared blocking into a bounded container that the returned ops
 *                      leave full;
 *   STUCK_LOST_WAKEUP  a blocking op never returned although the returned ops leave what it waits for (a
 *                      value to take, room to insert): a lost wakeup or a deadlock inside the structure;
 *   STUCK_HANG         an op that is not declared blocking never returned: a livelock, a lock never
 *                      released, an endless retry loop.
 * The counts are those of the returned ops only (ops in flight may or may not have taken effect), so the
 * classification is a strong hint, not a proof. */
#ifndef LINFUZZ_STUCK_H
#define LINFUZZ_STUCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "findings/entry.h"
#include "linfuzz/history.h"

typedef struct lf_stuck_input {
    const char *adapter;             /* required */
    bool expected_linearizable;      /* the adapter's claim */
    uint32_t may_block;              /* the adapter's blocking methods (LF_METHOD_BIT mask) */
    const char *origin;              /* who found it ("fuzz_x (libFuzzer), execution 3, run 1 of 4"), or NULL */
    const char *workload_format;     /* "fuzz-case 1", or NULL */
    const char *workload_desc;       /* one line, or NULL */
    const uint8_t *workload;
    size_t workload_len;
    const lf_history *history;       /* the run so far; the ops that never returned are pending */
    const char *detector;            /* how it was noticed ("no call and no return for 2.0 s"), or NULL */
} lf_stuck_input;

/* The shape of a stuck history (static string, see above); may_block as in lf_stuck_input. */
const char *lf_stuck_shape(const lf_history *h, uint32_t may_block);
/* "deq" or "enq,deq": the methods of the pending ops, in lf_method order (out: 256 bytes). */
void lf_stuck_methods(const lf_history *h, char out[256]);
/* The same without the observers (read, contains, peek, get, a custom type's declared observers) when an
 * update is stuck too: what triage groups a STUCK finding by. An observer waiting behind a deadlock of updates
 * is a symptom that comes and goes with the schedule (ledger_lock_order: balances blocked on the accounts of
 * two transfers that wait for each other's locks, in some findings and not in others). */
void lf_stuck_signature_methods(const lf_history *h, char out[256]);
/* The dedup bucket of a stuck history (16 hex digits + NUL): adapter, type, shape, stuck methods. */
void lf_stuck_bucket(const char *adapter, const lf_history *h, uint32_t may_block, char out[17]);

/* Builds a complete STUCK entry in e (initialised here). LF_ERR_FORMAT when nothing is pending in
 * in->history (message in err), LF_ERR_NOMEM. */
lf_status lf_capture_stuck(const lf_stuck_input *in, lf_violation_entry *e, char *err, size_t errlen);

/* Whether e is a STUCK entry (meta "finding" is "stuck"). */
bool lf_entry_is_stuck(const lf_violation_entry *e);
/* The blocking methods recorded in a STUCK entry (meta "may_block"). */
uint32_t lf_entry_may_block(const lf_violation_entry *e);
/* Writes the report of a STUCK entry, laid out from its metadata (what lf_entry_write_report does for it). */
void lf_stuck_write_report(FILE *f, const lf_violation_entry *e);
/* Writes the timeline of h with its pending ops starred, then h in the text format ("timeline"/"timeline up to the
 * crash": title; "the ops that never returned": what the pending ops are): the end of the STUCK and CRASH
 * reports. */
void lf_write_pending_timeline(FILE *f, const lf_history *h, const char *title, const char *pending_ops);
/* Writes only its "why" lines: the ops that never returned and why they may wait (one line per explanation). */
void lf_stuck_write_why(FILE *f, const lf_violation_entry *e);

#endif
