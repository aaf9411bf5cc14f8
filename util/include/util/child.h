/* Child processes that never outlive the command that started them: triage's and repro's isolated replays
 * (testcase/case_replay.c) and the symbolizer of root causing (rootcause/symbolize.c). A replay can run for
 * minutes; when its parent is killed (a CI timeout, kill -9, a closed terminal), nobody would read its answer,
 * so it must not keep a core busy. */
#ifndef LINFUZZ_UTIL_CHILD_H
#define LINFUZZ_UTIL_CHILD_H

#include <sys/types.h>

/* Called by a child right after fork, with the pid of the process that forked it (getpid() before the fork):
 * the kernel sends the child SIGKILL when the forking thread ends (PR_SET_PDEATHSIG; the thread that forks
 * must wait for the child, as the callers do), and when the parent is already gone (it died between fork and
 * this call: getppid() is another process then) the child exits at once, status 127. Async-signal-safe. */
void lf_child_die_with_parent(pid_t parent);

#endif
