#!/usr/bin/env bash
# The progress line of the long commands (cli/status_line.c): off a terminal a line every period
# (LINFUZZ_PROGRESS_SECONDS, 0.01 s here) naming the command, the elapsed time and what it does; none with -q
# or LINFUZZ_PROGRESS=0; nothing on stdout; a bad LINFUZZ_PROGRESS is named. On a terminal (script(1), when
# installed) the line is redrawn in place and erased at the end.
# Usage: test_progress.sh LINFUZZ_BIN TEST_DATA_DIR
set -u
source "$(dirname "$0")/../lib.sh"
LF=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export LINFUZZ_PROGRESS_SECONDS=0.01 # short, so that even a fast machine sees lines from quick commands
entry=$(ls "$ROOT"/corpus/treiber_aba/violations/*.lfz | head -1)
mkdir -p "$tmp/inputs"
for f in "$ROOT"/corpus/mutex_queue/seeds/* "$ROOT"/corpus/ms_queue/seeds/*; do
  cp "$f" "$tmp/inputs/$(basename "$(dirname "$(dirname "$f")")")-crash-$(sha1sum "$f" | cut -c1-40)"
done
"$LF" gen queue 200000 --threads 8 -q -o "$tmp/mid.lfz" || bad "gen mid.lfz"

# name @ what the line says @ command
while IFS='@' read -r name pattern cmd; do
  # shellcheck disable=SC2086
  eval "$cmd" >"$tmp/out" 2>"$tmp/err"
  grep -qE "^linfuzz $name \[[0-9.]+ s\]: $pattern" "$tmp/err" && ok ||
    bad "$name: no progress line matching '$pattern' in: $(head -c 400 "$tmp/err")"
  grep -q "linfuzz $name \[" "$tmp/out" && bad "$name: progress on stdout" || ok
  # shellcheck disable=SC2086
  eval "${cmd/ / -q }" >"$tmp/out" 2>"$tmp/err"
  grep -q "linfuzz $name \[" "$tmp/err" && bad "$name -q: a progress line: $(head -c 300 "$tmp/err")" || ok
  # shellcheck disable=SC2086
  LINFUZZ_PROGRESS=0 eval "$cmd" >"$tmp/out" 2>"$tmp/err"
  grep -q "linfuzz $name \[" "$tmp/err" && bad "$name with LINFUZZ_PROGRESS=0: a progress line" || ok
done <<T
repro@re-running the workload: run [0-9]+ of 1000000@"\$LF" repro "$entry" --runs 1000000 --seconds 1
stress@mutex_queue: [0-9]+ runs \([0-9]+/s\), [0-9]+ ops checked@"\$LF" stress mutex_queue --seconds 2 --out "$tmp"
triage@(entry|input) [0-9]+ of [0-9]+@"\$LF" triage --seconds 0.5 --runs 100000 "$tmp/inputs"
gen@(generating|writing) [0-9]+ queue ops@"\$LF" gen queue 1000000 --threads 8 -o "$tmp/big.hist"
convert@(reading|writing)@"\$LF" convert "$tmp/big.hist" "$tmp/big.lfz"
T

LINFUZZ_PROGRESS=maybe "$LF" convert "$tmp/mid.lfz" "$tmp/mid.hist" 2>"$tmp/err"
has "$tmp/err" "LINFUZZ_PROGRESS=maybe" "a bad LINFUZZ_PROGRESS is named"

# On a terminal: redrawn in place (carriage return, erase to the end of the line) and erased at the end.
if command -v script >/dev/null; then
  unset LINFUZZ_PROGRESS_SECONDS
  script -qec "'$LF' repro '$entry' --runs 1000000 --seconds 1.5 >/dev/null" /dev/null >"$tmp/tty" 2>&1
  grep -q $'\rlinfuzz repro \[' "$tmp/tty" && ok || bad "terminal: no line redrawn in place"
  [ "$(tail -c 4 "$tmp/tty")" = $'\r\033[K' ] && ok || bad "terminal: the line is not erased at the end"
  [ "$(grep -o $'\rlinfuzz repro \[' "$tmp/tty" | wc -l)" -ge 3 ] && ok || bad "terminal: fewer than 3 redraws"
else
  echo "note: script(1) is not installed: the terminal mode is not tested"
fi
finish
