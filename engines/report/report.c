/* Violation reports: layout (header, explanations, ops by thread, timeline, pasteable history), the violation
 * shape and the dedup bucket. */
#include "linfuzz/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "linfuzz/format.h"
#include "contract/contract.h"
#include "report/ops.h"
#include "util/escape.h"

/* ---- parts (serial prefix, drain) and recorded results ---- */

const char *lf_op_part_name(lf_op_part p) {
    return p == LF_PART_PREFIX ? "prefix" : p == LF_PART_DRAIN ? "drain" : "";
}

lf_op_part *lf_report_parts(const lf_report_input *in) {
    const lf_history *h = in->history, *rec = in->recorded ? in->recorded : in->history;
    lf_op_part *parts = malloc((h->n ? h->n : 1) * sizeof *parts);
    if (!parts) return NULL;
    /* The prefix runs before any worker is called, the drain after every worker returned. */
    uint64_t first_worker_call = UINT64_MAX;
    for (size_t i = 0; in->has_serial && i < rec->n; i++)
        if (rec->ops[i].thread != in->serial_thread && rec->ops[i].call < first_worker_call)
            first_worker_call = rec->ops[i].call;
    for (size_t i = 0; i < h->n; i++) {
        const lf_op *op = &h->ops[i];
        parts[i] = !in->has_serial || op->thread != in->serial_thread ? LF_PART_WORKER
                   : op->call < first_worker_call                    ? LF_PART_PREFIX
                                                                      : LF_PART_DRAIN;
    }
    return parts;
}

typedef struct op_key {
    uint32_t thread;
    uint64_t call;
    size_t index;
} op_key;

static int cmp_op_key(const void *pa, const void *pb) {
    const op_key *a = pa, *b = pb;
    if (a->thread != b->thread) return a->thread < b->thread ? -1 : 1;
    return a->call < b->call ? -1 : a->call > b->call;
}

size_t *lf_report_match_recorded(const lf_report_input *in) {
    const lf_history *h = in->history, *rec = in->recorded;
    if (!rec) return NULL;
    size_t *match = malloc((h->n ? h->n : 1) * sizeof *match);
    op_key *keys = malloc((rec->n ? rec->n : 1) * sizeof *keys);
    if (!match || !keys) {
        free(match);
        free(keys);
        return NULL;
    }
    for (size_t i = 0; i < rec->n; i++) keys[i] = (op_key){rec->ops[i].thread, rec->ops[i].call, i};
    qsort(keys, rec->n, sizeof *keys, cmp_op_key);
    for (size_t i = 0; i < h->n; i++) {
        op_key k = {h->ops[i].thread, h->ops[i].call, 0};
        const op_key *hit = rec->n ? bsearch(&k, keys, rec->n, sizeof *keys, cmp_op_key) : NULL;
        match[i] = hit ? hit->index : SIZE_MAX;
    }
    free(keys);
    return match;
}

/* What the report says about op i beyond its label: its part, and the recorded result when the minimiser
 * changed it (counters). Empty when nothing. */
typedef struct op_notes {
    const lf_op_part *parts; /* or NULL */
    const size_t *match;     /* or NULL */
    const lf_history *recorded; /* of the shown history's type */
} op_notes;

static void note_of(const op_notes *nt, const lf_op *op, size_t i, char *buf, size_t len) {
    int w = 0;
    buf[0] = 0;
    if (nt->parts && nt->parts[i] != LF_PART_WORKER)
        w = snprintf(buf, len, " [%s]", lf_op_part_name(nt->parts[i]));
    if (w < 0 || (size_t)w >= len) return;
    if (nt->match && nt->match[i] != SIZE_MAX) {
        const lf_op *r = &nt->recorded->ops[nt->match[i]];
        char label[160];
        lf_rep_op_label(label, sizeof label, nt->recorded, r);
        if (lf_op_pending(op) && !lf_op_pending(r))
            snprintf(buf + w, len - (size_t)w, " (in flight at the first impossible return; recorded: %s)", label);
        else if (r->res_kind != op->res_kind || (r->res_kind == LF_K_INT && r->res != op->res))
            snprintf(buf + w, len - (size_t)w, " (recorded: %s)", label);
    }
}

