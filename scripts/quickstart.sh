#!/usr/bin/env bash
# The README's two commands:
#   scripts/quickstart.sh demo   install what is missing, build Release, run `ak demo` and
#                                `ak first-ops --baseline`
#   scripts/quickstart.sh test   install what is missing, build Release, run the whole test suite
# Missing Debian packages are installed with apt-get when run as root; otherwise the script
# prints the apt-get line to run and stops. Under CI=true, warnings are errors. `demo` builds the
# ak command and what it runs (target ak_command); `test` builds everything.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mode=${1:-}
if [[ "$mode" != demo && "$mode" != test ]]; then
  echo "usage: $0 demo|test" >&2
  exit 2
fi

# libhwy-dev (Highway): the cpu backend's vector code, dispatched at run time; its vqsort is also
# a peer of `ak bench`. libips4o-dev, libboost-dev, pdqsort-dev and libthrust-dev (Thrust's TBB
# backend): peers of `ak bench` (CMake leaves out any that is missing).
# libboost-context-dev: the fibers of the sim backend. libopenmpi-dev and openmpi-bin: MPI for
# ak::dist, its tests and `ak dist-bench` (CMake leaves them out without MPI). The plot script's
# python3-matplotlib is not needed to build or test.
packages=(cmake ninja-build g++ libtbb-dev nlohmann-json3-dev libcli11-dev libgtest-dev
          libbenchmark-dev libips4o-dev libboost-dev pdqsort-dev libthrust-dev libhwy-dev
          libboost-context-dev libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]]; then
    echo "== installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  else
    echo "Missing Debian packages. Install them, then run this again:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

# Under CI, warnings are errors and `ak bench` (ak_bench, which compiles every peer library for
# each dtype it is built for) is built for int64 alone, the dtype its tests run; elsewhere the
# cache keeps whatever was configured last, so that switching between the two commands does not
# rebuild everything.
ci=()
[[ "${CI:-}" == true ]] && ci=(-DAK_WERROR=ON -DAK_BENCH_DTYPES=int64)
jobs=$(nproc 2>/dev/null || echo 2)

echo "== configuring Release in build/"
cmake --preset release "${ci[@]}" >/dev/null
if [[ "$mode" == demo ]]; then
  # The ak command, its first-ops probes and the backend libraries alone (target ak_command);
  # `cmake --build build --target ak_bench` builds `ak bench`, the test command everything.
  echo "== building the ak command"
  cmake --build --preset release -j "$jobs" --target ak_command
else
  echo "== building everything"
  cmake --build --preset release -j "$jobs"
fi

if [[ "$mode" == demo ]]; then
  echo "== build/bin/ak demo"
  build/bin/ak demo
  echo
  echo "== build/bin/ak first-ops --baseline"
  exec build/bin/ak first-ops --baseline
fi
echo "== running the test suite"
exec ctest --preset release
