/* STUCK findings below the fuzz targets: the shapes of stuck histories (why an op that never returned may be
 * waiting), the STUCK entry (built, encoded, decoded, recognised, its report and signature), the recorder's
 * snapshot of a run with an op in flight (returned ops as recorded, the one in flight pending with its method
 * and argument), and the watchdog itself in a child process: a blocking deq on an empty queue is declared
 * stuck within its deadline, its handler gets the history, and the process ends with the STUCK status. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "findings/stuck.h"
#include "findings/triage.h"
#include "linfuzz/adapter.h"
#include "linfuzz/format.h"
#include "runtime/recorder.h"
#include "runtime/stuck_watch.h"
#include "test_util.h"

static lf_history parse(const char *text) {
    lf_history h;
    char err[256];
    if (lf_text_read_buffer(text, strlen(text), "t.hist", &h, err, sizeof err) != LF_OK) {
        fprintf(stderr, "%s\n", err);
        abort();
    }
    return h;
}

#define DEQ LF_METHOD_BIT(LF_M_DEQ)
#define ENQ LF_METHOD_BIT(LF_M_ENQ)

static void shapes(void) {
    struct {
        const char *text;
        uint32_t may_block;
        const char *shape;
    } cases[] = {
        /* a blocking deq on a queue that the returned ops leave empty: waits as specified */
        {"type queue\n0 1 2 enq 1\n1 3 4 deq -> 1\n1 5 ? deq\n", DEQ, "STUCK_EMPTY"},
        /* ... but a value is still there: a lost wakeup */
        {"type queue\n0 1 2 enq 1\n0 3 4 enq 2\n1 5 6 deq -> 1\n1 7 ? deq\n", DEQ, "STUCK_LOST_WAKEUP"},
        /* a blocking enq into a bounded queue the returned ops leave full, and one with room */
        {"type queue\ncapacity 1\n0 1 2 enq 1\n0 3 ? enq 2\n", ENQ, "STUCK_FULL"},
        {"type queue\ncapacity 2\n0 1 2 enq 1\n0 3 ? enq 2\n", ENQ, "STUCK_LOST_WAKEUP"},
        /* an op not declared blocking: a hang, whatever else is stuck */
        {"type queue\n0 1 ? deq\n1 2 ? deq\n", 0, "STUCK_HANG"},
        {"type queue\n0 1 ? deq\n1 2 ? enq 5\n", DEQ, "STUCK_HANG"},
        {"type set\n0 1 ? add 1\n", 0, "STUCK_HANG"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lf_history h = parse(cases[i].text);
        const char *got = lf_stuck_shape(&h, cases[i].may_block);
        CHECKF(!strcmp(got, cases[i].shape), "case %zu: %s, wanted %s", i, got, cases[i].shape);
        lf_history_free(&h);
    }
    lf_history h = parse("type queue\n0 1 ? deq\n1 2 ? enq 5\n2 3 ? deq\n");
    char methods[256];
    lf_stuck_methods(&h, methods);
    CHECK(!strcmp(methods, "enq,deq"));
    lf_stuck_signature_methods(&h, methods);
    CHECK(!strcmp(methods, "enq,deq"));
    lf_history_free(&h);
    /* triage's key leaves out an observer stuck beside an update (a symptom of the schedule), not one alone */
    h = parse("type set\n0 1 ? add 1\n1 2 ? contains 1\n");
    lf_stuck_methods(&h, methods);
    CHECK(!strcmp(methods, "add,contains"));
    lf_stuck_signature_methods(&h, methods);
    CHECKF(!strcmp(methods, "add"), "%s", methods);
    lf_history_free(&h);
    h = parse("type set\n1 2 ? contains 1\n");
    lf_stuck_signature_methods(&h, methods);
    CHECKF(!strcmp(methods, "contains"), "%s", methods);
    lf_history_free(&h);
    /* a custom type's declared observer: ledger_lock_order's balance behind two deadlocked transfers */
    h = parse("type ledger\nmethod transfer 3 -> ok|fail\nmethod balance 1 -> int observer\n"
              "0 1 ? transfer 1 2 3\n1 2 ? transfer 2 1 6\n2 3 ? balance 1\n");
    lf_stuck_signature_methods(&h, methods);
    CHECKF(!strcmp(methods, "transfer"), "%s", methods);
    lf_history_free(&h);
}

