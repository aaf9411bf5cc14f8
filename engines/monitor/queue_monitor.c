/* Queue monitor ([Lee25], optimised form): peel "potentially front" values, whose enqueue can be
 * first among the remaining enqueues and whose peeks/dequeue can precede every other remaining value's.
 *
 * Two monotone cursors walk the tuned events: the enqueue scanner grants a value when its enq is invoked
 * before any live enq has returned; the front scanner grants a value when its deq is invoked before a
 * second live value's peek/deq has returned (a deq waiting behind one "blocker" is granted once the
 * blocker is peeled). Two grants peel a value. Linear after sorting. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/monitors.h"
#include "util/big_alloc.h"

#define NONE UINT32_MAX

typedef struct {
    const lf_std *s;
    const uint32_t *event; /* per stamp: op << 1 | is_response (the standardisation's table) */
    uint8_t *credit;   /* per value: grants received (2 = peeled) */
    uint32_t enq_at, front_at; /* cursors (stamps) */
    uint32_t blocker;
    uint32_t *delayed;
    uint32_t n_delayed;
    bool late; /* the time budget ran out (s->dl) */
} queue_state;

static inline bool peeled(const queue_state *q, uint32_t v) { return q->credit[v] >= 2; }
static inline void grant(queue_state *q, uint32_t v) { q->credit[v]++; }

/* The scans below walk their cursor over the stamps in runs that end at the next multiple of
 * LF_DEADLINE_STRIDE, and look at the deadline between runs (a stop at a blocked stamp ends the scan). */
static inline uint32_t run_end(uint32_t at, uint32_t M) {
    uint32_t stop = at | (LF_DEADLINE_STRIDE - 1);
    return stop < M ? stop : M;
}

static bool scan_enqueues(queue_state *q) {
    uint32_t start = q->enq_at, M = q->s->n_stamps;
    while (q->enq_at <= M) {
        for (uint32_t stop = run_end(q->enq_at, M); q->enq_at <= stop;) {
            uint32_t e = q->event[q->enq_at];
            uint32_t op = e >> 1;
            if (q->s->kind[op] != STD_ADD || peeled(q, q->s->val[op])) { q->enq_at++; continue; }
            uint32_t v = q->s->val[op];
            if (e & 1) goto blocked; /* a live value's enq has returned: it goes first unless peeled */
            grant(q, v);
            q->enq_at++;
        }
        if (q->enq_at <= M && lf_deadline_passed_or_none(q->s->dl)) {
            q->late = true;
            return false;
        }
    }
blocked:
    return q->enq_at != start;
}

static bool scan_front(queue_state *q) {
    uint32_t start = q->front_at, M = q->s->n_stamps;
    while (q->front_at <= M) {
        for (uint32_t stop = run_end(q->front_at, M); q->front_at <= stop;) {
            uint32_t e = q->event[q->front_at];
            uint32_t op = e >> 1;
            uint8_t k = q->s->kind[op];
            if (k != STD_REM && k != STD_OTHER) { q->front_at++; continue; } /* adds, and the empty ops' events */
            uint32_t u = q->s->val[op];
            if (peeled(q, u)) { q->front_at++; continue; }
            if (q->blocker != NONE && peeled(q, q->blocker)) q->blocker = NONE;
            if (q->blocker == NONE && q->n_delayed) {
                for (uint32_t i = 0; i < q->n_delayed; i++) grant(q, q->delayed[i]);
                q->n_delayed = 0;
            }
            if (!(e & 1)) {
                if (k == STD_REM) {
                    if (q->blocker == NONE || q->blocker == u)
                        grant(q, u);
                    else
                        q->delayed[q->n_delayed++] = u;
                }
                q->front_at++;
            } else {
                if (q->blocker == NONE) q->blocker = u;
                if (q->blocker != u || k == STD_REM) goto blocked;
                q->front_at++;
            }
        }
        if (q->front_at <= M && lf_deadline_passed_or_none(q->s->dl)) {
            q->late = true;
            return false;
        }
    }
blocked:
    return q->front_at != start;
}

lf_verdict lf_monitor_queue(const lf_history *h, const lf_std *s, lf_result *r) {
    uint32_t M = s->n_stamps;
    if (M == 0) return LF_LINEARIZABLE;
    queue_state q;
    memset(&q, 0, sizeof q);
    q.s = s;
    q.blocker = NONE;
    q.enq_at = q.front_at = 1;
    q.event = s->at;
    q.credit = lf_big_calloc(s->n_values ? s->n_values : 1, 1);
    q.delayed = lf_big_malloc((s->n_values ? s->n_values : 1) * sizeof *q.delayed);
    lf_verdict verdict = LF_UNKNOWN;
    if (!q.credit || !q.delayed) {
        lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory in the queue monitor");
        goto done;
    }
    for (;;) {
        bool a = scan_enqueues(&q);
        bool b = scan_front(&q);
        if (!a && !b) break;
    }
    if (q.late) {
        verdict = lf_monitor_late(r, "queue");
        goto done;
    }
    if (q.enq_at > M && q.front_at > M) {
        verdict = LF_LINEARIZABLE;
        goto done;
    }
    /* Stuck: name the enqueue and the dequeue/peek that block the scans. */
    char a[300] = "", b[300] = "";
    uint32_t remaining = 0;
    for (uint32_t v = 0; v < s->n_values; v++) remaining += s->add_op[v] != NONE && !peeled(&q, v);
    if (q.enq_at <= M) {
        uint32_t op = q.event[q.enq_at] >> 1;
        lf_std_describe(s, h, op, a, sizeof a);
        lf_std_culprit(s, r, op);
    }
    if (q.front_at <= M) {
        uint32_t op = q.event[q.front_at] >> 1;
        lf_std_describe(s, h, op, b, sizeof b);
        lf_std_culprit(s, r, op);
    }
    lf_result_set(r, LF_VIOLATION, "monitor",
                  "FIFO order violated: none of the %" PRIu32 " remaining values can be at the front of the queue "
                  "(enqueue order is pinned by %s; dequeue/peek order by %s)",
                  remaining, a[0] ? a : "-", b[0] ? b : "-");
    verdict = LF_VIOLATION;
done:
    free(q.credit);
    free(q.delayed);
    return verdict;
}
