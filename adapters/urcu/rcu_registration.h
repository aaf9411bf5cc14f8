/* RCU thread registration shared by the liburcu adapters (default "memb" flavour of <urcu.h>).
 *
 * Every thread that enters an RCU read-side critical section must be registered; the runner calls
 * thread_enter / thread_leave on each worker around its ops, which is where the adapters register. */
#ifndef LINFUZZ_RCU_REGISTRATION_H
#define LINFUZZ_RCU_REGISTRATION_H

#include <urcu.h>

static inline void lf_urcu_thread_enter(void *obj) {
    (void)obj;
    rcu_register_thread();
}

static inline void lf_urcu_thread_leave(void *obj) {
    (void)obj;
    rcu_unregister_thread();
}

#endif
