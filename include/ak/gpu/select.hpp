// Stable selection on GPU-style devices: count the flags of each tile (reduce_kernel), scan the
// tile counts (reduce-then-scan), read the total, then rank and write within each tile
// (select_write_kernel). Device pointers, as in ak/gpu/algorithms.hpp. The total comes to the
// host between the two steps, so that the caller can allocate an output of exactly that size
// before anything is written. Flags are evaluated twice per index: they must be pure.
#pragma once

#include <algorithm>
#include <cstdint>

#include "ak/gpu/algorithms.hpp"
#include "ak/gpu/kernels/select.hpp"

namespace ak::gpu::detail {

// The first step's result: the inclusive scan of the tiles' selected counts, on the device.
struct select_counts {
  std::int64_t block;
  int items_per_thread;
  device_buffer<std::int64_t> ends;
  std::int64_t total;
};

// Counts flag(i) over [0, n) (n > 0) with a resolved tuning (every field set), on a device
// check_call has accepted.
template <class Flag>
select_counts select_count_run(const ak::device& dev, const select_tuning& t, std::int64_t n,
                               Flag flag) {
  const int ipt = static_cast<int>(std::clamp<std::int64_t>(t.items_per_thread, 1, 32));
  const std::int64_t block = block_for(dev, t.block_size, n, ipt);
  const std::int64_t tile = block * ipt, tiles = cdiv(n, tile);
  select_counts c{block, ipt, device_buffer<std::int64_t>(dev, tiles), 0};
  const std::size_t local =
      static_cast<std::size_t>(num_sub_groups(dev, block)) * sizeof(std::int64_t);
  using load = kernels::load_flag<Flag>;
  launch(dev, {kernel::range_1d(tiles * block, block), local, "ak::gpu::select_count"},
         kernels::reduce_kernel<std::int64_t, load, kernels::sum_op>{
             load{flag}, c.ends.data(), n, tile, ipt, kernels::sum_op{}, std::int64_t{0}});
  if (tiles > 1) {
    // The tile counts scanned in tiles of the selection's shape, on the device's sub-groups.
    scan_tuning st{};
    st.block_size = block;
    st.items_per_thread = ipt;
    st.sub_group_width = dev.info().sub_group_width;
    const resolved_scan rs{scan_algorithm::reduce_then_scan, st};
    reduce_then_scan_into(dev, fit_scan<std::int64_t, kernels::sum_op>(dev, rs), c.ends.data(),
                          c.ends.data(), tiles, kernels::sum_op{}, std::int64_t{0}, true);
  }
  c.total = read_one(dev, c.ends.data() + (tiles - 1));
  return c;
}

// write(i, rank, flag(i)) for every i in [0, n), with the counts of select_count_run.
template <class Flag, class Write>
void select_write_run(const ak::device& dev, const select_counts& c, std::int64_t n, Flag flag,
                      Write write) {
  const std::int64_t tiles = cdiv(n, c.block * c.items_per_thread);
  const std::size_t local =
      (static_cast<std::size_t>(num_sub_groups(dev, c.block)) + 1) * sizeof(std::int64_t);
  launch(
      dev, {kernel::range_1d(tiles * c.block, c.block), local, "ak::gpu::select_write"},
      kernels::select_write_kernel<Flag, Write>{flag, write, n, c.items_per_thread, c.ends.data()});
}

}  // namespace ak::gpu::detail