static void entries(void) {
    lf_history h = parse("type queue\n0 1 2 enq 7\n1 3 4 deq -> 7\n1 5 ? deq\n2 6 ? deq\n");
    uint8_t input[3] = {1, 2, 3};
    lf_stuck_input in = {.adapter = "my_queue", .expected_linearizable = true, .may_block = DEQ,
                         .origin = "unit test", .workload = input, .workload_len = sizeof input, .history = &h,
                         .detector = "no call and no return for 2.0 s"};
    lf_violation_entry e, back;
    char err[512];
    CHECK(lf_capture_stuck(&in, &e, err, sizeof err) == LF_OK);
    CHECK(lf_entry_is_stuck(&e) && lf_entry_may_block(&e) == DEQ);
    CHECK(!strcmp(lf_entry_meta(&e, "shape"), "STUCK_EMPTY") && !strcmp(lf_entry_meta(&e, "stuck_ops"), "2"));
    CHECK(strstr(e.report, "=== STUCK  adapter=my_queue  type=queue  shape=STUCK_EMPTY ===") != NULL);
    CHECK(strstr(e.report, "why: t1 [5,?] deq, t2 [6,?] deq never returned.") != NULL);
    CHECK(strstr(e.verdict, "stuck: 2 ops never returned (deq); STUCK_EMPTY") != NULL);
    uint8_t *bytes;
    size_t n;
    CHECK(lf_entry_encode(&e, &bytes, &n, err, sizeof err) == LF_OK);
    CHECK(lf_entry_decode(bytes, n, "stuck.lfz", &back, err, sizeof err) == LF_OK);
    CHECK(lf_entry_is_stuck(&back) && back.full.n == 4 && lf_op_pending(&back.full.ops[3]));
    /* triage: category STUCK, signature from the stuck ops, the bucket it was saved with */
    lf_triage t;
    lf_triage_init(&t, LF_TRIAGE_BY_SIGNATURE);
    long i = lf_triage_add_violation(&t, "stuck.lfz", false, &back, NULL);
    CHECK(i >= 0 && t.items[i].category == LF_TRIAGE_STUCK && !t.items[i].bucket_differs);
    CHECK(lf_triage_group_all(&t) && t.n_groups == 1);
    CHECKF(t.n_groups == 1 && !strcmp(t.groups[0].label, "queue STUCK_EMPTY deq"), "label '%s'",
           t.n_groups ? t.groups[0].label : "");
    lf_triage_free(&t);
    free(bytes);
    lf_entry_free(&back);
    lf_entry_free(&e);
    /* nothing pending: not a STUCK finding */
    lf_history done = parse("type queue\n0 1 2 enq 7\n");
    in.history = &done;
    CHECK(lf_capture_stuck(&in, &e, err, sizeof err) == LF_ERR_FORMAT && strstr(err, "not stuck"));
    lf_history_free(&done);
    lf_history_free(&h);
}

/* ---- a queue whose deq waits for a value (a semaphore-like counter under a mutex) ---- */

typedef struct waitq {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int64_t items[64];
    size_t head, tail;
} waitq;

static void *wq_create(size_t max_ops) {
    (void)max_ops;
    waitq *q = calloc(1, sizeof *q);
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->cond, NULL);
    return q;
}

static void wq_destroy(void *obj) { free(obj); }

static lf_kind wq_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    waitq *q = obj;
    pthread_mutex_lock(&q->lock);
    if (m == LF_M_ENQ) {
        q->items[q->tail++ % 64] = args[0];
        pthread_cond_signal(&q->cond);
        pthread_mutex_unlock(&q->lock);
        return LF_K_NONE;
    }
    while (q->head == q->tail) pthread_cond_wait(&q->cond, &q->lock);
    *value = q->items[q->head++ % 64];
    pthread_mutex_unlock(&q->lock);
    return LF_K_INT;
}

static const lf_adapter waitq_adapter = {.name = "test_waitq", .summary = "test", .type = LF_TYPE_QUEUE,
                                         .linearizable = true, .methods = ENQ | DEQ, .create = wq_create,
                                         .destroy = wq_destroy, .op = wq_op, .may_block = DEQ};

typedef struct caller {
    lf_recorder *r;
    void *obj;
} caller;

static void *blocked_deq(void *p) {
    caller *c = p;
    int64_t none = 0;
    lf_recorder_call(c->r, 1, &waitq_adapter, c->obj, LF_M_DEQ, &none, 0);
    return NULL;
}

