#!/usr/bin/env bash
# Benchmark of the complete search on the hard frontier (docs/frontier.md): histories with
# repeated values at high concurrency, decided by `linfuzz check` (the default engine: monitor when
# unambiguous, else WGL, the beam prover, the frontier sweep beside WGL). Not a test: prints markdown tables
# of whole-process wall times (parsing included).
#
#  1. Per type (register, cas-register, queue, stack, deque, kv): for 4, 8, 16 and 32 clients, the largest
#     number of ops (100, 200, 500, 1000, 2000, 5000, 10^4, 2*10^4, 5*10^4, 10^5) such that every one of
#     SEEDS generated histories of that size is decided within LIMIT seconds (values 1..3, so values
#     repeat; 20% observers; 20% empty removes; a third of the seeds corrupted with --bad 2).
#  2. cas-register, 32 clients, 100 / 200 / 500 ops: values 2, 3, 5 and 10, SEEDS seeds each, with and
#     without --bad 3 (also 10% pending): decided / total, median and largest time.
#  3. Jepsen-style cas-register histories (what porcupine's own tests look like): 5, 16 and 32 clients
#     doing read / write / cas on one register with values 0..4, 10% of the ops crash (pending, and the
#     client comes back under a new process id), 500 ops; half with 1 corrupted result.
#
# Usage: ci/bench_frontier.sh [PART...]   (PART: 1, 2 or 3; default all three)
# Env: LINFUZZ_BUILD_DIR (default build), LIMIT (seconds, default 10), SEEDS (default 3 for part 1, 10 for
#      parts 2-3), PORCUPINE: path of a porcupine driver run as `$PORCUPINE -timeout <LIMIT>s FILE.hist`,
#      printing linearizable / violation / unknown first on stdout; its columns are shown beside linfuzz's.
#      This script never builds it (build it in scratch space; never commit it).
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
for p in "$@"; do
  case $p in
    1 | 2 | 3) ;;
    *) ci_die "unexpected argument '$p' (parts are 1, 2 and 3; --help says what they are)" ;;
  esac
done
BUILD=${LINFUZZ_BUILD_DIR:-build}
LIMIT=${LIMIT:-10}
ci_seconds LIMIT "$LIMIT"
[ -z "${SEEDS:-}" ] || ci_count SEEDS "$SEEDS"
PORCUPINE=${PORCUPINE:-}
[ -z "$PORCUPINE" ] || [ -x "$PORCUPINE" ] || ci_die "PORCUPINE='$PORCUPINE' is not an executable"
ci_use_build "$BUILD" linfuzz
progress_start "$CI_SCRIPT"
LF="$BUILD/bin/linfuzz"
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
PARTS=${*:-1 2 3}

# run_lf FILE: prints "<verdict> <seconds>" (unknown past LIMIT: the budget is LIMIT, the clock is the judge).
run_lf() {
  local t0 t1 v
  t0=$(date +%s%N)
  v=$("$LF" check --timeout "$LIMIT" "$1" 2>/dev/null | head -1 | sed -E 's/^[^:]*: ([a-z]+).*/\1/') || true
  t1=$(date +%s%N)
  echo "${v:-error} $(echo "($t1 - $t0) / 1000000000" | bc -l)"
}

run_porc() {
  local t0 t1 v
  t0=$(date +%s%N)
  v=$(timeout $((LIMIT + 5)) "$PORCUPINE" -timeout "${LIMIT}s" "$1" 2>/dev/null | head -1) || true
  t1=$(date +%s%N)
  echo "${v:-unknown} $(echo "($t1 - $t0) / 1000000000" | bc -l)"
}

decided() { [ "$1" = linearizable ] || [ "$1" = violation ]; }

