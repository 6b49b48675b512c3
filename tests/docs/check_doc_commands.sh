#!/usr/bin/env bash
# Runs every command the documents give, as written, the way a newcomer would on a fresh clone.
#   check_doc_commands.sh SOURCE_DIR BUILD_DIR
# Each ```sh block of README.md, CONTRIBUTING.md and docs/*.md runs line by line in a scratch
# folder that holds the checkout's scenes/ and tools/ and this build as build/release. A block
# right after `<!-- docs-test: skip (why) -->` (the set-up commands, long benchmarks) is checked
# without running: the scripts and files it names exist, each `cmake --preset` names a preset,
# and each build/PRESET/.../NAME program is named by a CMakeLists.txt that builds programs.
set -uo pipefail
src=$(cd "$1" && pwd) build=$(cd "$2" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/build"
ln -s "$src/scenes" "$scratch/scenes"
ln -s "$src/tools" "$scratch/tools"
ln -s "$build" "$scratch/build/release"

failures=0 ran=0 checked=0
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

# A skipped block's line: what it names must exist.
check_line() {
  local where=$1 line=$2 word
  for word in $line; do
    case $word in
      tools/*|scenes/*|docs/*|tests/*)
        compgen -G "$src/$word" > /dev/null || fail "$where: '$word' does not exist" ;;
      build/*/*)
        local name=${word##*/}
        # A CMakeLists.txt that builds executables names it (directly or in a foreach list).
        grep -rlsw --include=CMakeLists.txt -e "$name" "$src" | xargs -r grep -l add_executable |
          grep -q . || fail "$where: no target builds '$word'" ;;
    esac
  done
  if [[ $line =~ --preset[[:space:]]+([A-Za-z0-9_-]+) ]]; then
    grep -q "\"name\": \"${BASH_REMATCH[1]}\"" "$src/CMakePresets.json" ||
      fail "$where: no preset '${BASH_REMATCH[1]}'"
  fi
  checked=$((checked + 1))
}

run_line() {
  local where=$1 line=$2 out
  if out=$(cd "$scratch" && bash -c "$line" 2>&1); then
    ran=$((ran + 1))
  else
    fail "$where: exit $?: $line"
    echo "$out" | tail -5
  fi
}

docs=("$src/README.md" "$src/CONTRIBUTING.md" "$src"/docs/*.md)
for doc in "${docs[@]}"; do
  [ -f "$doc" ] || continue
  rel=${doc#"$src"/}
  n=0 inblock=0 skip=0 pendingskip=0
  while IFS= read -r text || [ -n "$text" ]; do
    n=$((n + 1))
    if [ $inblock -eq 0 ]; then
      if [[ $text == '<!-- docs-test: skip'* ]]; then pendingskip=1; continue; fi
      if [[ $text == '```sh' ]]; then inblock=1 skip=$pendingskip; fi
      [[ $text =~ ^[[:space:]]*$ ]] || pendingskip=0
      continue
    fi
    if [[ $text == '```' ]]; then inblock=0 skip=0 pendingskip=0; continue; fi
    line=${text%%#*}  # a trailing comment is prose
    [[ $line =~ ^[[:space:]]*$ ]] && continue
    if [ $skip -eq 1 ]; then check_line "$rel:$n" "$line"; else run_line "$rel:$n" "$line"; fi
  done < "$doc"
  [ $inblock -eq 0 ] || fail "$rel: a \`\`\`sh block is never closed"
done

echo "$ran commands ran, $checked checked without running"
[ $ran -gt 0 ] || fail "no command ran: the documents lost their examples"
echo "$((ran + checked - failures)) passed, $failures failed"
[ $failures -eq 0 ]
