#!/usr/bin/env bash
# The whole GPU check of the cuda backend, in one command, on a machine with an NVIDIA GPU and no
# package registry (nothing is built or installed there): run scripts/gpu_bundle.sh on the
# development machine, carry gpu-bundle.tar.gz (or gpu-bundle/) with the working tree, then
#
#   scripts/gpu_check.sh [OUT_DIR]
#
# 1. `ak info` on cuda:0, the cuda tests compiled by nvcc (tests/cuda) and the CUDA example;
# 2. the algorithms test suite on cuda:0 (AKT_DEVICE=cuda:0): the standard types and operators
#    through the plugin's precompiled entries. Tests that instantiate a header template with a
#    custom operator or type cannot launch on cuda from this g++-built binary (they need nvcc:
#    tests/cuda covers those paths); they are counted apart, by their error message, and any
#    other failure fails the check;
# 3. `ak first-ops` on cuda:0 against Thrust/CUB, and the benchmark, side by side with CUB, Thrust
#    and a device copy (bench/cuda); then `ak tune` on cuda:0 (its cache in OUT_DIR/tuning/);
# 4. compute-sanitizer memcheck and racecheck over the cuda tests and part of the suite, where
#    the machine allows it (last: they are the slowest and the least likely to find something).
# Logs (steps.log, suite.log, suite.json) and the JSON of first-ops and the benchmark
# (first_ops_cuda.json, cuda_bench.json, tune_cuda.json) go to OUT_DIR
# (default gpu-check-out/). Every step has a time limit: the whole check stays under 8 minutes.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bundle=$PWD/gpu-bundle
out=${1:-$PWD/gpu-check-out}
mkdir -p "$out"
start=$SECONDS
failed=()
note() { printf '\n== [%3ds] %s\n' $((SECONDS - start)) "$*"; }

if [[ ! -d "$bundle/bin" && -f gpu-bundle.tar.gz ]]; then tar -xzf gpu-bundle.tar.gz; fi
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

step() {  # step NAME TIMEOUT_S COMMAND...: runs, appends to $out/steps.log, records failure
  local name=$1 limit=$2
  shift 2
  note "$name" | tee -a "$out/steps.log"
  timeout --signal=KILL "$limit" "$@" 2>&1 | tee -a "$out/steps.log" | tail -n 25
  local rc=${PIPESTATUS[0]}
  [[ $rc -eq 0 ]] || { echo "gpu_check: $name FAILED (exit $rc)"; failed+=("$name"); }
  return 0
}

# The device as ak sees it, and every tuning it resolves there with the layer it came from.
[[ -x "$bundle/bin/ak" ]] && step info 30 "${runner[@]}" "$bundle/bin/ak" info --device cuda:0
step cuda_tests 90 "${runner[@]}" "$bundle/bin/ak_cuda_tests"
step example 30 "${runner[@]}" "$bundle/bin/ak_cuda_custom"

# The suite on cuda:0: one process per test suite (eight at a time), so that a crash loses one
# suite, not the run; the results are classified from gtest's JSON reports.
note "algorithms suite on cuda:0"
parts=$(mktemp -d)
# CustomTypes is left out: its references read the device arrays through host pointers, which
# works on sim (whose device memory is host memory) and crashes on a GPU; custom types on cuda are
# tested by tests/cuda, compiled by nvcc.
"${runner[@]}" "$bundle/bin/ak_algorithms_tests" --gtest_list_tests | sed -n 's/^\([A-Za-z0-9_/]*\)\..*/\1/p' |
  grep -v '^CustomTypes$' | sort -u >"$parts/suites"
export AKT_DEVICE=cuda:0
xargs -P 8 -I{} sh -c 'timeout --signal=KILL 120 "$@" --gtest_filter="{}.*" \
    --gtest_output=json:"'"$parts"'/$(echo {} | tr / _).json" >"'"$parts"'/$(echo {} | tr / _).log" 2>&1 ||
  echo "suite {}: exit $?"' _ "${runner[@]}" "$bundle/bin/ak_algorithms_tests" <"$parts/suites"