# ---- 1. largest size decided, per type and client count ----
largest() { # largest TOOL TYPE CLIENTS: the largest size of which every seed is decided within LIMIT
  local tool=$1 type=$2 clients=$3 best=- seeds=${SEEDS:-3}
  for n in 100 200 500 1000 2000 5000 10000 20000 50000 100000; do
    local all=1
    for s in $(seq "$seeds"); do
      progress "part 1: $tool $type, $clients clients, $n ops, seed $s"
      local f="$DIR/p1-$type-$clients-$n-$s.hist" bad=0
      [ $((s % 3)) = 0 ] && bad=2
      [ -f "$f" ] || "$LF" gen "$type" "$n" --threads "$clients" --values 3 --peek 0.2 --empty 0.2 --bad "$bad" \
        --seed "$((1000 * s + clients))" -o "$f"
      local r v t
      if [ "$tool" = lf ]; then r=$(run_lf "$f"); else r=$(run_porc "$f"); fi
      v=${r% *}
      t=${r#* }
      if ! decided "$v" || [ "$(echo "$t > $LIMIT" | bc -l)" = 1 ]; then all=0; break; fi
    done
    [ $all = 1 ] || break
    best=$n
    rm -f "$DIR"/p1-"$type"-"$clients"-"$n"-*.hist
  done
  rm -f "$DIR"/p1-"$type"-"$clients"-*.hist
  echo "$best"
}

if [[ " $PARTS " == *" 1 "* ]]; then
  progress_end
  echo "## 1. Largest history decided within ${LIMIT} s (every one of ${SEEDS:-3} seeds), by client count"
  echo
  if [ -n "$PORCUPINE" ]; then
    echo "| type | 4 clients | 8 | 16 | 32 | porcupine: 4 | 8 | 16 | 32 |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  else
    echo "| type | 4 clients | 8 | 16 | 32 |"
    echo "|---|---:|---:|---:|---:|"
  fi
  for type in register cas-register queue stack deque kv; do
    row="| $type"
    for c in 4 8 16 32; do row="$row | $(largest lf "$type" "$c")"; done
    if [ -n "$PORCUPINE" ]; then
      for c in 4 8 16 32; do row="$row | $(largest porc "$type" "$c")"; done
    fi
    progress_end
    echo "$row |"
  done
  echo
fi

# ---- 2. cas-register, 32 clients ----
# table_row NAME FILES...: decided/total, median and largest time, for linfuzz (and porcupine).
table_row() {
  local name=$1
  shift
  local lf_dec=0 po_dec=0 total=0 lf_times=() po_times=() viol=0
  for f in "$@"; do
    total=$((total + 1))
    progress "$name: history $total of $#"
    local r v t
    r=$(run_lf "$f")
    v=${r% *}
    t=${r#* }
    lf_times+=("$t")
    decided "$v" && [ "$(echo "$t <= $LIMIT" | bc -l)" = 1 ] && lf_dec=$((lf_dec + 1))
    [ "$v" = violation ] && viol=$((viol + 1))
    if [ -n "$PORCUPINE" ]; then
      r=$(run_porc "$f")
      v=${r% *}
      t=${r#* }
      po_times+=("$t")
      decided "$v" && [ "$(echo "$t <= $LIMIT" | bc -l)" = 1 ] && po_dec=$((po_dec + 1))
    fi
  done
  local lmed lmax
  lmed=$(printf '%s\n' "${lf_times[@]}" | median)
  lmax=$(printf '%s\n' "${lf_times[@]}" | sort -g | tail -1)
  local line
  line=$(printf '| %s | %d / %d (%d violations) | %.2f | %.2f |' "$name" "$lf_dec" "$total" "$viol" "$lmed" "$lmax")
  if [ -n "$PORCUPINE" ]; then
    local pmed pmax
    pmed=$(printf '%s\n' "${po_times[@]}" | median)
    pmax=$(printf '%s\n' "${po_times[@]}" | sort -g | tail -1)
    line=$(printf '%s %d / %d | %.2f | %.2f |' "$line" "$po_dec" "$total" "$pmed" "$pmax")
  fi
  progress_end
  echo "$line"
}

header2() {
  if [ -n "$PORCUPINE" ]; then
    echo "| histories | linfuzz decided | median s | max s | porcupine decided | median s | max s |"
    echo "|---|---|---:|---:|---|---:|---:|"
  else
    echo "| histories | linfuzz decided | median s | max s |"
    echo "|---|---|---:|---:|"
  fi
}

if [[ " $PARTS " == *" 2 "* ]]; then
  seeds=${SEEDS:-10}
  echo "## 2. cas-register, 32 clients: values 2, 3, 5, 10 x $seeds seeds (limit ${LIMIT} s)"
  echo
  header2
  for n in 100 200 500; do
    for bad in 0 3; do
      files=()
      for v in 2 3 5 10; do
        for s in $(seq "$seeds"); do
          f="$DIR/p2-$n-$bad-$v-$s.hist"
          pend=0
          [ $((s % 2)) = 0 ] && pend=0.1
          "$LF" gen cas-register "$n" --threads 32 --values "$v" --seed "$s" --bad "$bad" --pending "$pend" -o "$f"
          files+=("$f")
        done
      done
      table_row "32 x $n, --bad $bad" "${files[@]}"
      rm -f "${files[@]}"
    done
  done
  echo
fi

# ---- 3. Jepsen-style ----
jepsen() { # jepsen N CLIENTS CRASH BAD SEED OUT
  python3 - "$@" <<'PY'
import random, sys
n, clients, crash, bad, seed, out = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
values = 5
rnd = random.Random(seed)
t = 0; state = 0; ops = []; active = {}
pid = list(range(clients)); next_pid = clients
while len(ops) < n or active:
    t += 1
    for c in range(clients):
        if c in active:
            i, lt, rt = active[c]
            if t == lt:
                op = ops[i]
                if op['m'] == 'read': op['res'] = str(state)
                elif op['m'] == 'write': state = op['a'][0]
                elif state == op['a'][0]: state = op['a'][1]; op['res'] = 'ok'
                else: op['res'] = 'fail'
            if t == rt:
                if rnd.random() < crash:
                    ops[i]['ret'] = None; pid[c] = next_pid; next_pid += 1
                else:
                    ops[i]['ret'] = t
                del active[c]
        elif len(ops) < n and rnd.random() < 0.3:
            m = rnd.choice(['read', 'write', 'cas'])
            a = [] if m == 'read' else [rnd.randrange(values)] if m == 'write' else [rnd.randrange(values), rnd.randrange(values)]
            ops.append({'p': pid[c], 'call': t, 'm': m, 'a': a, 'res': None})
            lt = t + 1 + rnd.randrange(20); rt = lt + 1 + rnd.randrange(20)
            active[c] = (len(ops) - 1, lt, rt)
done = [o for o in ops if o['ret'] is not None and o['m'] != 'write']
for _ in range(bad):
    o = rnd.choice(done)
    if o['m'] == 'read': o['res'] = str((int(o['res']) + 1 + rnd.randrange(values - 1)) % values)
    else: o['res'] = 'fail' if o['res'] == 'ok' else 'ok'
with open(out, 'w') as f:
    f.write('type cas-register\n')
    for o in ops:
        ret = '?' if o['ret'] is None else str(o['ret'])
        line = f"{o['p']} {o['call']} {ret} {o['m']}" + ''.join(' ' + str(x) for x in o['a'])
        if o['ret'] is not None and o['res'] is not None: line += ' -> ' + o['res']
        f.write(line + '\n')
PY
}

if [[ " $PARTS " == *" 3 "* ]]; then
  seeds=${SEEDS:-10}
  echo "## 3. Jepsen-style cas-register (values 0..4, 10% crashed ops), 500 ops, $seeds seeds, half corrupted"
  echo
  header2
  for c in 5 16 32; do
    files=()
    for s in $(seq "$seeds"); do
      f="$DIR/p3-$c-$s.hist"
      jepsen 500 "$c" 0.1 $((s % 2)) "$s" "$f"
      files+=("$f")
    done
    table_row "$c clients x 500 ops" "${files[@]}"
    rm -f "${files[@]}"
  done
  echo
fi
echo "($(nproc) cores; wall-clock seconds of the whole process, parsing included)"
