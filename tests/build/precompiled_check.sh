#!/usr/bin/env bash
# Proves DESIGN.md section 3: a translation unit that sums, scans, sorts and searches floats with
# the standard operators compiles without instantiating any algorithm template (it links to
# libak's precompiled entry points). Built at -O0 so that every instantiated template shows up
# as a symbol of the object file. As a check that the check can fail, the same file with a
# custom comparator must instantiate one.
#
# usage: precompiled_check.sh CXX INCLUDE_DIR SOURCE_FILE WORK_DIR
set -euo pipefail
cxx=$1
include=$2
source=$3
work=$4
mkdir -p "$work"

# Algorithm templates: the cpu backend's, and the header templates behind the public API.
pattern='ak::cpu::(radix_sort|merge_sort|sample_sort|mapreduce_space|mapreduce_dims|scan_1d|scan_middle|parallel_rows)|ak::detail::(mapreduce_all|mapreduce_along|accumulate_impl|sort_impl|sortperm_impl|searchsorted_impl)'

instantiated() {
  "$cxx" -std=c++20 -O0 -I"$include" -c "$source" -o "$work/$1.o" "${@:2}"
  nm -C --defined-only "$work/$1.o" | grep -E "$pattern" || true
}

found=$(instantiated plain)
if [[ -n "$found" ]]; then
  echo "FAIL: the precompiled path instantiated algorithm templates:"
  echo "$found" | head -20
  exit 1
fi
custom=$(instantiated custom -DAK_CUSTOM_ORDER)
if [[ -z "$custom" ]]; then
  echo "FAIL: a custom comparator instantiated no algorithm template; the check cannot see them"
  exit 1
fi
echo "OK: the standard path instantiates no algorithm template; a custom comparator instantiates $(wc -l <<<"$custom") symbols"
