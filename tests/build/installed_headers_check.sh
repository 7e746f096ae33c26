#!/usr/bin/env bash
# DESIGN.md section 2: no public header holds a backend's tuning value. Installs the package into
# a scratch prefix (cmake --install copies; it builds nothing), strips the comments of every
# installed header with the compiler, and fails on anything that would put a tuning value into a
# user's code:
#   - a tuning field (a member of a `*_tuning` struct in the installed ak/runtime/hooks.hpp) given
#     a literal number or an algorithm enumerator, as a designated initialiser or an assignment;
#   - a tuning struct (in hooks.hpp) whose fields default to anything but `unset` / `not_set`;
#   - a call that registers defaults (`tuning_defaults::add` with a hook);
#   - a constexpr or static object of a tuning type.
# Values computed at run time (`.block_size = t.block_size`) are fine, and so is what `allowed`
# lists below, each with its reason. As a check that the check can fail, the same scan over the
# backends' defaults sources must find values there.
#
# usage: installed_headers_check.sh BUILD_DIR SOURCE_DIR WORK_DIR CXX
set -euo pipefail
build=$1
src=$2
work=$3
cxx=$4
rm -rf "$work"
mkdir -p "$work"
if ! cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1; then
  echo "FAIL: cmake --install $build did not complete (is the build finished?):"
  tail -5 "$work/install.log"
  exit 1
fi
headers=$work/prefix/include/ak
hooks=$headers/runtime/hooks.hpp
[[ -f "$hooks" ]] || { echo "FAIL: $hooks was not installed"; exit 1; }

# The tuning fields, from the structs that declare them.
mapfile -t fields < <(awk '/^struct [a-z_]+_tuning \{/ { on = 1; next } on && /^\};/ { on = 0 }
                           on && /^ +[A-Za-z_:0-9]+ [a-z_0-9]+ = / { print $2 }' "$hooks" | sort -u)
if ((${#fields[@]} < 5)); then
  echo "FAIL: found only ${#fields[@]} tuning fields in $hooks; the check cannot see them"
  exit 1
fi
alt=$(IFS='|'; echo "${fields[*]}")
value='(-?[0-9]|[a-z_]+_algorithm::(?!not_set\b))'
patterns=(
  "\\.($alt)\\s*=\\s*$value"                         # designated initialiser or member assignment
  "\\badd\\s*\\(\\s*(ak::)?[a-z_]+_hook\\s*\\{"      # registering defaults
  "\\b(constexpr|static)\\b[^;(]*\\b[a-z_]+_tuning\\s+[a-z_0-9]+\\s*[={]"  # a tuning object
)
# In hooks.hpp, where the tuning structs are declared: a field's default.
hook_patterns=("\\b($alt)\\s*=\\s*$value")
# Matches that are not tuning values, as "file suffix|line regex|reason".
allowed=(
  "ak/gpu/dims.hpp|items_per_thread = 1\\}|a kernel that handles one output line per work-item by construction"
  "ak/gpu/search.hpp|items_per_thread = 1\\}|a kernel that handles one query per work-item by construction"
  "ak/gpu/sort.hpp|items_per_thread = 1\\}|a kernel that handles one element per work-item by construction"
)

is_allowed() {
  local file=$1 line=$2 a suffix regex
  for a in "${allowed[@]}"; do
    IFS='|' read -r suffix regex _ <<<"$a"
    [[ "$file" == *"$suffix" ]] && grep -qP -- "$regex" <<<"$line" && return 0
  done
  return 1
}

# Prints file: line for each match in the comment-free text of the given files.
scan() {
  local f text p
  for f in "$@"; do
    text=$("$cxx" -std=c++20 -fpreprocessed -dD -E -P -x c++ "$f" 2>/dev/null) || {
      echo "cannot read $f" >&2
      return 2
    }
    local all=("${patterns[@]}")
    [[ "$f" == */runtime/hooks.hpp ]] && all+=("${hook_patterns[@]}")
    for p in "${all[@]}"; do
      grep -nP -- "$p" <<<"$text" || true
    done | sort -t: -k1,1n -u | while IFS= read -r hit; do
      is_allowed "$f" "$hit" || echo "$f: $hit"
    done
  done
}

mapfile -t files < <(find "$headers" -type f | sort)
echo "scanning ${#files[@]} installed headers for values of ${#fields[@]} tuning fields"
found=$(scan "${files[@]}")
if [[ -n "$found" ]]; then
  echo "FAIL: installed headers hold tuning values:"
  echo "$found"
  exit 1
fi

control=$(scan "$src/src/backends/cpu/cpu_tuning_defaults.cpp")
if [[ -z "$control" ]]; then
  echo "FAIL: the scan finds no value in cpu_tuning_defaults.cpp; the check cannot see them"
  exit 1
fi
echo "control: the scan finds $(wc -l <<<"$control") value lines in cpu_tuning_defaults.cpp"
echo "1 passed, 0 failed"
