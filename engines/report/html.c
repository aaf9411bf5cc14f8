/* The HTML page of a violation (report.h, lf_report_html_write): one self-contained file that a person opens
 * in a browser to see what went wrong, in the manner of porcupine's visualizer ([Porcupine] in
 * docs/references.md): each history drawn as bars on a time axis, one lane per thread, the longest
 * linearizable prefix coloured with the sequential state after each of its ops on hover, the ops that cannot
 * go next with the reason, the first impossible return marked, the root-cause candidates with their source
 * lines, and the commands that reproduce it.
 *
 * Everything is rendered here, in C, as HTML and inline SVG (the page reads without JavaScript; SVG <title>s
 * give tooltips); a small inline script adds the hover panel and the highlighting of an op in every view, and
 * records that it ran (#lf-status) and any script error (#lf-errors), which the browser test reads (opened as
 * PAGE#lf-selftest, the script also hovers the first op of the prefix and keeps what the panel showed in
 * #lf-status's data-selftest). Nothing is
 * fetched: no external resource, and a Content-Security-Policy that forbids any. Every text that comes from
 * the history, the explanation or the caller (entries may be hostile) goes through esc(). */
#include "linfuzz/report.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/selfspec.h"
#include "linfuzz/spec.h"
#include "report/ops.h"
#include "util/escape.h"
#include "util/grow.h"

/* ---- escaping ---- */

/* Writes s with &, <, >, " and ' escaped: safe in text and in double- or single-quoted attributes. The page
 * is valid UTF-8 (it declares it): a byte that starts no UTF-8 character, a control character other than tab
 * and newline, and the other characters util/escape.h shows escaped (bidirectional formatting, line
 * separators) become U+FFFD. */
static void esc_n(FILE *f, const char *s, size_t n) {
    for (size_t i = 0; i < n && s[i];) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: {
            uint32_t cp;
            size_t len = lf_utf8_char(s + i, n - i, &cp);
            if (!len || (lf_char_is_unsafe(cp) && cp != '\n' && cp != '\t'))
                fputs("\xef\xbf\xbd", f);
            else
                fwrite(s + i, 1, len, f);
            i += len ? len : 1;
            continue;
        }
        }
        i++;
    }
}

static void esc(FILE *f, const char *s) {
    if (s) esc_n(f, s, strlen(s));
}

/* printf, escaped. */
__attribute__((format(printf, 2, 3))) static void escf(FILE *f, const char *fmt, ...) {
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    esc(f, buf);
}

/* ---- a growing string (tooltips) ---- */

typedef struct text {
    char *s;
    size_t n, cap;
    bool failed;
} text;

__attribute__((format(printf, 2, 3))) static void text_add(text *t, const char *fmt, ...) {
    if (t->failed) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int w = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        if (w < 0) {
            t->failed = true;
            return;
        }
        if (t->s && t->n + (size_t)w < t->cap) {
            t->n += (size_t)w;
            return;
        }
        if (!LF_GROW(t->s, t->cap, t->n + (size_t)w + 1, 256)) {
            t->failed = true;
            return;
        }
    }
}

/* ---- the explanation of one history: longest linearizable prefix, states, blocked ops ---- */

#define STATE_MAX 240 /* characters of a state description */

typedef struct explained {
    bool have;          /* a longest linearizable prefix was found */
    char note[600];     /* when not: why (budget, size); when split: which part */
    lf_result r;        /* the WGL search's verdict and reason */
    long *pos;          /* per op: position in the prefix, or -1 */
    char **state_after; /* per op of the prefix: the state after it */
    char initial[STATE_MAX + 4], final[STATE_MAX + 4];
    char **why;         /* per op of the failing part outside the prefix: why it does not go next */
    bool *stuck;        /* per op: it could be next in real time, and the specification refuses it */
    bool *in_part;      /* per op: in the part of the history that failed (all, unless split by key) */
} explained;

static void explained_free(explained *x, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (x->state_after) free(x->state_after[i]);
        if (x->why) free(x->why[i]);
    }
    free(x->pos);
    free(x->state_after);
    free(x->why);
    free(x->stuck);
    free(x->in_part);
    lf_result_free(&x->r);
}

static void describe_state(const lf_spec_inst *in, const void *state, char out[STATE_MAX + 4]) {
    char buf[4096];
    int w = lf_spec_describe_state(in, state, buf, sizeof buf);
    if (w <= 0) {
        snprintf(out, STATE_MAX + 4, "(not described)");
    } else if ((size_t)w > STATE_MAX || (size_t)w >= sizeof buf) {
        memcpy(out, buf, STATE_MAX);
        memcpy(out + STATE_MAX, "...", 4);
    } else {
        memcpy(out, buf, (size_t)w + 1);
    }
}

/* Explains h with the WGL search (its verdict carries the longest linearizable prefix) against what check says
 * (NULL: the spec of h's type); then replays the prefix on that specification for the states (the self-spec's
 * right after its check, while its memo holds them), and tries each remaining op of the failing part. False
 * only when out of memory. */
