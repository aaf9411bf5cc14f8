/* The death of a fuzz target on a finding, one crash per bug (bug_report.h): the bug's lines and its own
 * frames. */
#include "bug_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "util/escape.h"

void lf_bug_id_letters(const char id[17], char out[17]) {
    for (int i = 0; i < 16; i++) {
        char c = id[i];
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : 0;
        out[i] = (char)('a' + v);
    }
    out[16] = 0;
}

/* Each report frame writes its own number here before aborting: their bodies differ, so the linker cannot
 * fold two of them into one. */
static volatile unsigned bug_frame_number;

/* No tail call: the report frame must stay on the stack under abort (clang's disable_tail_calls; the fuzz
 * targets are built with clang). */
#if defined(__clang__)
#define LF_KEEP_FRAME __attribute__((noinline, disable_tail_calls))
#else
#define LF_KEEP_FRAME __attribute__((noinline, optimize("no-optimize-sibling-calls")))
#endif

#define BUG_FRAME(a, b)                                                                                                \
    LF_KEEP_FRAME static void linfuzz_bug_##a##b(void) {                                                               \
        bug_frame_number = (unsigned)(#a[0] - 'a') * 16u + (unsigned)(#b[0] - 'a');                                   \
        fflush(NULL);                                                                                                  \
        abort();                                                                                                       \
    }
#define BUG_ROW(X)                                                                                                     \
    BUG_FRAME(X, a) BUG_FRAME(X, b) BUG_FRAME(X, c) BUG_FRAME(X, d) BUG_FRAME(X, e) BUG_FRAME(X, f) BUG_FRAME(X, g)   \
    BUG_FRAME(X, h) BUG_FRAME(X, i) BUG_FRAME(X, j) BUG_FRAME(X, k) BUG_FRAME(X, l) BUG_FRAME(X, m) BUG_FRAME(X, n)   \
    BUG_FRAME(X, o) BUG_FRAME(X, p)
BUG_ROW(a) BUG_ROW(b) BUG_ROW(c) BUG_ROW(d) BUG_ROW(e) BUG_ROW(f) BUG_ROW(g) BUG_ROW(h)
BUG_ROW(i) BUG_ROW(j) BUG_ROW(k) BUG_ROW(l) BUG_ROW(m) BUG_ROW(n) BUG_ROW(o) BUG_ROW(p)

#define BUG_PTRS(X)                                                                                                    \
    linfuzz_bug_##X##a, linfuzz_bug_##X##b, linfuzz_bug_##X##c, linfuzz_bug_##X##d, linfuzz_bug_##X##e,                \
        linfuzz_bug_##X##f, linfuzz_bug_##X##g, linfuzz_bug_##X##h, linfuzz_bug_##X##i, linfuzz_bug_##X##j,            \
        linfuzz_bug_##X##k, linfuzz_bug_##X##l, linfuzz_bug_##X##m, linfuzz_bug_##X##n, linfuzz_bug_##X##o,            \
        linfuzz_bug_##X##p
static void (*const bug_frames[256])(void) = {BUG_PTRS(a), BUG_PTRS(b), BUG_PTRS(c), BUG_PTRS(d),
                                              BUG_PTRS(e), BUG_PTRS(f), BUG_PTRS(g), BUG_PTRS(h),
                                              BUG_PTRS(i), BUG_PTRS(j), BUG_PTRS(k), BUG_PTRS(l),
                                              BUG_PTRS(m), BUG_PTRS(n), BUG_PTRS(o), BUG_PTRS(p)};

void lf_bug_report_die(const char *what, const lf_violation_entry *e) {
    const char *adapter = lf_entry_meta(e, "adapter");
    adapter = adapter ? adapter : "?";
    lf_triage_category category = LF_TRIAGE_BUG;
    char label[1400], id[17], letters[17];
    if (!lf_triage_entry_group(e, &category, label, sizeof label, id)) {
        snprintf(label, sizeof label, "(no signature: out of memory)");
        snprintf(id, sizeof id, "%016llx", (unsigned long long)XXH64(adapter, strlen(adapter), 0));
    }
    lf_bug_id_letters(id, letters);
    lf_esc_printf(stderr, "linfuzz-fuzz: bug %s = triage group %s: %s %s: %s\n", letters, id,
            lf_triage_category_name(category), adapter, label);
    /* the line ClusterFuzz takes the crash type (ASSERT) and the first line of the crash state from */
    lf_esc_printf(stderr, "[linfuzz-fuzz] ASSERTION FAILED: %s %s in %s: %s\n", what, letters, adapter, label);
    bug_frames[(unsigned)(letters[0] - 'a') * 16u + (unsigned)(letters[1] - 'a')]();
    abort(); /* (the frame does not return) */
}
