#!/usr/bin/env bash
# libak calls its own functions, not a program's copies of them: no PLT slot of the library names
# a function the library defines (what -Bsymbolic-functions gives; see the top CMakeLists.txt).
# First a planted control: a library built without the flag must fail the check, with it pass.
#   symbolic_check.sh CXX LIBAK WORKDIR
set -euo pipefail
cxx=$1 lib=$2 work=$3
mkdir -p "$work"
[[ -f $lib ]] || { echo "FAIL: no library at $lib" >&2; exit 1; }

# Functions the library defines that one of its PLT slots (R_X86_64_JUMP_SLOT or the like) names.
interposable() {
  comm -12 <(readelf --wide -r "$1" | awk '/JUMP_SLOT|JMP_SLOT/ {print $5}' | sed 's/@.*//' | sort -u) \
           <(nm -D --defined-only "$1" | awk '$2 ~ /[TWi]/ {print $3}' | sed 's/@.*//' | sort -u)
}

cat >"$work/control.cpp" <<'CPP'
template <class T> __attribute__((noinline)) T twice(T x) { return x + x; }
int entry(int x) { return twice(x) + 1; }
CPP
"$cxx" -shared -fPIC -O1 -o "$work/control_plain.so" "$work/control.cpp"
"$cxx" -shared -fPIC -O1 -Wl,-Bsymbolic-functions -o "$work/control_symbolic.so" "$work/control.cpp"
if [[ -z $(interposable "$work/control_plain.so") ]]; then
  echo "FAIL: the control library built without -Bsymbolic-functions passed the check" >&2
  exit 1
fi
if [[ -n $(interposable "$work/control_symbolic.so") ]]; then
  echo "FAIL: the control library built with -Bsymbolic-functions failed the check" >&2
  exit 1
fi

found=$(interposable "$lib")
if [[ -n $found ]]; then
  echo "FAIL: $lib calls these of its own functions through its PLT, so a program's copy would replace them:" >&2
  echo "$found" | head -20 >&2
  exit 1
fi
echo "ok: $lib binds its own $(nm -D --defined-only "$lib" | wc -l) defined symbols' calls locally"
