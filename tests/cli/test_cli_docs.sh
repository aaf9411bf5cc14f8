#!/usr/bin/env bash
# docs/cli.md is what `linfuzz help --markdown` prints, so the reference cannot go stale (write it again with
# `build/bin/linfuzz help --markdown > docs/cli.md`), and every subcommand answers --help, `linfuzz help CMD`
# and a misuse from its option table (cli/options.h) in the same way. tests/unit/test_cli_options.c tests the
# parser itself.
# Usage: test_cli_docs.sh LINFUZZ_BIN TEST_DATA_DIR
set -u
source "$(dirname "$0")/../lib.sh"
LF=$1
DOCS=$2/../../docs/cli.md

expect_rc 0 "help --markdown" "$LF" help --markdown
if cmp -s "$tmp/out" "$DOCS"; then
  ok
else
  bad "docs/cli.md is not what 'linfuzz help --markdown' prints (write it again: build/bin/linfuzz help --markdown >docs/cli.md):
$(diff "$DOCS" "$tmp/out" | head -20)"
fi
cp "$tmp/out" "$tmp/cli.md"

commands=$("$LF" --help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
[ "$(wc -w <<<"$commands")" -ge 10 ] && ok || bad "linfuzz --help lists $(wc -w <<<"$commands") commands"
for c in $commands; do
  expect_rc 0 "$c --help" "$LF" "$c" --help
  has "$tmp/out" "usage: linfuzz $c" "$c --help"
  mv "$tmp/out" "$tmp/help"
  expect_rc 0 "help $c" "$LF" help "$c"
  cmp -s "$tmp/out" "$tmp/help" && ok || bad "'linfuzz help $c' is not '$c --help'"
  grep -qx "## linfuzz $c" "$tmp/cli.md" && ok || bad "docs/cli.md has no section for $c"
  expect_err 2 "^linfuzz $c: unknown option '--no-such-option' \(see --help\)$" "$c: unknown option" \
    "$LF" "$c" --no-such-option x
done
expect_err 2 "^linfuzz help: expected a command or --markdown, not 'frobnicate'" "help of no command" \
  "$LF" help frobnicate
finish
