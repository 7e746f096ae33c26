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
//
// This is the family's front: each call checks its arguments, finds its device and resolves its
// scan once, then runs the precompiled entry (the standard types with plus, multiplies, min, max)
// or the cpu half (accumulate_cpu.hpp) or GPU half (accumulate_gpu.hpp) with it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "ak/algorithms/accumulate_cpu.hpp"
#include "ak/algorithms/accumulate_gpu.hpp"
#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/algorithms/precompiled.hpp"
#include "ak/backends/cpu/scan.hpp"

namespace ak {

namespace detail {

template <class T, class R, class Op>
inline constexpr bool precompiled_scan_v = std::is_same_v<T, R>&& precompiled_type_v<T> &&
                                           (op_kind_v<Op> == op_kind::plus ||
                                            op_kind_v<Op> == op_kind::multiplies ||
                                            op_kind_v<Op> == op_kind::minimum ||
                                            op_kind_v<Op> == op_kind::maximum);

// What a scan of lines of `len` elements resolves once, on the host, before touching data (the GPU
// half then checks the tile against the device's local memory and the temp storage's size before
// it writes anything). The lookup's size is the line's, as accumulate_temp_bytes's is.
template <class T, class R, class Op>
resolved_scan resolve_accumulate(const device& dev, view<R> dst, std::int64_t len,
                                 const accumulate_options<R>& o, std::string_view function) {
  if (!on_gpu(dev)) {
    const scan_tuning t = tuning(scan_hook{}, dev, tuning_dtype<R>(), o.tuning, {len});
    return {t.algorithm, t};
  }
  check_gpu_types<T, R>(function, dev);
  check_same_device(function, "dst", dev, dst.memory());
  if (!neutral_element<R, Op>())
    throw_gpu_unsupported(function, dev,
                          "scans start from the operator's neutral element, and this operator "
                          "has no known one (ak::neutral_element)");
  return resolve(o.tuning, dev, tuning_dtype<R>(), function, {len});
}

template <class T, class R, class Op>
void accumulate_front(const device& dev, view<const T> src, view<R> dst, const Op& op,
                      const accumulate_options<R>& o, const char* function) {
  if (src.shape() != dst.shape()) throw_shape_mismatch(function, "dst", src.shape(), dst.shape());
  std::size_t dim = 0;
  if (o.dim)
    dim = checked_dim(function, "dim", *o.dim, src.rank());
  else if (src.rank() > 1)
    throw argument_error(
        function, "dim",
        "a dimension to scan along (the array has rank " + std::to_string(src.rank()) + ")",
        "none");
  if (!o.inclusive && !o.init && !neutral_element<R, Op>())
    throw_no_init(function, "for an exclusive scan");
  const std::int64_t len = src.rank() == 0 ? 1 : src.shape()[dim];
  const resolved_scan r = resolve_accumulate<T, R, Op>(dev, dst, len, o, function);
  if constexpr (precompiled_scan_v<T, R, Op>)
    accumulate_entry(dev, r, src, dst, dim, op_kind_v<Op>, o, function);
  else if (on_gpu(dev))
    gpu_accumulate(dev, r, src, dst, dim, op, o, function);
  else
    cpu_accumulate(dev, r.tuning, src, dst, dim, op, o, function);
}

}  // namespace detail

// A new array: the scan of src by op. Init is the result element type.
template <class Src, class Op, class Init = detail::element_t<const Src>>
array<Init> accumulate(const Src& src, Op op, const accumulate_options<Init>& o = {}) {
  constexpr const char* function = "ak::accumulate";
  const auto v = detail::as_const_view(src);
  const device dev = detail::algorithm_device(function, "src", v.memory());
  array<Init> out(v.shape(), detail::on_gpu(dev) ? dev.memory() : host_memory());
  detail::accumulate_front(dev, v, out.view(), op, o, function);
  return out;
}

// Scans v in place.
template <class Dst, class Op>
void accumulate_inplace(
    Dst&& dst, Op op,
    const accumulate_options<typename detail::view_of_t<Dst>::value_type>& o = {}) {
  constexpr const char* function = "ak::accumulate_inplace";
  auto v = detail::as_view(dst);
  using T = typename decltype(v)::value_type;
  static_assert(!std::is_const_v<typename decltype(v)::element_type>,
                "ak::accumulate_inplace: the array must be writable");
  const device dev = detail::algorithm_device(function, "src", v.memory());
  detail::accumulate_front(dev, view<const T>(v), v, op, o, function);
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
  const scan_tuning t = tuning(scan_hook{}, dev, tuning_dtype<R>(), call, {n});
  return cpu::scan_state_bytes<R>(n, t.cpu_grain);
}

}  // namespace ak
