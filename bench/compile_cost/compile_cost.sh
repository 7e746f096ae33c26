#!/usr/bin/env bash
# The time to compile a user's translation unit that sorts, sums, scans and tests `any` on float
# vectors: with ak (user_ak.cpp, libak's precompiled path), with the std algorithms and
# std::execution::par under g++ (user_std_par.cpp), and with Thrust/CUB under nvcc (user_thrust.cu).
# Each is compiled to an object file (no linking) REPS times, the three in turn so that the
# machine's noise falls on all of them alike; the table gives the median and the fastest wall time
# and each median's ratio to ak's. (The compilers are single-threaded and CPU-bound: their CPU time
# is their wall time, so a busy shared machine slows both alike.)
#
# usage: bench/compile_cost/compile_cost.sh [REPS]   (default 5; CXX and NVCC override the
# compilers; NVCC= leaves the Thrust/CUB row out)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
include=$here/../../include
reps=${1:-5}
cxx=${CXX:-g++}
if [[ -v NVCC ]]; then
  nvcc=$NVCC  # empty: leave the Thrust/CUB row out
else
  nvcc=$(command -v nvcc || true)
  [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

names=(ak std_par)
commands=("$cxx -std=c++20 -O2 -I$include -c $here/user_ak.cpp -o $work/ak.o"
          "$cxx -std=c++20 -O2 -c $here/user_std_par.cpp -o $work/std_par.o")
if [[ -n "$nvcc" ]]; then
  names+=(thrust)
  commands+=("$nvcc -std=c++20 -O2 -arch=sm_90 -c $here/user_thrust.cu -o $work/thrust.o")
else
  echo "no nvcc: the Thrust/CUB row is left out"
fi

declare -A times
TIMEFORMAT='%R'
for ((r = 0; r < reps; ++r)); do
  for i in "${!names[@]}"; do
    times[${names[$i]}]+="$({ time ${commands[$i]} >/dev/null; } 2>&1 | tail -1) "
  done
done

median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
fastest() { tr ' ' '\n' <<<"$1" | grep . | sort -n | head -1; }
ak_median=$(median "${times[ak]}")
printf '%-8s %10s %10s %12s\n' TU "median s" "fastest s" "median / ak"
for name in "${names[@]}"; do
  m=$(median "${times[$name]}")
  printf '%-8s %10.2f %10.2f %12.2f\n' "$name" "$m" "$(fastest "${times[$name]}")" \
         "$(awk -v a="$m" -v b="$ak_median" 'BEGIN { print a / b }')"
done
echo "($reps compiles of each; commands:)"
for i in "${!names[@]}"; do echo "  ${names[$i]}: ${commands[$i]//$work\//}"; done
