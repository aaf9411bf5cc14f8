/* Root causing a violation that needs a weak memory model: which memory order is too weak
 * (docs/memory-models.md, "Root causing names the order").
 *
 * The violating run (tso or c11) is replayed with every modelled access observed. Each weak behaviour it
 * showed gives candidates — a load that read an older store than the newest (c11), or missed another thread's
 * buffered store (tso):
 *  - message passing: the reader's earlier loads in the same operation that read stores the writer made after
 *    the newer store (directly, or through a chain of read-modify-writes: a release sequence): that store must
 *    be release, that load acquire, both, a release fence after the newer store, an acquire fence after the
 *    load;
 *  - store buffering: a seq_cst fence after the newer store (in the writer), or after the reader's own earlier
 *    stores in its operation; an existing fence of a weaker order there must be seq_cst.
 * Each candidate is validated like an atomic region (analyze.h): the entry's run and nearby ones — the same
 * interleaving with other weak choices, and derived interleavings under the same model — re-run with the
 * fix applied by the memory model (lf_sched_set_weak_fixes), against the same runs without it. Confirmed:
 * no violation where the baseline had some; refuted at the first violation. */
#ifndef LINFUZZ_RC_WEAK_CAUSE_H
#define LINFUZZ_RC_WEAK_CAUSE_H

#include "rootcause/analyze.h"
#include "trace.h"

/* Analyses the violating weak run under schedule sch (which violated) of runner rn: fills r's candidates
 * (appended, validated) and r->weak_events. -1 on an error (message in err), else 0. */
int lf_rc_weak_causes(lf_rc_runner *rn, const lf_schedule *sch, const lf_rc_options *o, lf_rc_result *r, char *err,
                      size_t errlen);

/* The lines c->lo..c->hi of c->file (analyze.c; none when the file cannot be read). */
void lf_rc_read_source(lf_rc_candidate *c);

#endif
