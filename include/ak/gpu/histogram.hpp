// Histograms on GPU-style devices: groups count their chunks into private histograms
// (kernels/histogram.hpp), one loop per bin sums the groups' rows. Device pointers, as in
// ak/gpu/algorithms.hpp.
#pragma once

#include <algorithm>
#include <cstdint>

#include "ak/gpu/algorithms.hpp"
#include "ak/gpu/kernels/histogram.hpp"

namespace ak::gpu::detail {

// out[b] = the sum of the groups' rows at b.
struct sum_rows_body {
  const std::int64_t* partials;
  std::int64_t* out;
  std::int64_t groups;
  std::int64_t bins;
  AK_KERNEL_FN void operator()(std::int64_t b) const {
    std::int64_t s = 0;
    for (std::int64_t g = 0; g < groups; ++g) s += partials[g * bins + b];
    out[b] = s;
  }
};

// out[b] = how many of in[0, n) have bin(x) == b, for b in [0, bins) (n > 0, bins > 0), with a
// resolved tuning (block_size), on a device check_call has accepted.
template <class T, class Bin>
void histogram_run(const ak::device& dev, const select_tuning& t, const T* in, std::int64_t n,
                   Bin bin, std::int64_t bins, std::int64_t* out) {
  const std::int64_t block = fit_block(dev, t.block_size);
  // A group's private counts are 32-bit: no group takes 2^31 elements or more.
  const std::int64_t most = std::max<std::int64_t>(4 * dev.info().compute_units, 1);
  std::int64_t groups = std::min(cdiv(n, block), most);
  groups = std::max(groups, cdiv(n, std::int64_t{1} << 30));
  const std::int64_t chunk = cdiv(n, groups);
  groups = cdiv(n, chunk);
  const bool local =
      static_cast<std::int64_t>(sizeof(std::uint32_t)) * bins <= dev.info().local_memory_bytes / 2;
  device_buffer<std::uint32_t> rows(dev, local ? 0 : groups * bins);
  device_buffer<std::int64_t> partials(dev, groups * bins);
  launch(dev,
         {kernel::range_1d(groups * block, block),
          local ? static_cast<std::size_t>(bins) * sizeof(std::uint32_t) : 0, "ak::gpu::histogram"},
         kernels::histogram_kernel<T, Bin>{in, n, chunk, bin, bins, rows.data(), partials.data()});
  map_tuning m = loop_tuning(t);
  m.block_size = block;
  foreachindex_run(dev, m, bins, sum_rows_body{partials.data(), out, groups, bins});
}

}  // namespace ak::gpu::detail
