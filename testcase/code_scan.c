/* The program's functions and their atomic instructions (see code_scan.h). */
#include "code_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__) && defined(__ELF__) && UINTPTR_MAX == UINT64_MAX
#include <elf.h>
#include <link.h>

#include "util/grow.h"

/* The main program's load address (the first object dl_iterate_phdr reports). */
static int first_object(struct dl_phdr_info *info, size_t size, void *out) {
    (void)size;
    *(uintptr_t *)out = (uintptr_t)info->dlpi_addr;
    return 1;
}

static int by_lo(const void *a, const void *b) {
    uintptr_t x = ((const lf_code_fn *)a)->lo, y = ((const lf_code_fn *)b)->lo;
    return (x > y) - (x < y);
}

/* The whole file at path (NULL when unreadable). */
static uint8_t *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (!LF_GROW(buf, cap, n + 1, 1 << 20)) {
            free(buf);
            fclose(f);
            return NULL;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    *len = n;
    return buf;
}

bool lf_code_map_load(lf_code_map *m) {
    memset(m, 0, sizeof *m);
    size_t len = 0;
    uint8_t *file = read_all("/proc/self/exe", &len);
    if (!file) return false;
    bool ok = false;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;
    if (len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > len || eh->e_shnum > (len - eh->e_shoff) / sizeof(Elf64_Shdr))
        goto out;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(file + eh->e_shoff);
    for (unsigned i = 0; i < eh->e_shnum && !ok; i++) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum) continue;
        const Elf64_Shdr *st = &sh[sh[i].sh_link];
        if (sh[i].sh_offset > len || sh[i].sh_size > len - sh[i].sh_offset || st->sh_offset > len ||
            st->sh_size > len - st->sh_offset || sh[i].sh_entsize != sizeof(Elf64_Sym) || st->sh_size == 0)
            continue;
        size_t nsym = sh[i].sh_size / sizeof(Elf64_Sym);
        const Elf64_Sym *sym = (const Elf64_Sym *)(file + sh[i].sh_offset);
        m->strings = malloc(st->sh_size + 1);
        m->fn = malloc((nsym ? nsym : 1) * sizeof *m->fn);
        if (!m->strings || !m->fn) break;
        memcpy(m->strings, file + st->sh_offset, st->sh_size);
        m->strings[st->sh_size] = 0;
        uintptr_t bias = 0;
        dl_iterate_phdr(first_object, &bias);
        for (size_t k = 0; k < nsym; k++) {
            if (ELF64_ST_TYPE(sym[k].st_info) != STT_FUNC || !sym[k].st_size || sym[k].st_name >= st->sh_size) continue;
            m->fn[m->n++] = (lf_code_fn){bias + sym[k].st_value, bias + sym[k].st_value + sym[k].st_size,
                                          m->strings + sym[k].st_name};
        }
        qsort(m->fn, m->n, sizeof *m->fn, by_lo);
        ok = m->n > 0;
    }
out:
    free(file);
    if (!ok) lf_code_map_free(m);
    return ok;
}

#else

bool lf_code_map_load(lf_code_map *m) {
    memset(m, 0, sizeof *m);
    return false;
}

#endif

void lf_code_map_free(lf_code_map *m) {
    free(m->fn);
    free(m->strings);
    memset(m, 0, sizeof *m);
}

const lf_code_fn *lf_code_map_find(const lf_code_map *m, uintptr_t pc) {
    size_t lo = 0, hi = m->n;
    while (lo < hi) { /* the first function that starts after pc */
        size_t mid = lo + (hi - lo) / 2;
        if (m->fn[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo && pc < m->fn[lo - 1].hi ? &m->fn[lo - 1] : NULL;
}

unsigned lf_code_asm_atomics(const uint8_t *code, size_t len) {
    unsigned n = 0;
#if defined(__x86_64__)
    for (size_t i = 0; i + 2 < len; i++) {
        if (code[i] != 0xF0) continue;
        size_t j = i + 1;
        if ((code[j] & 0xF0) == 0x40 && j + 2 < len) j++; /* REX */
        if (code[j] == 0x0F && (code[j + 1] == 0xB0 || code[j + 1] == 0xB1 || code[j + 1] == 0xC0 ||
                                code[j + 1] == 0xC1 || code[j + 1] == 0xC7))
            n++;
    }
#else
    (void)code;
    (void)len;
#endif
    return n;
}