/* ---- timeline ---- */

typedef struct event {
    uint64_t stamp;
    uint32_t op;
    uint8_t is_ret;
} event;

static int cmp_event(const void *pa, const void *pb) {
    const event *a = pa, *b = pb;
    if (a->stamp != b->stamp) return a->stamp < b->stamp ? -1 : 1;
    /* At equal stamps calls go first: equal stamps mean "concurrent", so the bars must overlap. */
    if (a->is_ret != b->is_ret) return a->is_ret - b->is_ret;
    return a->op < b->op ? -1 : a->op > b->op;
}

#define COL 3 /* characters per event column */

/* The lane name of thread t. */
static void lane_name(char *buf, size_t len, uint32_t t, bool has_serial, uint32_t serial) {
    if (has_serial && t == serial)
        snprintf(buf, len, "T%" PRIu32 " (serial: prefix, drain)", t);
    else
        snprintf(buf, len, "T%" PRIu32, t);
}

static void timeline(FILE *f, const lf_history *h, const bool *marked, bool has_cut, uint64_t cut_stamp,
                     bool has_serial, uint32_t serial);

void lf_report_timeline(FILE *f, const lf_history *h, const bool *marked, bool has_cut, uint64_t cut_stamp) {
    timeline(f, h, marked, has_cut, cut_stamp, false, 0);
}

static void timeline(FILE *f, const lf_history *h, const bool *marked, bool has_cut, uint64_t cut_stamp,
                     bool has_serial, uint32_t serial) {
    size_t n = h->n;
    if (n == 0) {
        fprintf(f, "  (no operations)\n");
        return;
    }
    if (n > LF_REPORT_TIMELINE_MAX_OPS) {
        fprintf(f, "  (%zu ops: too many to draw; see the history below)\n", n);
        return;
    }
    event *ev = malloc(2 * n * sizeof *ev);
    size_t *call_rank = malloc(n * sizeof *call_rank), *ret_rank = malloc(n * sizeof *ret_rank);
    size_t *order = lf_rep_call_order(h), n_threads = 0;
    uint32_t *threads = lf_rep_threads(h, &n_threads);
    char *line = NULL;
    size_t n_ev = 0;
    if (!ev || !call_rank || !ret_rank || !order || !threads) goto out;
    for (size_t i = 0; i < n; i++) {
        ev[n_ev++] = (event){h->ops[i].call, (uint32_t)i, 0};
        if (!lf_op_pending(&h->ops[i])) ev[n_ev++] = (event){h->ops[i].ret, (uint32_t)i, 1};
    }
    qsort(ev, n_ev, sizeof *ev, cmp_event);
    size_t cut_rank = SIZE_MAX;
    for (size_t k = 0; k < n_ev; k++) {
        if (ev[k].is_ret)
            ret_rank[ev[k].op] = k;
        else
            call_rank[ev[k].op] = k;
        if (has_cut && ev[k].is_ret && ev[k].stamp == cut_stamp && cut_rank == SIZE_MAX) cut_rank = k;
    }
    size_t width = COL * n_ev + 2;
    line = malloc(width + 1);
    if (!line) goto out;
    int name_w = 5; /* lane names are left-aligned in a column this wide */
    for (size_t ti = 0; ti < n_threads; ti++) {
        char name[64];
        lane_name(name, sizeof name, threads[ti], has_serial, serial);
        if ((int)strlen(name) > name_w) name_w = (int)strlen(name);
    }
    for (size_t ti = 0; ti < n_threads; ti++) {
        memset(line, ' ', width);
        for (size_t k = 0; k < n; k++) {
            size_t i = order[k];
            const lf_op *op = &h->ops[i];
            if (op->thread != threads[ti]) continue;
            size_t x0 = COL * call_rank[i], x1 = lf_op_pending(op) ? width - 1 : COL * ret_rank[i];
            line[x0] = '[';
            for (size_t x = x0 + 1; x < x1; x++) line[x] = '-';
            line[x1] = lf_op_pending(op) ? '>' : ']';
            char tag[24];
            lf_rep_tag(k, n, tag);
            size_t tl = strlen(tag);
            if (marked && marked[i] && tl + 1 < x1 - x0) {
                tag[tl++] = '*';
                tag[tl] = 0;
            }
            for (size_t c = 0; c < tl && x0 + 1 + c < x1; c++) line[x0 + 1 + c] = tag[c];
        }
        size_t end = width;
        while (end > 0 && line[end - 1] == ' ') end--;
        line[end] = 0;
        char name[64];
        lane_name(name, sizeof name, threads[ti], has_serial, serial);
        fprintf(f, "  %-*s %s\n", name_w, name, line);
    }
    if (cut_rank != SIZE_MAX) {
        char tag[24];
        size_t k = 0;
        while (k < n && order[k] != ev[cut_rank].op) k++;
        lf_rep_tag(k, n, tag);
        fprintf(f, "  %-*s %*s^ first impossible return (%s): every shorter prefix of the events is linearizable\n",
                name_w, "", (int)(COL * cut_rank), "", tag);
    }
out:
    free(ev);
    free(call_rank);
    free(ret_rank);
    free(order);
    free(threads);
    free(line);
}

