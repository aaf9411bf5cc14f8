/* lf_appendf (util/appendf.h): pieces appended in order, cut and NUL-terminated where the buffer ends, and the
 * length the whole text would have counted as snprintf counts it, also once the buffer is full. */
#include <string.h>

#include "test_util.h"
#include "util/appendf.h"

int main(void) {
    char buf[16];
    size_t w = 0;
    lf_appendf(buf, sizeof buf, &w, "abc");
    lf_appendf(buf, sizeof buf, &w, " %d-%s", 42, "x");
    CHECK(w == 8 && !strcmp(buf, "abc 42-x"));
    lf_appendf(buf, sizeof buf, &w, "%s", "0123456789"); /* does not fit: cut */
    CHECK(w == 18 && !strcmp(buf, "abc 42-x0123456"));
    lf_appendf(buf, sizeof buf, &w, "more"); /* past the end: nothing written, still counted */
    CHECK(w == 22 && !strcmp(buf, "abc 42-x0123456"));
    lf_appendf(buf, sizeof buf, &w, "%s", ""); /* an empty piece adds nothing */
    CHECK(w == 22);
    /* the whole line's length, as one snprintf would report it */
    char whole[64];
    int n = snprintf(whole, sizeof whole, "abc 42-x0123456789more");
    CHECK(n == (int)w);
    /* a zero-length buffer: only counting */
    size_t c = 0;
    lf_appendf(NULL, 0, &c, "%u items", 12u);
    CHECK(c == 8);
    /* exactly filling: the last byte is the NUL */
    char four[4];
    size_t k = 0;
    lf_appendf(four, sizeof four, &k, "abc");
    CHECK(k == 3 && !strcmp(four, "abc"));
    lf_appendf(four, sizeof four, &k, "d");
    CHECK(k == 4 && !strcmp(four, "abc"));
    TEST_DONE();
}
