// The GPU half of histogram (the front is histogram.hpp): ak::gpu's histogram (private histograms
// per group, in local memory where the bins fit) with the tuning the front resolved.
#pragma once

#include <cstdint>

#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/gpu/histogram.hpp"

namespace ak::detail {

template <class T, class Bin>
array<std::int64_t> gpu_histogram(const device& dev, const select_tuning& t, view<const T> v,
                                  const Bin& bin, std::int64_t bins) {
  array<std::int64_t> out(shape{bins}, dev.memory());
  if (v.empty()) {
    gpu::detail::foreachindex_run(dev, loop_tuning(t), bins,
                                  gpu::kernels::fill_body<std::int64_t>{out.data(), 0});
    return out;
  }
  const gpu_dense<T> d(dev, v);
  gpu::detail::histogram_run(dev, t, d.data(), v.size(), bin, bins, out.data());
  return out;
}

}  // namespace ak::detail
