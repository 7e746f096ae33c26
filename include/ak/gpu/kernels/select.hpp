// The kernels of stable selection (findall, copy_if, partition, unique, run_length_encode), in the
// kernel language only. A selection is flag(i) over [0, n) and write(i, rank, selected) for every
// i, rank being the number of selected indices before i. Tiles are block * items_per_thread
// indices; item l of a tile owns its items_per_thread consecutive indices from l *
// items_per_thread. The tiles' counts come from reduce_kernel over load_flag (kernels/reduce.hpp),
// their inclusive scan from the scan kernels; select_write_kernel then ranks within each tile.
#pragma once

#include <cstdint>
#include "ak/gpu/group/scan.hpp"
#include "ak/gpu/kernels/foreach.hpp"
#include "ak/kernel/kernel.hpp"

namespace ak::gpu::kernels {

// 1 where flag(i) holds: the load with which reduce_kernel counts a tile.
template <class Flag>
struct load_flag {
  Flag flag;
  AK_KERNEL_FN std::int64_t operator()(std::int64_t i) const { return flag(i) ? 1 : 0; }
};

// write(i, rank, flag(i)) for every i of each tile; `ends[t]` is the selected count of tiles 0..t
// (inclusive). items_per_thread is at most 32 (the flags of an item are one 32-bit mask). Local
// memory: num_sub_groups() + 1 int64.
template <class Flag, class Write>
struct select_write_kernel {
  Flag flag;
  Write write;
  std::int64_t n;
  int items_per_thread;
  const std::int64_t* ends;

  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    auto scratch = kernel::local_array<std::int64_t>(
        ctx, 0, static_cast<std::size_t>(ctx.num_sub_groups()) + 1);
    const std::int64_t g = ctx.group_id(0);
    const std::int64_t b = (g * ctx.local_size(0) + ctx.local_id(0)) * items_per_thread;
    std::uint32_t bits = 0;
    std::int64_t count = 0;
    for (int k = 0; k < items_per_thread; ++k)
      if (b + k < n && flag(b + k)) {
        bits |= std::uint32_t{1} << k;
        ++count;
      }
    std::int64_t total = 0;
    std::int64_t r = group_exclusive_scan(ctx, scratch, count, sum_op{}, std::int64_t{0}, total);
    if (g > 0) r += ends[g - 1];
    for (int k = 0; k < items_per_thread && b + k < n; ++k) {
      const bool s = (bits >> k) & 1u;
      write(b + k, r, s);
      r += s ? 1 : 0;
    }
  }
};

}  // namespace ak::gpu::kernels
