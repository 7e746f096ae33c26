// Launching a portable kernel on the device it is for: sim in translation units that the host
// compiler builds, cuda in those that nvcc builds (the cuda plugin's entry points, a user's .cu
// files). A g++-built call for a cuda device, or an nvcc-built one for sim, is an error naming the
// compiler to use; the public algorithms never make one for the standard types and operators,
// since on cuda data they call the plugin's precompiled entries.
#pragma once

#include <string>

#include "ak/core/error.hpp"
#include "ak/kernel/types.hpp"
#include "ak/runtime/device.hpp"
#if defined(__CUDACC__)
#include "ak/backends/cuda/launch.cuh"
#else
#include "ak/backends/sim/launch.hpp"
#endif

namespace ak::gpu {

template <class Kernel>
void launch(const ak::device& dev, const kernel::launch_params& p, const Kernel& k) {
#if defined(__CUDACC__)
  if (dev.backend() == "cuda") return ak::cuda::launch(dev, p, k);
  const char* how =
      ": this translation unit was compiled by nvcc, whose kernels run on cuda "
      "devices; compile it with the host compiler (g++, clang++) to run on sim";
#else
  if (dev.backend() == "sim") return ak::sim::launch(dev, p, k);
  const char* how = dev.backend() == "cuda"
                        ? ": kernels for cuda devices are compiled by nvcc (a .cu file; see "
                          "examples/cuda_custom)"
                        : "";
#endif
  throw ak::capability_error("ak::gpu: no kernel launcher for backend '" + dev.backend() +
                             "' (device " + dev.name() + ") in this translation unit" + how);
}

}  // namespace ak::gpu
