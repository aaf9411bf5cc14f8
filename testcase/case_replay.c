/* Replaying fuzz-case inputs in this process or in an isolated child (see testcase/case_replay.h). */
#include "testcase/case_replay.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "linfuzz/check.h"
#include "findings/capture.h"
#include "findings/stuck.h"
#include "linfuzz/format.h"
#include "runtime/adapter_type.h"
#include "testcase/case_runner.h"
#include "testcase/crash_watch.h"
#include "testcase/fuzz_case.h"
#include "util/clock.h"
#include "util/child.h"
#include "util/grow.h"
#include "util/hang.h"

void lf_replay_options_default(lf_replay_options *o) {
    o->on_run = NULL;
    o->on_run_ctx = NULL;
    o->runs = 200;
    o->seconds = 30;
    o->check_timeout = 10;
    o->stop_at_first = false;
    o->balance_blocking = false;
    o->on_stuck = NULL;
    o->on_stuck_ctx = NULL;
    o->format = NULL;
    o->free_only = false;
    o->memory = LF_FC_MEMORY_MIXED;
    o->spec = LF_SPEC_AUTO;
    o->origin = NULL;
}


bool lf_fc_replay_run(const lf_adapter *a, const char *format, bool balance_blocking, const uint8_t *data, size_t len,
                      unsigned run, lf_history *h, lf_fc_run_info *info) {
    lf_method ms[LF_M_COUNT];
    lf_fuzz_case c;
    if (!lf_fuzz_case_decode_as(format ? format : LF_FUZZ_CASE_FORMAT, data, len, lf_fuzz_case_methods(a, ms), &c))
        return false;
    lf_fc_plan plan;
    lf_fc_executor x;
    if (!lf_fc_plan_build(&plan, &c, a)) return false;
    if (balance_blocking) lf_fc_plan_balance_blocking(&plan);
    if (!lf_fc_executor_init(&x, LF_CLOCK_TICKET)) {
        lf_fc_plan_free(&plan);
        return false;
    }
    bool ok = lf_fc_execute(&x, &plan, run, h);
    if (ok) *info = x.last;
    lf_fc_executor_free(&x);
    lf_fc_plan_free(&plan);
    return ok;
}