/* ---- ops by thread ---- */

#define TABLE_MAX_THREADS 4

static void ops_by_thread(FILE *f, const lf_history *h, const bool *marked, const op_notes *nt, bool has_serial,
                          uint32_t serial) {
    size_t n_threads = 0;
    uint32_t *threads = lf_rep_threads(h, &n_threads);
    size_t *order = lf_rep_call_order(h);
    if (!threads || !order || n_threads > TABLE_MAX_THREADS || h->n > LF_REPORT_TIMELINE_MAX_OPS) {
        free(threads);
        free(order);
        return;
    }
    /* Column width: the longest label; rows: the busiest thread. */
    size_t col = 4, rows = 0, count[TABLE_MAX_THREADS] = {0};
    char label[160], tag[24], note[224];
    for (size_t ti = 0; ti < n_threads; ti++) {
        char name[64];
        lane_name(name, sizeof name, threads[ti], has_serial, serial);
        if (strlen(name) > col) col = strlen(name);
    }
    for (size_t k = 0; k < h->n; k++) {
        const lf_op *op = &h->ops[order[k]];
        lf_rep_op_label(label, sizeof label, h, op);
        note_of(nt, op, order[k], note, sizeof note);
        size_t len = strlen(label) + strlen(note) + 5;
        if (len > col) col = len;
        for (size_t ti = 0; ti < n_threads; ti++)
            if (threads[ti] == op->thread && ++count[ti] > rows) rows = count[ti];
    }
    fprintf(f, "ops by thread (in call order; * = named by the explanation)\n ");
    for (size_t ti = 0; ti < n_threads; ti++) {
        char name[64];
        lane_name(name, sizeof name, threads[ti], has_serial, serial);
        fprintf(f, " %-*s", ti + 1 < n_threads ? (int)col : 0, name); /* no trailing blanks */
    }
    fputc('\n', f);
    for (size_t row = 0; row < rows; row++) {
        char cells[TABLE_MAX_THREADS][448];
        size_t seen[TABLE_MAX_THREADS] = {0};
        for (size_t ti = 0; ti < n_threads; ti++) cells[ti][0] = 0;
        for (size_t k = 0; k < h->n; k++) {
            size_t i = order[k];
            for (size_t ti = 0; ti < n_threads; ti++) {
                if (threads[ti] != h->ops[i].thread || seen[ti]++ != row) continue;
                lf_rep_op_label(label, sizeof label, h, &h->ops[i]);
                note_of(nt, &h->ops[i], i, note, sizeof note);
                lf_rep_tag(k, h->n, tag);
                snprintf(cells[ti], sizeof cells[ti], "%s %s%s%s", tag, label, marked && marked[i] ? " *" : "", note);
            }
        }
        char line[TABLE_MAX_THREADS * 460 + 8];
        int w = snprintf(line, sizeof line, " ");
        for (size_t ti = 0; ti < n_threads && w > 0 && (size_t)w < sizeof line; ti++)
            w += snprintf(line + w, sizeof line - (size_t)w, " %-*s", (int)col, cells[ti]);
        size_t end = strlen(line);
        while (end > 0 && line[end - 1] == ' ') end--; /* no trailing blanks */
        fprintf(f, "%.*s\n", (int)end, line);
    }
    fputc('\n', f);
    free(threads);
    free(order);
}