static bool explain(const lf_history *h, const lf_check_options *check, size_t max_ops, double timeout_s,
                    const char *const *tags, explained *x) {
    size_t n = h->n;
    memset(x, 0, sizeof *x);
    lf_result_init(&x->r);
    if (n > max_ops) {
        snprintf(x->note, sizeof x->note, "%zu ops: more than the %zu this page searches for a longest linearizable "
                 "prefix", n, max_ops);
        return true;
    }
    lf_check_options o;
    if (check)
        o = *check;
    else
        lf_check_options_default(&o);
    o.engine = LF_ENGINE_WGL;
    o.timeout_s = timeout_s;
    o.want_witness = false;
    lf_check(h, &o, &x->r);
    if (x->r.verdict != LF_VIOLATION || !x->r.prefix) {
        snprintf(x->note, sizeof x->note, "the search for the longest linearizable prefix gave no prefix (%s: %s)",
                 lf_verdict_name(x->r.verdict), x->r.reason);
        return true;
    }
    const void *user = o.spec_user;
    const lf_spec *spec = o.self ? lf_selfspec_as_spec(o.self, &user) : o.spec ? o.spec : lf_spec_of_history(h);
    lf_spec_env env;
    lf_spec_env_of_history(h, &env);
    env.user = user;
    lf_spec_inst inst;
    if (!spec) {
        snprintf(x->note, sizeof x->note, "no sequential specification for type %s", lf_history_type_name(h));
        return true;
    }
    if (!lf_spec_open(spec, &env, &inst)) return false;
    x->pos = malloc((n ? n : 1) * sizeof *x->pos);
    x->state_after = calloc(n ? n : 1, sizeof *x->state_after);
    x->why = calloc(n ? n : 1, sizeof *x->why);
    x->stuck = calloc(n ? n : 1, sizeof *x->stuck);
    x->in_part = calloc(n ? n : 1, sizeof *x->in_part);
    size_t ss = inst.state_size ? inst.state_size : 1;
    unsigned char *state = malloc(ss), *next = malloc(ss);
    bool ok = x->pos && x->state_after && x->why && x->stuck && x->in_part && state && next;
    if (!ok) goto out;
    for (size_t i = 0; i < n; i++) x->pos[i] = -1;

    /* The part that failed: when every op has a partition key, the checker split the history by key and the
     * prefix is the failing part's (the key of its culprits, else of its prefix). */
    bool split = spec->partition_key != NULL && n > 0;
    uint64_t key = 0, k;
    for (size_t i = 0; split && i < n; i++) split = lf_spec_partition_key(spec, &env, &h->ops[i], &k);
    if (split) {
        uint32_t probe = x->r.n_culprits ? x->r.culprits[0] : x->r.prefix_len ? x->r.prefix[0] : 0;
        lf_spec_partition_key(spec, &env, &h->ops[probe < n ? probe : 0], &key);
    }
    size_t part_ops = 0;
    for (size_t i = 0; i < n; i++) {
        x->in_part[i] = !split || (lf_spec_partition_key(spec, &env, &h->ops[i], &k) && k == key);
        part_ops += x->in_part[i];
    }
    if (split && part_ops < n)
        snprintf(x->note, sizeof x->note, "the history splits by key (P-compositionality); the part that fails has "
                 "%zu of its %zu ops, the others are linearizable on their own", part_ops, n);

    lf_spec_init(&inst, state);
    describe_state(&inst, state, x->initial);
    size_t done = 0;
    for (size_t p = 0; p < x->r.prefix_len; p++) {
        uint32_t i = x->r.prefix[p];
        if (i >= n || !lf_spec_step(&inst, state, &h->ops[i], next)) break; /* the search's order: never refused */
        memcpy(state, next, ss);
        x->pos[i] = (long)p;
        char buf[STATE_MAX + 4];
        describe_state(&inst, state, buf);
        if (!(x->state_after[i] = strdup(buf))) {
            ok = false;
            goto out;
        }
        done++;
    }
    memcpy(x->final, x->initial, sizeof x->final);
    for (size_t i = 0; i < n; i++)
        if (x->pos[i] == (long)done - 1) snprintf(x->final, sizeof x->final, "%s", x->state_after[i]);
    x->have = true;

    /* Why each remaining op of the part does not go next. An op can go next (as WGL orders them) only when
     * every op that returned before it was called has gone; of those that could, the specification refuses
     * each in the state after the prefix (else the prefix would be longer). */
    for (size_t i = 0; i < n; i++) {
        if (!x->in_part[i] || x->pos[i] >= 0) continue;
        const lf_op *c = &h->ops[i];
        char buf[STATE_MAX + 512];
        size_t first = SIZE_MAX;
        for (size_t j = 0; j < n; j++)
            if (j != i && x->in_part[j] && x->pos[j] < 0 && lf_precedes(&h->ops[j], c) &&
                (first == SIZE_MAX || h->ops[j].ret < h->ops[first].ret))
                first = j;
        if (lf_op_pending(c)) {
            snprintf(buf, sizeof buf, "pending: it may take effect later, or never");
        } else if (first != SIZE_MAX) {
            snprintf(buf, sizeof buf, "waits for %s, which returned before this op was called and has not taken "
                     "effect", tags[first]);
        } else if (!lf_spec_step(&inst, state, c, next)) {
            x->stuck[i] = true;
            snprintf(buf, sizeof buf, "cannot go next: the specification does not allow it in state %s", x->final);
        } else {
            snprintf(buf, sizeof buf, "allowed in state %s, but no order of the remaining ops follows it", x->final);
        }
        if (!(x->why[i] = strdup(buf))) {
            ok = false;
            goto out;
        }
    }
out:
    free(state);
    free(next);
    lf_spec_close(&inst);
    return ok;
}

/* ---- one history's view: tags, event ranks, the SVG timeline, the prefix and the blocked ops ---- */

