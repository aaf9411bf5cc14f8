/* One CPU for a controlled run: its workers share the CPU the run started on, so that a handoff is a context
 * switch on that CPU instead of a wake-up on another one.
 *
 * In controlled mode exactly one worker runs at a time; the others sleep on their baton. Waking a thread that
 * sleeps on another CPU costs an inter-processor interrupt and, when that CPU went idle, its way out of the
 * idle state: measured (linfuzz-bench-sched switch, 2 cores, a virtual machine), 16 us per handoff, against
 * 1.7 us when both threads are on one CPU and the waiter sleeps at once (docs/scheduling.md, "Measurements",
 * "Baton handoffs"). Nothing runs in parallel in a controlled run, so one CPU loses nothing; the CPU is the one the
 * run's controller was on when it started the run, so that the kernel's balancing of the controller spreads
 * runs (and two processes) over the machine. A worker goes back to its own CPUs when it leaves the run, or
 * when the run is released and goes on freely. */
#ifndef LINFUZZ_ONE_CPU_H
#define LINFUZZ_ONE_CPU_H

#include <stdbool.h>

/* The CPU the calling thread runs on, -1 when unknown (a controlled run is then not confined). */
int lf_one_cpu_here(void);

/* Confines the calling thread to cpu (>= 0), remembering the CPUs it had; false when the system refused
 * (the thread then runs where it did). */
bool lf_one_cpu_enter(int cpu);

/* Gives the calling thread back the CPUs it had before lf_one_cpu_enter (nothing when it is not confined). */
void lf_one_cpu_leave(void);

#endif