/* ---- the whole report ---- */

/* The root-cause candidates: the best one with its source lines, the others one line each. */
static void write_causes(FILE *f, const lf_report_input *in) {
    for (size_t k = 0; k < in->n_causes; k++) {
        const lf_report_cause *c = &in->causes[k];
        char status[160];
        if (!c->validated)
            snprintf(status, sizeof status, "not validated");
        else
            snprintf(status, sizeof status, "%s: %" PRIu64 " violations in %" PRIu64 " schedules when %s",
                     lf_report_cause_confirmed(c) ? "confirmed" : "not confirmed", c->violations, c->schedules,
                     c->exclusion ? "enforced" : "atomic");
        if (k == 0) {
            lf_esc_printf(f, "root cause (candidate %u of %zu%s): %s\n", c->rank, in->n_causes,
                          in->causes_of_test ? ", on the minimized test" : "", c->summary ? c->summary : "-");
            fprintf(f, "  %s", status);
            if (c->passing) fprintf(f, "; would forbid %" PRIu64 " of %" PRIu64 " passing runs", c->forbids, c->passing);
            fputc('\n', f);
            if (!c->exclusion && c->file) {
                lf_esc_printf(f, "  %s:%u-%u%s%s%s\n", c->file, c->line_lo, c->line_hi, c->function ? " (in " : "",
                              c->function ? c->function : "", c->function ? ")" : "");
                for (size_t l = 0; c->source && l < c->n_source; l++)
                    lf_esc_printf(f, "  %6zu | %s\n", (size_t)c->line_lo + l, c->source[l]);
            }
        } else {
            if (k == 1) fprintf(f, "other candidates:\n");
            lf_esc_printf(f, "  %u. %s (%s)\n", c->rank, c->summary ? c->summary : "-", status);
        }
    }
    if (in->n_causes) fputc('\n', f);
}

