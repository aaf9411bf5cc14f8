/* Children tied to their parent's life (child.h). */
#include "util/child.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

void lf_child_die_with_parent(pid_t parent) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return; /* (only where it is not Linux) */
    if (getppid() != parent) _exit(127);                /* the parent died before the death signal was set */
}