unset AKT_DEVICE
cat "$parts"/*.log >"$out/suite.log"
python3 - "$parts" "$out/suite.json" <<'PY' || failed+=("suite")
import glob, json, os, sys
parts, merged = sys.argv[1], sys.argv[2]
needs_nvcc = "no kernel launcher for backend 'cuda'"
ok = skipped = nvcc = 0
bad, crashed, suites = [], [], []
for name in open(os.path.join(parts, "suites")).read().split():
    path = os.path.join(parts, name.replace("/", "_") + ".json")
    if not os.path.exists(path):
        log = open(path[:-5] + ".log", errors="replace").read().splitlines()
        crashed.append((name, log[-6:]))
        continue
    r = json.load(open(path))
    for suite in r["testsuites"]:
        suites.append(suite)
        for t in suite["testsuite"]:
            fails = t.get("failures", [])
            if t.get("result") == "SKIPPED" or t.get("status") == "NOTRUN":
                skipped += 1
            elif not fails:
                ok += 1
            elif all(needs_nvcc in f["failure"] for f in fails):
                nvcc += 1
            else:
                bad.append((suite["name"] + "." + t["name"], fails[0]["failure"].splitlines()[:6]))
json.dump({"testsuites": suites}, open(merged, "w"))
print(f"suite on cuda:0: {ok} passed, {nvcc} need an nvcc-compiled caller (template paths), "
      f"{skipped} skipped, {len(bad)} FAILED, {len(crashed)} suites CRASHED")
for name, msg in bad[:40]:
    print("FAILED", name)
    for line in msg: print("    ", line)
for name, tail in crashed:
    print("CRASHED suite", name)
    for line in tail: print("    ", line)
sys.exit(1 if bad or crashed else 0)
PY
rm -rf "$parts"

# First operations in fresh processes, ak against Thrust/CUB, both counting context creation.
step first_ops 60 "${runner[@]}" "$bundle/bin/ak" first-ops --device cuda:0 --baseline --runs 11 \
     --json "$out/first_ops_cuda.json"

# Each case stops after --max-case-s seconds once it has 3 runs: the whole run stays in budget.
step bench 200 "${runner[@]}" "$bundle/bin/ak_cuda_bench" --max-case-s 1.5 --json "$out/cuda_bench.json"

# The tuner on cuda:0 (docs/tuning.md): the fastest block sizes, items per work-item, digit bits
# and scan algorithm at 1e7 elements on this GPU, each checked against the default's result. Its
# cache file comes back in tuning/ (values for the GPU's class can go into
# src/backends/cuda/cuda_tuning_defaults.cpp), its report as tune_cuda.json. The map target is
# skipped there: a map with the tool's own functor needs an nvcc-compiled caller.
step tune 75 env AK_TUNING_CACHE_DIR="$out/tuning" "${runner[@]}" "$bundle/bin/ak" tune \
     --device cuda:0 --n 1e7 --budget 50 --json "$out/tune_cuda.json"

# sanitize NAME TIMEOUT_S COMMAND...: a compute-sanitizer run; only what the sanitizer reports (its
# exit code 9) fails the check: the tests' own failures are the steps above's to judge, and a run
# stopped at its time limit has checked what it ran.
sanitize() {
  local name=$1 limit=$2
  shift 2
  note "$name" | tee -a "$out/steps.log"
  timeout --signal=KILL "$limit" "$@" 2>&1 | tee -a "$out/steps.log" | grep -E "SUMMARY|^=+ [A-Z]" | tail -n 8
  local rc=${PIPESTATUS[0]}
  case $rc in
    9) echo "gpu_check: $name FOUND ERRORS"; failed+=("$name") ;;
    137) echo "gpu_check: $name stopped at its time limit of $limit s (partial)" ;;
    *) echo "gpu_check: $name: no errors reported" ;;
  esac
}

# compute-sanitizer, where the machine supports it (not on every virtualised GPU).
if command -v compute-sanitizer >/dev/null; then
  sanitize memcheck_cuda_tests 60 compute-sanitizer --tool memcheck --error-exitcode 9 \
    "${runner[@]}" "$bundle/bin/ak_cuda_tests" --gtest_filter='CudaTemplates.*'
  sanitize racecheck_cuda_tests 60 compute-sanitizer --tool racecheck --error-exitcode 9 \
    "${runner[@]}" "$bundle/bin/ak_cuda_tests" --gtest_filter='CudaTemplates.*'
  sanitize memcheck_suite 60 env AKT_DEVICE=cuda:0 compute-sanitizer --tool memcheck --error-exitcode 9 \
    "${runner[@]}" "$bundle/bin/ak_algorithms_tests" --gtest_filter='*Sort*:*Accumulate*:*Reduce*:-*Custom*:*Dims*'
else
  note "compute-sanitizer: not on this machine, skipped"
fi


note "done in $((SECONDS - start)) s"
if ((${#failed[@]})); then echo "gpu_check: FAILED: ${failed[*]}"; exit 1; fi
echo "gpu_check: everything passed"
