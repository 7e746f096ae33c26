// The kernel of histograms, in the kernel language only: each group counts its chunk of the input
// into a private histogram (in local memory when the bins fit there, else in its own row of
// global memory) with 32-bit atomics at group scope, then writes it as a row of int64 partial
// counts; the rows are summed by a reduction along them (kernels/dims.hpp).
#pragma once

#include <cstdint>
#include "ak/kernel/kernel.hpp"

namespace ak::gpu::kernels {

using kernel::memory_order;
using kernel::memory_scope;

// bin(x) is x's bin in [0, bins), or -1 for none. `rows` (groups x bins) is the private
// histograms' memory when they do not fit in local memory (null when they do: local memory holds
// bins uint32 then); each group clears its own.
template <class T, class Bin>
struct histogram_kernel {
  const T* in;
  std::int64_t n;
  std::int64_t chunk;
  Bin bin;
  std::int64_t bins;
  std::uint32_t* rows;
  std::int64_t* partials;

  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const std::int64_t g = ctx.group_id(0), bs = ctx.local_size(0), lid = ctx.local_id(0);
    std::uint32_t* hist =
        rows ? rows + g * bins
             : kernel::local_array<std::uint32_t>(ctx, 0, static_cast<std::size_t>(bins)).data();
    for (std::int64_t b = lid; b < bins; b += bs) hist[b] = 0;
    ctx.barrier();
    const std::int64_t start = g * chunk, end = start + chunk < n ? start + chunk : n;
    for (std::int64_t i = start + lid; i < end; i += bs) {
      const std::int64_t j = bin(in[i]);
      if (j >= 0)
        ctx.atomic_add(hist + j, std::uint32_t{1}, memory_order::relaxed, memory_scope::work_group);
    }
    ctx.barrier();
    for (std::int64_t b = lid; b < bins; b += bs)
      partials[g * bins + b] =
          ctx.atomic_load(hist + b, memory_order::relaxed, memory_scope::work_group);
  }
};

}  // namespace ak::gpu::kernels
