#!/usr/bin/env bash
# Tunings are data: on a machine with an NVIDIA GPU, times ak_cuda_bench's ops under several
# AK_TUNING overrides of the cuda backend's defaults, with no rebuild, to choose the defaults in
# src/backends/cuda/cuda_tuning_defaults.cpp. Runs from the bundle of scripts/gpu_bundle.sh (as
# gpu_check.sh does) and prints, per override, ak's median and its ratio to CUB.
#
#   scripts/gpu_sweep.sh [OUT_DIR]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bundle=$PWD/gpu-bundle
out=${1:-$PWD/gpu-sweep-out}
mkdir -p "$out"
if [[ ! -d "$bundle/bin" && -f gpu-bundle.tar.gz ]]; then tar -xzf gpu-bundle.tar.gz; fi
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export AK_BACKEND_PATH="$bundle/lib"
parts=$(mktemp -d)

# name | ops | AK_TUNING for cuda:0 (hook: {dtype selector: {field: value}})
configs=(
  'defaults|reduce,map,accumulate,sort,sort_by_key,sort_custom|{}'
  'reduce_block256|reduce|{"reduce":{"*":{"block_size":256}}}'
  'reduce_block1024|reduce|{"reduce":{"*":{"block_size":1024}}}'
  'reduce_vw2|reduce,any|{"reduce":{"*":{"vector_width":2}}}'
  'reduce_vw4|reduce,any|{"reduce":{"*":{"vector_width":4}}}'
  'map_ipt1|map|{"map":{"*":{"items_per_thread":1}}}'
  'map_ipt4|map|{"map":{"*":{"items_per_thread":4}}}'
  'map_ipt16|map|{"map":{"*":{"items_per_thread":16}}}'
  'scan_ipt8|accumulate|{"scan":{"*":{"items_per_thread":8}}}'
  'scan_block256|accumulate|{"scan":{"*":{"block_size":256}}}'
  'scan_block1024_ipt8|accumulate|{"scan":{"*":{"block_size":1024,"items_per_thread":8}}}'
  'sort_block512|sort,sort_by_key|{"sort":{"*":{"block_size":512}}}'
  'sort_block1024|sort,sort_by_key|{"sort":{"*":{"block_size":1024}}}'
  'sort_bits4|sort|{"sort":{"*":{"radix_digit_bits":4}}}'
  'sort_ipt2|sort,sort_by_key|{"sort":{"*":{"radix_items_per_thread":2}}}'
  'sort_ipt8|sort,sort_by_key|{"sort":{"*":{"radix_items_per_thread":8}}}'
  'merge_tile1024|sort_custom|{"sort":{"*":{"merge_tile_size":1024}}}'
  'merge_tile8192|sort_custom|{"sort":{"*":{"merge_tile_size":8192}}}'
)
for c in "${configs[@]}"; do
  IFS='|' read -r name ops tuning <<<"$c"
  echo "== $name: $tuning"
  if [[ "$tuning" == "{}" ]]; then unset AK_TUNING; else export AK_TUNING="{\"cuda:0\": $tuning}"; fi
  timeout --signal=KILL 90 "$bundle/bin/ak_cuda_bench" \
    --ops "$ops" --n 2^24,2^28 --max-case-s 1 --json "$parts/$name.json" >"$parts/$name.log" 2>&1 ||
    { echo "   failed:"; tail -n 5 "$parts/$name.log"; }
done
python3 - "$parts" "$out/sweep.json" <<'PY'
import glob, json, os, sys
parts, merged = sys.argv[1], sys.argv[2]
rows, base = [], {}
for path in sorted(glob.glob(os.path.join(parts, "*.json"))):
    name = os.path.basename(path)[:-5]
    for r in json.load(open(path)):
        r["config"] = name
        rows.append(r)
json.dump(rows, open(merged, "w"))
ak = {(r["config"], r["op"], r["dtype"], r["n"]): r for r in rows if r["impl"] == "ak"}
cub = {(r["config"], r["op"], r["dtype"], r["n"]): r for r in rows if r["impl"] == "cub"}
for k in sorted(ak, key=lambda k: (k[1], k[2], k[3], k[0])):
    c = cub.get(k)
    ratio = c.get("ratio_to_ak") if c else None
    print(f"{k[1]:12} {k[2]:8} 2^{k[3].bit_length()-1:<3} {k[0]:22} ak {ak[k]['median_s']*1e3:9.4f} ms"
          + (f"  cub/ak {ratio:5.2f}" if ratio else ""))
PY
rm -rf "$parts"