typedef struct view {
    const lf_history *h;
    const char *id;       /* "min" or "rec": the data-sec of its elements */
    size_t *order;        /* call order */
    size_t *rank_of;      /* per op: its call rank in order (its tag's number) */
    char (*tags)[24];
    const char **tag_ptr; /* tags as strings, per op */
    size_t *call_ev, *ret_ev, n_ev;
    explained x;
    const lf_op_part *parts; /* or NULL */
    const bool *kept;        /* per op: also in the minimized history (recorded view), or NULL */
    const bool *named;       /* per op: named by an explanation, or NULL */
    const size_t *match;     /* per op: the recorded op it stands for (minimized view), or NULL */
    const lf_history *recorded;
    bool has_cut;
    uint64_t cut_stamp;
    bool has_serial;
    uint32_t serial;
} view;

typedef struct ev {
    uint64_t stamp;
    uint32_t op;
    uint8_t is_ret;
} ev;

static int cmp_ev(const void *pa, const void *pb) {
    const ev *a = pa, *b = pb;
    if (a->stamp != b->stamp) return a->stamp < b->stamp ? -1 : 1;
    if (a->is_ret != b->is_ret) return a->is_ret - b->is_ret; /* calls first: equal stamps overlap */
    return a->op < b->op ? -1 : a->op > b->op;
}

static void view_free(view *v) {
    explained_free(&v->x, v->h->n);
    free(v->order);
    free(v->rank_of);
    free(v->tags);
    free(v->tag_ptr);
    free(v->call_ev);
    free(v->ret_ev);
}

static bool view_init(view *v, const lf_history *h, const char *id, const lf_check_options *check, size_t max_ops,
                      double timeout_s) {
    size_t n = h->n;
    memset(v, 0, sizeof *v);
    v->h = h;
    v->id = id;
    lf_result_init(&v->x.r);
    v->order = lf_rep_call_order(h);
    v->rank_of = malloc((n ? n : 1) * sizeof *v->rank_of);
    v->tags = malloc((n ? n : 1) * sizeof *v->tags);
    v->tag_ptr = malloc((n ? n : 1) * sizeof *v->tag_ptr);
    v->call_ev = malloc((n ? n : 1) * sizeof *v->call_ev);
    v->ret_ev = malloc((n ? n : 1) * sizeof *v->ret_ev);
    ev *evs = malloc((2 * n + 1) * sizeof *evs);
    bool ok = v->order && v->rank_of && v->tags && v->tag_ptr && v->call_ev && v->ret_ev && evs;
    if (ok) {
        for (size_t k = 0; k < n; k++) {
            v->rank_of[v->order[k]] = k;
            lf_rep_tag(k, n, v->tags[v->order[k]]);
        }
        for (size_t i = 0; i < n; i++) v->tag_ptr[i] = v->tags[i];
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            evs[m++] = (ev){h->ops[i].call, (uint32_t)i, 0};
            v->ret_ev[i] = SIZE_MAX;
            if (!lf_op_pending(&h->ops[i])) evs[m++] = (ev){h->ops[i].ret, (uint32_t)i, 1};
        }
        qsort(evs, m, sizeof *evs, cmp_ev);
        for (size_t e = 0; e < m; e++) {
            if (evs[e].is_ret)
                v->ret_ev[evs[e].op] = e;
            else
                v->call_ev[evs[e].op] = e;
        }
        v->n_ev = m;
        ok = explain(h, check, max_ops, timeout_s, v->tag_ptr, &v->x);
    }
    free(evs);
    if (!ok) view_free(v);
    return ok;
}

static bool is_first_bad(const view *v, size_t i) {
    return v->has_cut && !lf_op_pending(&v->h->ops[i]) && v->h->ops[i].ret == v->cut_stamp;
}

static void ordinal(char *buf, size_t len, long k) {
    long m = k % 100;
    const char *suffix = (m >= 11 && m <= 13) ? "th" : k % 10 == 1 ? "st" : k % 10 == 2 ? "nd" : k % 10 == 3 ? "rd" : "th";
    snprintf(buf, len, "%ld%s", k, suffix);
}

/* What the minimiser changed of op i, for labels: " (recorded: get -> 15)" when it lowered a counter's get,
 * " (in flight at the first impossible return)" when the cut made it pending; "" otherwise. */
static void recorded_note(const view *v, size_t i, char *buf, size_t len) {
    buf[0] = 0;
    if (!v->match || v->match[i] == SIZE_MAX) return;
    const lf_op *op = &v->h->ops[i], *r = &v->recorded->ops[v->match[i]];
    char label[160];
    lf_rep_op_label(label, sizeof label, v->recorded, r);
    if (lf_op_pending(op) && !lf_op_pending(r))
        snprintf(buf, len, " (in flight at the first impossible return; recorded: %s)", label);
    else if (r->res_kind != op->res_kind || (r->res_kind == LF_K_INT && r->res != op->res))
        snprintf(buf, len, " (recorded: %s)", label);
}

/* The tooltip of op i: what it is, and what the explanation says of it. */
static char *op_tip(const view *v, size_t i) {
    const lf_op *op = &v->h->ops[i];
    text t = {0};
    char desc[200];
    lf_history_describe_op(v->h, op, desc, sizeof desc);
    text_add(&t, "%s  %s", v->tags[i], desc);
    if (v->parts && v->parts[i] != LF_PART_WORKER) text_add(&t, "  [%s]", lf_op_part_name(v->parts[i]));
    char note[224];
    recorded_note(v, i, note, sizeof note);
    if (note[0]) text_add(&t, "\n%s", note + 1);
    if (is_first_bad(v, i)) text_add(&t, "\nthe first impossible return: every shorter prefix of the events is linearizable");
    if (v->named && v->named[i]) text_add(&t, "\nnamed by the checker's explanation");
    if (v->kept && v->kept[i]) text_add(&t, "\nkept in the minimized history");
    if (v->x.have && v->x.pos[i] >= 0) {
        char nth[32];
        ordinal(nth, sizeof nth, v->x.pos[i] + 1);
        text_add(&t, "\nlinearized %s in the longest linearizable prefix; state after it: %s", nth,
                 v->x.state_after[i]);
    } else if (v->x.have && v->x.why[i]) {
        text_add(&t, "\n%s", v->x.why[i]);
    } else if (v->x.have && !v->x.in_part[i]) {
        text_add(&t, "\nin another part of the history (another key): linearizable there");
    }
    return t.failed ? NULL : t.s;
}