bool lf_fc_replay(const lf_adapter *a, const uint8_t *data, size_t len, const lf_replay_options *o,
                  lf_replay_result *r) {
    r->runs = r->violations = r->first_run = r->stuck = r->nondeterministic = r->weak_unchecked = 0;
    r->first_reason[0] = 0;
    r->first_engine = NULL;
    r->first_nondeterministic = false;
    r->error[0] = 0;
    lf_adapter_history_init(&r->evidence, a);
    lf_method ms[LF_M_COUNT];
    lf_fuzz_case c;
    if (!lf_fuzz_case_decode_as(o->format ? o->format : LF_FUZZ_CASE_FORMAT, data, len, lf_fuzz_case_methods(a, ms),
                                &c)) {
        snprintf(r->error, sizeof r->error, "unknown workload format '%s'", o->format ? o->format : "?");
        return false;
    }
    if (o->free_only) c.mode = LF_FC_FREE;
    if (o->memory != LF_FC_MEMORY_MIXED) c.mode = LF_FC_CONTROLLED; /* a model asked for: controlled runs */
    lf_fuzz_case_force_memory(&c, o->memory);
    lf_fc_plan plan;
    lf_fc_executor x;
    lf_check_options co;
    lf_check_options_default(&co);
    co.timeout_s = o->check_timeout;
    lf_adapter_checker checker;
    if (!lf_adapter_checker_init(&checker, a, o->spec, &co, r->error, sizeof r->error)) return false;
    if (!lf_fc_plan_build(&plan, &c, a)) {
        lf_adapter_checker_free(&checker);
        snprintf(r->error, sizeof r->error, "out of memory");
        return false;
    }
    if (o->balance_blocking) lf_fc_plan_balance_blocking(&plan);
    if (!lf_fc_executor_init(&x, LF_CLOCK_TICKET)) {
        lf_fc_plan_free(&plan);
        lf_adapter_checker_free(&checker);
        snprintf(r->error, sizeof r->error, "cannot start %d threads", LF_FC_MAX_THREADS);
        return false;
    }
    if (o->on_stuck) lf_fc_executor_on_stuck(&x, o->on_stuck, o->on_stuck_ctx);
    lf_history h;
    lf_adapter_history_init(&h, a);
    bool ok = true;
    double start = lf_now_s();
    /* what runs, in today's format (a crash entry records its bytes as LF_FUZZ_CASE_FORMAT, and the raw bytes
     * of an older format can read otherwise in it): the input, or its free-mode version (free_only) */
    uint8_t ran_bytes[LF_FC_MAX_ENCODED];
    size_t ran_len = lf_fuzz_case_encode(&c, ran_bytes);
    lf_crash_run running = {.adapter = a, .executor = &x, .data = ran_bytes, .len = ran_len, .c = &c,
                            .origin = o->origin};
    for (uint64_t k = 0; k < o->runs && lf_now_s() - start < o->seconds; k++) {
        if (o->on_run) o->on_run(o->on_run_ctx, r->runs, r->violations);
        running.run = (unsigned)k;
        lf_crash_watch_running(&running); /* a crash of the code under test becomes an entry (crash_watch.h) */
        bool ran = lf_fc_execute(&x, &plan, (unsigned)k, &h);
        lf_crash_watch_running(NULL);
        if (!ran) {
            ok = false;
            break;
        }
        r->runs++;
        if (x.last.stuck) {
            r->stuck++;
            continue;
        }
        if (x.last.mode == LF_FC_CONTROLLED && x.last.stats.memory_model != LF_MM_SC && !x.last.stats.deterministic) {
            r->weak_unchecked++;
            continue;
        }
        lf_result res;
        lf_result_init(&res);
        lf_adapter_checker_check(&checker, &h, &res);
        bool violated = res.verdict == LF_VIOLATION, nondet = res.serial_nondeterminism;
        bool first = (violated || nondet) && r->violations + r->nondeterministic == 0;
        r->violations += violated;
        r->nondeterministic += nondet;
        if (first) {
            r->first_run = k;
            r->first_info = x.last;
            r->first_engine = res.engine;
            r->first_nondeterministic = nondet;
            snprintf(r->first_reason, sizeof r->first_reason, "%s", res.reason);
            lf_history_free(&r->first);
            ok = lf_history_copy(&r->first, &h);
            if (ok && nondet) {
                lf_history_free(&r->evidence);
                ok = lf_selfspec_nondeterminism(checker.self, &h, &r->evidence);
            }
        }
        lf_result_free(&res);
        if (!ok || ((violated || nondet) && o->stop_at_first)) break;
    }
    if (!ok && !r->error[0]) snprintf(r->error, sizeof r->error, "out of memory");
    lf_history_free(&h);
    lf_fc_executor_free(&x);
    lf_fc_plan_free(&plan);
    lf_adapter_checker_free(&checker);
    return ok;
}

