/* Converter for ci/bench_anchors.sh: a linfuzz history (text or .lfz) to the log format of fastlin
 * (Lee & Mathur's monitors, https://github.com/solarrabbit99/fastlin), which the benchmark runs side by side.
 *
 * usage: bench_fastlin_log IN.hist OUT.log
 *
 * fastlin reads "# stack|queue|priorityqueue|set" and then one line per op: "method value start end".
 * What differs from linfuzz, and how it is mapped:
 * - Stamps: in linfuzz A precedes B iff A.ret < B.call, equal stamps are concurrent; fastlin sorts (time,
 *   kind) with responses first at equal times. Calls become 2c and returns 2r+1: then r < c iff 2r+1 < 2c,
 *   and no call equals a return, so precedence is exactly the same.
 * - Empty results are fastlin's value -1, so a history that inserts -1 is refused.
 * - Priority queues: linfuzz polls the smallest value, fastlin the largest; values become -v-2 (order
 *   reversing, never -1).
 * - Sets: add -> true is insert, remove -> true is remove, and every other set op only observes presence:
 *   add -> false and contains -> true are contains_true, remove -> false and contains -> false contains_false.
 * Pending ops, nil values and stamps beyond 2^62 are refused (fastlin has no way to say them). Exit 0, or
 * 2 with a message. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/format.h"
#include "linfuzz/history.h"

static int die(const char *in, size_t i, const char *what) {
    fprintf(stderr, "bench_fastlin_log: %s: op %zu: %s\n", in, i, what);
    return 2;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: bench_fastlin_log IN.hist OUT.log\n");
        return 2;
    }
    lf_history h;
    char err[1024];
    if (lf_history_read(argv[1], &h, err, sizeof err) != LF_OK) {
        fprintf(stderr, "bench_fastlin_log: %s\n", err);
        return 2;
    }
    const char *name = h.type == LF_TYPE_STACK    ? "stack"
                       : h.type == LF_TYPE_QUEUE  ? "queue"
                       : h.type == LF_TYPE_PQUEUE ? "priorityqueue"
                       : h.type == LF_TYPE_SET    ? "set"
                                                  : NULL;
    if (!name) {
        fprintf(stderr, "bench_fastlin_log: %s: fastlin has no monitor for %s histories\n", argv[1],
                lf_type_name(h.type));
        return 2;
    }
    FILE *out = fopen(argv[2], "w");
    if (!out) {
        perror(argv[2]);
        return 2;
    }
    static char buf[1 << 16];
    setvbuf(out, buf, _IOFBF, sizeof buf);
    fprintf(out, "# %s\n", name);
    for (size_t i = 0; i < h.n; i++) {
        const lf_op *op = &h.ops[i];
        if (lf_op_pending(op)) return die(argv[1], i, "pending op (fastlin needs complete histories)");
        if (op->ret > (UINT64_C(1) << 62)) return die(argv[1], i, "stamp beyond 2^62");
        const lf_method_info *mi = lf_method_info_of(h.type, (lf_method)op->method);
        const char *m = mi->name;
        int64_t v;
        if (mi->nargs) {
            if (lf_arg_is_nil(op, 0)) return die(argv[1], i, "nil value");
            v = op->arg[0];
        } else if (op->res_kind == LF_K_EMPTY) {
            v = -1;
        } else if (op->res_kind == LF_K_INT) {
            v = op->res;
        } else {
            return die(argv[1], i, "nil value");
        }
        if (h.type == LF_TYPE_SET) {
            bool yes = op->res_kind == LF_K_TRUE;
            m = op->method == LF_M_ADD && yes      ? "insert"
                : op->method == LF_M_REMOVE && yes ? "remove"
                : op->method == LF_M_REMOVE        ? "contains_false"
                : op->method == LF_M_ADD           ? "contains_true"
                : yes                              ? "contains_true"
                                                   : "contains_false";
        } else if (v == -1 && op->res_kind != LF_K_EMPTY) {
            return die(argv[1], i, "value -1 is fastlin's empty marker");
        } else if (h.type == LF_TYPE_PQUEUE && v != -1) {
            if (v == INT64_MAX) return die(argv[1], i, "value 2^63-1 has no reversed counterpart");
            v = -v - 2;
        }
        fprintf(out, "%s %" PRId64 " %" PRIu64 " %" PRIu64 "\n", m, v, 2 * op->call, 2 * op->ret + 1);
    }
    lf_history_free(&h);
    if (fclose(out) != 0) {
        perror(argv[2]);
        return 2;
    }
    return 0;
}
