/* Structured decoding of bytes into small well-formed histories (see bytes_history.h). */
#include "bytes_history.h"

#include <string.h>

typedef struct {
    const uint8_t *p;
    size_t left;
} byte_reader;

static uint8_t next_byte(byte_reader *r) {
    if (!r->left) return 0;
    r->left--;
    return *r->p++;
}

bool lf_history_from_bytes(const uint8_t *data, size_t size, lf_history *h) {
    byte_reader r = {data, size};
    lf_type type = (lf_type)(next_byte(&r) % LF_TYPE_COUNT);
    lf_history_init(h, type);
    uint8_t setup = next_byte(&r);
    uint32_t threads = 1 + setup % 4;
    if (type == LF_TYPE_REGISTER || type == LF_TYPE_CAS_REGISTER) {
        uint8_t init = (setup >> 2) & 3; /* 0: no init line (the value is 0); 1, 2: init 0, 1; 3: init nil */
        if (init) {
            h->has_init = true;
            h->init_kind = init == 3 ? LF_K_NIL : LF_K_INT;
            h->init = init == 3 ? 0 : init - 1;
        }
    }
    const lf_method_info *methods[LF_M_COUNT];
    int n_methods = 0;
    for (int m = 0; m < LF_M_COUNT; m++) {
        const lf_method_info *mi = lf_method_info_of(type, (lf_method)m);
        if (mi) methods[n_methods++] = mi;
    }
    uint64_t clock_of[4] = {0, 0, 0, 0};
    bool finished[4] = {false, false, false, false};
    while (r.left >= 4 && h->n < LF_BYTES_MAX_OPS) {
        uint8_t b0 = next_byte(&r), b1 = next_byte(&r), b2 = next_byte(&r), b3 = next_byte(&r);
        uint32_t t = b0 % threads;
        while (finished[t] && t + 1 < threads) t++;
        if (finished[t]) break; /* every thread ended with a pending op */
        const lf_method_info *mi = methods[(b0 / 4) % n_methods];
        lf_op op;
        memset(&op, 0, sizeof op);
        op.thread = t;
        op.method = (uint8_t)mi->method;
        for (int i = 0; i < mi->nargs; i++) {
            uint8_t bits = (uint8_t)(b1 >> (3 * i)) & 7;
            if (bits == 7)
                op.arg_nil |= (uint8_t)(1u << i);
            else
                op.arg[i] = bits % 4; /* a tiny domain: values collide, histories become ambiguous */
        }
        /* Results: any allowed kind; integers from the same tiny domain. */
        lf_kind allowed[LF_K_COUNT];
        int n_allowed = 0;
        for (int k = 0; k < LF_K_COUNT; k++)
            if (mi->results & LF_KBIT(k)) allowed[n_allowed++] = (lf_kind)k;
        lf_kind kind = allowed[b2 % n_allowed];
        op.res_kind = (uint8_t)kind;
        if (kind == LF_K_INT) op.res = (b2 >> 4) % 4;
        /* Timing: each thread runs its own clock from 0, so threads overlap freely. */
        op.call = clock_of[t] + 1 + (b3 & 7);
        op.ret = op.call + ((b3 >> 3) & 7);
        clock_of[t] = op.ret;
        if ((b3 >> 6) == 3 && (b1 & 0x80)) { /* rarely: the thread's last op stays pending */
            op.res_kind = LF_K_PENDING;
            op.ret = 0;
            op.res = 0;
            finished[t] = true;
        }
        if (!lf_history_push(h, &op)) {
            lf_history_free(h);
            return false;
        }
    }
    return true;
}
