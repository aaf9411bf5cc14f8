/* linfuzz-make-seeds ROOT [ADAPTER...]: writes the seed inputs of the fuzz targets, one file per seed in ROOT/<adapter>/seeds/
 * (every adapter when none is named). ci/make_seeds.sh regenerates the committed corpus/ with it.
 *
 * Seeds are canonical fuzz cases (testcase/fuzz_case.h) of the shapes that find bugs in practice: two
 * threads racing insert/remove pairs, several threads with mixed calls, longer runs with the schedule the OS
 * gives (free mode), a prefilled object drained at the end, and two long threads (256 calls each, for bugs
 * that need many updates inside one operation, such as a counter or tag that wraps). All but the free one
 * are controlled-mode cases (docs/scheduling.md) with PCT schedules of depth 2 or 3 or a choice sequence;
 * their repetitions explore other schedules, each under a memory model of its own (mixed: sc, tso, c11,
 * docs/memory-models.md). The fuzzer mutates from there. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "findings/entry.h"
#include "testcase/fuzz_case.h"
#include "util/escape.h"

typedef struct seed_shape {
    const char *name;
    uint8_t threads, body, rounds, repeats, keys, prefix;
    bool drain;
    lf_perturb perturb;
    lf_fc_mode mode;
    lf_sched_strategy strategy;
    uint8_t bound; /* change points (PCT) or choices (CHOICES) */
} seed_shape;

static const seed_shape SHAPES[] = {
    {"pairs", 2, 2, 8, 8, 2, 0, true, {128, 64, 200, 64}, LF_FC_CONTROLLED, LF_SCHED_PCT, 1},
    {"wide", 4, 4, 16, 4, 3, 0, true, {512, 128, 300, 160}, LF_FC_CONTROLLED, LF_SCHED_PCT, 2},
    {"natural", 3, 3, 32, 4, 2, 0, true, {0, 0, 0, 0}, LF_FC_FREE, LF_SCHED_PCT, 0},
    {"prefilled", 2, 3, 4, 8, 2, 4, true, {256, 32, 3000, 64}, LF_FC_CONTROLLED, LF_SCHED_CHOICES, 4},
    {"long", 2, 4, 64, 16, 2, 2, true, {64, 16, 300, 64}, LF_FC_CONTROLLED, LF_SCHED_PCT, 3},
};

/* Fills the shape's calls: thread t, call i uses method (t + i) mod n (so that every method races with every
 * other one somewhere) and an argument spreading over the keys. The prefix inserts (method 0 is an insert for
 * container and register type: add, push, enq, insert, put, write; a counter's is get, harmless). */
static void build(lf_fuzz_case *c, const seed_shape *s, unsigned n_methods, unsigned index) {
    memset(c, 0, sizeof *c);
    c->threads = s->threads;
    c->rounds = s->rounds;
    c->repeats = s->repeats;
    c->key_domain = s->keys;
    c->drain = s->drain;
    c->perturb = s->perturb;
    c->seed = 0x5eed0000u + index;
    for (unsigned t = 0; t < s->threads; t++) {
        c->body_len[t] = s->body;
        for (unsigned i = 0; i < s->body; i++)
            c->body[t][i] = (lf_fc_call){(uint8_t)((t + i) % n_methods), (uint8_t)(t * 7 + i * 3)};
    }
    c->prefix_len = s->prefix;
    for (unsigned i = 0; i < s->prefix; i++) c->prefix[i] = (lf_fc_call){0, (uint8_t)i};
    /* The schedule: thread t's priority falls with t, change points early in thread 0's and 1's ops. */
    c->mode = (uint8_t)s->mode;
    lf_schedule *sch = &c->schedule;
    sch->strategy = (uint8_t)s->strategy;
    sch->seed = 0x5c4ed000u + index;
    sch->memory_model = LF_SCHED_MEMORY_MIXED; /* every repetition draws its memory model (docs/memory-models.md) */
    for (unsigned t = 0; t < s->threads; t++) sch->priority[t] = (uint8_t)(200 - 40 * t);
    if (s->strategy == LF_SCHED_CHOICES) {
        sch->n_choices = s->bound;
        for (unsigned i = 0; i < s->bound; i++) sch->choices[i] = (lf_sched_choice){(uint8_t)(3 + 5 * i), 0};
    } else {
        sch->bound = s->bound;
        for (unsigned i = 0; i < s->bound; i++) sch->change[i] = (lf_sched_position){(uint8_t)(i % 2), (uint16_t)i, (uint8_t)(2 + 3 * i)};
    }
    lf_fuzz_case_normalize(c, n_methods);
}

static int write_seeds(const char *root, const lf_adapter *a) {
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s/%s/seeds", root, a->name);
    if (!lf_mkdirs(dir)) {
        lf_esc_printf(stderr, "linfuzz-make-seeds: cannot create %s: %s\n", dir, strerror(errno));
        return 4;
    }
    lf_method ms[LF_M_COUNT];
    unsigned nm = lf_fuzz_case_methods(a, ms);
    for (unsigned k = 0; k < sizeof SHAPES / sizeof SHAPES[0]; k++) {
        lf_fuzz_case c;
        uint8_t bytes[LF_FC_MAX_ENCODED];
        build(&c, &SHAPES[k], nm, k);
        size_t len = lf_fuzz_case_encode(&c, bytes);
        snprintf(path, sizeof path, "%s/%s", dir, SHAPES[k].name);
        char err[4400];
        if (lf_write_bytes_atomic(path, bytes, len, err, sizeof err) != LF_OK) {
            lf_esc_printf(stderr, "linfuzz-make-seeds: %s\n", err);
            return 4;
        }
    }
    lf_esc_printf(stdout, "%s: %zu seeds\n", dir, sizeof SHAPES / sizeof SHAPES[0]);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "--help")) {
        fprintf(argc < 2 ? stderr : stdout, "usage: linfuzz-make-seeds ROOT [ADAPTER...]\n");
        return argc < 2 ? 2 : 0;
    }
    int status = 0;
    if (argc == 2) {
        for (size_t i = 0; i < lf_adapter_count() && !status; i++) status = write_seeds(argv[1], lf_adapter_at(i));
        return status;
    }
    for (int i = 2; i < argc && !status; i++) {
        const lf_adapter *a = lf_adapter_find(argv[i]);
        if (!a) {
            lf_esc_printf(stderr, "linfuzz-make-seeds: no adapter '%s'\n", argv[i]);
            return 2;
        }
        status = write_seeds(argv[1], a);
    }
    return status;
}
