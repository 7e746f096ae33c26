// reduce, mapreduce (whole array or along dims), sum, prod, minimum, maximum, count, any, all.
//
//   double s = ak::sum(v);
//   ak::array<float> col = ak::sum(matrix, ak::dims{0});            // shape (1, n)
//   auto r = ak::reduce(v, ak::plus{}, ak::reduce_options<std::int64_t>{.init = 0});
//
// Along dims, the result keeps the array's rank with the reduced extents set to 1 (as Julia's
// dims keyword). op must be associative; partial results are combined in element order.
// Determinism: the same bits run to run for a fixed thread count and tuning.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/algorithms/precompiled.hpp"
#include "ak/backends/cpu/reduce.hpp"
#include "ak/backends/cpu/strided_loops.hpp"

namespace ak {

namespace detail {

template <class T>
cpu::strided_space<1> space_of(const view<T>& v) {
  cpu::strided_space<1> s;
  s.rank = v.rank();
  for (std::size_t d = 0; d < s.rank; ++d) {
    s.extent[d] = v.shape()[d];
    s.stride[0][d] = v.strides()[d];
  }
  return cpu::coalesce(s);
}

template <class R, class Op>
std::optional<R> init_or_neutral(const std::optional<R>& given) {
  return given ? given : neutral_element<R, Op>();
}

// The GPU path of mapreduce_all: one block reduction of f(x) seeded with the neutral element,
// then op(init, r). Strided views are packed on the device first.
template <class T, class R, class F, class Op>
R gpu_mapreduce_all(const device& dev, view<const T> v, const F& f, const Op& op,
                    const reduce_options<R>& o, std::string_view function) {
  check_gpu_types<T, R>(function, dev);
  const std::optional<R> neutral = init_or_neutral<R, Op>(o.neutral);
  if (v.empty()) {
    if (o.init) return *o.init;
    if (neutral) return *neutral;
    throw_no_init(function, "for an empty input");
  }
  if (!neutral) throw_gpu_needs_neutral(function, dev);
  const gpu_dense<T> d(dev, v);
  const R r = gpu::mapreduce<R>(dev, d.data(), v.size(), f, op, *neutral, o.tuning);
  return o.init ? static_cast<R>(op(*o.init, r)) : r;
}

// The header-template reduction, for every element type and operator.
template <paths P = paths::both, class T, class R, class F, class Op>
R mapreduce_all(view<const T> v, const F& f, const Op& op, const reduce_options<R>& o,
                std::string_view function) {
  const device dev = algorithm_device(function, "src", v.memory());
  if constexpr (P != paths::cpu)
    if (on_gpu(dev)) return gpu_mapreduce_all(dev, v, f, op, o, function);
  // No elements give init, else the neutral element (the caller's or the operator's).
  const std::optional<R> neutral = init_or_neutral<R, Op>(o.neutral);
  const std::optional<R> empty_result = o.init ? o.init : neutral;
  if (v.empty() && !empty_result) throw_no_init(function, "for an empty input");
  const reduce_tuning t = tuning(reduce_hook{}, dev, tuning_dtype<T>(), o.tuning);
  const std::optional<R> r = cpu::mapreduce_space(v.data(), space_of(v), f, op, neutral, t);
  if (!r) return *empty_result;
  return o.init ? static_cast<R>(op(*o.init, *r)) : *r;
}

// The GPU path of mapreduce_along, into `out` (on the device): ak::gpu::reduce_dims over the
// view's strides (over f(x) packed first when f is not the identity or R is not T), seeded with
// the neutral element, then op(init, r) per output.
template <class T, class R, class F, class Op>
void gpu_mapreduce_along(const device& dev, view<const T> v, const F& f, const Op& op,
                         std::uint32_t mask, std::int64_t per_output, const reduce_options<R>& o,
                         array<R>& out, std::string_view function) {
  check_gpu_types<T, R>(function, dev);
  const std::optional<R> neutral = init_or_neutral<R, Op>(o.neutral);
  // With nothing to combine (reduced extents 0), init alone is the result.
  if (!neutral && per_output != 0) throw_gpu_needs_neutral(function, dev);
  const R seed = neutral ? *neutral : *o.init;
  std::vector<std::int64_t> along;
  for (std::size_t k = 0; k < v.rank(); ++k)
    if ((mask >> k) & 1u) along.push_back(static_cast<std::int64_t>(k));
  if constexpr (std::is_same_v<F, identity> && std::is_same_v<T, R>) {
    gpu::reduce_dims(dev, v.data(), gpu_extents(v.shape()), gpu_strides(v), along, out.data(), op,
                     seed, o.tuning);
  } else {
    gpu::device_buffer<R> mapped(dev, v.size());
    gpu_map_strided(dev, view<R>(mapped.data(), v.shape(), dev.memory()), v, f);
    gpu::reduce_dims(dev, static_cast<const R*>(mapped.data()), gpu_extents(v.shape()), {}, along,
                     out.data(), op, seed, o.tuning);
  }
  if (o.init && neutral)
    gpu::map(dev, out.data(), out.data(), out.size(), gpu_apply_init<R, Op>{op, *o.init});
}

template <paths P = paths::both, class T, class R, class F, class Op>
array<R> mapreduce_along(view<const T> v, const F& f, const Op& op, const dims& d,
                         const reduce_options<R>& o, std::string_view function) {
  const device dev = algorithm_device(function, "src", v.memory());
  if (d.size() > max_rank) throw_bad_dims(function, d.values(), v.rank());
  const std::uint32_t mask = dims_mask(function, d.values(), v.rank());
  std::array<std::int64_t, max_rank> out_extent{};
  std::int64_t per_output = 1;
  for (std::size_t k = 0; k < v.rank(); ++k) {
    const bool reduced = (mask >> k) & 1u;
    out_extent[k] = reduced ? 1 : v.shape()[k];
    if (reduced) per_output *= v.shape()[k];
  }
  const shape out_shape(unchecked, {out_extent.data(), v.rank()});
  const std::optional<R> neutral = init_or_neutral<R, Op>(o.neutral);
  if (per_output == 0 && out_shape.size() != 0 && !o.init && !neutral)
    throw_no_init(function, "for dimensions of extent 0");
  if constexpr (P != paths::cpu) {
    if (P == paths::gpu || on_gpu(dev)) {
      array<R> out(out_shape, dev.memory());
      if (!out.empty()) gpu_mapreduce_along(dev, v, f, op, mask, per_output, o, out, function);
      return out;
    }
  }
  if constexpr (P == paths::gpu) {
    return array<R>();  // not reached: the GPU path returned above
  } else {
    const reduce_tuning t = tuning(reduce_hook{}, dev, tuning_dtype<T>(), o.tuning);
    array<R> out(out_shape);
    if (out.empty()) return out;
    const strides out_strides = row_major_strides(out_shape);
    cpu::reduce_split sp;
    std::int64_t innermost = -1, smallest = 0;
    for (std::size_t k = 0; k < v.rank(); ++k) {
      const std::int64_t e = v.shape()[k], st = v.strides()[k];
      if (e > 1 && (innermost < 0 || std::abs(st) < smallest)) {
        innermost = static_cast<std::int64_t>(k);
        smallest = std::abs(st);
      }
      if ((mask >> k) & 1u) {
        sp.reduced.extent[sp.reduced.rank] = e;
        sp.reduced.stride[0][sp.reduced.rank++] = st;
      } else {
        sp.kept.extent[sp.kept.rank] = e;
        sp.kept.stride[0][sp.kept.rank] = st;
        sp.kept.stride[1][sp.kept.rank++] = out_strides[k];
      }
    }
    const bool innermost_reduced = innermost < 0 || ((mask >> innermost) & 1u);
    // Vector accumulators of half the L2 cache (256 KiB when the device does not say).
    const std::int64_t l2 = dev.info().l2_cache_bytes > 0 ? dev.info().l2_cache_bytes : 256 * 1024;
    const std::int64_t block =
        std::max<std::int64_t>(16, l2 / 2 / static_cast<std::int64_t>(sizeof(R)));
    cpu::mapreduce_dims(v.data(), out.data(), sp, innermost_reduced, block, f, op, o.init, neutral,
                        t);
    return out;
  }
}

template <class T, class R, class Op>
inline constexpr bool precompiled_reduce_v =
    std::is_same_v<T, R>&& op_kind_v<Op> != op_kind::custom&& precompiled_type_v<T>;

}  // namespace detail

// op over every element, combined once with init: op(init, x0 op x1 op ...). Init, the result
// type, is the element type unless reduce_options<Init> says otherwise.
template <class Src, class Op, class Init = detail::element_t<const Src>>
Init reduce(const Src& src, Op op, const reduce_options<Init>& o = {}) {
  using T = detail::element_t<const Src>;
  const view<const T> v = detail::as_const_view(src);
  if constexpr (detail::precompiled_reduce_v<T, Init, Op>)
    return detail::reduce_entry(v, op_kind_v<Op>, o);
  else
    return detail::mapreduce_all(v, identity{}, op, o, "ak::reduce");
}

// op along the dimensions `along`; the result has src's rank with those extents 1.
template <class Src, class Op, class Init = detail::element_t<const Src>>
array<Init> reduce(const Src& src, Op op, const dims& along, const reduce_options<Init>& o = {}) {
  using T = detail::element_t<const Src>;
  const view<const T> v = detail::as_const_view(src);
  if constexpr (detail::precompiled_reduce_v<T, Init, Op>)
    return detail::reduce_dims_entry(v, op_kind_v<Op>, along, o);
  else
    return detail::mapreduce_along(v, identity{}, op, along, o, "ak::reduce");
}

// op over f(x) of every element.
template <
    class Src, class F, class Op,
    class Init = std::remove_cvref_t<std::invoke_result_t<F&, const detail::element_t<const Src>&>>>
Init mapreduce(const Src& src, F f, Op op, const reduce_options<Init>& o = {}) {
  return detail::mapreduce_all(detail::as_const_view(src), f, op, o, "ak::mapreduce");
}

template <
    class Src, class F, class Op,
    class Init = std::remove_cvref_t<std::invoke_result_t<F&, const detail::element_t<const Src>&>>>
array<Init> mapreduce(const Src& src, F f, Op op, const dims& along,
                      const reduce_options<Init>& o = {}) {
  return detail::mapreduce_along(detail::as_const_view(src), f, op, along, o, "ak::mapreduce");
}

template <class Src, class Init = detail::element_t<const Src>>
Init sum(const Src& src, const reduce_options<Init>& o = {}) {
  return reduce(src, plus{}, o);
}
template <class Src, class Init = detail::element_t<const Src>>
array<Init> sum(const Src& src, const dims& along, const reduce_options<Init>& o = {}) {
  return reduce(src, plus{}, along, o);
}
template <class Src, class Init = detail::element_t<const Src>>
Init prod(const Src& src, const reduce_options<Init>& o = {}) {
  return reduce(src, multiplies{}, o);
}
template <class Src, class Init = detail::element_t<const Src>>
array<Init> prod(const Src& src, const dims& along, const reduce_options<Init>& o = {}) {
  return reduce(src, multiplies{}, along, o);
}
// minimum and maximum propagate NaN; of no elements they are +Inf / -Inf (or the type's max /
// lowest), unless init says otherwise.
template <class Src, class Init = detail::element_t<const Src>>
Init minimum(const Src& src, const reduce_options<Init>& o = {}) {
  return reduce(src, minimum_op{}, o);
}
template <class Src, class Init = detail::element_t<const Src>>
array<Init> minimum(const Src& src, const dims& along, const reduce_options<Init>& o = {}) {
  return reduce(src, minimum_op{}, along, o);
}
template <class Src, class Init = detail::element_t<const Src>>
Init maximum(const Src& src, const reduce_options<Init>& o = {}) {
  return reduce(src, maximum_op{}, o);
}
template <class Src, class Init = detail::element_t<const Src>>
array<Init> maximum(const Src& src, const dims& along, const reduce_options<Init>& o = {}) {
  return reduce(src, maximum_op{}, along, o);
}

namespace detail {
template <class Pred>
struct count_if_true {
  static constexpr bool zero_or_one = true;  // the cpu sums it as a count (cpu::count_row)
  Pred pred;
  template <class T>
  AK_KERNEL_FN std::int64_t operator()(const T& x) const {
    return pred(x) ? 1 : 0;
  }
};
struct truthy {
  template <class T>
  AK_KERNEL_FN bool operator()(const T& x) const {
    return static_cast<bool>(x);
  }
};

// How many elements of v (on a GPU-style device) satisfy pred. The GPU path alone: any and all
// take it only for device data, and instantiating the CPU reduction as well would cost a user's
// translation unit about a second of compiling for nothing.
template <class T, class Pred>
std::int64_t gpu_count(view<const T> v, const Pred& pred, std::string_view function) {
  const device dev = algorithm_device(function, "src", v.memory());
  return gpu_mapreduce_all(dev, v, count_if_true<Pred>{pred}, plus{},
                           reduce_options<std::int64_t>{}, function);
}

// Whether pred holds for some element (want = true) or fails for some (want = false).
template <bool Want, class T, class Pred>
bool find_any(view<const T> v, const Pred& pred, const loop_options& o, std::string_view function) {
  const device dev = algorithm_device(function, "src", v.memory());
  const std::int64_t grain = tuning(map_hook{}, dev, tuning_dtype<T>(), o.tuning).cpu_grain;
  return cpu::find_any<Want>(v.data(), space_of(v), pred, grain);
}
}  // namespace detail

// How many elements satisfy pred (count(src): how many are true / nonzero).
template <class Src, class Pred = detail::truthy>
std::int64_t count(const Src& src, Pred pred = {}) {
  return detail::mapreduce_all(detail::as_const_view(src), detail::count_if_true<Pred>{pred},
                               plus{}, reduce_options<std::int64_t>{}, "ak::count");
}

// Whether pred holds for any element; stops early once one is found.
template <class Src, class Pred = detail::truthy>
bool any(const Src& src, Pred pred = {}, const loop_options& o = {}) {
  const auto v = detail::as_const_view(src);
  if (detail::on_gpu_memory(v.memory()))  // a count on the device: no early exit there
    return detail::gpu_count(v, pred, "ak::any") > 0;
  return detail::find_any<true>(v, pred, o, "ak::any");
}

// Whether pred holds for every element (true for none); stops early at the first that fails.
template <class Src, class Pred = detail::truthy>
bool all(const Src& src, Pred pred = {}, const loop_options& o = {}) {
  const auto v = detail::as_const_view(src);
  if (detail::on_gpu_memory(v.memory())) return detail::gpu_count(v, pred, "ak::all") == v.size();
  return !detail::find_any<false>(v, pred, o, "ak::all");
}

}  // namespace ak
