/* Violation reports: layout (header, explanations, ops by thread, timeline, pasteable history), the violation
 * shape and the dedup bucket. */
#include "linfuzz/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "linfuzz/format.h"

/* ---- op tags and labels ---- */

/* Op indices of h sorted by call stamp (then index): tags follow this order. */
static size_t *call_order(const lf_history *h) {
    size_t *order = malloc((h->n ? h->n : 1) * sizeof *order);
    if (!order) return NULL;
    for (size_t i = 0; i < h->n; i++) order[i] = i;
    /* insertion sort: reports show small histories, and recorded ones are nearly sorted already */
    for (size_t i = 1; i < h->n; i++) {
        size_t v = order[i], j = i;
        while (j > 0 && h->ops[order[j - 1]].call > h->ops[v].call) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
    return order;
}

/* Tag of the op with call rank k: A..Z for up to 26 ops, else 1, 2, ... */
static void tag_of(size_t k, size_t n, char out[24]) {
    if (n <= 26)
        snprintf(out, 24, "%c", (char)('A' + k));
    else
        snprintf(out, 24, "%zu", k + 1);
}

/* "push 7", "pop -> 7", "pop -> ?" (pending), with the method's arity for type t. */
static void op_label(char *buf, size_t len, lf_type t, const lf_op *op) {
    const lf_method_info *mi = lf_method_info_of(t, (lf_method)op->method);
    int w = snprintf(buf, len, "%s", lf_method_name((lf_method)op->method));
    for (int i = 0; mi && i < mi->nargs && w > 0 && (size_t)w < len; i++) {
        if (lf_arg_is_nil(op, i))
            w += snprintf(buf + w, len - (size_t)w, " nil");
        else
            w += snprintf(buf + w, len - (size_t)w, " %" PRId64, op->arg[i]);
    }
    if (w <= 0 || (size_t)w >= len) return;
    if (lf_op_pending(op))
        snprintf(buf + w, len - (size_t)w, " -> ?");
    else if (op->res_kind == LF_K_INT)
        snprintf(buf + w, len - (size_t)w, " -> %" PRId64, op->res);
    else if (op->res_kind != LF_K_NONE)
        snprintf(buf + w, len - (size_t)w, " -> %s", lf_kind_name((lf_kind)op->res_kind));
}

static int cmp_u32(const void *pa, const void *pb) {
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return a < b ? -1 : a > b;
}

/* Distinct thread ids of h, ascending, into a malloc'ed array. */
static uint32_t *threads_of(const lf_history *h, size_t *n_out) {
    uint32_t *t = malloc((h->n ? h->n : 1) * sizeof *t);
    size_t n = 0;
    if (!t) return NULL;
    for (size_t i = 0; i < h->n; i++) t[i] = h->ops[i].thread;
    qsort(t, h->n, sizeof *t, cmp_u32);
    for (size_t i = 0; i < h->n; i++)
        if (i == 0 || t[i] != t[n - 1]) t[n++] = t[i];
    *n_out = n;
    return t;
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

void lf_report_timeline(FILE *f, const lf_history *h, const bool *marked, bool has_cut, uint64_t cut_stamp) {
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
    size_t *order = call_order(h), n_threads = 0;
    uint32_t *threads = threads_of(h, &n_threads);
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
            tag_of(k, n, tag);
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
        char name[24];
        snprintf(name, sizeof name, "T%" PRIu32, threads[ti]);
        fprintf(f, "  %-5s %s\n", name, line);
    }
    if (cut_rank != SIZE_MAX) {
        char tag[24];
        size_t k = 0;
        while (k < n && order[k] != ev[cut_rank].op) k++;
        tag_of(k, n, tag);
        fprintf(f, "  %-5s %*s^ first impossible return (%s): every shorter prefix of the events is linearizable\n",
                "", (int)(COL * cut_rank), "", tag);
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

static void ops_by_thread(FILE *f, const lf_history *h, const bool *marked) {
    size_t n_threads = 0;
    uint32_t *threads = threads_of(h, &n_threads);
    size_t *order = call_order(h);
    if (!threads || !order || n_threads > TABLE_MAX_THREADS || h->n > LF_REPORT_TIMELINE_MAX_OPS) {
        free(threads);
        free(order);
        return;
    }
    /* Column width: the longest label; rows: the busiest thread. */
    size_t col = 4, rows = 0, count[TABLE_MAX_THREADS] = {0};
    char label[160], tag[24];
    for (size_t k = 0; k < h->n; k++) {
        const lf_op *op = &h->ops[order[k]];
        op_label(label, sizeof label, h->type, op);
        size_t len = strlen(label) + 5;
        if (len > col) col = len;
        for (size_t ti = 0; ti < n_threads; ti++)
            if (threads[ti] == op->thread && ++count[ti] > rows) rows = count[ti];
    }
    fprintf(f, "ops by thread (in call order; * = named by the explanation)\n ");
    for (size_t ti = 0; ti < n_threads; ti++) {
        char name[24];
        snprintf(name, sizeof name, "T%" PRIu32, threads[ti]);
        fprintf(f, " %-*s", ti + 1 < n_threads ? (int)col : 0, name); /* no trailing blanks */
    }
    fputc('\n', f);
    for (size_t row = 0; row < rows; row++) {
        char cells[TABLE_MAX_THREADS][192];
        size_t seen[TABLE_MAX_THREADS] = {0};
        for (size_t ti = 0; ti < n_threads; ti++) cells[ti][0] = 0;
        for (size_t k = 0; k < h->n; k++) {
            size_t i = order[k];
            for (size_t ti = 0; ti < n_threads; ti++) {
                if (threads[ti] != h->ops[i].thread || seen[ti]++ != row) continue;
                op_label(label, sizeof label, h->type, &h->ops[i]);
                tag_of(k, h->n, tag);
                snprintf(cells[ti], sizeof cells[ti], "%s %s%s", tag, label, marked && marked[i] ? " *" : "");
            }
        }
        fputc(' ', f);
        for (size_t ti = 0; ti < n_threads; ti++) fprintf(f, " %-*s", ti + 1 < n_threads ? (int)col : 0, cells[ti]);
        fputc('\n', f);
    }
    fputc('\n', f);
    free(threads);
    free(order);
}

/* ---- the whole report ---- */

void lf_report_write(FILE *f, const lf_report_input *in) {
    const lf_history *h = in->history;
    bool *marked = calloc(h->n ? h->n : 1, sizeof *marked);
    for (size_t w = 0; marked && w < in->n_why; w++)
        for (size_t c = 0; c < in->why[w].n_culprits; c++)
            if (in->why[w].culprits[c] < h->n) marked[in->why[w].culprits[c]] = true;

    size_t n_threads = 0;
    free(threads_of(h, &n_threads));
    fprintf(f, "=== LINEARIZABILITY VIOLATION  adapter=%s  type=%s  shape=%s ===\n", in->adapter ? in->adapter : "-",
            lf_type_name(h->type), lf_violation_shape(h));
    if (in->origin) fprintf(f, "found by:   %s\n", in->origin);
    if (in->workload) fprintf(f, "workload:   %s\n", in->workload);
    if (in->full_ops)
        fprintf(f, "history:    %zu ops recorded, shown: %zu ops on %zu threads\n", in->full_ops, h->n, n_threads);
    if (in->minimize_summary) fprintf(f, "minimized:  %s\n", in->minimize_summary);
    if (in->bucket) fprintf(f, "bucket:     %s\n", in->bucket);
    fputc('\n', f);
    for (size_t w = 0; w < in->n_why; w++)
        fprintf(f, "why (%s): %s\n", in->why[w].engine, in->why[w].reason);
    if (in->n_why) fputc('\n', f);

    ops_by_thread(f, h, marked);
    fprintf(f, "timeline (one column per call/return event, in real-time order; [ call, ] return, > pending)\n");
    lf_report_timeline(f, h, marked, in->has_cut, in->cut_stamp);
    fputc('\n', f);

    fprintf(f, "history (text format: save as a .hist file and run `linfuzz check` on it)\n");
    fprintf(f, "type %s\n", lf_type_name(h->type));
    if (h->has_init) {
        if (h->init_kind == LF_K_NIL)
            fprintf(f, "init nil\n");
        else
            fprintf(f, "init %" PRId64 "\n", h->init);
    }
    size_t *order = call_order(h);
    for (size_t k = 0; order && k < h->n && k < 4 * LF_REPORT_TIMELINE_MAX_OPS; k++) {
        char text[160], tag[24];
        text[lf_text_format_op(text, h->type, &h->ops[order[k]])] = 0; /* it does not terminate */
        tag_of(k, h->n, tag);
        fprintf(f, "%-40s # %s%s\n", text, tag, marked && marked[order[k]] ? " *" : "");
    }
    if (h->n > 4 * LF_REPORT_TIMELINE_MAX_OPS)
        fprintf(f, "# ... %zu more ops: `linfuzz show --history minimized ENTRY` prints them all\n",
                h->n - 4 * LF_REPORT_TIMELINE_MAX_OPS);
    free(order);
    free(marked);
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
    value_ref *refs = malloc((n ? n : 1) * sizeof *refs);
    if (!refs) return NULL;
    for (size_t i = 0; i < n; i++) {
        const lf_op *op = &h->ops[i];
        const lf_method_info *mi = lf_method_info_of(h->type, (lf_method)op->method);
        if (!mi) continue;
        if (mi->role == LF_ROLE_INSERT)
            refs[m++] = (value_ref){op->arg[0], (uint8_t)lf_arg_is_nil(op, 0), 0, (uint32_t)i};
        else if (op->res_kind == LF_K_INT || op->res_kind == LF_K_NIL)
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

const char *lf_violation_shape(const lf_history *h) {
    switch (h->type) {
    case LF_TYPE_COUNTER:
        return counter_shape(h);
    case LF_TYPE_STACK:
    case LF_TYPE_QUEUE:
    case LF_TYPE_PQUEUE:
    case LF_TYPE_DEQUE: {
        const char *s = value_shape(h);
        if (s) return s;
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
        return "VIOLATION";
    }
}

void lf_violation_signature(const lf_history *minimized, bool has_cut, uint64_t cut_stamp, lf_violation_sig *out) {
    size_t count[LF_M_COUNT] = {0};
    out->type = lf_type_name(minimized->type);
    out->shape = lf_violation_shape(minimized);
    out->cut_method = "-";
    for (size_t i = 0; i < minimized->n; i++) {
        const lf_op *op = &minimized->ops[i];
        if (op->method < LF_M_COUNT) count[op->method]++;
        if (has_cut && !lf_op_pending(op) && op->ret == cut_stamp) out->cut_method = lf_method_name((lf_method)op->method);
    }
    size_t w = 0;
    out->methods[0] = 0;
    for (int m = 0; m < LF_M_COUNT; m++) {
        if (!count[m]) continue;
        int k = snprintf(out->methods + w, sizeof out->methods - w, "%s%s*%zu", w ? "," : "",
                         lf_method_name((lf_method)m), count[m]);
        if (k < 0 || (size_t)k >= sizeof out->methods - w) break; /* cannot happen: LF_M_COUNT short names */
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
