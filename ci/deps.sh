#!/usr/bin/env bash
# Installs the Debian packages linfuzz needs, only those that are missing (sourced by the other scripts).
set -euo pipefail
LINFUZZ_PACKAGES=(clang cmake ninja-build libzstd-dev zstd libxxhash-dev libck-dev liburcu-dev libclang-rt-dev pkgconf)
missing=()
for p in "${LINFUZZ_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "ci/deps.sh: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