/* The lane name of thread t. */
static void lane(char *buf, size_t len, const view *v, uint32_t t) {
    if (v->has_serial && t == v->serial)
        snprintf(buf, len, "T%" PRIu32 " serial", t);
    else
        snprintf(buf, len, "T%" PRIu32, t);
}

#define LANE_H 30
#define BAR_H 20
#define AXIS_H 22
#define CHAR_W 6.6 /* width of a character of the 11px monospace labels */

static bool svg_timeline(FILE *f, const view *v) {
    const lf_history *h = v->h;
    size_t n = h->n, n_threads = 0;
    uint32_t *threads = lf_rep_threads(h, &n_threads);
    if (!threads) return false;
    /* step: wide enough for every label inside its bar when the history is small, else a dense axis */
    double step = 10;
    char label[224];
    for (size_t i = 0; i < n && n <= 60; i++) {
        lf_rep_op_label(label, sizeof label, h, &h->ops[i]);
        size_t span = (v->ret_ev[i] == SIZE_MAX ? v->n_ev : v->ret_ev[i]) - v->call_ev[i];
        double need = ((double)strlen(label) + strlen(v->tags[i]) + 2) * CHAR_W + 8;
        if (need / (double)(span ? span : 1) > step) step = need / (double)(span ? span : 1);
    }
    if (step > 90) step = 90;
    if (n > 60) step = n > 600 ? 6 : 10;
    double left = 60;
    for (size_t t = 0; t < n_threads; t++) {
        char name[48];
        lane(name, sizeof name, v, threads[t]);
        if (strlen(name) * 7.5 + 14 > left) left = (double)strlen(name) * 7.5 + 14;
    }
    double width = left + step * (double)(v->n_ev + 1) + 20, height = AXIS_H + LANE_H * (double)n_threads + 22;
    fprintf(f, "<div class=\"scroll\"><svg class=\"timeline\" id=\"tl-%s\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">\n",
            v->id, width, height, width, height);
    fprintf(f, "<text class=\"axis\" x=\"4\" y=\"%.0f\">time &#8594; (one step per call or return)</text>\n",
            height - 6);
    for (size_t t = 0; t < n_threads; t++) {
        char name[48];
        lane(name, sizeof name, v, threads[t]);
        double y = AXIS_H + LANE_H * (double)t;
        fprintf(f, "<rect class=\"lane%s\" x=\"0\" y=\"%.0f\" width=\"%.0f\" height=\"%d\"/>", t % 2 ? " odd" : "",
                y, width, LANE_H);
        fprintf(f, "<text class=\"lname\" x=\"4\" y=\"%.0f\">", y + 19);
        esc(f, name);
        fprintf(f, "</text>\n");
    }
    /* the first impossible return */
    for (size_t i = 0; i < n; i++) {
        if (!is_first_bad(v, i)) continue;
        double x = left + step * ((double)v->ret_ev[i] + 0.5);
        bool room_right = x + 24 * CHAR_W < width; /* else the label goes to the left of the line */
        fprintf(f, "<line class=\"cut\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.0f\"/>"
                   "<text class=\"cutlabel\" x=\"%.1f\" y=\"14\" text-anchor=\"%s\">first impossible return</text>\n",
                x, AXIS_H - 4, x, height - 18, room_right ? x + 3 : x - 3, room_right ? "start" : "end");
        break;
    }
    for (size_t k = 0; k < n; k++) {
        size_t i = v->order[k];
        const lf_op *op = &h->ops[i];
        size_t t = 0;
        while (t < n_threads && threads[t] != op->thread) t++;
        bool pending = lf_op_pending(op);
        double x0 = left + step * ((double)v->call_ev[i] + 0.5);
        double x1 = pending ? width - 12 : left + step * ((double)v->ret_ev[i] + 0.5);
        double y = AXIS_H + LANE_H * (double)t + (LANE_H - BAR_H) / 2.0;
        const char *cls = v->x.have && v->x.pos[i] >= 0 ? " lin"
                          : v->x.have && v->x.stuck[i] ? " stuck"
                          : v->x.have && v->x.in_part[i] ? " wait"
                                                         : "";
        char *tip = op_tip(v, i);
        if (!tip) {
            free(threads);
            return false;
        }
        fprintf(f, "<g class=\"op%s%s%s%s%s\" data-sec=\"%s\" data-op=\"%zu\" data-tip=\"", cls,
                is_first_bad(v, i) ? " bad" : "", pending ? " pend" : "", v->kept && v->kept[i] ? " kept" : "",
                v->named && v->named[i] ? " named" : "", v->id, i);
        esc(f, tip);
        fprintf(f, "\"><title>");
        esc(f, tip);
        fprintf(f, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" rx=\"3\"/>", x0, y,
                x1 - x0 > 2 ? x1 - x0 : 2, BAR_H);
        lf_rep_op_label(label, sizeof label, h, op);
        char shown[256];
        snprintf(shown, sizeof shown, "%s %s", v->tags[i], label);
        size_t fit = (size_t)((x1 - x0 - 6) / CHAR_W);
        if (fit >= strlen(v->tags[i]) + 1) {
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x0 + 4, y + 14);
            esc_n(f, shown, fit < strlen(shown) ? fit : strlen(shown));
            fprintf(f, "</text>");
        }
        fprintf(f, "</g>\n");
        free(tip);
    }
    fprintf(f, "</svg></div>\n");
    free(threads);
    return true;
}