void lf_report_write(FILE *f, const lf_report_input *in) {
    const lf_history *h = in->history;
    bool *marked = calloc(h->n ? h->n : 1, sizeof *marked);
    for (size_t w = 0; marked && w < in->n_why; w++)
        for (size_t c = 0; c < in->why[w].n_culprits; c++)
            if (in->why[w].culprits[c] < h->n) marked[in->why[w].culprits[c]] = true;
    lf_op_part *parts = in->has_serial ? lf_report_parts(in) : NULL;
    size_t *match = lf_report_match_recorded(in);
    op_notes nt = {parts, match, in->recorded};

    size_t n_threads = 0;
    free(lf_rep_threads(h, &n_threads));
    const char *shape = in->n_why && in->why[0].level != LF_LEVEL_NONE ? lf_level_name(in->why[0].level)
                                                                      : lf_violation_shape(h);
    char contract[96] = "";
    if (!lf_contract_is_default(&h->contract)) lf_contract_format(contract, sizeof contract, &h->contract);
    if (contract[0])
        lf_esc_printf(f, "=== CONTRACT VIOLATION  adapter=%s  type=%s  contract=%s  shape=%s ===\n",
                      in->adapter ? in->adapter : "-", lf_history_type_name(h), contract, shape);
    else
        lf_esc_printf(f, "=== LINEARIZABILITY VIOLATION  adapter=%s  type=%s  shape=%s ===\n",
                      in->adapter ? in->adapter : "-", lf_history_type_name(h), shape);
    if (contract[0])
        fprintf(f, "contract:   %s (what the structure promises instead of linearizability: docs/contracts.md)\n",
                contract);
    if (in->origin) lf_esc_printf(f, "found by:   %s\n", in->origin);
    if (in->workload) lf_esc_printf(f, "workload:   %s\n", in->workload);
    if (in->full_ops)
        fprintf(f, "history:    %zu ops recorded, shown: %zu ops on %zu threads\n", in->full_ops, h->n, n_threads);
    if (in->test_summary) lf_esc_printf(f, "test:       %s\n", in->test_summary);
    if (in->minimize_summary) lf_esc_printf(f, "minimized:  %s\n", in->minimize_summary);
    if (in->bucket) lf_esc_printf(f, "bucket:     %s\n", in->bucket);
    size_t *order = lf_rep_call_order(h);
    for (size_t k = 0; order && in->has_cut && k < h->n; k++) {
        const lf_op *op = &h->ops[order[k]];
        if (lf_op_pending(op) || op->ret != in->cut_stamp) continue;
        char tag[24], desc[200], note[224];
        lf_rep_tag(k, h->n, tag);
        lf_history_describe_op(h, op, desc, sizeof desc);
        note_of(&nt, op, order[k], note, sizeof note);
        fprintf(f, "first bad:  %s: %s%s (the first impossible result of the run)\n", tag, desc, note);
    }
    fputc('\n', f);
    write_causes(f, in);
    for (size_t w = 0; w < in->n_why; w++) lf_esc_printf(f, "why (%s): %s\n", in->why[w].engine, in->why[w].reason);
    if (in->n_why) fputc('\n', f);

    ops_by_thread(f, h, marked, &nt, in->has_serial, in->serial_thread);
    fprintf(f, "timeline (one column per call/return event, in real-time order; [ call, ] return, > pending)\n");
    timeline(f, h, marked, in->has_cut, in->cut_stamp, in->has_serial, in->serial_thread);
    fputc('\n', f);

    fprintf(f, "history (text format: save as a .hist file and run `linfuzz check` on it)\n");
    lf_text_write_header(f, h);
    if (h->has_init) {
        if (h->init_kind == LF_K_NIL)
            fprintf(f, "init nil\n");
        else
            fprintf(f, "init %" PRId64 "\n", h->init);
    }
    if (h->capacity) fprintf(f, "capacity %" PRIu64 "\n", h->capacity);
    lf_text_write_contract(f, h);
    for (size_t k = 0; order && k < h->n && k < 4 * LF_REPORT_TIMELINE_MAX_OPS; k++) {
        char text[LF_TEXT_OP_MAX], tag[24], note[224];
        text[lf_text_format_history_op(text, h, &h->ops[order[k]])] = 0; /* it does not terminate */
        lf_rep_tag(k, h->n, tag);
        note_of(&nt, &h->ops[order[k]], order[k], note, sizeof note);
        fprintf(f, "%-40s # %s%s%s\n", text, tag, marked && marked[order[k]] ? " *" : "", note);
    }
    if (h->n > 4 * LF_REPORT_TIMELINE_MAX_OPS)
        fprintf(f, "# ... %zu more ops: `linfuzz show --history minimized ENTRY` prints them all\n",
                h->n - 4 * LF_REPORT_TIMELINE_MAX_OPS);
    free(order);
    free(marked);
    free(parts);
    free(match);
}

char *lf_report_render(const lf_report_input *in) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    lf_report_write(f, in);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---- shape ---- */

typedef struct value_ref {
    int64_t value;
    uint8_t nil;
    uint8_t role; /* 0 insert, 1 remove, 2 observe */
    uint32_t op;
} value_ref;

static int cmp_value_ref(const void *pa, const void *pb) {
    const value_ref *a = pa, *b = pb;
    if (a->nil != b->nil) return a->nil - b->nil;
    if (a->value != b->value) return a->value < b->value ? -1 : 1;
    return a->op < b->op ? -1 : a->op > b->op;
}

static const char *counter_shape(const lf_history *h) {
    for (size_t i = 0; i < h->n; i++) {
        const lf_op *g = &h->ops[i];
        if (g->method != LF_M_GET || g->res_kind != LF_K_INT) continue;
        int64_t done = 0, started = 0; /* incs completed before the get, incs called before it returned */
        for (size_t j = 0; j < h->n; j++) {
            const lf_op *o = &h->ops[j];
            if (o->method != LF_M_INC) continue;
            if (lf_precedes(o, g)) done++;
            if (o->call <= g->ret) started++;
        }
        if (g->res < done) return "LOST_UPDATE";
        if (g->res > started) return "COUNT_TOO_HIGH";
        for (size_t j = 0; j < h->n; j++) {
            const lf_op *e = &h->ops[j];
            if (e->method == LF_M_GET && e->res_kind == LF_K_INT && lf_precedes(e, g) && e->res > g->res)
                return "COUNT_WENT_BACK";
        }
    }
    return "COUNTER_VALUE";
}

