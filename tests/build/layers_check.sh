#!/usr/bin/env bash
# DESIGN.md section 1: the layers point one way. Each layer is a folder and uses only the layers
# before it in this order, never one after it:
#
#   core  plugin  runtime  kernel  backends  gpu  algorithms  dist  tools
#
# Every #include "ak/<layer>/..." in the library's headers and sources (include/ak, src) is
# checked against the layer of the file that holds it; an include that points to a later layer
# fails the check, reported as FILE:LINE: <from> -> <to> | the line. Tests, benchmarks and examples
# may use any layer and are not checked.
#
# A file's layer is its folder: include/ak/<layer>/... or src/<layer>/... (src/tools for tools).
# include/ak/ak.hpp (every public header at once) counts as algorithms and include/ak/version.hpp
# as core.
#
# The control: before the tree is checked, a planted tree with one include pointing up from every
# layer (and one allowed include of each kind) must fail with exactly those offences, so that a
# check that has stopped finding anything fails too.
#
# usage: layers_check.sh SOURCE_DIR
set -uo pipefail
src=${1:?usage: layers_check.sh SOURCE_DIR}

layers=(core plugin runtime kernel backends gpu algorithms dist tools)
rank_of() {
  local i
  for i in "${!layers[@]}"; do
    [[ ${layers[$i]} == "$1" ]] && { echo "$i"; return; }
  done
  echo -1
}

# The layer of a path relative to a tree's root, or nothing for a file outside the layers.
layer_of() {
  case "$1" in
    include/ak/ak.hpp) echo algorithms ;;
    include/ak/version.hpp) echo core ;;
    include/ak/*/*) local r=${1#include/ak/}; echo "${r%%/*}" ;;
    src/*/*) local r=${1#src/}; echo "${r%%/*}" ;;
  esac
}

# Prints each include that points up, for the tree at $1; returns how many there were (capped).
check_tree() {
  local root=$1 count=0 file rel from to line num text
  while IFS= read -r file; do
    rel=${file#"$root"/}
    from=$(layer_of "$rel")
    [[ -n $from ]] || continue
    local rf
    rf=$(rank_of "$from")
    if ((rf < 0)); then
      echo "$rel: the folder '$from' is no layer of DESIGN.md section 1 (${layers[*]})"
      count=$((count + 1))
      continue
    fi
    while IFS=: read -r num text; do
      to=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"ak\/([^/"]+)\/.*/\1/' <<<"$text")
      [[ $to == "$text" ]] && continue  # ak/ak.hpp or ak/version.hpp: top-level headers
      local rt
      rt=$(rank_of "$to")
      if ((rt < 0)); then
        echo "$rel:$num: includes from '$to', no layer of DESIGN.md section 1 | $text"
        count=$((count + 1))
      elif ((rt > rf)); then
        echo "$rel:$num: $from -> $to | $text"
        count=$((count + 1))
      fi
    done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"ak/' "$file")
  done < <(find "$root/include/ak" "$root/src" -type f \
             \( -name '*.hpp' -o -name '*.h' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \) \
             2>/dev/null | sort)
  return $((count > 250 ? 250 : count))
}

# The control tree: one offence from every layer but the last, each to the layer after it, and
# one allowed include (same layer, earlier layer) that must not be reported.
control=$(mktemp -d)
trap 'rm -rf "$control"' EXIT
expected=()
for i in "${!layers[@]}"; do
  l=${layers[$i]}
  if [[ $l == tools ]]; then dir=$control/src/tools; else dir=$control/include/ak/$l; fi
  mkdir -p "$dir"
  {
    echo '#include "ak/core/dtype.hpp"'
    echo "#include \"ak/$l/same_layer.hpp\""
    if ((i + 1 < ${#layers[@]})); then echo "#include \"ak/${layers[$((i + 1))]}/up.hpp\""; fi
  } >"$dir/planted.hpp"
  if ((i + 1 < ${#layers[@]})); then
    expected+=("${dir#"$control"/}/planted.hpp:3: $l -> ${layers[$((i + 1))]}")
  fi
done
mkdir -p "$control/src/nowhere"
echo '#include "ak/core/dtype.hpp"' >"$control/src/nowhere/planted.cpp"
expected+=("src/nowhere/planted.cpp: the folder 'nowhere'")

got=$(check_tree "$control")
missing=0
for e in "${expected[@]}"; do
  grep -qF -- "$e" <<<"$got" || { echo "control: the planted offence '$e' was not found"; missing=1; }
done
if ((missing)) || [[ $(grep -c . <<<"$got") -ne ${#expected[@]} ]]; then
  echo "FAIL: the check does not find exactly the ${#expected[@]} planted offences; it found:"
  echo "$got"
  exit 1
fi
echo "control: the ${#expected[@]} planted offences were found, and nothing else"

out=$(check_tree "$src")
n=$?
if ((n)); then
  echo "$out"
  echo "FAIL: $n include(s) point to a later layer (DESIGN.md section 1: ${layers[*]})"
  exit 1
fi
echo "ok: every include of include/ak and src points to its own layer or an earlier one"