/* The text form of h in a malloc'ed buffer (NULL when out of memory). */
static char *history_text(const lf_history *h, size_t *len) {
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) return NULL;
    bool ok = lf_text_write_stream(f, h) == LF_OK;
    if (fclose(f) != 0 || !ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

bool lf_histories_identical(const lf_history *a, const lf_history *b) {
    size_t na = 0, nb = 0;
    char *ta = history_text(a, &na), *tb = history_text(b, &nb);
    bool same = ta && tb && na == nb && !memcmp(ta, tb, na);
    free(ta);
    free(tb);
    return same;
}

bool lf_entry_record_schedule(lf_violation_entry *e, const lf_fc_run_info *info, unsigned run, unsigned threads) {
    char num[32], sched[512];
    bool controlled = info->mode == LF_FC_CONTROLLED;
    snprintf(num, sizeof num, "%u", run);
    if (controlled) lf_schedule_describe(sched, sizeof sched, &info->schedule, threads);
    return lf_entry_set_meta(e, "schedule_mode", controlled ? "controlled" : "free") &&
           lf_entry_set_meta(e, "schedule_run", num) &&
           lf_entry_set_meta(e, "schedule_deterministic",
                             !controlled                 ? "no (free mode)"
                             : info->stats.deterministic ? "yes"
                             : info->stats.watchdog      ? "no (watchdog)"
                                                         : "no (point budget)") &&
           (!controlled || (lf_entry_set_meta(e, "schedule", sched) &&
                            lf_entry_set_meta(e, "schedule_build", lf_sched_build_id()))) &&
           lf_entry_set_meta(e, "memory_model",
                             controlled ? lf_memory_model_name((lf_memory_model)info->stats.memory_model) : "machine");
}

/* ---- isolated replay: the child's answer on a pipe ---- */

enum { CHILD_CLEAN = 0, CHILD_VIOLATION = 1, CHILD_FAILED = 2, CHILD_STUCK = 3, CHILD_CRASH = 4 };

/* What the child writes first; `len` bytes follow: the encoded entry (VIOLATION) or a message (FAILED). */
typedef struct child_header {
    char magic[4];
    uint32_t status;
    uint64_t runs, first_run, len;
} child_header;

static const char CHILD_MAGIC[4] = {'L', 'F', 'R', 'P'};

static bool write_all(int fd, const void *buf, size_t len) {
    const uint8_t *p = buf;
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        len -= (size_t)w;
    }
    return true;
}

static void child_answer(int fd, uint32_t status, uint64_t runs, uint64_t first_run, const void *body,
                         size_t len) {
    child_header hd;
    memcpy(hd.magic, CHILD_MAGIC, sizeof hd.magic);
    hd.status = status;
    hd.runs = runs;
    hd.first_run = first_run;
    hd.len = len;
    bool ok = write_all(fd, &hd, sizeof hd) && (!len || write_all(fd, body, len));
    _exit(ok ? 0 : 3);
}

static void child_fail(int fd, const char *msg) { child_answer(fd, CHILD_FAILED, 0, 0, msg, strlen(msg)); }

/* What the child's STUCK handler needs (it runs on the watchdog's thread). */
typedef struct child_stuck_ctx {
    int fd;
    const lf_adapter *a;
    const uint8_t *data;
    size_t len;
    const char *origin;
    const lf_fuzz_case *c;
} child_stuck_ctx;

/* A replayed run got stuck: capture a STUCK entry and answer with it (never returns). */
static void child_stuck(void *p, const lf_stuck_event *ev) {
    const child_stuck_ctx *cx = p;
    char desc[4096], detected[256], err[512];
    lf_fuzz_case_describe(desc, sizeof desc, cx->c, cx->a);
    snprintf(detected, sizeof detected, "free run, watchdog: no call and no return for %.1f s (deadline %.1f s)",
             ev->waited_s, ev->deadline_s);
    lf_stuck_input in = {
        .adapter = cx->a->name,
        .expected_linearizable = cx->a->linearizable,
        .may_block = lf_adapter_blocking(cx->a),
        .origin = cx->origin ? cx->origin : "replay",
        .workload_format = LF_FUZZ_CASE_FORMAT,
        .workload_desc = desc,
        .workload = cx->data,
        .workload_len = cx->len,
        .history = ev->history,
        .detector = detected,
    };
    lf_violation_entry e;
    if (lf_capture_stuck(&in, &e, err, sizeof err) != LF_OK) child_fail(cx->fd, err);
    uint8_t *bytes;
    size_t n;
    if (lf_entry_encode(&e, &bytes, &n, err, sizeof err) != LF_OK) child_fail(cx->fd, err);
    child_answer(cx->fd, CHILD_STUCK, 0, 0, bytes, n);
}

/* The code under test crashed in the child (crash_watch.h): the CRASH entry goes to the parent, then the child
 * dies as the crash has it (so its exit status tells the parent how). */