/* The middle of an op's list item: its tooltip (the attribute the caller opened), its tag, its description and
 * the note on its recorded counterpart. */
static void op_item_middle(FILE *f, const view *v, size_t i, const char *tip, const char *desc) {
    esc(f, tip);
    char note[224];
    recorded_note(v, i, note, sizeof note);
    fprintf(f, "\"><b>");
    esc(f, v->tags[i]);
    fprintf(f, "</b> <code>");
    esc(f, desc);
    fprintf(f, "</code><span class=\"muted\">");
    esc(f, note);
}

/* The longest linearizable prefix, in order, with the state after each op; then the ops that do not go
 * next. */
static bool prefix_lists(FILE *f, const view *v) {
    const lf_history *h = v->h;
    if (!v->x.have) {
        fprintf(f, "<p class=\"muted\">No longest linearizable prefix: ");
        esc(f, v->x.note);
        fprintf(f, ".</p>\n");
        return true;
    }
    size_t len = 0;
    for (size_t i = 0; i < h->n; i++) len += v->x.pos[i] >= 0;
    fprintf(f, "<h3>Longest linearizable prefix: %zu of %zu ops</h3>\n", len, h->n);
    if (v->x.note[0]) {
        fprintf(f, "<p class=\"muted\">");
        esc(f, v->x.note);
        fprintf(f, ".</p>\n");
    }
    fprintf(f, "<p>A legal order of ops that respects real time, as long as one exists (hover an op for the "
               "state after it). Initial state: <code class=\"state\">");
    esc(f, v->x.initial);
    fprintf(f, "</code></p>\n<ol class=\"prefix\">\n");
    for (size_t p = 0; p < len; p++) {
        size_t i = 0;
        while (i < h->n && v->x.pos[i] != (long)p) i++;
        if (i == h->n) break;
        char desc[200];
        lf_history_describe_op(h, &h->ops[i], desc, sizeof desc);
        char *tip = op_tip(v, i);
        if (!tip) return false;
        fprintf(f, "<li data-sec=\"%s\" data-op=\"%zu\" data-tip=\"", v->id, i);
        op_item_middle(f, v, i, tip, desc);
        fprintf(f, "</span> &#8594; <code class=\"state\">");
        esc(f, v->x.state_after[i]);
        fprintf(f, "</code></li>\n");
        free(tip);
    }
    fprintf(f, "</ol>\n<h3>Ops that cannot go next</h3>\n<p>State after the prefix: <code class=\"state\">");
    esc(f, v->x.final);
    fprintf(f, "</code></p>\n<ul class=\"blocked\">\n");
    /* the ops the specification refuses first, then those that wait, then pending ones */
    for (int pass = 0; pass < 3; pass++) {
        for (size_t k = 0; k < h->n; k++) {
            size_t i = v->order[k];
            if (!v->x.why[i]) continue;
            bool pending = lf_op_pending(&h->ops[i]);
            if ((pass == 0) != v->x.stuck[i] || (pass == 2) != (pending && !v->x.stuck[i])) continue;
            char desc[200];
            lf_history_describe_op(h, &h->ops[i], desc, sizeof desc);
            char *tip = op_tip(v, i);
            if (!tip) return false;
            fprintf(f, "<li class=\"%s\" data-sec=\"%s\" data-op=\"%zu\" data-tip=\"",
                    v->x.stuck[i] ? "stuck" : pending ? "pend" : "wait", v->id, i);
            op_item_middle(f, v, i, tip, desc);
            fprintf(f, "</span>: ");
            esc(f, v->x.why[i]);
            fprintf(f, "</li>\n");
            free(tip);
        }
    }
    fprintf(f, "</ul>\n");
    return true;
}

/* ---- the page ---- */

