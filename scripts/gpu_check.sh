#!/usr/bin/env bash
# The whole GPU check of the cuda backend, in one command, on a machine with an NVIDIA GPU and no
# package registry (nothing is built or installed there): run scripts/gpu_bundle.sh on the
# development machine, carry gpu-bundle/ with the working tree, then
#
#   scripts/gpu_check.sh [OUT_DIR]
#
# 1. the cuda tests compiled by nvcc (tests/cuda) and the CUDA example;
# 2. the algorithms test suite on cuda:0 (AKT_DEVICE=cuda:0): the standard types and operators
#    through the plugin's precompiled entries. Tests that instantiate a header template with a
#    custom operator or type cannot launch on cuda from this g++-built binary (they need nvcc:
#    tests/cuda covers those paths); they are counted apart, by their error message, and any
#    other failure fails the check;
# 3. compute-sanitizer memcheck and racecheck over the cuda tests and part of the suite, where
#    the machine allows it;
# 4. the benchmark, side by side with CUB, Thrust and a device copy (bench/cuda).
# Logs and the benchmark's JSON go to OUT_DIR (default gpu-check-out/). Budget: under 8 minutes.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bundle=$PWD/gpu-bundle
out=${1:-$PWD/gpu-check-out}
mkdir -p "$out"
start=$SECONDS
failed=()
note() { printf '\n== [%3ds] %s\n' $((SECONDS - start)) "$*"; }

[[ -d "$bundle/bin" ]] || { echo "gpu_check: no gpu-bundle/ (run scripts/gpu_bundle.sh first)"; exit 2; }
nvidia-smi -L || echo "nvidia-smi: not available"
echo "C library here: $(ldd --version 2>&1 | head -1)"

# Run the bundle's programs with its libraries; with its own C library and loader where the
# machine's is too old for them.
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export AK_BACKEND_PATH="$bundle/lib"
runner=()
if ! "$bundle/bin/ak_cuda_tests" --gtest_list_tests >/dev/null 2>"$out/loader.log"; then
  cat "$out/loader.log"
  echo "gpu_check: the programs do not start with this machine's C library; using the bundled one"
  runner=("$bundle/glibc/ld-linux-x86-64.so.2" --library-path "$bundle/glibc:$bundle/lib")
fi
run() { "${runner[@]}" "$@"; }

step() {  # step NAME TIMEOUT_S COMMAND...: runs, logs to $out/NAME.log, records failure
  local name=$1 limit=$2
  shift 2
  note "$name"
  timeout --signal=KILL "$limit" "$@" 2>&1 | tee "$out/$name.log" | tail -n 25
  local rc=${PIPESTATUS[0]}
  [[ $rc -eq 0 ]] || { echo "gpu_check: $name FAILED (exit $rc)"; failed+=("$name"); }
  return 0
}

step cuda_tests 120 run "$bundle/bin/ak_cuda_tests"
step example 60 run "$bundle/bin/ak_cuda_custom"

# The suite on cuda:0, its results classified from gtest's JSON report.
note "algorithms suite on cuda:0"
AKT_DEVICE=cuda:0 timeout --signal=KILL 240 "${runner[@]}" "$bundle/bin/ak_algorithms_tests" \
  --gtest_output=json:"$out/suite.json" >"$out/suite.log" 2>&1
echo "suite exit: $?"
python3 - "$out/suite.json" <<'PY' || failed+=("suite")
import json, sys
r = json.load(open(sys.argv[1]))
needs_nvcc = "no kernel launcher for backend 'cuda'"
ok = skipped = nvcc = 0
bad = []
for suite in r["testsuites"]:
    for t in suite["testsuite"]:
        name = suite["name"] + "." + t["name"]
        fails = t.get("failures", [])
        if t.get("result") == "SKIPPED" or t.get("status") == "NOTRUN":
            skipped += 1
        elif not fails:
            ok += 1
        elif all(needs_nvcc in f["failure"] for f in fails):
            nvcc += 1
        else:
            bad.append((name, fails[0]["failure"].splitlines()[:6]))
print(f"suite on cuda:0: {ok} passed, {nvcc} need an nvcc-compiled caller (template paths), "
      f"{skipped} skipped, {len(bad)} FAILED")
for name, msg in bad[:40]:
    print("FAILED", name)
    for line in msg: print("    ", line)
sys.exit(1 if bad else 0)
PY

# compute-sanitizer, where the machine supports it (not on every virtualised GPU).
if command -v compute-sanitizer >/dev/null; then
  step memcheck_cuda_tests 90 compute-sanitizer --tool memcheck --error-exitcode 9 \
    "${runner[@]}" "$bundle/bin/ak_cuda_tests" --gtest_filter='CudaTemplates.*:-*Sortperm*'
  step racecheck_cuda_tests 90 compute-sanitizer --tool racecheck --error-exitcode 9 \
    "${runner[@]}" "$bundle/bin/ak_cuda_tests" --gtest_filter='CudaTemplates.Reduce*:CudaTemplates.Accumulate*'
  step memcheck_suite 120 env AKT_DEVICE=cuda:0 compute-sanitizer --tool memcheck --error-exitcode 9 \
    "${runner[@]}" "$bundle/bin/ak_algorithms_tests" --gtest_filter='*Sort*:*Accumulate*:*Reduce*:-*Custom*:*Dims*'
else
  note "compute-sanitizer: not on this machine, skipped"
fi

step bench 240 run "$bundle/bin/ak_cuda_bench" --json "$out/cuda_bench.json"

note "done in $((SECONDS - start)) s"
if ((${#failed[@]})); then echo "gpu_check: FAILED: ${failed[*]}"; exit 1; fi
echo "gpu_check: everything passed"
