/* linfuzz: everything public in one include. A program that checks histories needs history.h, format.h and
 * check.h; an adapter needs adapter.h; a custom sequential specification needs spec.h; checking against an
 * implementation's own serial behaviour needs selfspec.h (docs/architecture.md, docs/custom-types.md).
 * Link with the linfuzz::engines CMake target (checking), plus linfuzz::runtime for adapters (fuzzing). */
#ifndef LINFUZZ_LINFUZZ_H
#define LINFUZZ_LINFUZZ_H

#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "linfuzz/format.h"
#include "linfuzz/generate.h"
#include "linfuzz/history.h"
#include "linfuzz/lfz.h"
#include "linfuzz/minimize.h"
#include "linfuzz/report.h"
#include "linfuzz/selfspec.h"
#include "linfuzz/spec.h"

#endif
