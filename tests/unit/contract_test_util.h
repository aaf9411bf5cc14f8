/* What the tests of contracts share (docs/contracts.md). */
#ifndef LINFUZZ_CONTRACT_TEST_UTIL_H
#define LINFUZZ_CONTRACT_TEST_UTIL_H

#include "linfuzz/history.h"
#include "test_util.h"

/* The contract of text, which must parse. */
static inline lf_contract contract_of(const char *text) {
    lf_contract c = {0, 0, 0};
    char err[256];
    bool ok = lf_contract_parse(text, &c, err, sizeof err);
    CHECKF(ok, "'%s': %s", text, err);
    return c;
}

#endif
