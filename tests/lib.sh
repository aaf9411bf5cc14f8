# Shared helpers of the shell tests (tests/cli, tests/ci, tests/fuzz): source it first.
#   tmp                 a scratch directory, removed on exit
#   ok / bad MESSAGE    count a passed / failed check (bad prints MESSAGE)
#   check DESC CMD...   passes when CMD succeeds
#   expect_rc RC DESC CMD...          runs CMD (stdout to $tmp/out, stderr to $tmp/err), passes on exit RC
#   expect_err RC PATTERN DESC CMD... the same, and stderr must match the extended regex PATTERN
#   has FILE PATTERN DESC             passes when FILE contains PATTERN (grep, fixed regex)
#   output_is RC TEXT CMD...          runs CMD, passes when it exits RC and prints exactly TEXT (stdout and stderr)
#   finish              prints "N passed, M failed" and exits 1 when anything failed
# shellcheck shell=bash
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { # DESC CMD...
  local what=$1; shift
  if "$@"; then ok; else bad "$what"; fi
}
expect_rc() { # RC DESC CMD...
  local want=$1 what=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  if [ "$rc" = "$want" ]; then ok; else bad "$what: exit $rc, wanted $want ($(head -c 600 "$tmp/out" "$tmp/err"))"; fi
}
expect_err() { # RC PATTERN DESC CMD...
  local want=$1 pattern=$2 what=$3; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  if [ "$rc" != "$want" ]; then
    bad "$what: exit $rc, wanted $want; stderr: $(head -c 300 "$tmp/err")"
  elif [ -n "$pattern" ] && ! grep -qE -- "$pattern" "$tmp/err"; then
    bad "$what: stderr '$(head -c 300 "$tmp/err")' does not match '$pattern'"
  else
    ok
  fi
}
has() { grep -q -- "$2" "$1" && ok || bad "$3: no '$2' in $(head -c 1500 "$1")"; }
output_is() { # RC TEXT CMD...
  local want_rc=$1 want=$2; shift 2
  local out rc
  out=$("$@" 2>&1); rc=$?
  [ "$rc" = "$want_rc" ] && [ "$out" = "$want" ] && ok || bad "$*: exit $rc, '$out' (wanted $want_rc, '$want')"
}
finish() {
  echo "$(basename "$0" .sh): $pass passed, $fail failed"
  [ "$fail" = 0 ] || exit 1
  exit 0
}