/* Definite facts about values of collections and registers; NULL when none applies. */
static const char *value_shape(const lf_history *h) {
    size_t n = h->n, m = 0;
    value_ref *refs = malloc((n ? n : 1) * LF_BULK_MAX * sizeof *refs); /* a bulk op: up to LF_BULK_MAX values */
    if (!refs) return NULL;
    for (size_t i = 0; i < n; i++) {
        const lf_op *op = &h->ops[i];
        const lf_method_info *mi = lf_method_info_of(h->type, (lf_method)op->method);
        if (!mi) continue;
        if (lf_method_is_bulk(op->method)) { /* the values it inserted (a pending one: offered) or returned */
            bool insert = mi->role == LF_ROLE_INSERT;
            unsigned k = insert && lf_op_pending(op) ? op->count : lf_bulk_moved(op);
            for (unsigned v = 0; v < k && v < LF_BULK_MAX; v++)
                refs[m++] = (value_ref){op->arg[v], 0, (uint8_t)(insert ? 0 : 1), (uint32_t)i};
            continue;
        }
        if (mi->role == LF_ROLE_INSERT) {
            if (op->res_kind != LF_K_FULL) /* a refused insert inserted nothing */
                refs[m++] = (value_ref){op->arg[0], (uint8_t)lf_arg_is_nil(op, 0), 0, (uint32_t)i};
        } else if (op->res_kind == LF_K_INT || op->res_kind == LF_K_NIL)
            refs[m++] = (value_ref){op->res_kind == LF_K_NIL ? 0 : op->res, op->res_kind == LF_K_NIL,
                                    (uint8_t)(mi->role == LF_ROLE_REMOVE ? 1 : 2), (uint32_t)i};
    }
    qsort(refs, m, sizeof *refs, cmp_value_ref);
    const char *shape = NULL;
    int rank = 99; /* keep the most specific fact: never inserted < before inserted < twice */
    for (size_t a = 0; a < m;) {
        size_t b = a;
        while (b < m && refs[b].nil == refs[a].nil && refs[b].value == refs[a].value) b++;
        size_t inserts = 0, removes = 0;
        for (size_t k = a; k < b; k++) inserts += refs[k].role == 0, removes += refs[k].role == 1;
        bool is_init = h->type == LF_TYPE_REGISTER &&
                       (h->init_kind == LF_K_NIL ? refs[a].nil : !refs[a].nil && refs[a].value == h->init);
        for (size_t k = a; k < b; k++) {
            if (refs[k].role == 0) continue;
            const lf_op *use = &h->ops[refs[k].op];
            if (inserts == 0 && !is_init && rank > 0) {
                shape = "VALUE_NEVER_INSERTED", rank = 0;
                continue;
            }
            bool any_before = is_init;
            for (size_t j = a; j < b; j++)
                if (refs[j].role == 0 && h->ops[refs[j].op].call <= use->ret) any_before = true;
            if (!any_before && rank > 1) shape = "VALUE_RETURNED_BEFORE_INSERTED", rank = 1;
        }
        if (removes > inserts && h->type != LF_TYPE_REGISTER && rank > 2) shape = "VALUE_RETURNED_TWICE", rank = 2;
        a = b;
    }
    /* empty although some value was definitely inside: inserted before the call, not yet removable */
    for (size_t i = 0; !shape && i < n && n <= 4096; i++) {
        const lf_op *e = &h->ops[i];
        if (e->res_kind != LF_K_EMPTY) continue;
        for (size_t a = 0; a < m && !shape;) {
            size_t b = a, inserted = 0, maybe_removed = 0;
            while (b < m && refs[b].nil == refs[a].nil && refs[b].value == refs[a].value) b++;
            for (size_t k = a; k < b; k++) {
                const lf_op *o = &h->ops[refs[k].op];
                if (refs[k].role == 0 && lf_precedes(o, e)) inserted++;
                if (refs[k].role == 1 && o->call <= e->ret) maybe_removed++;
            }
            if (inserted > maybe_removed) shape = "EMPTY_WHILE_PRESENT";
            a = b;
        }
    }
    free(refs);
    return shape;
}

