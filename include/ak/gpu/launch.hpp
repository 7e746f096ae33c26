// Launching a portable kernel on the device it is for: sim in translation units that the host
// compiler builds, cuda in those that nvcc builds (the cuda plugin's entry points, a user's .cu
// files). A g++-built call for a cuda device, or an nvcc-built one for sim, is an error naming the
// compiler to use; the public algorithms never make one for the standard types and operators,
// since on cuda data they call the plugin's precompiled entries.
//
// A host-compiled translation unit that defines AK_NO_SIM_KERNELS instantiates no kernel: its
// calls on sim data that reach a kernel (custom types and operators; the standard ones take the
// precompiled entries) are an error saying so. For code that only runs on cpu (ak's tests under
// the sanitizers): the kernel bodies are much of what a custom operator costs to compile.
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
#elif defined(AK_NO_SIM_KERNELS)
  (void)p, (void)k;
  const char* how =
      dev.backend() == "sim"
          ? ": it was compiled with AK_NO_SIM_KERNELS, which leaves out the kernels of sim"
          : "";
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
