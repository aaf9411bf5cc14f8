/* Scheduling points at the calls into code that is not instrumented (docs/scheduling.md, "Calls into
 * uninstrumented libraries").
 *
 * A shared library linked as it is (Debian's libcritnib.so, libck.so, liburcu-cds.so) has no scheduling point
 * inside: in controlled mode a call into it is one step, and two calls of one operation (a put_if_absent made of
 * critnib_get and critnib_insert) merge into one step, so no schedule ever runs another thread between them. The
 * fuzz targets therefore reach every function of such a library through a wrapper (the linker's --wrap, set up by
 * linfuzz_add_fuzz_target for the shared libraries in LIBRARIES: cmake/linfuzz_fuzz_target.cmake): the wrapper
 * __wrap_F loads the address of the real F and jumps to lf_call_out_trampoline below, which
 *   1. saves the argument registers and calls lf_call_out_enter: a scheduling point (kind LF_EV_LIBCALL, the
 *      address the call's first argument, which is the library's object for most C libraries, so that root
 *      causing sees two calls on one object conflict: the whole call is one access to it, made right after
 *      this point), and the caller's return address pushed on a per-thread stack;
 *   2. calls F with the caller's stack as it was (the return address popped, so stack arguments stay in place);
 *   3. saves the result registers and calls lf_call_out_leave: the scheduling point of the return (no address),
 *      which gives back the caller's return address, and returns there.
 * A free-running thread passes both without a point (only the stack of return addresses), as at any access.
 * Under a weak memory model (docs/memory-models.md) the call and the return are seq_cst fences too, with or
 * without points, and so are the entry into and the return from instrumented code the library calls back (a
 * hash or match function: __tsan_func_entry at the depth of the call, tsan_access.c): the library's own loads
 * and stores are real ones, which the model does not see, so the synchronisation they make must not be lost
 * (as LF_OPAQUE_SYNC()).
 * x86-64 (System V) only; elsewhere no wrapper is made and the start-of-campaign check says so
 * (testcase/probe.c). The return registers rax, rdx, xmm0 and xmm1 are kept; an x87 long double result is not
 * touched by the helpers, which use no floating point. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sched/sched_internal.h"
#include "util/env.h"
#include "util/escape.h"

#define CALL_OUT_DEPTH 256 /* nested calls (a library calling back into code that calls it again) */

typedef struct call_out_frame {
    uintptr_t ret;
    const void *obj;
    unsigned library_at; /* the controlled thread's lf_sched_thread.library_at before the call */
} call_out_frame;

static _Thread_local call_out_frame stack[CALL_OUT_DEPTH];
static _Thread_local unsigned depth;
static _Atomic uint64_t calls_out; /* every call through a wrapper, for the campaign's check */

uint64_t lf_call_out_count(void) { return calls_out; }

/* LINFUZZ_LIBRARY_CALL_POINTS=0: the wrappers make no scheduling point (for measuring what the points give,
 * ci/bench_libraries.sh); read at the first wrapped call. A malformed value stops the program. */
static bool points_on(void) {
    static _Atomic int on = -1;
    int v = on;
    if (v < 0) {
        char err[200];
        bool flag = true;
        if (!lf_env_flag("LINFUZZ_LIBRARY_CALL_POINTS", true, &flag, err, sizeof err)) {
            lf_esc_printf(stderr, "linfuzz: %s\n", err);
            exit(2);
        }
        on = v = flag;
    }
    return v;
}

void lf_call_out_reset(void) { depth = 0; }

/* The prototypes of the trampoline's helpers (called from the assembly below only). */
void lf_call_out_enter(uintptr_t ret, const void *obj);
uintptr_t lf_call_out_leave(void);

void lf_call_out_enter(uintptr_t ret, const void *obj) {
    if (depth == CALL_OUT_DEPTH) {
        fprintf(stderr, "linfuzz: calls into uninstrumented libraries nested %d deep: a recursion through a "
                        "library callback?\n", CALL_OUT_DEPTH);
        abort();
    }
    lf_sched_thread *th = lf_sched_self;
    stack[depth++] = (call_out_frame){ret, obj, th ? th->library_at : UINT_MAX};
    calls_out++;
    if (th && points_on()) lf_sched_point(th, LF_EV_LIBCALL, obj, obj ? 1 : 0, ret);
    if (th) {
        th->library_at = th->n_calls; /* an instrumented function entered at this depth is a callback */
        lf_sched_opaque_sync(th);     /* the library's accesses are real ones, unseen by a weak model */
    }
}