static void snapshot_in_flight(void) {
    lf_recorder r;
    CHECK(lf_recorder_init(&r, LF_CLOCK_TICKET, 2, 8));
    void *obj = wq_create(8);
    int64_t v = 41;
    lf_recorder_call(&r, 0, &waitq_adapter, obj, LF_M_ENQ, &v, 1);
    lf_recorder_call(&r, 0, &waitq_adapter, obj, LF_M_DEQ, &v, 0);
    caller c = {&r, obj};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, blocked_deq, &c) == 0);
    unsigned in_flight = 0;
    for (int tries = 0; tries < 2000 && !in_flight; tries++) {
        lf_recorder_progress(&r, &in_flight);
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    CHECK(in_flight == 1);
    lf_history h;
    lf_history_init(&h, LF_TYPE_QUEUE);
    CHECK(lf_recorder_snapshot(&r, &h));
    CHECK(h.n == 3 && h.ops[0].method == LF_M_ENQ && h.ops[1].res_kind == LF_K_INT && h.ops[1].res == 41);
    CHECK(lf_op_pending(&h.ops[2]) && h.ops[2].method == LF_M_DEQ && h.ops[2].thread == 1);
    char err[256];
    CHECK(lf_history_validate(&h, err, sizeof err) == SIZE_MAX);
    /* let the deq return, so that the thread ends */
    v = 42;
    lf_recorder_call(&r, 0, &waitq_adapter, obj, LF_M_ENQ, &v, 1);
    pthread_join(th, NULL);
    lf_recorder_progress(&r, &in_flight);
    CHECK(in_flight == 0);
    lf_history_free(&h);
    wq_destroy(obj);
    lf_recorder_free(&r);
}

/* The watchdog's handler in the child: report what it got on the pipe, then return (the watchdog exits). */
static int report_fd = -1;
static void child_handler(void *ctx, const lf_stuck_event *ev) {
    (void)ctx;
    char line[128], contract[64];
    lf_contract_format(contract, sizeof contract, &ev->history->contract);
    int n = snprintf(line, sizeof line, "%zu %zu %d %s", ev->history->n, ev->stuck,
                     ev->history->n && lf_op_pending(&ev->history->ops[ev->history->n - 1]), contract);
    if (write(report_fd, line, (size_t)n) != n) _exit(9);
}

static void watchdog_fires(void) {
    int fds[2];
    CHECK(pipe(fds) == 0);
    setenv("LINFUZZ_STUCK_SECONDS", "0.3", 1);
    time_t start = time(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        report_fd = fds[1];
        lf_recorder r;
        lf_stuck_watch *w = lf_stuck_watch_create();
        if (!w || !lf_recorder_init(&r, LF_CLOCK_TICKET, 1, 8)) _exit(8);
        lf_stuck_watch_set_handler(w, child_handler, NULL);
        void *obj = wq_create(8);
        int64_t v = 5;
        /* the history it hands over keeps the contract the adapter promised (docs/contracts.md) */
        lf_adapter promised = waitq_adapter;
        promised.contract = (lf_contract){.order = LF_ORDER_BAG, .full_empty = LF_FULL_EMPTY_LAGGING};
        lf_stuck_watch_arm(w, &r, &promised, 3);
        lf_recorder_call(&r, 0, &waitq_adapter, obj, LF_M_ENQ, &v, 1);
        lf_recorder_call(&r, 0, &waitq_adapter, obj, LF_M_DEQ, &v, 0);
        lf_recorder_call(&r, 0, &waitq_adapter, obj, LF_M_DEQ, &v, 0); /* waits forever */
        _exit(7); /* not reached */
    }
    close(fds[1]);
    char buf[128] = "";
    ssize_t got = read(fds[0], buf, sizeof buf - 1);
    int status = 0;
    waitpid(pid, &status, 0);
    unsetenv("LINFUZZ_STUCK_SECONDS");
    close(fds[0]);
    CHECKF(got > 0 && !strcmp(buf, "3 1 1 bag lagging-full-empty"), "the handler got '%s'", got > 0 ? buf : "");
    CHECKF(WIFEXITED(status) && WEXITSTATUS(status) == LF_STUCK_EXIT_STATUS, "the child's status %d", status);
    CHECK(time(NULL) - start < 30);
}

int main(void) {
    shapes();
    entries();
    snapshot_in_flight();
    watchdog_fires();
    TEST_DONE();
}
