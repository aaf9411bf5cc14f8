#!/usr/bin/env bash
# A replay child never outlives its parent (util/child.h, docs/security.md): `linfuzz triage` replays an input
# of a correct adapter for up to 60 s in a child process; when triage is killed with SIGKILL (a CI timeout), the
# child is gone within seconds (it kept running for the whole replay before). repro's replays of STUCK entries
# go through the same code (testcase/case_replay.c).
# Usage: test_child_lifetime.sh LINFUZZ_BIN TEST_DATA_DIR
set -u
source "$(dirname "$0")/../lib.sh"
LF=$1
CORPUS=$(cd "$(dirname "$0")/../../corpus" && pwd)
HEX=0123456789abcdef0123456789abcdef01234567
export LINFUZZ_PROGRESS=0

k3=$(ls "$CORPUS"/k3_trylock_queue/violations/*.lfz | head -1)
mkdir -p "$tmp/lock_queue"
"$LF" show --input "$tmp/lock_queue/crash-$HEX" "$k3" 2>/dev/null || bad "show --input"

children_of() { # PID: its child processes
  local s pid rest ppid
  for s in /proc/[0-9]*/stat; do
    { read -r pid rest <"$s"; } 2>/dev/null || continue
    rest=${rest##*) } # after the command name
    ppid=$(echo "$rest" | cut -d' ' -f2)
    [ "$ppid" = "$1" ] && echo "$pid"
  done
}
alive() { # PID: running (not gone, not a zombie)
  local state
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
  [ -n "$state" ] && [ "$state" != Z ]
}

# Starts CMD..., waits for its child, kills it with SIGKILL, expects the child gone within 10 s.
killed_parent_takes_child() { # WHAT CMD...
  local what=$1; shift
  "$@" >/dev/null 2>&1 &
  local parent=$! child="" i
  for i in $(seq 200); do
    child=$(children_of "$parent" | head -1)
    [ -n "$child" ] && break
    sleep 0.05
  done
  if [ -z "$child" ]; then
    bad "$what: no child process seen"
    kill -9 "$parent" 2>/dev/null; wait "$parent" 2>/dev/null
    return
  fi
  sleep 0.5 # the child is replaying
  alive "$child" || { bad "$what: the child ended by itself"; kill -9 "$parent"; wait "$parent" 2>/dev/null; return; }
  kill -9 "$parent"
  wait "$parent" 2>/dev/null
  for i in $(seq 100); do alive "$child" || break; sleep 0.1; done
  if alive "$child"; then
    bad "$what: the replay child $child outlived its parent by 10 s"
    kill -9 "$child" 2>/dev/null
  else
    ok
  fi
}

killed_parent_takes_child "triage killed while replaying" \
  "$LF" triage -q --runs 1000000000 --seconds 60 "$tmp/lock_queue/crash-$HEX"
killed_parent_takes_child "triage --json killed while replaying" \
  "$LF" triage -q --json --adapter lock_queue --runs 1000000000 --seconds 60 "$tmp/lock_queue/crash-$HEX"

finish
