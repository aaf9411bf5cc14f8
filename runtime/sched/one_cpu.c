/* Confining a controlled run's workers to one CPU (see one_cpu.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getcpu, sched_setaffinity */
#endif
#include "sched/one_cpu.h"

#include <sched.h>

#ifdef __linux__
static _Thread_local cpu_set_t my_cpus; /* the calling thread's CPUs before it was confined */
static _Thread_local bool confined;

int lf_one_cpu_here(void) { return sched_getcpu(); }

bool lf_one_cpu_enter(int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) return false;
    if (!confined && sched_getaffinity(0, sizeof my_cpus, &my_cpus) != 0) return false;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) return false;
    confined = true;
    return true;
}

void lf_one_cpu_leave(void) {
    if (!confined) return;
    confined = false;
    (void)sched_setaffinity(0, sizeof my_cpus, &my_cpus);
}
#else
int lf_one_cpu_here(void) { return -1; }
bool lf_one_cpu_enter(int cpu) {
    (void)cpu;
    return false;
}
void lf_one_cpu_leave(void) {}
#endif
