// Launching portable kernels on the cuda backend (devices cuda:N of the plugin libak_cuda.so), in
// translation units that nvcc compiles: the plugin's precompiled entry points, and a user's own
// code with custom types and operators (examples/cuda_custom).
//
//   ak::cuda::launch(ak::device("cuda:0"), {ak::kernel::range_1d(n, 256), 0, "scale"}, kernel);
//
// enqueues `kernel(ctx)` for every work-item on the device's stream and returns without waiting
// (ak::cuda::wait, or any call that returns data to the host, waits). A launch the device cannot
// take is an ak::argument_error; a CUDA error an ak::backend_error that names the CUDA error, the
// call and the kernel.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "ak/backends/cuda/context.cuh"
#include "ak/backends/cuda/cuda_api.h"
#include "ak/core/error.hpp"
#include "ak/kernel/types.hpp"
#include "ak/runtime/device.hpp"
#include "ak/runtime/extension.hpp"

namespace ak::cuda {

namespace detail {

inline const ak_cuda_api_v1& api() {
  static const ak_cuda_api_v1* table = [] {
    const auto* t =
        static_cast<const ak_cuda_api_v1*>(ak::backend_extension("cuda", AK_CUDA_API_SYMBOL));
    if (!t) throw ak::backend_error("backend 'cuda' does not export " AK_CUDA_API_SYMBOL);
    if (t->version != AK_CUDA_API_VERSION)
      throw ak::backend_error("backend 'cuda' has API version " + std::to_string(t->version) +
                              ", these headers need " + std::to_string(AK_CUDA_API_VERSION));
    return t;
  }();
  return *table;
}

inline std::int64_t ordinal_of(const ak::device& dev) {
  if (dev.backend() != "cuda")
    throw ak::argument_error("ak::cuda::launch", "device", "a cuda device (cuda:N)", dev.name());
  return dev.ordinal();
}

[[noreturn]] inline void fail(const char* call, const char* kernel, cudaError_t e) {
  throw ak::backend_error(std::string("cuda: ") + call + " of kernel '" + kernel +
                          "' failed: " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

template <class Kernel>
__global__ void kernel_entry(Kernel k, int rank, std::size_t local_bytes) {
  context ctx(rank, local_bytes);
  k(ctx);
}

}  // namespace detail

template <class Kernel>
void launch(const ak::device& dev, const kernel::launch_params& p, const Kernel& k) {
  const std::int64_t ordinal = detail::ordinal_of(dev);
  const ak_cuda_api_v1& a = detail::api();
  const char* name = p.name ? p.name : "kernel";
  const auto& r = p.range;
  std::int64_t threads = 1, groups = 1;
  unsigned grid[3], block[3];
  for (int d = 0; d < 3; ++d) {
    const std::int64_t g = d < r.rank ? r.group[d] : 1, n = d < r.rank ? r.global[d] : 1;
    if (g < 1 || n < 0 || n % g != 0)
      throw ak::argument_error("ak::cuda::launch: kernel '" + std::string(name) + "': dimension " +
                               std::to_string(d) + " has " + std::to_string(n) +
                               " work-items in groups of " + std::to_string(g) +
                               " (want a whole number of groups)");
    const std::int64_t most = d == 0 ? 0x7fffffff : 65535;
    if (n / g > most)
      throw ak::argument_error("ak::cuda::launch: kernel '" + std::string(name) +
                               "': " + std::to_string(n / g) + " groups in dimension " +
                               std::to_string(d) + ", more than CUDA's " + std::to_string(most));
    grid[d] = static_cast<unsigned>(n / g);
    block[d] = static_cast<unsigned>(g);
    threads *= g;
    groups *= n / g;
  }
  const auto& info = dev.info();
  if (threads > info.max_group_size ||
      static_cast<std::int64_t>(p.local_bytes) > info.local_memory_bytes)
    throw ak::argument_error("ak::cuda::launch: kernel '" + std::string(name) + "': a group of " +
                             std::to_string(threads) + " work-items with " +
                             std::to_string(p.local_bytes) + " bytes of local memory; " +
                             dev.name() + " takes at most " + std::to_string(info.max_group_size) +
                             " and " + std::to_string(info.local_memory_bytes));
  if (groups == 0) return;
  // The runtime's current device is per thread (and per copy of the CUDA runtime in the process).
  int current = -1;
  if (cudaGetDevice(&current) != cudaSuccess || current != ordinal) {
    const cudaError_t e = cudaSetDevice(static_cast<int>(ordinal));
    if (e != cudaSuccess) detail::fail("cudaSetDevice", name, e);
  }
  auto* stream = static_cast<cudaStream_t>(a.stream(ordinal));
  a.note_launch(ordinal, name);
  detail::kernel_entry<Kernel>
      <<<dim3(grid[0], grid[1], grid[2]), dim3(block[0], block[1], block[2]), p.local_bytes,
         stream>>>(k, r.rank, p.local_bytes);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) detail::fail("the launch", name, e);
}

// Waits for the work enqueued on the device (a CUDA error that surfaces here names the kernel
// launched last).
inline void wait(const ak::device& dev) {
  if (const char* m = detail::api().wait(detail::ordinal_of(dev))) throw ak::backend_error(m);
}

}  // namespace ak::cuda
