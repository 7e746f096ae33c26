#!/usr/bin/env bash
# DESIGN.md section 2: a program built once picks up a backend plugin installed after it was built,
# with that plugin's tunings, and nothing is rebuilt. The program is the ak command; the plugin is
# the testgpu test plugin, copied into an empty plugin folder only after a first run has shown that
# the backend is not there. The ak binary's checksum must not change on the way.
#
# usage: plugin_installed_later.sh AK_COMMAND PLUGIN_FILE WORK_DIR
set -euo pipefail
ak=$1
plugin=$2
work=$3
rm -rf "$work"
mkdir -p "$work/plugins"
export AK_BACKEND_PATH=$work/plugins
unset AK_TUNING
export AK_TUNING_CACHE_DIR=$work/cache
before=$(sha256sum <"$ak")

# Before: no such backend, and a clear error that says where it looked.
if out=$("$ak" info --device testgpu:0 2>&1); then
  echo "FAIL: testgpu loaded before it was installed:"
  echo "$out"
  exit 1
fi
grep -q "backend 'testgpu' is not available: no libak_testgpu.so in $work/plugins" <<<"$out" || {
  echo "FAIL: unexpected error before installing: $out"
  exit 1
}

# Install the plugin now: after the program was built.
cp "$plugin" "$work/plugins/"
if [[ ! "$work/plugins/$(basename "$plugin")" -nt "$ak" ]]; then
  echo "FAIL: the plugin's file is not newer than the program"
  exit 1
fi
out=$("$ak" info --device testgpu:0)
# The first float32 line is the reduce hook's: testgpu registers block_size 512 for floats on its
# device class (the generic default is 256).
line=$(grep -m1 -E '^ +float32 ' <<<"$out")
echo "reduce, float32 on testgpu:0: $line"
if [[ "$line" != *"block_size=512 [backend]"* ]]; then
  echo "FAIL: the plugin's tuning is not in effect"
  exit 1
fi
# And the cpu's tunings are untouched: the same program on cpu:0 still has the generic 256.
# (The output is captured before grep reads it: `ak info | grep -m1` would let ak die of SIGPIPE
# when grep stops early, which pipefail turns into a failure.)
out=$("$ak" info --device cpu:0)
line=$(grep -m1 -E '^ +float32 ' <<<"$out")
if [[ "$line" != *"block_size=256 [generic]"* ]]; then
  echo "FAIL: loading testgpu changed the cpu's tunings: $line"
  exit 1
fi
if [[ "$(sha256sum <"$ak")" != "$before" ]]; then
  echo "FAIL: the program changed"
  exit 1
fi
echo "1 passed, 0 failed"
