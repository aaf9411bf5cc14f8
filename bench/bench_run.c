/* One timed run of a command, for the benchmark scripts (ci/bench_anchors.sh).
 *
 * usage: bench_run OUT_FILE COMMAND [ARGS...]
 * Runs COMMAND (stdin from /dev/null, stdout and stderr inherited) and appends one line to OUT_FILE:
 *   "<wall ms> <cpu ms> <peak RSS KiB> <exit status>"
 * CPU time is user + system of the command from wait4 (microseconds, unlike GNU time's 10 ms steps), which
 * is the steadier figure on a loaded machine; peak RSS is wait4's ru_maxrss of the command alone (this
 * helper execs nothing else). The exit status is 128 + signal when the command was killed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: bench_run OUT_FILE COMMAND [ARGS...]\n");
        return 2;
    }
    FILE *out = fopen(argv[1], "a");
    if (!out) {
        fprintf(stderr, "bench_run: %s: %s\n", argv[1], strerror(errno));
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "bench_run: fork: %s\n", strerror(errno));
        return 2;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0) dup2(null, 0);
        execvp(argv[2], argv + 2);
        fprintf(stderr, "bench_run: %s: %s\n", argv[2], strerror(errno));
        _exit(127);
    }
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "bench_run: wait4: %s\n", strerror(errno));
            return 2;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    double cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
                 (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    fprintf(out, "%.1f %.1f %ld %d\n", wall, cpu, ru.ru_maxrss, code);
    return fclose(out) == 0 ? 0 : 2;
}
