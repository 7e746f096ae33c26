// Loops and element-wise operations: foreachindex, foraxes, map, map_into, broadcast, take
// (gather), copy (materialise a slicing view), reverse, reverse_inplace.
//
// Data is any ak::view, ak::array or contiguous host range. Every call runs where its data lives:
// on the cpu for host memory, and on a GPU-style device (sim now) through the ak::gpu kernels for
// data in that device's memory; every array of one call must be on one device (else an
// ak::argument_error naming both). Results are new row-major ak::arrays on the data's device
// (host memory for cpu data). Everything is checked before anything is written.
//
// On a GPU-style device the caller's function is a kernel body: it is copied into the kernel,
// called as const from many work-items at once, and must be callable on the device (under CUDA a
// __host__ __device__ functor or an extended lambda holding no references to host memory; on
// sim, which runs kernels on the cpu, any const-callable functor). It must not throw there: an
// exception in a kernel body fails the launch (on sim an ak::sim::kernel_error naming the kernel
// and carrying the exception's message), and the outputs are then unspecified.
//
// This is the family's front: each call checks its arguments, finds its device and looks its
// tuning up once, then runs the cpu half (elementwise_cpu.hpp) or the GPU half
// (elementwise_gpu.hpp) with it.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/algorithms/elementwise_cpu.hpp"
#include "ak/algorithms/elementwise_gpu.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/backends/cpu/parallel.hpp"