static void child_crash(void *ctx, const lf_violation_entry *e) {
    int fd = *(const int *)ctx;
    uint8_t *bytes;
    size_t n;
    char err[512];
    if (lf_entry_encode(e, &bytes, &n, err, sizeof err) != LF_OK) return;
    child_header hd;
    memcpy(hd.magic, CHILD_MAGIC, sizeof hd.magic);
    hd.status = CHILD_CRASH;
    hd.runs = hd.first_run = 0;
    hd.len = n;
    if (write_all(fd, &hd, sizeof hd)) write_all(fd, bytes, n);
    free(bytes);
}

/* The child: replay, capture the first violation, answer, _exit (never returns). */
static void child_main(int fd, const lf_adapter *a, const uint8_t *data, size_t len, const lf_replay_options *o,
                       const char *origin) {
    static int answer_fd;
    answer_fd = fd;
    lf_crash_watch_install(child_crash, &answer_fd);
    lf_replay_options so = *o;
    so.stop_at_first = true;
    so.origin = origin;
    /* a STUCK entry records the case in today's format: the bytes of an older one, re-encoded */
    lf_fuzz_case sc;
    lf_method sms[LF_M_COUNT];
    lf_fuzz_case_decode_as(o->format ? o->format : LF_FUZZ_CASE_FORMAT, data, len, lf_fuzz_case_methods(a, sms), &sc);
    uint8_t stuck_bytes[LF_FC_MAX_ENCODED];
    child_stuck_ctx sx = {fd, a, stuck_bytes, lf_fuzz_case_encode(&sc, stuck_bytes), origin, &sc};
    so.on_stuck = child_stuck;
    so.on_stuck_ctx = &sx;
    lf_replay_result r;
    lf_adapter_history_init(&r.first, a);
    if (!lf_fc_replay(a, data, len, &so, &r)) {
        char msg[320];
        snprintf(msg, sizeof msg, "cannot run the workload: %s", r.error);
        child_fail(fd, msg);
    }
    if (!r.violations && !r.nondeterministic) child_answer(fd, CHILD_CLEAN, r.runs, 0, NULL, 0);

    lf_method ms[LF_M_COUNT];
    lf_fuzz_case c;
    const char *format = o->format ? o->format : LF_FUZZ_CASE_FORMAT;
    lf_fuzz_case_decode_as(format, data, len, lf_fuzz_case_methods(a, ms), &c);
    char desc[4096], full_origin[1024], err[512];
    lf_fuzz_case_describe(desc, sizeof desc, &c, a);
    snprintf(full_origin, sizeof full_origin, "%s, run %llu of at most %llu", origin ? origin : "replay",
             (unsigned long long)r.first_run + 1, (unsigned long long)o->runs);
    lf_minimize_options mo;
    lf_minimize_options_default(&mo);
    mo.timeout_s = 30;
    lf_capture_input in = {
        .adapter = a->name,
        .expected_linearizable = a->linearizable,
        .origin = full_origin,
        .workload_format = format,
        .workload_desc = desc,
        .workload = data,
        .workload_len = len,
        .full = &r.first,
        .minimize = &mo,
        .has_serial = true, /* the prefix and the drain: thread `threads` (case_runner.h) */
        .serial_thread = c.threads,
    };
    /* the entry is checked as the runs were: the adapter's self-spec when that is what found it */
    lf_check_options co;
    lf_check_options_default(&co);
    co.timeout_s = o->check_timeout;
    lf_adapter_checker checker;
    if (!lf_adapter_checker_init(&checker, a, o->spec, &co, err, sizeof err)) child_fail(fd, err);
    in.check = &checker.check;
    in.spec_mode = checker.mode == LF_SPEC_SELF ? "self" : NULL;
    lf_violation_entry e;
    lf_status st = r.first_nondeterministic
                       ? lf_capture_nondeterminism(&in, &r.evidence, r.first_reason, &e, err, sizeof err)
                       : lf_capture_violation(&in, &e, err, sizeof err);
    if (st != LF_OK) child_fail(fd, err);
    if (!lf_entry_record_schedule(&e, &r.first_info, (unsigned)r.first_run, c.threads)) child_fail(fd, "out of memory");
    uint8_t *bytes;
    size_t n;
    if (lf_entry_encode(&e, &bytes, &n, err, sizeof err) != LF_OK) child_fail(fd, err);
    child_answer(fd, CHILD_VIOLATION, r.runs, r.first_run, bytes, n);
}

