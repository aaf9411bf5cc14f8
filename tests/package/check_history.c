/* A program of a project that uses the installed linfuzz only to check histories (tests/package): reads each
 * history file named on the command line, checks it with the default pipeline and prints "FILE: VERDICT".
 * Built by test_install.sh twice: with find_package(linfuzz) + linfuzz::engines, and with pkg-config. */
#include <stdio.h>

#include "linfuzz/linfuzz.h"

int main(int argc, char **argv) {
    int status = 0;
    printf("linfuzz %s (library %s)\n", LF_VERSION, lf_version());
    for (int i = 1; i < argc; i++) {
        lf_history h;
        char err[512];
        if (lf_history_read(argv[i], &h, err, sizeof err) != LF_OK) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        lf_check_options o;
        lf_check_options_default(&o);
        lf_result r;
        lf_result_init(&r);
        lf_check(&h, &o, &r);
        printf("%s: %s\n", argv[i], lf_verdict_name(r.verdict));
        if (r.verdict != LF_LINEARIZABLE) status = 1;
        lf_result_free(&r);
        lf_history_free(&h);
    }
    return status;
}