static const char STYLE[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#1d2330;background:#fafbfc}"
    "main{max-width:1200px;margin:0 auto;padding:16px 24px 48px}"
    "h1{font-size:20px;margin:8px 0 4px;word-break:break-all}h2{font-size:17px;margin:28px 0 8px;"
    "border-bottom:1px solid #d8dde6;padding-bottom:4px}h3{font-size:15px;margin:16px 0 6px}"
    "code,pre{font:12px/1.4 ui-monospace,'DejaVu Sans Mono',monospace}"
    "pre{background:#f0f2f5;padding:8px 10px;border-radius:4px;overflow-x:auto;white-space:pre}"
    ".banner{background:#fdecea;border:1px solid #f1b0a8;border-radius:6px;padding:10px 14px;margin:10px 0}"
    ".facts{border-collapse:collapse;margin:8px 0}.facts th{text-align:left;padding:2px 14px 2px 0;"
    "color:#586174;font-weight:600;vertical-align:top;white-space:nowrap}.facts td{padding:2px 0;"
    "word-break:break-word;white-space:pre-wrap}"
    ".muted{color:#6b7385}.scroll{overflow-x:auto;border:1px solid #d8dde6;background:#fff;border-radius:4px}"
    "svg.timeline{display:block;font:11px ui-monospace,'DejaVu Sans Mono',monospace}"
    ".lane{fill:#fff}.lane.odd{fill:#f6f7f9}.lname{fill:#3a4255;font-weight:600}.axis{fill:#6b7385}"
    ".op rect{fill:#dfe3ea;stroke:#8a93a6;stroke-width:1}.op text{fill:#1d2330;pointer-events:none}"
    ".op.lin rect{fill:#cfead2;stroke:#4c9a5a}.op.stuck rect{fill:#f7cbc6;stroke:#c0392b}"
    ".op.wait rect{fill:#f5e6c4;stroke:#b08a2e}.op.pend rect{stroke-dasharray:4 2}"
    ".op.bad rect{stroke:#c0392b;stroke-width:3}.op.kept rect{stroke:#2457c5;stroke-width:2.5}"
    ".op.named text{font-weight:700}.op.hl rect,li.hl{outline:2px solid #2457c5;filter:brightness(0.93)}"
    ".cut{stroke:#c0392b;stroke-width:1.5;stroke-dasharray:5 3}.cutlabel{fill:#c0392b}"
    ".legend span{display:inline-block;margin-right:14px}.sw{display:inline-block;width:14px;height:10px;"
    "border:1px solid #8a93a6;margin-right:4px;vertical-align:-1px}"
    ".sw.lin{background:#cfead2;border-color:#4c9a5a}.sw.stuck{background:#f7cbc6;border-color:#c0392b}"
    ".sw.wait{background:#f5e6c4;border-color:#b08a2e}.sw.bad{border:3px solid #c0392b}"
    ".sw.kept{border:2.5px solid #2457c5}"
    "ol.prefix li,ul.blocked li{margin:2px 0;padding:1px 4px;border-radius:3px}ul.blocked li.stuck{background:#fbe3e0}"
    "code.state{background:#eef5ee;padding:0 3px;border-radius:3px}"
    ".cause{border:1px solid #d8dde6;border-radius:6px;padding:8px 12px;margin:8px 0;background:#fff}"
    ".cause.confirmed{border-color:#4c9a5a}.src .ln{color:#8a93a6;user-select:none}"
    "#lf-tip{position:fixed;right:12px;bottom:12px;max-width:560px;background:#1d2330;color:#f4f6fa;"
    "padding:8px 10px;border-radius:6px;font:12px/1.4 ui-monospace,monospace;white-space:pre-wrap;"
    "box-shadow:0 2px 8px rgba(0,0,0,.3)}#lf-status{color:#6b7385;font-size:12px}"
    "#lf-errors{background:#fdecea;color:#8a1f11}";

/* Catches every script error into the page (set up before anything else runs). */
static const char SCRIPT_ERRORS[] =
    "window.onerror=function(m,s,l,c){var e=document.getElementById('lf-errors');"
    "if(e){e.hidden=false;e.textContent+='script error: '+m+' (line '+l+':'+c+')\\n';}return false;};";

/* Hover: the op's tooltip in a panel, and the op highlighted in every view of its history. */
static const char SCRIPT_MAIN[] =
    "(function(){'use strict';"
    "var tip=document.getElementById('lf-tip');"
    "function same(el){return document.querySelectorAll('[data-sec=\"'+el.getAttribute('data-sec')+'\"]"
    "[data-op=\"'+el.getAttribute('data-op')+'\"]');}"
    "function show(el,on){var s=same(el);for(var i=0;i<s.length;i++){s[i].classList.toggle('hl',on);}"
    "if(on){tip.textContent=el.getAttribute('data-tip');tip.hidden=false;}else{tip.hidden=true;}}"
    "var ops=document.querySelectorAll('[data-tip]');"
    "for(var i=0;i<ops.length;i++){(function(el){"
    "el.addEventListener('mouseenter',function(){show(el,true);});"
    "el.addEventListener('mouseleave',function(){show(el,false);});})(ops[i]);}"
    "var st=document.getElementById('lf-status');"
    /* #lf-selftest (the browser test): hover the first linearized op of the minimized history, keep its panel */
    "if(location.hash==='#lf-selftest'){var el=document.querySelector('li[data-sec=\"min\"]')||ops[0];"
    "if(el){el.dispatchEvent(new Event('mouseenter'));st.setAttribute('data-selftest',tip.textContent);"
    "st.setAttribute('data-highlighted',String(document.querySelectorAll('.hl').length));}}"
    "st.setAttribute('data-ready','yes');"
    "st.textContent='interactive: hover an op for its state and explanation ('+ops.length+' ops and list items)';"
    "})();";

static void write_causes(FILE *f, const lf_report_input *in) {
    fprintf(f, "<section id=\"rootcause\"><h2>Root cause</h2>\n");
    if (!in->n_causes) {
        fprintf(f, "<p class=\"muted\">This entry has no root-cause analysis: the history says what went wrong, "
                   "not which code did it.</p></section>\n");
        return;
    }
    if (in->causes_of_test)
        fprintf(f, "<p class=\"muted\">Found on the minimized test, not the whole workload: a region confirmed "
                   "there may be only part of the cause.</p>\n");
    for (size_t k = 0; k < in->n_causes; k++) {
        const lf_report_cause *c = &in->causes[k];
        bool confirmed = lf_report_cause_confirmed(c);
        fprintf(f, "<div class=\"cause%s\"><h3>%u. ", confirmed ? " confirmed" : "", c->rank);
        esc(f, c->summary ? c->summary : "(no summary)");
        fprintf(f, "</h3>\n<p>");
        if (c->validated)
            escf(f, "%s: %" PRIu64 " violations in %" PRIu64 " schedules when %s.",
                 confirmed ? "Confirmed" : "Not confirmed", c->violations, c->schedules,
                 c->exclusion ? "enforced" : "atomic");
        else
            fprintf(f, "Not validated.");
        if (c->passing)
            escf(f, " Would forbid %" PRIu64 " of %" PRIu64 " recorded passing runs.", c->forbids, c->passing);
        fprintf(f, "</p>\n");
        if (c->exclusion) {
            fprintf(f, "<p>Method-level exclusion: <code>");
            esc(f, c->methods[0]);
            fprintf(f, "</code> must not overlap <code>");
            esc(f, c->methods[1]);
            fprintf(f, "</code>.</p>\n");
        } else if (c->file) {
            fprintf(f, "<p class=\"loc\"><code>");
            escf(f, "%s:%u-%u", c->file, c->line_lo, c->line_hi);
            fprintf(f, "</code>");
            if (c->function) {
                fprintf(f, " in <code>");
                esc(f, c->function);
                fprintf(f, "</code>");
            }
            fprintf(f, "</p>\n");
            if (c->n_source) {
                fprintf(f, "<pre class=\"src\">");
                for (size_t l = 0; l < c->n_source; l++) {
                    fprintf(f, "<span class=\"ln\">%6zu </span>", (size_t)c->line_lo + l);
                    esc(f, c->source[l]);
                    fputc('\n', f);
                }
                fprintf(f, "</pre>\n");
            }
        }
        fprintf(f, "</div>\n");
    }
    fprintf(f, "</section>\n");
}

static void legend(FILE *f, bool kept) {
    fprintf(f, "<p class=\"legend\"><span><i class=\"sw lin\"></i>in the longest linearizable prefix</span>"
               "<span><i class=\"sw stuck\"></i>cannot go next: refused by the specification</span>"
               "<span><i class=\"sw wait\"></i>waits for an op that cannot go</span>"
               "<span><i class=\"sw bad\"></i>the first impossible return</span>%s"
               "<span>dashed: pending (no return)</span><span>bold label: named by the explanation</span></p>\n",
            kept ? "<span><i class=\"sw kept\"></i>kept in the minimized history</span>" : "");
}

/* The page's head, its title and the line that says what the history violates. */
static void write_page_head(FILE *f, const lf_report_input *in, const lf_report_html_options *o) {
    const lf_history *h = in->history;
    const char *title = o->title ? o->title : "linearizability violation";
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
               "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
               "script-src 'unsafe-inline'; img-src data:\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    esc(f, title);
    fprintf(f, " - linfuzz</title>\n<script>%s</script>\n<style>%s</style></head>\n<body><main>\n", SCRIPT_ERRORS,
            STYLE);
    fprintf(f, "<pre id=\"lf-errors\" hidden></pre>\n<h1>");
    esc(f, title);
    fprintf(f, "</h1>\n<p>");
    const char *shape = in->n_why && in->why[0].level != LF_LEVEL_NONE ? lf_level_name(in->why[0].level)
                                                                      : lf_violation_shape(h);
    if (o->headline)
        escf(f, "adapter %s, type %s: %s", in->adapter ? in->adapter : "-", lf_history_type_name(h), o->headline);
    else if (!lf_contract_is_default(&h->contract)) {
        char contract[96];
        lf_contract_format(contract, sizeof contract, &h->contract);
        escf(f, "adapter %s, type %s: violates its contract '%s' (%s; docs/contracts.md)",
             in->adapter ? in->adapter : "-", lf_history_type_name(h), contract, shape);
    } else
        escf(f, "adapter %s, type %s: not linearizable (%s)", in->adapter ? in->adapter : "-",
             lf_history_type_name(h), shape);
    fprintf(f, "</p>\n<p id=\"lf-status\" data-ready=\"no\">static page (the script has not run)</p>\n");
}

/* The banner: the first impossible result (each, when the view has more than one), or what stands for it. */
static void write_first_bad(FILE *f, const view *vm, const lf_op_part *parts, const lf_report_html_options *o) {
    const lf_history *h = vm->h;
    /* the first impossible result */
    fprintf(f, "<div class=\"banner\" id=\"first-bad\">");
    bool any_bad = false;
    for (size_t k = 0; k < h->n; k++) {
        size_t i = vm->order[k];
        if (!is_first_bad(vm, i)) continue;
        char desc[200];
        lf_history_describe_op(h, &h->ops[i], desc, sizeof desc);
        fprintf(f, "%s<b>First impossible result</b>: <b>", any_bad ? "<br>" : "");
        esc(f, vm->tags[i]);
        char note[224];
        recorded_note(vm, i, note, sizeof note);
        fprintf(f, "</b> <code>");
        esc(f, desc);
        fprintf(f, "</code>");
        esc(f, note);
        fprintf(f, "%s", parts && parts[i] != LF_PART_WORKER ? " (" : "");
        if (parts && parts[i] != LF_PART_WORKER) {
            esc(f, lf_op_part_name(parts[i]));
            fprintf(f, ")");
        }
        fprintf(f, ": every shorter prefix of the run is linearizable, this return is not.");
        any_bad = true;
    }
    if (!any_bad && o->headline) {
        esc(f, o->headline);
    } else if (!any_bad) {
        fprintf(f, "<b>Not linearizable</b>: no linearization of the whole history exists.");
    }
    fprintf(f, "</div>\n");
}

/* The facts table (o->facts) and the engines' explanations of the violation (in->why), with the causes
 * between them. */
static void write_facts_and_why(FILE *f, const lf_report_input *in, const lf_report_html_options *o) {
    fprintf(f, "<table class=\"facts\">\n");
    for (size_t i = 0; i < o->n_facts; i++) {
        fprintf(f, "<tr><th>");
        esc(f, o->facts[i][0]);
        fprintf(f, "</th><td>");
        esc(f, o->facts[i][1]);
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table>\n");

    write_causes(f, in);

    if (in->n_why) {
        fprintf(f, "<section id=\"why\"><h2>Why it is not linearizable</h2>\n<ul>\n");
        for (size_t w = 0; w < in->n_why; w++) {
            fprintf(f, "<li><b>");
            esc(f, in->why[w].engine);
            fprintf(f, "</b>: ");
            esc(f, in->why[w].reason);
            fprintf(f, "</li>\n");
        }
        fprintf(f, "</ul></section>\n");
    }
}

bool lf_report_html_write(FILE *f, const lf_report_input *in, const lf_report_html_options *o) {
    const lf_history *h = in->history;
    size_t max_ops = o->recorded_max_ops ? o->recorded_max_ops : LF_REPORT_HTML_RECORDED_MAX_OPS;
    double timeout = o->explain_timeout_s > 0 ? o->explain_timeout_s : 2;
    view vm, vr;
    bool ok = view_init(&vm, h, "min", o->check, SIZE_MAX, timeout), have_rec = false;
    bool *named = calloc(h->n ? h->n : 1, sizeof *named);
    lf_op_part *parts = in->has_serial ? lf_report_parts(in) : NULL;
    size_t *match = lf_report_match_recorded(in);
    bool *kept = NULL;
    lf_op_part *rec_parts = NULL;
    if (!ok) {
        free(named);
        free(parts);
        free(match);
        return false;
    }
    ok = named && (!in->has_serial || parts) && (!in->recorded || match);
    for (size_t w = 0; ok && w < in->n_why; w++)
        for (size_t c = 0; c < in->why[w].n_culprits; c++)
            if (in->why[w].culprits[c] < h->n) named[in->why[w].culprits[c]] = true;
    vm.parts = parts;
    vm.named = named;
    vm.match = match;
    vm.recorded = in->recorded;
    vm.has_cut = in->has_cut;
    vm.cut_stamp = in->cut_stamp;
    vm.has_serial = in->has_serial;
    vm.serial = in->serial_thread;
    if (ok && in->recorded) {
        have_rec = view_init(&vr, in->recorded, "rec", o->check, max_ops, timeout);
        ok = have_rec;
        kept = calloc(in->recorded->n ? in->recorded->n : 1, sizeof *kept);
        lf_report_input rin = *in;
        rin.history = in->recorded;
        rin.recorded = NULL;
        rec_parts = in->has_serial ? lf_report_parts(&rin) : NULL;
        ok = ok && kept && (!in->has_serial || rec_parts);
        for (size_t i = 0; ok && i < h->n; i++)
            if (match[i] != SIZE_MAX) kept[match[i]] = true;
        if (have_rec) {
            vr.parts = rec_parts;
            vr.kept = kept;
            vr.has_serial = in->has_serial;
            vr.serial = in->serial_thread;
            /* the recorded history's own first impossible return is the minimized one's (the minimiser keeps
             * it), when that op is there */
            vr.has_cut = in->has_cut;
            vr.cut_stamp = in->cut_stamp;
        }
    }
    if (!ok) goto out;

    write_page_head(f, in, o);

    write_first_bad(f, &vm, parts, o);
    write_facts_and_why(f, in, o);

    fprintf(f, "<section id=\"minimized\"><h2>");
    escf(f, "%s history: %zu ops", o->history_name ? o->history_name : in->recorded ? "Minimized" : "The", h->n);
    fprintf(f, "</h2>\n");
    legend(f, false);
    ok = svg_timeline(f, &vm) && prefix_lists(f, &vm);
    fprintf(f, "</section>\n");

    if (ok && have_rec) {
        fprintf(f, "<section id=\"recorded\"><h2>");
        escf(f, "Recorded history: %zu ops", in->recorded->n);
        fprintf(f, "</h2>\n<p>The run as recorded; the ops kept in the minimized history are outlined in blue.</p>\n");
        legend(f, true);
        ok = svg_timeline(f, &vr) && prefix_lists(f, &vr);
        fprintf(f, "</section>\n");
    }

    if (ok && o->n_commands) {
        fprintf(f, "<section id=\"replay\"><h2>Reproduce</h2>\n");
        for (size_t i = 0; i < o->n_commands; i++) {
            fprintf(f, "<pre class=\"cmd\">");
            esc(f, o->commands[i]);
            fprintf(f, "</pre>\n");
        }
        fprintf(f, "</section>\n");
    }
    if (ok && o->history_text) {
        fprintf(f, "<section id=\"text\"><h2>The %s history as text</h2>\n<p>Save it as a <code>.hist</code> file and "
                   "run <code>linfuzz check</code> on it.</p>\n<pre>",
                in->recorded ? "minimized" : "");
        esc(f, o->history_text);
        fprintf(f, "</pre></section>\n");
    }
    fprintf(f, "<div id=\"lf-tip\" hidden></div>\n</main>\n<script>%s</script>\n</body></html>\n", SCRIPT_MAIN);
out:
    view_free(&vm);
    if (have_rec) view_free(&vr);
    free(named);
    free(parts);
    free(rec_parts);
    free(match);
    free(kept);
    return ok && !ferror(f);
}