namespace ak {

namespace detail {

// The map tuning of an element-wise call over n elements.
inline map_tuning loop_tuning(const device& dev, dtype t, const loop_options& o, std::int64_t n) {
  return tuning(map_hook{}, dev, t, o.tuning, {n});
}

// The shape that a and b broadcast to.
inline shape broadcast_shape(std::string_view function, const shape& a, const shape& b) {
  const std::size_t r = std::max(a.rank(), b.rank());
  std::array<std::int64_t, max_rank> e{};
  for (std::size_t i = 0; i < r; ++i) {
    const std::int64_t ea = i < a.rank() ? a[a.rank() - 1 - i] : 1;
    const std::int64_t eb = i < b.rank() ? b[b.rank() - 1 - i] : 1;
    if (ea != eb && ea != 1 && eb != 1) throw_not_broadcastable(function, a, b);
    e[r - 1 - i] = ea == 1 ? eb : ea;
  }
  return shape(unchecked, {e.data(), r});
}

// A view of the same elements in reverse row-major order.
template <class T>
view<T> reversed(view<T> v) {
  if (v.empty()) return v;
  std::array<std::int64_t, max_rank> st{};
  std::int64_t last = 0;
  for (std::size_t d = 0; d < v.rank(); ++d) {
    last += (v.shape()[d] - 1) * v.strides()[d];
    st[d] = -v.strides()[d];
  }
  return view<T>(unchecked, v.data() + last, v.shape(), strides(unchecked, {st.data(), v.rank()}),
                 v.memory());
}

// A new array of the data's shape where the data is: host memory on the cpu, else the device's.
template <class R>
array<R> result_array(const device& dev, const shape& s) {
  return on_gpu(dev) ? array<R>(s, dev.memory()) : array<R>(s);
}

// Every source is on dev and has `shape`, with the name of the public function for its errors.
template <class... Src>
void check_map_sources(std::string_view function, const device& dev, const shape& s,
                       view<const Src>... src) {
  [[maybe_unused]] auto check = [&](const auto& v) {
    check_same_device(function, "src", dev, v.memory());
    if (v.shape() != s) throw_shape_mismatch(function, "src", s, v.shape());
  };
  (check(src), ...);
}

// out = f(src...) element-wise on dev (every array checked to be there), with the map tuning of
// Out looked up once.
template <class Out, class F, class... Src>
void map_on(const device& dev, view<Out> out, F& f, view<const Src>... src) {
  const map_tuning t = loop_tuning(dev, tuning_dtype<std::remove_const_t<Out>>(), {}, out.size());
  if (on_gpu(dev))
    gpu_elementwise(dev, t, out, f, src...);
  else
    elementwise(out, f, t.cpu_grain, src...);
}

// A new array of v's elements in reverse row-major order, on dev.
template <class T>
array<T> reverse_on(const device& dev, const map_tuning& t, view<const T> s) {
  array<T> out = result_array<T>(dev, s.shape());
  if (!on_gpu(dev))
    cpu_copy_into(t, out.view(), reversed(s));
  else if (s.is_contiguous())
    gpu::detail::foreachindex_run(
        dev, t, s.size(), gpu::kernels::reverse_copy_body<T>{s.data(), out.data(), s.size()});
  else
    gpu_elementwise(dev, t, out.view(), gpu_same{}, reversed(s));
  return out;
}

}  // namespace detail

// f(i) for every i in [0, n), in parallel on the cpu; f must be safe to call concurrently.
template <class F>
void foreachindex(std::int64_t n, F&& f, const loop_options& o = {}) {
  if (n < 0) throw argument_error("ak::foreachindex", "n", "n >= 0", std::to_string(n));
  const device cpu = detail::algorithm_device("ak::foreachindex", "n", host_memory());
  const map_tuning t = detail::loop_tuning(cpu, dtype::int64, o, n);
  cpu::parallel_for(n, t.cpu_grain, f);
}

// f(i) for every linear index i of the elements of `range`, on the device the range is on (on a
// GPU-style device f is a kernel body: see the top of this header).
// clang-format off
template <class R, class F>
  requires(!std::integral<std::remove_cvref_t<R>>)
void foreachindex(R&& range, F&& f, const loop_options& o = {}) {
  // clang-format on
  const auto v = detail::as_view(range);
  const device dev = detail::algorithm_device("ak::foreachindex", "range", v.memory());
  if (detail::on_gpu(dev)) return gpu::foreachindex(dev, v.size(), f, o.tuning);
  foreachindex(v.size(), std::forward<F>(f), o);
}

// f(i) for every index i along dimension `dim` of `range`, on the device the range is on (on a
// GPU-style device f is a kernel body: see the top of this header).
template <class R, class F>
void foraxes(R&& range, std::int64_t dim, F&& f, const loop_options& o = {}) {
  const auto v = detail::as_view(range);
  const std::size_t d = detail::checked_dim("ak::foraxes", "dim", dim, v.rank());
  const device dev = detail::algorithm_device("ak::foraxes", "range", v.memory());
  if (detail::on_gpu(dev)) return gpu::foreachindex(dev, v.shape()[d], f, o.tuning);
  foreachindex(v.shape()[d], std::forward<F>(f), o);
}

// dst[i] = f(src0[i], src1[i], ...) for every n-d index; every src has the shape of dst and is on
// its device. dst may be one of the sources (in place) but must not partially overlap one.
template <class Dst, class F, class... Src>
void map_into(Dst&& dst, F f, const Src&... src) {
  auto out = detail::as_view(dst);
  using Out = typename decltype(out)::element_type;
  static_assert(!std::is_const_v<Out>, "ak::map_into: dst must be writable");
  const device dev = detail::algorithm_device("ak::map_into", "dst", out.memory());
  detail::check_map_sources("ak::map_into", dev, out.shape(), detail::as_const_view(src)...);
  if (detail::on_gpu(dev))
    detail::check_gpu_types<Out, detail::element_t<const Src>...>("ak::map_into", dev);
  detail::map_on(dev, out, f, detail::as_const_view(src)...);
}

// A new array of f(src0[i], src1[i], ...), with the shape of the sources (all equal), on their
// device.
template <class F, class Src0, class... Src>
auto map(F f, const Src0& src0, const Src&... src) {
  using R = std::remove_cvref_t<std::invoke_result_t<F&, const detail::element_t<const Src0>&,
                                                     const detail::element_t<const Src>&...>>;
  const auto v0 = detail::as_const_view(src0);
  const device dev = detail::algorithm_device("ak::map", "src", v0.memory());
  detail::check_map_sources("ak::map", dev, v0.shape(), detail::as_const_view(src)...);
  if (detail::on_gpu(dev))
    detail::check_gpu_types<R, detail::element_t<const Src0>, detail::element_t<const Src>...>(
        "ak::map", dev);
  array<R> out = detail::result_array<R>(dev, v0.shape());
  detail::map_on(dev, out.view(), f, v0, detail::as_const_view(src)...);
  return out;
}

// f over the sources broadcast to a common shape (numpy/Julia rules: aligned from the last
// dimension, extent-1 dimensions expanded), in one pass, on the sources' device. The result type
// is f's.
template <class F, class Src0, class... Src>
auto broadcast(F f, const Src0& src0, const Src&... src) {
  using R = std::remove_cvref_t<std::invoke_result_t<F&, const detail::element_t<const Src0>&,
                                                     const detail::element_t<const Src>&...>>;
  const auto v0 = detail::as_const_view(src0);
  shape s = v0.shape();
  ((s = detail::broadcast_shape("ak::broadcast", s, detail::as_const_view(src).shape())), ...);
  const device dev = detail::algorithm_device("ak::broadcast", "src", v0.memory());
  (detail::check_same_device("ak::broadcast", "src", dev, detail::as_const_view(src).memory()),
   ...);
  if (detail::on_gpu(dev))
    detail::check_gpu_types<R, detail::element_t<const Src0>, detail::element_t<const Src>...>(
        "ak::broadcast", dev);
  array<R> out = detail::result_array<R>(dev, s);
  detail::map_on(dev, out.view(), f, v0, detail::as_const_view(src)...);
  return out;
}

// Gather (getindex): out[j] = src[indices[j]], where indices are linear (row-major) positions in
// src; the result has the shape of indices and is on their device (which is src's). Any index
// outside [0, src.size()) is an error raised before anything is written, naming the first.
template <class Src, class Idx>
auto take(const Src& src, const Idx& indices, const loop_options& o = {}) {
  const auto s = detail::as_const_view(src);
  const auto idx = detail::as_const_view(indices);
  using T = detail::element_t<const Src>;
  using I = detail::element_t<const Idx>;
  static_assert(std::is_integral_v<I> && !std::is_same_v<I, bool>,
                "ak::take: indices must be integers");
  const device dev = detail::algorithm_device("ak::take", "src", s.memory());
  detail::check_same_device("ak::take", "indices", dev, idx.memory());
  const map_tuning t = detail::loop_tuning(dev, tuning_dtype<T>(), o, idx.size());
  if (detail::on_gpu(dev)) {
    detail::check_gpu_types<T>("ak::take", dev);
    return detail::gpu_take(dev, t, s, idx);
  }
  return detail::cpu_take(t, s, idx);
}

// A row-major copy of any view (a slice, a transpose, a reversed view, ...), on its device.
template <class Src>
auto copy(const Src& src, const loop_options& o = {}) {
  const auto s = detail::as_const_view(src);
  using T = detail::element_t<const Src>;
  const device dev = detail::algorithm_device("ak::copy", "src", s.memory());
  if (detail::on_gpu(dev)) detail::check_gpu_types<T>("ak::copy", dev);
  const map_tuning t = detail::loop_tuning(dev, tuning_dtype<T>(), o, s.size());
  if (!detail::on_gpu(dev)) return detail::cpu_copy(t, s);
  array<T> out(s.shape(), dev.memory());
  detail::gpu_elementwise(dev, t, out.view(), detail::gpu_same{}, s);
  return out;
}

// The elements in reverse row-major order (for a 1-d array: back to front), same shape, on the
// source's device.
template <class Src>
auto reverse(const Src& src, const loop_options& o = {}) {
  const auto s = detail::as_const_view(src);
  using T = detail::element_t<const Src>;
  const device dev = detail::algorithm_device("ak::reverse", "src", s.memory());
  if (detail::on_gpu(dev)) detail::check_gpu_types<T>("ak::reverse", dev);
  const map_tuning t = detail::loop_tuning(dev, tuning_dtype<T>(), o, s.size());
  return detail::reverse_on(dev, t, s);
}

// Reverses the elements of v in place (reverse row-major order), on its device.
template <class Dst>
void reverse_inplace(Dst&& dst, const loop_options& o = {}) {
  auto v = detail::as_view(dst);
  using T = typename decltype(v)::value_type;
  const device dev = detail::algorithm_device("ak::reverse_inplace", "v", v.memory());
  if (detail::on_gpu(dev)) detail::check_gpu_types<T>("ak::reverse_inplace", dev);
  const map_tuning t = detail::loop_tuning(dev, tuning_dtype<T>(), o, v.size());
  if (detail::on_gpu(dev))
    detail::gpu_reverse_inplace(dev, t, v);
  else if (v.is_contiguous())
    detail::cpu_reverse_inplace(t, v.data(), v.size());
  else
    detail::cpu_copy_into(t, v, view<const T>(detail::reverse_on(dev, t, view<const T>(v)).view()));
}

}  // namespace ak
