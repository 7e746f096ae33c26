// Launching a portable kernel on the device it is for. Only sim so far; the cuda backend adds its
// launcher in translation units that nvcc compiles.
#pragma once

#include <string>

#include "ak/backends/sim/launch.hpp"
#include "ak/core/error.hpp"
#include "ak/kernel/types.hpp"
#include "ak/runtime/device.hpp"

namespace ak::gpu {

template <class Kernel>
void launch(const ak::device& dev, const kernel::launch_params& p, const Kernel& k) {
  if (dev.backend() == "sim") return ak::sim::launch(dev, p, k);
  throw ak::capability_error("ak::gpu: no kernel launcher for backend '" + dev.backend() +
                             "' (device " + dev.name() + ") in this translation unit");
}

}  // namespace ak::gpu
