#!/usr/bin/env bash
# Proves DESIGN.md section 2's promise about builds: after touching one backend's tuning-defaults
# source, Ninja recompiles exactly that one source file (relinking is fine). As a check that the
# check can fail, touching a public header must recompile more than one file.
#
# usage: rebuild_check.sh BUILD_DIR SOURCE_DIR
# Dry runs only (ninja -n): the build is not changed, and every touched file's time is restored.
set -euo pipefail
build=$1
src=$2
if [[ ! -f "$build/build.ninja" ]]; then
  echo "SKIP: $build is not a Ninja build"
  exit 77
fi

# Prints the object files Ninja would compile if `file` were newer than the build.
would_compile() {
  local file=$1 saved
  saved=$(stat -c %Y "$file")
  touch -d "@$(($(date +%s) + 5))" "$file"
  local out
  out=$(ninja -C "$build" -n -d explain 2>&1 || true)
  touch -d "@$saved" "$file"
  grep -E '^\[[0-9]+/[0-9]+\] Building CXX object' <<<"$out" | sed -E 's/.*Building CXX object //'
}

# The build must be up to date to begin with, or the dry run would list unrelated work.
if [[ -n "$(ninja -C "$build" -n 2>/dev/null | grep -E 'Building CXX object' || true)" ]]; then
  echo "FAIL: $build is not up to date; build it before running this check"
  exit 1
fi

defaults=$src/src/backends/cpu/cpu_tuning_defaults.cpp
mapfile -t objects < <(would_compile "$defaults")
echo "touching $(basename "$defaults") recompiles ${#objects[@]} file(s):"
printf '  %s\n' "${objects[@]}"
if [[ ${#objects[@]} -ne 1 || "${objects[0]}" != *cpu_tuning_defaults.cpp.o ]]; then
  echo "FAIL: expected exactly cpu_tuning_defaults.cpp.o"
  exit 1
fi

header=$src/include/ak/runtime/hooks.hpp
mapfile -t objects < <(would_compile "$header")
echo "touching $(basename "$header") recompiles ${#objects[@]} file(s) (control: must be > 1)"
if [[ ${#objects[@]} -le 1 ]]; then
  echo "FAIL: the control case recompiled ${#objects[@]} file(s); the check cannot see rebuilds"
  exit 1
fi
echo "1 passed, 0 failed"
