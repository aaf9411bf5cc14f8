/* Timestamp sources: names and availability checks (the stamps themselves are inline in runtime/stamp_clock.h). */
#include "runtime/stamp_clock.h"

#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

const char *lf_clock_name(lf_clock_kind k) { return k == LF_CLOCK_TSC ? "tsc" : "ticket"; }

bool lf_clock_from_name(const char *name, lf_clock_kind *out) {
    if (!strcmp(name, "ticket")) {
        *out = LF_CLOCK_TICKET;
        return true;
    }
    if (!strcmp(name, "tsc")) {
        *out = LF_CLOCK_TSC;
        return true;
    }
    return false;
}

bool lf_clock_available(lf_clock_kind k) {
    if (k == LF_CLOCK_TICKET) return true;
#if defined(__x86_64__)
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(0x80000001u, &eax, &ebx, &ecx, &edx) || !(edx & (1u << 27))) return false; /* rdtscp */
    if (!__get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx) || !(edx & (1u << 8))) return false;  /* invariant */
    return true;
#else
    return false;
#endif
}
