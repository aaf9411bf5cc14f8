/* The default corpus root of the fuzz targets built in linfuzz's own tree: the source tree's corpus/, where the
 * seeds and the committed entries live (the harness's weak default is ./corpus, for targets built elsewhere). */
#ifndef LINFUZZ_CORPUS_DIR
#error "LINFUZZ_CORPUS_DIR must name the source tree's corpus directory"
#endif

const char *lf_fuzz_corpus_root(void);
const char *lf_fuzz_corpus_root(void) { return LINFUZZ_CORPUS_DIR; }
