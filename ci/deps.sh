#!/usr/bin/env bash
# Installs the Debian packages linfuzz needs, only those that are missing (the other scripts run it first;
# README.md and docs/licenses.md list the same packages).
#
# Usage: ci/deps.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_no_args "$@"
LINFUZZ_PACKAGES=(clang cmake ninja-build libzstd-dev zstd libxxhash-dev libck-dev liburcu-dev libclang-rt-dev time pkgconf)
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
