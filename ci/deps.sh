#!/usr/bin/env bash
# Installs the Debian packages linfuzz needs, only those that are missing (the other scripts run it first;
# README.md and docs/licenses.md list the same packages).
#
# Usage: ci/deps.sh [--browser]
#   --browser   also Debian's chromium, which only the HTML page's browser test uses (ci/test.sh;
#               tests/unit/test_html_browser.c is skipped without it); not when a chromium or google-chrome
#               is on the PATH already
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
browser=0
for a in "$@"; do
  [ "$a" = --browser ] || ci_die "unexpected argument '$a' (--help says what it takes)"
  browser=1
done
LINFUZZ_PACKAGES=(clang cmake ninja-build libzstd-dev zstd libxxhash-dev libck-dev liburcu-dev libcritnib-dev libdpdk-dev libclang-rt-dev time pkgconf llvm binutils)
if [ "$browser" = 1 ] && ! command -v chromium >/dev/null && ! command -v google-chrome >/dev/null; then
  LINFUZZ_PACKAGES+=(chromium)
fi
missing=()
for p in "${LINFUZZ_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "ci/deps.sh: installing ${missing[*]} (apt-get)" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
