#!/usr/bin/env bash
# What a campaign sees of library code (docs/scheduling.md, "Seeing library code"; testcase/probe.h):
#   instrumented  a stand-in third-party library built by linfuzz_add_library_under_test: its lost update is
#                 found in controlled mode, the probe says nothing, and `rootcause` names the
#                 library's own lines (toy_counter.c);
#   plain         the same library built without linfuzz's flags: the probe warns that inc and get
#                 reach no scheduling point, and repeats it after the summary; a counter of inline-assembly
#                 `lock xadd` is named as having atomics the scheduler cannot see;
#   wrapped       libcritnib as Debian ships it (when this build has the critnib adapters): its calls are
#                 scheduling points, so the get-then-insert misuse is found in controlled mode and root-caused
#                 to the adapter's two calls; with the points turned off (LINFUZZ_LIBRARY_CALL_POINTS=0) the
#                 probe warns instead.
# Usage: test_seen.sh LINFUZZ_BIN BIN_DIR SEEN_BIN_DIR
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
LF=$1 BIN=$(cd "$2" && pwd) SEEN=$(cd "$3" && pwd)

# campaign NAME BINARY SECONDS [VAR=VALUE...]: a controlled campaign from an empty corpus, log in $tmp/log-NAME
campaign() {
  local name=$1 bin=$2 secs=$3; shift 3
  mkdir -p "$tmp/work-$name"
  env "$@" LINFUZZ_FUZZ_MODE=controlled LINFUZZ_VIOLATIONS_DIR="$tmp/violations-$name" LINFUZZ_FUZZ_SECONDS="$secs" \
    "$bin" -seed=1 -timeout=60 -artifact_prefix="$tmp/crash-$name-" "$tmp/work-$name" >"$tmp/log-$name" 2>&1
}

# ---- instrumented: every access of the library is a point ----
campaign seen "$SEEN/fuzz_toy_counter_seen" 60
has "$tmp/log-seen" "violation adapter=toy_counter_seen .* mode=controlled" "the instrumented library's lost update is found"
grep -q "warning" "$tmp/log-seen" && bad "no probe warning for the instrumented library: $(grep warning "$tmp/log-seen")" || ok
e=$(ls "$tmp"/violations-seen/*.lfz 2>/dev/null | head -1)
if [ -n "$e" ]; then
  "$SEEN/fuzz_toy_counter_seen" rootcause --schedules 300 "$e" >"$tmp/rc-seen" 2>&1
  has "$tmp/rc-seen" "root cause: toy_inc() toy_counter.c:[0-9-]* (in inc) must be atomic" "rootcause names the library's lines"
fi

# ---- plain: nothing inside the library is seen, and the probe says so ----
campaign unseen "$SEEN/fuzz_toy_counter_unseen" 3
has "$tmp/log-unseen" "warning: toy_counter_unseen's inc reached no scheduling point" "the probe names inc"
has "$tmp/log-unseen" "warning: toy_counter_unseen's get reached no scheduling point" "the probe names get"
has "$tmp/log-unseen" "warning: 2 problems of what controlled runs can see were reported by the probe" \
  "the warning is repeated after the summary"
# the probe runs once, 1 s into the campaign (not first: it costs as much as a campaign on an easy bug)
n=$(grep -c "warning: toy_counter_unseen's inc reached no scheduling point" "$tmp/log-unseen")
[ "$n" = 1 ] && ok || bad "the probe ran $n times in a 3 s campaign (expected once)"
awk '/reached no scheduling point/ && !w {w = NR} /linfuzz-fuzz: summary/ {s = NR} END {exit !(w && s && w < s)}' \
  "$tmp/log-unseen" && ok || bad "the probe's warning is not before the summary"
LINFUZZ_FUZZ_SECONDS=0.2 "$SEEN/fuzz_asm_counter" -runs=1 >"$tmp/log-asm" 2>&1
has "$tmp/log-asm" "warning: asm_counter: asm_op has 1 atomic instruction in inline assembly" "inline-assembly atomics named"
LINFUZZ_FUZZ_PROBE=0 LINFUZZ_FUZZ_SECONDS=0.2 "$SEEN/fuzz_toy_counter_unseen" -runs=1 >"$tmp/log-off" 2>&1
grep -q "warning" "$tmp/log-off" && bad "LINFUZZ_FUZZ_PROBE=0 still probes" || ok

# ---- wrapped: an uninstrumented shared library seen at its calls ----
if [ -x "$BIN/fuzz_critnib_map_get_then_insert" ]; then
  campaign critnib "$BIN/fuzz_critnib_map_get_then_insert" 60
  has "$tmp/log-critnib" "violation adapter=critnib_map_get_then_insert .* mode=controlled" \
    "two calls into libcritnib interleave in controlled mode"
  e=$(ls "$tmp"/violations-critnib/*.lfz 2>/dev/null | head -1)
  if [ -n "$e" ]; then
    "$BIN/fuzz_critnib_map_get_then_insert" rootcause --schedules 300 "$e" >"$tmp/rc-critnib" 2>&1
    has "$tmp/rc-critnib" "root cause: cn_misuse_op() critnib_map.c:[0-9-]* (in insert) must be atomic" \
      "rootcause names the adapter's two calls"
  fi
  LINFUZZ_LIBRARY_CALL_POINTS=0 LINFUZZ_FUZZ_SECONDS=0.2 "$BIN/fuzz_critnib_map" -runs=1 >"$tmp/log-nopoints" 2>&1
  has "$tmp/log-nopoints" "warning: critnib_map's insert reached no scheduling point" \
    "without the wrappers' points the probe warns"
fi
# every bundled library adapter whose calls go into a shared library is seen at them (libck, liburcu): the probe
# warns about none of their methods (a library left out of the wrapped ones would make get reach no point)
for a in ck_ht_kv urcu_lfht_kv; do
  [ -x "$BIN/fuzz_$a" ] || continue
  LINFUZZ_FUZZ_SECONDS=0.2 "$BIN/fuzz_$a" -runs=1 >"$tmp/log-probe-$a" 2>&1
  grep -q "warning" "$tmp/log-probe-$a" && bad "$a: $(grep warning "$tmp/log-probe-$a" | head -2)" || ok
done
finish
