#!/usr/bin/env bash
# The documents say what is true now; the history lives in git.
#   check_docs_text.sh SOURCE_DIR
# Fails on README.md over 300 lines or 20 KB, and on any tracked file that numbers work periods
# ("session" followed by a number, as a progress log would).
set -uo pipefail
cd "$1" || exit 2
failures=0
lines=$(wc -l < README.md) bytes=$(wc -c < README.md)
[ "$lines" -le 300 ] || { echo "FAIL README.md has $lines lines (at most 300)"; failures=$((failures + 1)); }
[ "$bytes" -le 20480 ] || { echo "FAIL README.md has $bytes bytes (at most 20 KB)"; failures=$((failures + 1)); }
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  files=$(git ls-files)
else
  files=$(find . -path ./build -prune -o -type f -print | sed 's|^\./||')
fi
hits=$(echo "$files" | grep -vE '\.(png|jpg|session)$' | tr '\n' '\0' |
  xargs -0 grep -nIE '\b[Ss]essions? [0-9]+' 2>/dev/null)
if [ -n "$hits" ]; then
  echo "FAIL work periods numbered (say what is true now; progress goes into the issue notes):"
  echo "$hits"
  failures=$((failures + 1))
fi
echo "$((3 - failures)) passed, $failures failed"
[ $failures -eq 0 ]
