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
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/backends/cpu/parallel.hpp"
#include "ak/backends/cpu/strided_loops.hpp"

namespace ak {

namespace detail {

inline map_tuning loop_tuning(const device& dev, dtype t, const loop_options& o) {
  return tuning(map_hook{}, dev, t, o.tuning);
}

// The strided space of an output shape and operands that are equal to it or broadcast to it
// (aligned from the last dimension; extent-1 dimensions get stride 0).
template <std::size_t K>
cpu::strided_space<K> broadcast_space(const shape& out, const std::array<const shape*, K>& shapes,
                                      const std::array<const strides*, K>& steps) {
  cpu::strided_space<K> s;
  s.rank = out.rank();
  for (std::size_t d = 0; d < s.rank; ++d) s.extent[d] = out[d];
  for (std::size_t k = 0; k < K; ++k) {
    const std::size_t r = shapes[k]->rank(), skip = s.rank - r;
    for (std::size_t d = 0; d < s.rank; ++d) {
      if (d < skip) {
        s.stride[k][d] = 0;
      } else {
        const std::size_t dk = d - skip;
        s.stride[k][d] = ((*shapes[k])[dk] == 1 && out[d] != 1) ? 0 : (*steps[k])[dk];
      }
    }
  }
  return cpu::coalesce(s);
}

// out = f(srcs...) element-wise over the space: operand 0 is out.
template <class Out, class F, class... Src, std::size_t... I>
void elementwise_impl(Out* out, const cpu::strided_space<1 + sizeof...(Src)>& s, std::int64_t grain,
                      F& f, std::index_sequence<I...>, const Src*... src) {
  cpu::parallel_rows(s, grain, [&](const auto& off, std::int64_t n) {
    Out* o = out + off[0];
    const std::tuple<const Src*...> p{(src + off[1 + I])...};
    bool unit = s.row_stride(0) == 1 && ((s.row_stride(1 + I) == 1) && ...);
    if (unit) {
      for (std::int64_t i = 0; i < n; ++i) o[i] = static_cast<Out>(f(std::get<I>(p)[i]...));
    } else {
      const std::int64_t so = s.row_stride(0);
      const std::array<std::int64_t, sizeof...(Src)> ss{s.row_stride(1 + I)...};
      for (std::int64_t i = 0; i < n; ++i)
        o[i * so] = static_cast<Out>(f(std::get<I>(p)[i * ss[I]]...));
    }
  });
}

template <class Out, class F, class... Src>
void elementwise(view<Out> out, F& f, std::int64_t grain, view<const Src>... src) {
  constexpr std::size_t K = 1 + sizeof...(Src);
  const std::array<const shape*, K> shapes{&out.shape(), &src.shape()...};
  const std::array<const strides*, K> steps{&out.strides(), &src.strides()...};
  elementwise_impl(out.data(), broadcast_space<K>(out.shape(), shapes, steps), grain, f,
                   std::index_sequence_for<Src...>{}, src.data()...);
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

struct identity_copy {
  template <class T>
  T operator()(const T& x) const {
    return x;
  }
};

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

// ---- The GPU path ------------------------------------------------------------------------------

// The index space of a view seen through an output shape it broadcasts to (aligned from the last
// dimension; missing and extent-1 dimensions repeat with stride 0), as the ak::gpu kernels take
// it; a rank-0 output is one element.
template <class T>
gpu::kernels::strided_space gpu_space(const shape& out, const view<T>& v) {
  gpu::kernels::strided_space s;
  if (out.rank() == 0) {
    s.rank = 1;
    s.shape[0] = 1;
    s.stride[0] = 0;
    return s;
  }
  s.rank = static_cast<int>(out.rank());
  const std::size_t skip = out.rank() - v.rank();
  for (std::size_t d = 0; d < out.rank(); ++d) {
    s.shape[d] = out[d];
    s.stride[d] = d < skip || v.shape()[d - skip] == 1 ? 0 : v.strides()[d - skip];
  }
  return s;
}

// The sources of an n-ary element-wise kernel, held by value (a kernel cannot hold host objects;
// no std::tuple, whose members are not device functions under nvcc): a pointer and an index space
// per source, nested.
template <class... S>
struct gpu_operands {};
template <class S0, class... S>
struct gpu_operands<S0, S...> {
  const S0* p;
  gpu::kernels::strided_space space;
  gpu_operands<S...> rest;
};

// f(x...) once every source's element at linear index o is loaded.
template <class F, class... X>
AK_KERNEL_FN auto gpu_apply(const F& f, const gpu_operands<>&, std::int64_t, const X&... x) {
  return f(x...);
}
template <class F, class S0, class... S, class... X>
AK_KERNEL_FN auto gpu_apply(const F& f, const gpu_operands<S0, S...>& ops, std::int64_t o,
                            const X&... x) {
  return gpu_apply(f, ops.rest, o, x..., ops.p[ops.space.offset(o)]);
}

inline gpu_operands<> gpu_operands_of(const shape&) {
  return {};
}
template <class S0, class... S>
gpu_operands<S0, S...> gpu_operands_of(const shape& out, view<const S0> v0, view<const S>... v) {
  return {v0.data(), gpu_space(out, v0), gpu_operands_of(out, v...)};
}

// out[i] = f(src0[i], src1[i], ...) over out's index space (a body of ak::gpu::foreachindex).
template <class Out, class F, class... Src>
struct gpu_elementwise_body {
  Out* out;
  gpu::kernels::strided_space out_space;
  gpu_operands<Src...> src;
  F f;
  AK_KERNEL_FN void operator()(std::int64_t i) const {
    out[out_space.offset(i)] = static_cast<Out>(gpu_apply(f, src, i));
  }
};

// out = f(src...) element-wise on the device, every source broadcast to out's shape, any strides.
template <class Out, class F, class... Src>
void gpu_elementwise(const device& dev, view<Out> out, const F& f, const map_tuning& t,
                     view<const Src>... src) {
  if (out.empty()) return;
  gpu::foreachindex(dev, out.size(),
                    gpu_elementwise_body<Out, F, Src...>{out.data(), gpu_space(out.shape(), out),
                                                         gpu_operands_of(out.shape(), src...), f},
                    t);
}

// Whether an index is outside [0, n) (the predicate of the GPU index check of take).
template <class I>
struct gpu_index_outside {
  std::int64_t n;
  AK_KERNEL_FN bool operator()(const I& x) const {
    if constexpr (std::is_signed_v<I>)
      if (x < 0) return true;
    return static_cast<std::uint64_t>(x) >= static_cast<std::uint64_t>(n);
  }
};

// A new array of the data's shape where the data is: host memory on the cpu, else the device's.
template <class R>
array<R> result_array(const device& dev, const shape& s) {
  return on_gpu(dev) ? array<R>(s, dev.memory()) : array<R>(s);
}

// map_into's work, with the name of the public function for its errors: checks every array's
// device and shape (and the device's types), then runs on the device of dst.
template <class Out, class F, class... Src>
void map_impl(std::string_view function, view<Out> out, F& f, view<const Src>... src) {
  const device dev = algorithm_device(function, "dst", out.memory());
  [[maybe_unused]] auto check = [&](const auto& v) {
    check_same_device(function, "src", dev, v.memory());
    if (v.shape() != out.shape()) throw_shape_mismatch(function, "src", out.shape(), v.shape());
  };
  (check(src), ...);
  if (on_gpu(dev)) {
    check_gpu_types<Out, Src...>(function, dev);
    gpu_elementwise(dev, out, f, {}, src...);
    return;
  }
  elementwise(out, f, loop_tuning(dev, tuning_dtype<Out>(), {}).cpu_grain, src...);
}

// A row-major copy of a view on the cpu (sort's cpu path packs strided views with it).
template <class T>
array<T> copy_on_cpu(const device& dev, view<const T> s, const loop_options& o) {
  array<T> out(s.shape());
  auto id = identity_copy{};
  elementwise(out.view(), id, loop_tuning(dev, tuning_dtype<T>(), o).cpu_grain, s);
  return out;
}

// The GPU path of take: the indices are checked on the device (a count of those outside the
// source; only when there are some do they come to the host, to name the first), then gathered
// from the source (packed first when strided).
template <class T, class I>
array<T> gpu_take(const device& dev, view<const T> s, view<const I> idx, const loop_options& o) {
  check_gpu_types<T>("ak::take", dev);
  const std::int64_t n = s.size(), count = idx.size();
  const gpu_dense<I> di(dev, idx);
  if (count > 0 && gpu::count(dev, di.data(), count, gpu_index_outside<I>{n}) > 0) {
    std::vector<I> host(static_cast<std::size_t>(count));
    dev.memory().copy_to_host(host.data(), di.data(), host.size() * sizeof(I));
    const gpu_index_outside<I> outside{n};
    for (std::int64_t j = 0; j < count; ++j) {
      const I x = host[static_cast<std::size_t>(j)];
      if (outside(x)) throw_index_out_of_range("ak::take", j, static_cast<std::int64_t>(x), n);
    }
  }
  array<T> out(idx.shape(), dev.memory());
  if (count == 0) return out;
  const gpu_dense<T> ds(dev, s);
  gpu::foreachindex(dev, count, gpu::kernels::gather_body<T, I>{ds.data(), di.data(), out.data()},
                    o.tuning);
  return out;
}

}  // namespace detail

// f(i) for every i in [0, n), in parallel on the cpu; f must be safe to call concurrently.
template <class F>
void foreachindex(std::int64_t n, F&& f, const loop_options& o = {}) {
  if (n < 0) throw argument_error("ak::foreachindex", "n", "n >= 0", std::to_string(n));
  const device cpu = detail::algorithm_device("ak::foreachindex", "n", host_memory());
  const map_tuning t = detail::loop_tuning(cpu, dtype::int64, o);
  const cpu::chunks c = cpu::plan_chunks(n, t.cpu_grain, cpu::balanced_task_limit());
  cpu::parallel_tasks(c.count, [&](std::int64_t k) {
    for (std::int64_t i = c.begin(k); i < c.end(k); ++i) f(i);
  });
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
  static_assert(!std::is_const_v<typename decltype(out)::element_type>,
                "ak::map_into: dst must be writable");
  detail::map_impl("ak::map_into", out, f, detail::as_const_view(src)...);
}

// A new array of f(src0[i], src1[i], ...), with the shape of the sources (all equal), on their
// device.
template <class F, class Src0, class... Src>
auto map(F f, const Src0& src0, const Src&... src) {
  using R = std::remove_cvref_t<std::invoke_result_t<F&, const detail::element_t<const Src0>&,
                                                     const detail::element_t<const Src>&...>>;
  const auto v0 = detail::as_const_view(src0);
  const device dev = detail::algorithm_device("ak::map", "src", v0.memory());
  [[maybe_unused]] auto check = [&](const auto& v) {
    detail::check_same_device("ak::map", "src", dev, v.memory());
    if (v.shape() != v0.shape())
      detail::throw_shape_mismatch("ak::map", "src", v0.shape(), v.shape());
  };
  (check(detail::as_const_view(src)), ...);
  if (detail::on_gpu(dev)) detail::check_gpu_types<R>("ak::map", dev);
  array<R> out = detail::result_array<R>(dev, v0.shape());
  detail::map_impl("ak::map", out.view(), f, v0, detail::as_const_view(src)...);
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
  if (detail::on_gpu(dev)) {
    detail::check_gpu_types<R, detail::element_t<const Src0>, detail::element_t<const Src>...>(
        "ak::broadcast", dev);
    array<R> out(s, dev.memory());
    detail::gpu_elementwise(dev, out.view(), f, {}, v0, detail::as_const_view(src)...);
    return out;
  }
  array<R> out(s);
  detail::elementwise(out.view(), f,
                      detail::loop_tuning(dev, detail::tuning_dtype<R>(), {}).cpu_grain, v0,
                      detail::as_const_view(src)...);
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
  if (detail::on_gpu(dev)) return detail::gpu_take(dev, s, idx, o);
  const std::int64_t grain = detail::loop_tuning(dev, detail::tuning_dtype<T>(), o).cpu_grain;
  // Find the first bad index (the lowest position), in parallel.
  const std::int64_t n = s.size();
  const cpu::chunks c = cpu::plan_chunks(idx.size(), grain, cpu::balanced_task_limit());
  std::vector<std::int64_t> first_bad(static_cast<std::size_t>(c.count), -1);
  array<I> flat_idx = [&] {
    array<I> a(idx.shape());
    auto id = detail::identity_copy{};
    detail::elementwise(a.view(), id, grain, idx);
    return a;
  }();
  const I* ip = flat_idx.data();
  cpu::parallel_tasks(c.count, [&](std::int64_t k) {
    for (std::int64_t j = c.begin(k); j < c.end(k); ++j) {
      const auto x = ip[j];
      if (x < 0 || static_cast<std::uint64_t>(x) >= static_cast<std::uint64_t>(n)) {
        first_bad[static_cast<std::size_t>(k)] = j;
        return;
      }
    }
  });
  for (std::int64_t j : first_bad)
    if (j >= 0)
      detail::throw_index_out_of_range("ak::take", j, static_cast<std::int64_t>(ip[j]), n);
  array<T> out(idx.shape());
  T* op = out.data();
  if (s.is_contiguous()) {
    const T* sp = s.data();
    cpu::parallel_tasks(c.count, [&](std::int64_t k) {
      for (std::int64_t j = c.begin(k); j < c.end(k); ++j) op[j] = sp[ip[j]];
    });
  } else {
    cpu::parallel_tasks(c.count, [&](std::int64_t k) {
      for (std::int64_t j = c.begin(k); j < c.end(k); ++j) {
        std::int64_t rest = static_cast<std::int64_t>(ip[j]), off = 0;
        for (std::size_t d = s.rank(); d-- > 0;) {
          off += (rest % s.shape()[d]) * s.strides()[d];
          rest /= s.shape()[d];
        }
        op[j] = s.data()[off];
      }
    });
  }
  return out;
}

// A row-major copy of any view (a slice, a transpose, a reversed view, ...), on its device.
template <class Src>
auto copy(const Src& src, const loop_options& o = {}) {
  const auto s = detail::as_const_view(src);
  using T = detail::element_t<const Src>;
  const device dev = detail::algorithm_device("ak::copy", "src", s.memory());
  if (detail::on_gpu(dev)) {
    detail::check_gpu_types<T>("ak::copy", dev);
    array<T> out(s.shape(), dev.memory());
    detail::gpu_elementwise(dev, out.view(), detail::gpu_same{}, o.tuning, s);
    return out;
  }
  return detail::copy_on_cpu(dev, s, o);
}

// The elements in reverse row-major order (for a 1-d array: back to front), same shape, on the
// source's device.
template <class Src>
auto reverse(const Src& src, const loop_options& o = {}) {
  const auto s = detail::as_const_view(src);
  using T = detail::element_t<const Src>;
  const device dev = detail::algorithm_device("ak::reverse", "src", s.memory());
  if (detail::on_gpu(dev)) {
    detail::check_gpu_types<T>("ak::reverse", dev);
    array<T> out(s.shape(), dev.memory());
    if (s.is_contiguous())
      gpu::foreachindex(dev, s.size(),
                        gpu::kernels::reverse_copy_body<T>{s.data(), out.data(), s.size()},
                        o.tuning);
    else
      detail::gpu_elementwise(dev, out.view(), detail::gpu_same{}, o.tuning, detail::reversed(s));
    return out;
  }
  array<T> out(s.shape());
  auto id = detail::identity_copy{};
  detail::elementwise(out.view(), id,
                      detail::loop_tuning(dev, detail::tuning_dtype<T>(), o).cpu_grain,
                      detail::reversed(s));
  return out;
}

// Reverses the elements of v in place (reverse row-major order), on its device.
template <class Dst>
void reverse_inplace(Dst&& dst, const loop_options& o = {}) {
  auto v = detail::as_view(dst);
  using T = typename decltype(v)::value_type;
  const device dev = detail::algorithm_device("ak::reverse_inplace", "v", v.memory());
  if (detail::on_gpu(dev)) {
    detail::check_gpu_types<T>("ak::reverse_inplace", dev);
    // Strided views are reversed in a packed copy that is written back.
    detail::gpu_work<T> w(dev, v, true);
    const std::int64_t n = v.size();
    gpu::foreachindex(dev, n / 2, gpu::kernels::reverse_body<T>{w.data(), n}, o.tuning);
    w.write_back();
    return;
  }
  const std::int64_t grain = detail::loop_tuning(dev, detail::tuning_dtype<T>(), o).cpu_grain;
  if (v.is_contiguous()) {
    T* p = v.data();
    const std::int64_t n = v.size(), half = n / 2;
    const cpu::chunks c = cpu::plan_chunks(half, grain, cpu::balanced_task_limit());
    cpu::parallel_tasks(c.count, [&](std::int64_t k) {
      for (std::int64_t i = c.begin(k); i < c.end(k); ++i) std::swap(p[i], p[n - 1 - i]);
    });
    return;
  }
  array<T> tmp = reverse(view<const T>(v), o);
  auto id = detail::identity_copy{};
  detail::elementwise(v, id, grain, view<const T>(tmp.view()));
}

}  // namespace ak