/* Bounded containers: definite facts about the size. FULL_WHILE_NOT_FULL: an insert answered full although
 * fewer than `capacity` values can have been inside at any moment of it (counting every insert called
 * before it returned, less the values whose remove returned before it was called); OVER_CAPACITY: more than
 * `capacity` values were certainly inside at once (just before some op's call, or after the last op: inserted
 * by inserts that had returned, not taken by any remove called earlier). NULL when neither is certain. */
static const char *capacity_shape(const lf_history *h) {
    /* (one value per op: bulk ops' counts are the count rule's, contract_shape) */
    if (!h->capacity || h->n > 4096 || lf_history_has_bulk(h)) return NULL;
    size_t n = h->n;
    for (size_t i = 0; i < n; i++) {
        const lf_op *f = &h->ops[i];
        if (f->res_kind != LF_K_FULL) continue;
        uint64_t ins = 0, rem = 0;
        for (size_t j = 0; j < n; j++) {
            const lf_op *o = &h->ops[j];
            const lf_method_info *mi = lf_method_info_of(h->type, (lf_method)o->method);
            if (j == i || !mi) continue;
            if (mi->role == LF_ROLE_INSERT && o->res_kind != LF_K_FULL && (lf_op_pending(f) || o->call <= f->ret))
                ins++;
            if (mi->role == LF_ROLE_REMOVE && (o->res_kind == LF_K_INT || o->res_kind == LF_K_NIL) && lf_precedes(o, f))
                rem++;
        }
        if ((ins > rem ? ins - rem : 0) < h->capacity) return "FULL_WHILE_NOT_FULL";
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t t = h->ops[i].call, ins = 0, rem = 0;
        for (size_t j = 0; j < n; j++) {
            const lf_op *o = &h->ops[j];
            const lf_method_info *mi = lf_method_info_of(h->type, (lf_method)o->method);
            if (!mi) continue;
            if (mi->role == LF_ROLE_INSERT && o->res_kind == LF_K_NONE && o->ret < t) ins++;
            if (mi->role == LF_ROLE_REMOVE && o->res_kind != LF_K_EMPTY && o->call < t) rem++;
        }
        if (ins > rem && ins - rem > h->capacity) return "OVER_CAPACITY";
    }
    /* and after the last op: every insert that returned, less every remove called (taken or possibly taken) */
    uint64_t ins = 0, rem = 0;
    for (size_t j = 0; j < n; j++) {
        const lf_op *o = &h->ops[j];
        const lf_method_info *mi = lf_method_info_of(h->type, (lf_method)o->method);
        if (!mi) continue;
        if (mi->role == LF_ROLE_INSERT && o->res_kind == LF_K_NONE) ins++;
        if (mi->role == LF_ROLE_REMOVE && o->res_kind != LF_K_EMPTY) rem++;
    }
    if (ins > rem && ins - rem > h->capacity) return "OVER_CAPACITY";
    return NULL;
}

/* Under a contract: the full or empty answer the count rule refuses (EMPTY_BY_COUNT, FULL_BY_COUNT), else where
 * the order went wrong: K_RELAXED_ORDER, PRODUCER_ORDER, BAG_CONTENT, FIFO_ORDER, LIFO_ORDER. */
