// The GPU half of the reductions (the front is reduce.hpp), on GPU-style devices: each function
// takes the device and the tuning the front resolved, and runs the ak::gpu reductions with it.
// Partial results start from the neutral element, then op(init, r); strided views are packed on
// the device first where the kernel wants contiguous data.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/algorithms/detail/reduce_common.hpp"
#include "ak/algorithms/options.hpp"

namespace ak::detail {

// One block reduction of f(x) seeded with the neutral element, then op(init, r).
template <class T, class R, class F, class Op>
R gpu_mapreduce_all(const device& dev, const reduce_tuning& t, view<const T> v, const F& f,
                    const Op& op, const reduce_options<R>& o, std::string_view function) {
  const std::optional<R> neutral = init_or_neutral<R, Op>(o.neutral);
  if (v.empty()) return o.init ? *o.init : *neutral;
  if (!neutral) throw_gpu_needs_neutral(function, dev);
  const gpu_dense<T> d(dev, v);
  const R r = gpu::detail::mapreduce_run(dev, t, d.data(), v.size(), f, op, *neutral);
  return o.init ? static_cast<R>(op(*o.init, r)) : r;
}

// ak::gpu's reduce_dims into `out` (on the device, not empty) over the view's strides (over f(x)
// packed first when f is not the identity or R is not T), seeded with the neutral element, then
// op(init, r) per output.
template <class T, class R, class F, class Op>
void gpu_mapreduce_along(const device& dev, const reduce_tuning& t, view<const T> v, const F& f,
                         const Op& op, std::uint32_t mask, std::int64_t per_output,
                         const reduce_options<R>& o, array<R>& out, std::string_view function) {
  const std::optional<R> neutral = init_or_neutral<R, Op>(o.neutral);
  // With nothing to combine (reduced extents 0), init alone is the result.
  if (!neutral && per_output != 0) throw_gpu_needs_neutral(function, dev);
  const R seed = neutral ? *neutral : *o.init;
  std::vector<std::int64_t> along;
  for (std::size_t k = 0; k < v.rank(); ++k)
    if ((mask >> k) & 1u) along.push_back(static_cast<std::int64_t>(k));
  if constexpr (std::is_same_v<F, identity> && std::is_same_v<T, R>) {
    gpu::detail::reduce_dims_run(dev, t, v.data(), gpu_extents(v.shape()), gpu_strides(v), along,
                                 out.data(), op, seed);
  } else {
    gpu::device_buffer<R> mapped(dev, v.size());
    gpu_map_strided(dev, view<R>(mapped.data(), v.shape(), dev.memory()), v, f);
    gpu::detail::reduce_dims_run(dev, t, static_cast<const R*>(mapped.data()),
                                 gpu_extents(v.shape()), {}, along, out.data(), op, seed);
  }
  if (o.init && neutral)
    gpu::map(dev, out.data(), out.data(), out.size(), gpu_apply_init<R, Op>{op, *o.init});
}

// op over load(i) (i the row-major index) of every element of v (not empty), for findmin, findmax
// and extrema: one block reduction seeded with R{} (no element).
template <class R, template <class> class Load, class T, class Op>
R gpu_reduce_indexed(const device& dev, const reduce_tuning& t, view<const T> v, const Op& op) {
  const gpu_dense<T> d(dev, v);
  gpu::device_buffer<R> out(dev, 1);
  gpu::detail::reduce_into(dev, t, Load<T>{d.data()}, v.size(), op, R{}, out.data());
  return gpu::detail::read_one(dev, out.data());
}

template <class R, class Load>
struct gpu_fill_indexed_body {
  Load load;
  R* out;
  AK_KERNEL_FN void operator()(std::int64_t i) const { out[i] = load(i); }
};

// out[i] = load(i) for every element of v, row-major, on the device.
template <class R, template <class> class Load, class T>
void gpu_fill_indexed(const device& dev, const reduce_tuning& t, view<const T> v, R* out) {
  if (v.empty()) return;
  const gpu_dense<T> d(dev, v);
  gpu::detail::foreachindex_run(dev, loop_tuning(t), v.size(),
                                gpu_fill_indexed_body<R, Load<T>>{Load<T>{d.data()}, out});
}

// How many elements satisfy pred: a count on the device (no early exit there).
template <class T, class Pred>
std::int64_t gpu_count(const device& dev, const reduce_tuning& t, view<const T> v,
                       const Pred& pred) {
  return gpu_mapreduce_all(dev, t, v, count_if_true<Pred>{pred}, plus{},
                           reduce_options<std::int64_t>{}, "ak::count");
}

}  // namespace ak::detail

namespace ak::gpu {
// findmin's and findmax's choice is commutative (ties go to the lower index), so their loads may
// be coalesced across work-items.
template <bool Max>
struct commutative<ak::detail::keep_found<Max>> : std::true_type {};
template <>
struct commutative<ak::detail::keep_extrema> : std::true_type {};
}  // namespace ak::gpu
