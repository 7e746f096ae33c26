// accumulate (inclusive or exclusive scan), in place or into a new array, 1-d or along one
// dimension; cumsum and cumprod.
//
//   auto c = ak::cumsum(v);
//   ak::accumulate_inplace(m, ak::multiplies{}, {.dim = 1});
//   auto e = ak::accumulate(v, ak::plus{}, ak::accumulate_options<std::int64_t>{.init = 0,
//   .inclusive = false});
//
// op must be associative; it is applied in element order. Determinism: the same bits on every
// run and thread count (tiles are fixed by the tuning, not by the thread count).
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/algorithms/elementwise.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/algorithms/precompiled.hpp"
#include "ak/backends/cpu/scan.hpp"

namespace ak {

namespace detail {

// The GPU path: a 1-d scan (the algorithm value that the call's scan tuning names, resolved for
// the device: auto, reduce_then_scan or decoupled_lookback) on contiguous data (strided views are
// packed and written back), or ak::gpu::accumulate_dim over the strides along a dimension of an
// n-d array (one group or one work-item per line; the algorithm value is resolved and checked
// all the same). Seeded with the neutral element; the caller's init is applied after.
template <class T, class R, class Op>
void gpu_accumulate(const device& dev, view<const T> src, view<R> dst, std::size_t dim,
                    const Op& op, const accumulate_options<R>& o, std::string_view function) {
  check_gpu_types<T, R>(function, dev);
  check_same_device(function, "dst", dev, dst.memory());
  const std::optional<R> neutral = neutral_element<R, Op>();
  if (!neutral)
    throw_gpu_unsupported(function, dev,
                          "scans start from the operator's neutral element, and this operator "
                          "has no known one (ak::neutral_element)");
  // Checks before any write: the algorithm value against the device, temp storage's size.
  gpu::detail::fit_scan<R, Op>(dev, resolve(scan_alg_of(o.tuning), dev, tuning_dtype<R>()));
  if (!o.temp.empty()) {
    const scan_tuning t = tuning(scan_hook{}, dev, tuning_dtype<R>(), o.tuning);
    const std::int64_t len = src.rank() == 0 ? 1 : src.shape()[dim];
    const std::size_t need = cpu::scan_state_bytes<R>(len, t.cpu_grain);
    if (o.temp.size() < need) throw_temp_too_small(function, need, o.temp.size());
  }
  if (src.empty()) return;
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
    gpu::accumulate(dev, d.data(), w.data(), src.size(), op, seed, o.inclusive,
                    scan_alg_of(o.tuning));
    if (after) gpu::map(dev, w.data(), w.data(), src.size(), gpu_apply_init<R, Op>{op, *after});
    w.write_back();
    return;
  }
  gpu::accumulate_dim(dev, in.data(), dst.data(), gpu_extents(src.shape()),
                      static_cast<std::int64_t>(dim), op, seed, o.inclusive, gpu_strides(in),
                      gpu_strides(dst));
  if (after) gpu_map_strided(dev, dst, view<const R>(dst), gpu_apply_init<R, Op>{op, *after});
}

template <class T, class R, class Op>
void accumulate_cpu(const device& dev, view<const T> src, view<R> dst, std::size_t dim,
                    const Op& op, const accumulate_options<R>& o, const std::optional<R>& init,
                    std::string_view function) {
  // The result type keys the tuning: tiles hold R values, and accumulate_temp_bytes<R> sizes the
  // temp storage from the same lookup.
  const scan_tuning t = tuning(scan_hook{}, dev, tuning_dtype<R>(), o.tuning);
  std::int64_t outer = 1, inner = 1;
  for (std::size_t k = 0; k < src.rank(); ++k) {
    if (k < dim) outer *= src.shape()[k];
    if (k > dim) inner *= src.shape()[k];
  }
  const std::int64_t len = src.rank() == 0 ? 1 : src.shape()[dim];
  // Caller temp storage holds the 1-d scan's tile states.
  void* state = nullptr;
  if (!o.temp.empty()) {
    const std::size_t need = cpu::scan_state_bytes<R>(len, t.cpu_grain);
    if (o.temp.size() < need) throw_temp_too_small(function, need, o.temp.size());
    state = o.temp.data();
  }
  const std::int64_t l1 = dev.info().l1_cache_bytes > 0 ? dev.info().l1_cache_bytes : 32 * 1024;
  const std::int64_t block =
      std::max<std::int64_t>(16, l1 / 2 / static_cast<std::int64_t>(sizeof(R)));
  const std::optional<R> carry = o.init ? o.init : (o.inclusive ? std::nullopt : init);
  if (src.is_contiguous() && dst.is_contiguous()) {
    cpu::scan_middle(src.data(), dst.data(), outer, len, inner, op, carry, o.inclusive, t.cpu_grain,
                     block, state);
    return;
  }
  // Strided views: scan a row-major copy, then write it back.
  array<R> tmp(src.shape());
  identity_copy id;
  elementwise(tmp.view(), id, t.cpu_grain, src);
  cpu::scan_middle(tmp.data(), tmp.data(), outer, len, inner, op, carry, o.inclusive, t.cpu_grain,
                   block, state);
  elementwise(dst, id, t.cpu_grain, view<const R>(tmp.view()));
}

template <paths P = paths::both, class T, class R, class Op>
void accumulate_impl(view<const T> src, view<R> dst, const Op& op, const accumulate_options<R>& o,
                     std::string_view function) {
  const device dev = algorithm_device(function, "src", src.memory());
  if (src.shape() != dst.shape()) throw_shape_mismatch(function, "dst", src.shape(), dst.shape());
  std::size_t dim = 0;
  if (o.dim)
    dim = checked_dim(function, "dim", *o.dim, src.rank());
  else if (src.rank() > 1)
    throw argument_error(
        function, "dim",
        "a dimension to scan along (the array has rank " + std::to_string(src.rank()) + ")",
        "none");
  const std::optional<R> init = o.init ? o.init : neutral_element<R, Op>();
  if (!o.inclusive && !init) throw_no_init(function, "for an exclusive scan");
  if constexpr (P != paths::cpu) {
    if (P == paths::gpu || on_gpu(dev)) return gpu_accumulate(dev, src, dst, dim, op, o, function);
  }
  if constexpr (P != paths::gpu) accumulate_cpu(dev, src, dst, dim, op, o, init, function);
}

template <class T, class R, class Op>
inline constexpr bool precompiled_scan_v = std::is_same_v<T, R>&& precompiled_type_v<T> &&
                                           (op_kind_v<Op> == op_kind::plus ||
                                            op_kind_v<Op> == op_kind::multiplies ||
                                            op_kind_v<Op> == op_kind::minimum ||
                                            op_kind_v<Op> == op_kind::maximum);

template <class T, class R, class Op>
void accumulate_dispatch(view<const T> src, view<R> dst, const Op& op,
                         const accumulate_options<R>& o, const char* function) {
  if constexpr (precompiled_scan_v<T, R, Op>)
    accumulate_entry(src, dst, op_kind_v<Op>, o, function);
  else
    accumulate_impl(src, dst, op, o, function);
}

}  // namespace detail