static const char *contract_shape(const lf_history *h) {
    if (h->contract.full_empty != LF_FULL_EMPTY_EXACT) {
        lf_result r;
        lf_result_init(&r);
        bool done = lf_count_rule_check(h, NULL, &r);
        const char *s = NULL;
        if (done && r.verdict == LF_VIOLATION && r.n_culprits)
            s = lf_count_role_of(h, &h->ops[r.culprits[0]]).insert ? "FULL_BY_COUNT" : "EMPTY_BY_COUNT";
        lf_result_free(&r);
        if (s) return s;
    }
    switch ((lf_order)h->contract.order) {
    case LF_ORDER_K_RELAXED: return "K_RELAXED_ORDER";
    case LF_ORDER_PER_PRODUCER: return "PRODUCER_ORDER";
    case LF_ORDER_BAG: return "BAG_CONTENT";
    default: return h->type == LF_TYPE_STACK ? "LIFO_ORDER" : "FIFO_ORDER";
    }
}

const char *lf_violation_shape(const lf_history *h) {
    switch (h->type) {
    case LF_TYPE_COUNTER:
        return counter_shape(h);
    case LF_TYPE_STACK:
    case LF_TYPE_QUEUE:
    case LF_TYPE_PQUEUE:
    case LF_TYPE_DEQUE: {
        /* The facts hold under every contract (docs/contracts.md): a value certainly inside throughout an empty
         * answer, or fewer values than the capacity at every moment of a full one, is beyond even weak answers. */
        const char *s = value_shape(h);
        if (!s) s = capacity_shape(h);
        if (s) return s;
        if (!lf_contract_is_default(&h->contract)) return contract_shape(h);
        return h->type == LF_TYPE_STACK ? "LIFO_ORDER"
               : h->type == LF_TYPE_QUEUE ? "FIFO_ORDER"
               : h->type == LF_TYPE_PQUEUE ? "PRIORITY_ORDER"
                                           : "DEQUE_ORDER";
    }
    case LF_TYPE_REGISTER: {
        const char *s = value_shape(h);
        return s ? s : "REGISTER_VALUE";
    }
    case LF_TYPE_CAS_REGISTER:
        return "REGISTER_VALUE";
    case LF_TYPE_SET:
        return "SET_MEMBERSHIP";
    case LF_TYPE_KV:
        return "KV_VALUE";
    default:
        return "CUSTOM_RESULT";
    }
}

void lf_violation_signature(const lf_history *minimized, bool has_cut, uint64_t cut_stamp, lf_violation_sig *out) {
    size_t count[64] = {0};
    snprintf(out->type, sizeof out->type, "%s", lf_history_type_name(minimized));
    out->shape = lf_violation_shape(minimized);
    snprintf(out->cut_method, sizeof out->cut_method, "-");
    for (size_t i = 0; i < minimized->n; i++) {
        const lf_op *op = &minimized->ops[i];
        const lf_method_decl *d = lf_history_method(minimized, op->method);
        if (op->method < 64) count[op->method]++;
        if (has_cut && d && !lf_op_pending(op) && op->ret == cut_stamp)
            snprintf(out->cut_method, sizeof out->cut_method, "%s", d->name);
    }
    size_t w = 0;
    out->methods[0] = 0;
    for (unsigned m = 0; m < 64; m++) {
        const lf_method_decl *d = count[m] ? lf_history_method(minimized, m) : NULL;
        if (!d) continue;
        int k = snprintf(out->methods + w, sizeof out->methods - w, "%s%s*%zu", w ? "," : "", d->name, count[m]);
        if (k < 0 || (size_t)k >= sizeof out->methods - w) break; /* at most 23 built-in or 16 custom methods */
        w += (size_t)k;
    }
}

void lf_violation_bucket(const char *adapter, const lf_history *minimized, bool has_cut, uint64_t cut_stamp,
                         char out[17]) {
    lf_violation_sig sig;
    lf_violation_signature(minimized, has_cut, cut_stamp, &sig);
    /* The key's layout (each method followed by a comma) is what the first entries were named with: keep it,
     * so that buckets stay comparable across versions. */
    char key[1024];
    int w = snprintf(key, sizeof key, "%s|%s|%s|%s%s|%s", adapter ? adapter : "", sig.type, sig.shape, sig.methods,
                     sig.methods[0] ? "," : "", sig.cut_method);
    size_t len = w > 0 && (size_t)w < sizeof key ? (size_t)w : sizeof key - 1;
    snprintf(out, 17, "%016llx", (unsigned long long)XXH64(key, len, 0));
}
