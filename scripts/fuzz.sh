#!/usr/bin/env bash
# The fuzz targets (tests/fuzz, libFuzzer): builds them with clang in build-fuzz/ and runs each for
# SECONDS (default 60), starting from its committed seed corpus (tests/fuzz/corpus/<target>).
# Inputs that reach new code are kept in build-fuzz/corpus/<target> (copy the useful ones into
# the committed corpus); a crash stops the run, leaves its input in build-fuzz/crashes/ and
# fails. Each crash found gets a regression case (for the tuning parser: BadOverrideFile in
# tests/runtime/tuning_test.cpp; for views: tests/core/view_test.cpp).
#
#   scripts/fuzz.sh [SECONDS]     e.g. scripts/fuzz.sh 3600 for an hour per target
#
# AK_FUZZ_TIMEOUT (seconds, default 10): one input that runs longer is a finding (libFuzzer's
# -timeout). .ci/run sets 60: its fuzz shares the two cores with a compile, where an input that
# takes 0.1 s alone has taken seconds.
#
# The differential target (algorithms) links an installed ak: AK_FUZZ_PREFIX=<prefix>, or else
# build/ installed into build-fuzz/ak; without either it is left out, and says so.
#
# Needs clang and its libFuzzer runtime (Debian: clang-14 libclang-rt-14-dev).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${1:-60}
if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds < 1)); then
  echo "usage: scripts/fuzz.sh [SECONDS]  (a whole number of seconds per target, at least 1)" >&2
  exit 2
fi
timeout=${AK_FUZZ_TIMEOUT:-10}
if ! [[ $timeout =~ ^[0-9]+$ ]] || ((timeout < 1)); then
  echo "scripts/fuzz.sh: AK_FUZZ_TIMEOUT=$timeout: a whole number of seconds, at least 1" >&2
  exit 2
fi
cxx=$(command -v clang++ || command -v clang++-14 || true)
if [[ -z $cxx ]]; then
  echo "scripts/fuzz.sh: clang++ not found; install it: apt-get install clang-14 libclang-rt-14-dev" >&2
  exit 1
fi
out=build-fuzz
targets=(tuning_parser views)
# The differential target (algorithms) links ak as a user's program does: an installed ak, from
# AK_FUZZ_PREFIX when it names one (.ci/run passes the one it installed), else build/ (either of
# the README's commands builds it) installed into build-fuzz/ak. An install that fails is an
# error, not a reason to leave the target out.
prefix=()
if [[ -n ${AK_FUZZ_PREFIX:-} ]]; then
  if [[ ! -d $AK_FUZZ_PREFIX/lib/cmake/ak ]]; then
    echo "scripts/fuzz.sh: AK_FUZZ_PREFIX=$AK_FUZZ_PREFIX holds no installed ak (lib/cmake/ak)" >&2
    exit 1
  fi
  ak_prefix=$(cd "$AK_FUZZ_PREFIX" && pwd)
elif [[ -f build/CMakeCache.txt ]]; then
  if ! log=$(cmake --install build --prefix "$out/ak" 2>&1); then
    echo "$log" | tail -n 20 >&2
    echo "scripts/fuzz.sh: installing build/ into $out/ak failed (a target of build/ not built?)" >&2
    exit 1
  fi
  ak_prefix=$PWD/$out/ak
fi
if [[ -n ${ak_prefix:-} ]]; then
  # ak_DIR too: a build-fuzz/ configured before keeps the ak it found in its cache.
  prefix=(-DCMAKE_PREFIX_PATH="$ak_prefix" -Dak_DIR="$ak_prefix/lib/cmake/ak")
  targets+=(algorithms)
else
  echo "== build/ holds no built ak (scripts/quickstart.sh demo builds it): ak_fuzz_algorithms is not run"
fi
cmake -S tests/fuzz -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_COMPILER="$cxx" \
      "${prefix[@]}" >/dev/null
cmake --build "$out" -j "$(nproc)"
mkdir -p "$out/crashes"
for target in "${targets[@]}"; do
  corpus=$out/corpus/$target
  mkdir -p "$corpus"
  echo "== ak_fuzz_$target for ${seconds} s (seed corpus tests/fuzz/corpus/$target)"
  rm -f "$out/crashes/$target-"*
  # -max_len: every target reads a small input, and long inputs only slow each run down;
  # -timeout: a single input that takes seconds is a finding too (AK_FUZZ_TIMEOUT). Shown:
  # libFuzzer's periodic pulse and final lines, and any report (the harness's own, a sanitizer's
  # first line and summary); the whole log is build-fuzz/<target>.log. sim runs on two worker
  # threads, as its tests do.
  set +e
  AK_SIM_THREADS=2 "$out/ak_fuzz_$target" -max_total_time="$seconds" -max_len=8192 \
      -timeout="$timeout" -print_final_stats=1 \
      -artifact_prefix="$out/crashes/$target-" "$corpus" "tests/fuzz/corpus/$target" 2>&1 |
    tee "$out/$target.log" |
    grep --line-buffered -E '^#[0-9]+[[:space:]]+(INITED|pulse|DONE)|^stat::|ERROR|SUMMARY|==[0-9]+==|runtime error|^[a-z_]+_fuzz: '
  status=${PIPESTATUS[0]}
  set -e
  if ((status != 0)); then
    echo "FAIL: ak_fuzz_$target exited with $status; the input is in $out/crashes/:" >&2
    # Its bytes too, so that a finding in a log (CI's) can be replayed where the file is gone:
    # xxd -r -p (Debian: xxd) turns the hex back into the input (ak_fuzz_<target> FILE runs it once).
    for input in "$out/crashes/$target-"*; do
      [[ -f $input ]] || continue
      echo "$input, $(stat -c %s "$input") bytes, as hex:" >&2
      od -An -v -tx1 "$input" | tr -d ' \n' | fold -w 64 >&2
      echo >&2
    done
    exit 1
  fi
done