uintptr_t lf_call_out_leave(void) {
    if (!depth) {
        fprintf(stderr, "linfuzz: a return from an uninstrumented library without its call\n");
        abort();
    }
    call_out_frame f = stack[--depth];
    lf_sched_thread *th = lf_sched_self;
    if (th) {
        lf_sched_opaque_sync(th);
        th->library_at = f.library_at;
    }
    /* (no address: the library's accesses were made before this point, at the call's; a switch here only lets
     * other threads run between the return and what the caller does next) */
    if (th && points_on()) lf_sched_point(th, LF_EV_LIBCALL, NULL, 0, f.ret);
    return f.ret;
}

#if defined(__x86_64__) && defined(__ELF__)
/* On entry: r11 = the real function, [rsp] = the caller's return address, rsp = 8 mod 16. */
__asm__(".text\n"
        ".globl lf_call_out_trampoline\n"
        ".hidden lf_call_out_trampoline\n"
        ".type lf_call_out_trampoline,@function\n"
        "lf_call_out_trampoline:\n"
        "    pushq %r11\n"                /* the target; rsp = 0 mod 16 */
        "    subq $192, %rsp\n"           /* the argument registers; rsp = 0 mod 16 */
        "    movq %rdi, 0(%rsp)\n"
        "    movq %rsi, 8(%rsp)\n"
        "    movq %rdx, 16(%rsp)\n"
        "    movq %rcx, 24(%rsp)\n"
        "    movq %r8, 32(%rsp)\n"
        "    movq %r9, 40(%rsp)\n"
        "    movq %rax, 48(%rsp)\n"       /* the vector register count of a variadic call */
        "    movdqu %xmm0, 64(%rsp)\n"
        "    movdqu %xmm1, 80(%rsp)\n"
        "    movdqu %xmm2, 96(%rsp)\n"
        "    movdqu %xmm3, 112(%rsp)\n"
        "    movdqu %xmm4, 128(%rsp)\n"
        "    movdqu %xmm5, 144(%rsp)\n"
        "    movdqu %xmm6, 160(%rsp)\n"
        "    movdqu %xmm7, 176(%rsp)\n"
        "    movq %rdi, %rsi\n"           /* the first argument */
        "    movq 200(%rsp), %rdi\n"      /* the caller's return address */
        "    call lf_call_out_enter\n"
        "    movq 0(%rsp), %rdi\n"
        "    movq 8(%rsp), %rsi\n"
        "    movq 16(%rsp), %rdx\n"
        "    movq 24(%rsp), %rcx\n"
        "    movq 32(%rsp), %r8\n"
        "    movq 40(%rsp), %r9\n"
        "    movq 48(%rsp), %rax\n"
        "    movdqu 64(%rsp), %xmm0\n"
        "    movdqu 80(%rsp), %xmm1\n"
        "    movdqu 96(%rsp), %xmm2\n"
        "    movdqu 112(%rsp), %xmm3\n"
        "    movdqu 128(%rsp), %xmm4\n"
        "    movdqu 144(%rsp), %xmm5\n"
        "    movdqu 160(%rsp), %xmm6\n"
        "    movdqu 176(%rsp), %xmm7\n"
        "    addq $192, %rsp\n"
        "    popq %r11\n"
        "    addq $8, %rsp\n"             /* the return address is kept by lf_call_out_enter; rsp = 0 mod 16 */
        "    call *%r11\n"                /* stack arguments where the caller put them */
        "    subq $64, %rsp\n"            /* the result registers and the return slot (56); rsp = 0 mod 16 */
        "    movq %rax, 0(%rsp)\n"
        "    movq %rdx, 8(%rsp)\n"
        "    movdqu %xmm0, 16(%rsp)\n"
        "    movdqu %xmm1, 32(%rsp)\n"
        "    call lf_call_out_leave\n"
        "    movq %rax, 56(%rsp)\n"
        "    movq 0(%rsp), %rax\n"
        "    movq 8(%rsp), %rdx\n"
        "    movdqu 16(%rsp), %xmm0\n"
        "    movdqu 32(%rsp), %xmm1\n"
        "    addq $56, %rsp\n"
        "    ret\n"
        ".size lf_call_out_trampoline, .-lf_call_out_trampoline\n");
#endif
