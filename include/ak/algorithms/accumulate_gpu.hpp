// The GPU half of accumulate (the front is accumulate.hpp), on GPU-style devices: a 1-d scan
// with the algorithm the front resolved (reduce_then_scan or decoupled_lookback) on contiguous
// data (strided views are packed and written back), or ak::gpu's scan along a dimension of an
// n-d array over the strides (one group or one work-item per line). Seeded with the neutral
// element; the caller's init is applied after.
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>

#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/backends/cpu/scan.hpp"

namespace ak::detail {

template <class T, class R, class Op>
void gpu_accumulate(const device& dev, const resolved_scan& r, view<const T> src, view<R> dst,
                    std::size_t dim, const Op& op, const accumulate_options<R>& o,
                    std::string_view function) {
  // Checks before any write: the tile against the device's local memory; temp storage's size,
  // which is the cpu's (the tile states of its 1-d scan) so that one size serves every device.
  gpu::detail::fit_scan<R, Op>(dev, r);
  if (!o.temp.empty()) {
    const std::int64_t len = src.rank() == 0 ? 1 : src.shape()[dim];
    const std::size_t need = cpu::scan_state_bytes<R>(len, r.tuning.cpu_grain);
    if (o.temp.size() < need) throw_temp_too_small(function, need, o.temp.size());
  }
  if (src.empty()) return;
  const std::optional<R> neutral = neutral_element<R, Op>();
  // The input as R: src itself, or converted into a row-major device buffer.
  gpu::device_buffer<R> converted(dev, std::is_same_v<T, R> ? 0 : src.size());
  view<const R> in;
  if constexpr (std::is_same_v<T, R>) {
    in = src;
  } else {
    gpu_map_strided(dev, view<R>(converted.data(), src.shape(), dev.memory()), src, identity{});
    in = view<const R>(converted.data(), src.shape(), dev.memory());
  }
  // The seed: the neutral element, except -0.0 for float sums (x + -0.0 is x for every x, -0.0
  // too), so that an inclusive scan starts at x0 itself as on the cpu. After it: the caller's
  // init, or for an exclusive scan the neutral element the cpu starts from.
  R seed = *neutral;
  std::optional<R> after = o.init;
  if constexpr (std::is_floating_point_v<R> && op_kind_v<Op> == op_kind::plus) {
    seed = -R(0);
    if (!after && !o.inclusive) after = neutral;
  }
  if (src.rank() <= 1) {
    gpu_work<R> w(dev, dst, false);
    const gpu_dense<R> d(dev, in);
    gpu::detail::accumulate_run(dev, r, d.data(), w.data(), src.size(), op, seed, o.inclusive);
    if (after) gpu::map(dev, w.data(), w.data(), src.size(), gpu_apply_init<R, Op>{op, *after});
    w.write_back();
    return;
  }
  gpu::detail::accumulate_dim_run(dev, r.tuning, in.data(), dst.data(), gpu_extents(src.shape()),
                                  static_cast<std::int64_t>(dim), op, seed, o.inclusive,
                                  gpu_strides(in), gpu_strides(dst));
  if (after) gpu_map_strided(dev, dst, view<const R>(dst), gpu_apply_init<R, Op>{op, *after});
}

}  // namespace ak::detail