// A new array: the scan of src by op. Init is the result element type.
template <class Src, class Op, class Init = detail::element_t<const Src>>
array<Init> accumulate(const Src& src, Op op, const accumulate_options<Init>& o = {}) {
  const auto v = detail::as_const_view(src);
  const device dev = detail::algorithm_device("ak::accumulate", "src", v.memory());
  array<Init> out(v.shape(), detail::on_gpu(dev) ? dev.memory() : host_memory());
  detail::accumulate_dispatch(v, out.view(), op, o, "ak::accumulate");
  return out;
}

// Scans v in place.
template <class Dst, class Op>
void accumulate_inplace(
    Dst&& dst, Op op,
    const accumulate_options<typename detail::view_of_t<Dst>::value_type>& o = {}) {
  auto v = detail::as_view(dst);
  using T = typename decltype(v)::value_type;
  static_assert(!std::is_const_v<typename decltype(v)::element_type>,
                "ak::accumulate_inplace: the array must be writable");
  detail::accumulate_dispatch(view<const T>(v), v, op, o, "ak::accumulate_inplace");
}

template <class Src, class Init = detail::element_t<const Src>>
array<Init> cumsum(const Src& src, const accumulate_options<Init>& o = {}) {
  return accumulate(src, plus{}, o);
}
template <class Src, class Init = detail::element_t<const Src>>
array<Init> cumprod(const Src& src, const accumulate_options<Init>& o = {}) {
  return accumulate(src, multiplies{}, o);
}

// The bytes of temp storage (accumulate_options::temp) a scan of n elements along its dimension
// needs on `dev` with the given per-call tuning.
template <class R>
std::size_t accumulate_temp_bytes(std::int64_t n, const scan_tuning& call = {},
                                  const device& dev = device("cpu")) {
  const scan_tuning t = tuning(scan_hook{}, dev, detail::tuning_dtype<R>(), call);
  return cpu::scan_state_bytes<R>(n, t.cpu_grain);
}

}  // namespace ak
