/* Second forms of three monitors (engines/monitor/): the same decisions made another way, kept only as
 * cross-checks (tests/unit/test_monitor_forms.c, tests/unit/test_set_forms.c): each must give the verdict, the
 * reason and the culprits of the form lf_monitor_check uses. They live with the tests, not in the library. */
#ifndef LINFUZZ_TEST_MONITOR_FORMS_H
#define LINFUZZ_TEST_MONITOR_FORMS_H

#include "linfuzz/check.h"
#include "linfuzz/history.h"
#include "monitor/standardize.h"

/* Set, on the standardised history (set_monitor.c): the cross-check of lf_monitor_set_direct. */
lf_verdict lf_monitor_set(const lf_history *h, const lf_std *s, lf_result *r);
/* Stack, handing out single partitions (stack_partitions.c): the cross-check of lf_monitor_stack. */
lf_verdict lf_monitor_stack_partitions(const lf_history *h, const lf_std *s, lf_result *r);
/* Priority queue, a sweep in priority order over a segment tree (pqueue_tree.c): the cross-check of
 * lf_monitor_pqueue. */
lf_verdict lf_monitor_pqueue_tree(const lf_history *h, const lf_std *s, lf_result *r);

#endif
