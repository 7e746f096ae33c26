#!/usr/bin/env bash
# Builds what scripts/gpu_check.sh runs on a machine with an NVIDIA GPU and no package registry,
# and gathers it in gpu-bundle/, packed as gpu-bundle.tar.gz (both git-ignored): the programs, libak and its cuda plugin, and every
# shared library they need besides the GPU driver (oneTBB, libstdc++, ..., and the C library with
# its loader, for a machine whose C library is older than this one's). Run it here (it needs nvcc,
# not a GPU), then carry gpu-bundle.tar.gz to the GPU machine with the working tree:
#
#   scripts/gpu_bundle.sh            # machine code for sm_90 (H100, H200) only: the quick build
#   AK_CUDA_ARCHS="80-real;89-real;90" scripts/gpu_bundle.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
archs=${AK_CUDA_ARCHS:-90}
targets=(ak ak_cuda ak_tool ak_cuda_tests ak_algorithms_tests ak_cuda_custom ak_cuda_bench
         ak_first_ops_probe_cuda ak_first_ops_thrust)
programs=(ak ak_cuda_tests ak_algorithms_tests ak_cuda_custom ak_cuda_bench ak_first_ops_probe
          ak_first_ops_probe_cuda ak_first_ops_thrust)  # in build-cuda/bin

cmake --preset cuda -DCMAKE_CUDA_ARCHITECTURES="$archs" -DAK_WERROR=ON >/dev/null
available=$(cmake --build build-cuda --target help | sed -n 's/^\([A-Za-z0-9_]*\): .*/\1/p')
build=()
for t in "${targets[@]}"; do
  if grep -qx "$t" <<<"$available"; then build+=("$t"); else echo "gpu_bundle: no target $t, skipped"; fi
done
cmake --build build-cuda -j "$(nproc)" --target "${build[@]}"

rm -rf gpu-bundle
mkdir -p gpu-bundle/bin gpu-bundle/lib gpu-bundle/glibc
for p in "${programs[@]}"; do [[ -x "build-cuda/bin/$p" ]] && cp "build-cuda/bin/$p" gpu-bundle/bin/; done
cp -P build-cuda/lib/libak.so* build-cuda/lib/libak_cuda.so gpu-bundle/lib/
# The shared libraries the programs need, except the driver's (libcuda: the GPU machine's own).
# glibc's go to glibc/, used only where the machine's C library is too old (gpu_check.sh).
for lib in $(LD_LIBRARY_PATH=build-cuda/lib ldd gpu-bundle/bin/* gpu-bundle/lib/*.so* 2>/dev/null |
               awk '/=> \// {print $3} /^\t\/.*ld-linux/ {print $1}' | sort -u); do
  name=$(basename "$lib")
  case "$name" in
    libak*|libcuda.so*) ;;
    ld-linux*|libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*) cp -L "$lib" gpu-bundle/glibc/ ;;
    *) cp -L "$lib" gpu-bundle/lib/ ;;
  esac
done
strip --strip-unneeded gpu-bundle/bin/* gpu-bundle/lib/*.so* 2>/dev/null || true
# Packed, since what travels to the GPU machine is limited in size; gpu_check.sh unpacks it.
tar -czf gpu-bundle.tar.gz gpu-bundle
echo "gpu-bundle.tar.gz: $(du -h gpu-bundle.tar.gz | cut -f1) (archs $archs): carry it"
ls gpu-bundle/bin gpu-bundle/lib gpu-bundle/glibc
