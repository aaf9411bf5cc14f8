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

/* The setup byte: bits 0-1 threads - 1, bits 2-3 a register's init, bit 4 extreme values, bit 5 extreme
 * thread ids, bits 6-7 the stamp placement. */
enum { STAMPS_AS_DECODED, STAMPS_TOP, STAMPS_BOTTOM, STAMPS_COARSE_TOP };

static const int64_t EXTREME_VALUES[4] = {INT64_MIN, INT64_MAX, -1, 0};
static const uint32_t EXTREME_THREADS[4] = {UINT32_MAX, UINT32_MAX - 1, 0, 65536};

/* Moves every stamp by the same amount: up so that the largest is 2^64-1, or down so that the smallest is 0. */
static void shift_stamps(lf_history *h, bool to_top) {
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < h->n; i++) {
        const lf_op *op = &h->ops[i];
        if (op->call < lo) lo = op->call;
        if (op->call > hi) hi = op->call;
        if (!lf_op_pending(op) && op->ret > hi) hi = op->ret;
    }
    for (size_t i = 0; i < h->n; i++) {
        lf_op *op = &h->ops[i];
        op->call = to_top ? op->call + (UINT64_MAX - hi) : op->call - lo;
        if (!lf_op_pending(op)) op->ret = to_top ? op->ret + (UINT64_MAX - hi) : op->ret - lo;
    }
}

/* A bulk or burst op (history.h) from two bytes: n = 1 + (b1 & 3) values; an insert's from b1's upper bits, a
 * remove's (as many as its result says) from b2's; any result shape the method allows (a short one only when
 * bounded). Values from the same tiny domain as single ops, so they collide. */
static void bulk_op(lf_op *op, uint8_t b1, uint8_t b2, bool extreme_values, bool bounded) {
    op->count = (uint8_t)(1 + (b1 & 3));
    bool insert = lf_method_is_bulk_insert(op->method), burst = lf_method_is_burst(op->method);
    unsigned values = 0;
    if (insert && burst) {
        op->res_kind = LF_K_INT;
        op->res = bounded ? b2 % (op->count + 1) : op->count;
        values = op->count;
    } else if (insert) {
        op->res_kind = bounded && (b2 & 1) ? LF_K_FULL : LF_K_NONE;
        values = op->count;
    } else if ((b2 & 3) == 0) {
        op->res_kind = LF_K_EMPTY;
    } else {
        op->res_kind = LF_K_INT;
        op->res = burst ? 1 + (b2 >> 2) % op->count : op->count;
        values = (unsigned)op->res;
    }
    uint8_t bits = insert ? b1 >> 2 : b2 >> 2;
    for (unsigned i = 0; i < values; i++) {
        unsigned v = (bits >> (2 * i) | (i ? 0 : b2 >> 6)) & 3;
        op->arg[i] = extreme_values ? EXTREME_VALUES[v] : v;
    }
}

bool lf_history_from_bytes(const uint8_t *data, size_t size, lf_history *h) {
    byte_reader r = {data, size};
    lf_type type = (lf_type)(next_byte(&r) % LF_TYPE_COUNT);
    lf_history_init(h, type);
    uint8_t setup = next_byte(&r);
    uint32_t threads = 1 + setup % 4;
    bool extreme_values = (setup >> 4) & 1, extreme_threads = (setup >> 5) & 1;
    int stamps = setup >> 6;
    if (type == LF_TYPE_REGISTER || type == LF_TYPE_CAS_REGISTER) {
        uint8_t init = (setup >> 2) & 3; /* 0: no init line (the value is 0); 1, 2: init 0, 1; 3: init nil */
        if (init) {
            h->has_init = true;
            h->init_kind = init == 3 ? LF_K_NIL : LF_K_INT;
            h->init = init == 3 ? 0 : extreme_values ? EXTREME_VALUES[init - 1] : init - 1;
        }
    }
    if (lf_type_boundable(type)) h->capacity = (setup >> 2) & 3; /* 0: unbounded; 1..3: a tiny capacity */
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
        op.thread = extreme_threads ? EXTREME_THREADS[t] : t;
        op.method = (uint8_t)mi->method;
        if (lf_method_is_bulk(op.method)) {
            bulk_op(&op, b1, b2, extreme_values, h->capacity != 0);
        } else {
        for (int i = 0; i < mi->nargs; i++) {
            uint8_t bits = (uint8_t)(b1 >> (3 * i)) & 7;
            if (bits == 7)
                op.arg_nil |= (uint8_t)(1u << i);
            else /* a tiny domain: values collide, histories become ambiguous */
                op.arg[i] = extreme_values ? EXTREME_VALUES[bits % 4] : bits % 4;
        }
        /* Results: any allowed kind; integers from the same tiny domain. */
        lf_kind allowed[LF_K_COUNT];
        int n_allowed = 0;
        for (int k = 0; k < LF_K_COUNT; k++)
            if ((mi->results & LF_KBIT(k)) && (k != LF_K_FULL || h->capacity)) allowed[n_allowed++] = (lf_kind)k;
        lf_kind kind = allowed[b2 % n_allowed];
        op.res_kind = (uint8_t)kind;
        if (kind == LF_K_INT) op.res = extreme_values ? EXTREME_VALUES[(b2 >> 4) % 4] : (b2 >> 4) % 4;
        }
        /* Timing: each thread runs its own clock from 0, so threads overlap freely; coarse timing takes one bit
         * of each delay, so calls and returns of different threads often share a stamp. */
        uint64_t gap = b3 & 7, len = (b3 >> 3) & 7;
        if (stamps == STAMPS_COARSE_TOP) gap &= 1, len &= 1;
        op.call = clock_of[t] + 1 + gap;
        op.ret = op.call + len;
        clock_of[t] = op.ret;
        if ((b3 >> 6) == 3 && (b1 & 0x80)) { /* rarely: the thread's last op stays pending */
            lf_op_make_pending(&op);
            finished[t] = true;
        }
        if (!lf_history_push(h, &op)) {
            lf_history_free(h);
            return false;
        }
    }
    if (stamps != STAMPS_AS_DECODED && h->n) shift_stamps(h, stamps != STAMPS_BOTTOM);
    return true;
}
