/* WGL on the 102 real etcd cas-register histories of tests/data/etcd (Jepsen, via porcupine's test data)
 * against verdicts.txt: every verdict must match, every witness must be a valid linearization and every
 * violation must come with a valid linearizable prefix and the ops that could not go next. Also through
 * lf_check (engine wgl, and auto, whose last resort for cas-registers is WGL). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/check.h"
#include "linfuzz/format.h"
#include "test_util.h"
#include "wgl/wgl.h"
#include "wgl_test_util.h"

#define ETCD_DIR LINFUZZ_TEST_DATA "/etcd"

int main(void) {
    FILE *f = fopen(ETCD_DIR "/verdicts.txt", "r");
    CHECKF(f != NULL, "cannot open %s/verdicts.txt", ETCD_DIR);
    if (!f) TEST_DONE();
    char name[256], verdict[64];
    int files = 0, lin = 0, vio = 0;
    while (fscanf(f, "%255s %63s", name, verdict) == 2) {
        char path[600], err[512];
        snprintf(path, sizeof path, "%s/%s", ETCD_DIR, name);
        lf_verdict expect = strcmp(verdict, "linearizable") == 0 ? LF_LINEARIZABLE : LF_VIOLATION;
        lf_history h;
        if (lf_history_read(path, &h, err, sizeof err) != LF_OK) {
            CHECKF(0, "%s", err);
            continue;
        }
        files++;
        lin += expect == LF_LINEARIZABLE;
        vio += expect == LF_VIOLATION;
        lf_wgl_options o;
        lf_wgl_options_default(&o);
        o.want_witness = true;
        o.timeout_s = 60;
        lf_result r;
        lf_result_init(&r);
        lf_wgl_check(&h, &o, &r);
        CHECKF(r.verdict == expect, "%s: got %s, expected %s (%s)", name, lf_verdict_name(r.verdict),
               lf_verdict_name(expect), r.reason);
        lf_spec_env env;
        lf_spec_env_of_history(&h, &env);
        const lf_spec *spec = lf_spec_builtin(h.type);
        char why[300] = "";
        if (r.verdict == LF_LINEARIZABLE) {
            CHECKF(order_is_valid(spec, &env, r.witness, r.witness_len, true, why, sizeof why), "%s: witness: %s",
                   name, why);
        } else if (r.verdict == LF_VIOLATION) {
            CHECKF(order_is_valid(spec, &env, r.prefix, r.prefix_len, false, why, sizeof why), "%s: prefix: %s", name,
                   why);
            CHECKF(r.n_culprits >= 1 && strstr(r.reason, "op "), "%s: culprits and reason: %s", name, r.reason);
        }
        lf_result_free(&r);

        /* Same answers without the cache's adaptivity tricks: bitset keys. */
        o.bitset_key = true;
        o.want_witness = false;
        lf_result_init(&r);
        lf_wgl_check(&h, &o, &r);
        CHECKF(r.verdict == expect, "%s with bitset keys: got %s", name, lf_verdict_name(r.verdict));
        lf_result_free(&r);

        /* Through the pipeline: engine wgl, and auto (the monitors do not take cas-registers). */
        lf_check_options co;
        lf_check_options_default(&co);
        co.engine = LF_ENGINE_WGL;
        lf_result_init(&r);
        lf_check(&h, &co, &r);
        CHECKF(r.verdict == expect && strcmp(r.engine, "wgl") == 0, "%s via lf_check wgl: %s by %s", name,
               lf_verdict_name(r.verdict), r.engine);
        lf_result_free(&r);
        /* auto may decide in an earlier stage (the pipeline runs cheaper engines first); WGL is its last. */
        co.engine = LF_ENGINE_AUTO;
        lf_result_init(&r);
        lf_check(&h, &co, &r);
        CHECKF(r.verdict == expect, "%s via lf_check auto: %s by %s (%s)", name, lf_verdict_name(r.verdict), r.engine,
               r.reason);
        lf_result_free(&r);
        lf_history_free(&h);
    }
    fclose(f);
    CHECKF(files == 102 && lin == 23 && vio == 79, "read %d files (%d linearizable, %d violations)", files, lin, vio);
    TEST_DONE();
}