static lf_replay_outcome fail(lf_isolated_replay *out, lf_replay_outcome oc, const char *fmt, const char *arg) {
    out->outcome = oc;
    snprintf(out->detail, sizeof out->detail, fmt, arg);
    return oc;
}

/* What the parent got from the replay's child: the bytes of its answer and how it ended. */
typedef struct child_reply {
    uint8_t *buf; /* malloc'ed (or NULL) */
    size_t n;
    int status;      /* waitpid's */
    bool timed_out;  /* judged hung (why: the hang judge's reason) and killed */
    bool nomem;      /* no memory for the answer: killed */
    const char *why;
    double waited;
} child_reply;

/* Reads the child's answer from fd (closed after) and reaps the child. */
static child_reply collect_reply(int fd, pid_t pid, double limit_s) {
    /* Read the answer until EOF, or until the child is hung (util/hang.h: past limit_s of wall time, all its
     * threads blocked, or limit_s of its CPU time used; a child the machine is too busy to run is waited
     * for). Data coming in is progress. */
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    lf_hang_judge judge;
    lf_hang_judge_start(&judge, pid, 0, limit_s, lf_now_s());
    const char *why = NULL;
    bool timed_out = false, nomem = false;
    for (;;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int pr = poll(&p, 1, 50);
        if (pr < 0 && errno == EINTR) continue;
        if (pr == 0) {
            if (lf_hang_judge_hung(&judge, lf_now_s(), &why)) {
                timed_out = true;
                break;
            }
            continue;
        }
        if (!LF_GROW(buf, cap, n + 1, 65536)) {
            nomem = true;
            break;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break; /* EOF (or a broken pipe: the child's status tells) */
        n += (size_t)r;
        lf_hang_judge_start(&judge, pid, 0, limit_s, lf_now_s());
    }
    close(fd);
    int status = 0;
    double waited = lf_hang_judge_waited(&judge, lf_now_s());
    if (timed_out || nomem) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    } else {
        /* The child exits right after closing its end; still, never wait for a hung one. */
        lf_hang_judge_start(&judge, pid, 0, limit_s, lf_now_s());
        while (waitpid(pid, &status, WNOHANG) == 0) {
            if (lf_hang_judge_hung(&judge, lf_now_s(), &why)) {
                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
                timed_out = true;
                waited = lf_hang_judge_waited(&judge, lf_now_s());
                break;
            }
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
    }
    return (child_reply){buf, n, status, timed_out, nomem, why, waited};
}

lf_replay_outcome lf_fc_replay_isolated(const lf_adapter *a, const uint8_t *data, size_t len,
                                        const lf_replay_options *o, double limit_s, const char *origin,
                                        lf_isolated_replay *out) {
    memset(out, 0, sizeof *out);
    lf_entry_init(&out->entry, a->type);
    lf_adapter_history_init(&out->entry.full, a);
    lf_adapter_history_init(&out->entry.minimized, a);
    int fds[2];
    if (pipe(fds) != 0) return fail(out, LF_REPLAY_FAILED, "cannot create a pipe: %s", strerror(errno));
    fflush(NULL); /* or the child's exit could write this process's buffered output twice */
    pid_t parent = getpid(), pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return fail(out, LF_REPLAY_FAILED, "cannot fork: %s", strerror(errno));
    }
    if (pid == 0) {
        lf_child_die_with_parent(parent); /* killed with its parent: nobody would read its answer */
        close(fds[0]);
        child_main(fds[1], a, data, len, o, origin);
    }
    close(fds[1]);

    child_reply reply = collect_reply(fds[0], pid, limit_s);
    uint8_t *buf = reply.buf;
    size_t n = reply.n;
    int status = reply.status;
    bool timed_out = reply.timed_out, nomem = reply.nomem;
    const char *why = reply.why;
    double waited = reply.waited;
    lf_replay_outcome oc;
    child_header hd;
    bool complete = !nomem && n >= sizeof hd;
    if (complete) {
        memcpy(&hd, buf, sizeof hd);
        complete = !memcmp(hd.magic, CHILD_MAGIC, sizeof hd.magic) && hd.len == n - sizeof hd;
    }
    bool answered = complete && !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    char died[128] = "";
    if (WIFSIGNALED(status))
        snprintf(died, sizeof died, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else if (WIFEXITED(status))
        snprintf(died, sizeof died, "exited with status %d", WEXITSTATUS(status));
    if (complete && !timed_out && hd.status == CHILD_CRASH) { /* the code under test crashed: its CRASH entry */
        char err[512];
        lf_entry_free(&out->entry);
        if (lf_entry_decode(buf + sizeof hd, (size_t)hd.len, "replay", &out->entry, err, sizeof err) == LF_OK) {
            out->has_entry = true;
            out->outcome = oc = LF_REPLAY_CRASHED;
            snprintf(out->detail, sizeof out->detail, "%.150s (%s)", lf_entry_meta(&out->entry, "reason"), died);
        } else {
            lf_entry_init(&out->entry, a->type);
            oc = fail(out, LF_REPLAY_FAILED, "the crash's entry does not decode: %.200s", err);
        }
        free(buf);
        return oc;
    }
    if (nomem) {
        oc = fail(out, LF_REPLAY_FAILED, "%s", "out of memory reading the replay's answer");
    } else if (timed_out) {
        out->outcome = oc = LF_REPLAY_STUCK;
        if (why && !strcmp(why, "busy"))
            snprintf(out->detail, sizeof out->detail,
                     "no answer after %.0f s of its CPU time (a livelock?): killed after %.0f s", limit_s, waited);
        else if (why && !strcmp(why, "blocked"))
            snprintf(out->detail, sizeof out->detail,
                     "no answer, every thread blocked, after %.0f s (a deadlock?): killed", waited);
        else
            snprintf(out->detail, sizeof out->detail, "no answer within %.0f s (deadlock or livelock?): killed",
                     waited);
    } else if (WIFSIGNALED(status)) {
        out->outcome = oc = LF_REPLAY_CRASHED;
        snprintf(out->detail, sizeof out->detail, "killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    } else if (!answered) {
        out->outcome = oc = LF_REPLAY_CRASHED;
        snprintf(out->detail, sizeof out->detail, "exited with status %d without an answer (a sanitizer report?)",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    } else {
        out->runs = hd.runs;
        out->first_run = hd.first_run;
        const uint8_t *body = buf + sizeof hd;
        if (hd.status == CHILD_CLEAN) {
            out->outcome = oc = LF_REPLAY_CLEAN;
        } else if (hd.status == CHILD_VIOLATION || hd.status == CHILD_STUCK) {
            char err[512];
            lf_entry_free(&out->entry);
            if (lf_entry_decode(body, (size_t)hd.len, "replay", &out->entry, err, sizeof err) == LF_OK) {
                out->has_entry = true;
                out->outcome = oc = hd.status == CHILD_STUCK ? LF_REPLAY_STUCK : LF_REPLAY_VIOLATION;
                if (oc == LF_REPLAY_STUCK)
                    snprintf(out->detail, sizeof out->detail, "stuck: %s never returned (%s)",
                             lf_entry_meta(&out->entry, "stuck_methods"), lf_entry_meta(&out->entry, "shape"));
            } else {
                lf_entry_init(&out->entry, a->type);
                oc = fail(out, LF_REPLAY_FAILED, "the captured entry does not decode: %.200s", err);
            }
        } else {
            out->outcome = oc = LF_REPLAY_FAILED;
            snprintf(out->detail, sizeof out->detail, "%.*s", (int)(hd.len < 255 ? hd.len : 255), (const char *)body);
        }
    }
    free(buf);
    return oc;
}
