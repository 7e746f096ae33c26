#!/usr/bin/env bash
# Proves DESIGN.md section 3: a translation unit that makes every call the section names on
# floats with the standard operators (the copying sort, sort_inplace, sortperm, sum, a reduction
# along dims, cumsum, searchsortedfirst, any/all/count without a predicate) compiles without
# instantiating any algorithm or kernel template: it links to libak's precompiled entry points.
# Built at -O0 so that every instantiated template shows up as a symbol of the object file.
#
# What counts as an algorithm or kernel template: anything of the cpu backend's algorithms
# (ak::cpu::), the GPU algorithms and their kernels (ak::gpu::), a sim launch (ak::sim::), and the
# families' cpu and GPU halves (ak::detail::cpu_*, ak::detail::gpu_*, the strided element-wise
# loop and the sorts' runs). A family's front (argument checks, device, resolution) may appear.
#
# As a check that the check can fail, the same file with a custom comparator must instantiate
# each kind: cpu algorithms, GPU algorithms, sim launches and the halves.
#
# usage: precompiled_check.sh CXX INCLUDE_DIR SOURCE_FILE WORK_DIR
set -euo pipefail
cxx=$1
include=$2
source=$3
work=$4
mkdir -p "$work"

kinds=('ak::cpu::' 'ak::gpu::' 'ak::sim::' 'ak::detail::(cpu_|gpu_|elementwise|sort_run)')
pattern=$(IFS='|'; echo "${kinds[*]}")

instantiated() {
  "$cxx" -std=c++20 -O0 -I"$include" -c "$source" -o "$work/$1.o" "${@:2}"
  nm -C --defined-only "$work/$1.o" | grep -E "$pattern" || true
}

found=$(instantiated plain)
if [[ -n "$found" ]]; then
  echo "FAIL: the precompiled path instantiated algorithm or kernel templates:"
  echo "$found" | head -20
  exit 1
fi
custom=$(instantiated custom -DAK_CUSTOM_ORDER)
for k in "${kinds[@]}"; do
  if ! grep -qE "$k" <<<"$custom"; then
    echo "FAIL: a custom comparator instantiated nothing matching '$k'; the check cannot see them"
    exit 1
  fi
done
echo "OK: the standard path instantiates no algorithm or kernel template; a custom comparator instantiates $(wc -l <<<"$custom") symbols of every kind (${kinds[*]})"
