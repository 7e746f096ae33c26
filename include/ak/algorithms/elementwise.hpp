// Loops and element-wise operations: foreachindex, foraxes, map, map_into, broadcast, take
// (gather), copy (materialise a slicing view), reverse.
//
// Data is any ak::view, ak::array or contiguous host range; results are new ak::arrays in host
// memory, row-major. Everything is checked before anything is written.
#pragma once

#include <array>
#include <concepts>
#include <tuple>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>

#include "ak/algorithms/detail/arguments.hpp"
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
void elementwise_impl(Out* out, const cpu::strided_space<1 + sizeof...(Src)>& s,
                      std::int64_t grain, F& f, std::index_sequence<I...>, const Src*... src) {
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

}  // namespace detail

// f(i) for every i in [0, n), in parallel; f must be safe to call concurrently.
template <class F>
void foreachindex(std::int64_t n, F&& f, const loop_options& o = {}) {
  if (n < 0) throw argument_error("ak::foreachindex", "n", "n >= 0", std::to_string(n));
  const map_tuning t = detail::loop_tuning(detail::cpu_algorithm_device("ak::foreachindex", "n", host_memory()),
                                           dtype::int64, o);
  const cpu::chunks c = cpu::plan_chunks(n, t.cpu_grain, cpu::balanced_task_limit());
  cpu::parallel_tasks(c.count, [&](std::int64_t k) {
    for (std::int64_t i = c.begin(k); i < c.end(k); ++i) f(i);
  });
}

// f(i) for every linear index i of the elements of `range`.
// clang-format off
template <class R, class F>
  requires(!std::integral<std::remove_cvref_t<R>>)
void foreachindex(R&& range, F&& f, const loop_options& o = {}) {
  // clang-format on
  const auto v = detail::as_view(range);
  detail::cpu_algorithm_device("ak::foreachindex", "range", v.memory());
  foreachindex(v.size(), std::forward<F>(f), o);
}

// f(i) for every index i along dimension `dim` of `range`.
template <class R, class F>
void foraxes(R&& range, std::int64_t dim, F&& f, const loop_options& o = {}) {
  const auto v = detail::as_view(range);
  const std::size_t d = detail::checked_dim("ak::foraxes", "dim", dim, v.rank());
  detail::cpu_algorithm_device("ak::foraxes", "range", v.memory());
  foreachindex(v.shape()[d], std::forward<F>(f), o);
}

// dst[i] = f(src0[i], src1[i], ...) for every n-d index; every src has the shape of dst. dst may
// be one of the sources (in place) but must not partially overlap one.
template <class Dst, class F, class... Src>
void map_into(Dst&& dst, F f, const Src&... src) {
  auto out = detail::as_view(dst);
  using Out = typename decltype(out)::value_type;
  static_assert(!std::is_const_v<typename decltype(out)::element_type>,
                "ak::map_into: dst must be writable");
  const dtype t = detail::tuning_dtype<Out>();
  const device dev = detail::cpu_algorithm_device("ak::map_into", "dst", out.memory());
  [[maybe_unused]] auto check = [&](const auto& v, std::string_view name) {
    detail::cpu_algorithm_device("ak::map_into", name, v.memory());
    if (v.shape() != out.shape()) detail::throw_shape_mismatch("ak::map_into", name, out.shape(), v.shape());
  };
  (check(detail::as_const_view(src), "src"), ...);
  detail::elementwise(out, f, detail::loop_tuning(dev, t, {}).cpu_grain, detail::as_const_view(src)...);
}

// A new array of f(src0[i], src1[i], ...), with the shape of the sources (all equal).
template <class F, class Src0, class... Src>
auto map(F f, const Src0& src0, const Src&... src) {
  using R = std::remove_cvref_t<std::invoke_result_t<F&, const detail::element_t<const Src0>&,
                                                     const detail::element_t<const Src>&...>>;
  const auto v0 = detail::as_const_view(src0);
  [[maybe_unused]] auto check = [&](const auto& v) {
    if (v.shape() != v0.shape()) detail::throw_shape_mismatch("ak::map", "src", v0.shape(), v.shape());
  };
  (check(detail::as_const_view(src)), ...);
  array<R> out(v0.shape());
  map_into(out, f, src0, src...);
  return out;
}

// f over the sources broadcast to a common shape (numpy/Julia rules: aligned from the last
// dimension, extent-1 dimensions expanded), in one pass. The result type is f's.
template <class F, class Src0, class... Src>
auto broadcast(F f, const Src0& src0, const Src&... src) {
  using R = std::remove_cvref_t<std::invoke_result_t<F&, const detail::element_t<const Src0>&,
                                                     const detail::element_t<const Src>&...>>;
  shape s = detail::as_const_view(src0).shape();
  ((s = detail::broadcast_shape("ak::broadcast", s, detail::as_const_view(src).shape())), ...);
  const device dev = detail::cpu_algorithm_device("ak::broadcast", "src", detail::as_const_view(src0).memory());
  (detail::cpu_algorithm_device("ak::broadcast", "src", detail::as_const_view(src).memory()), ...);
  array<R> out(s);
  detail::elementwise(out.view(), f, detail::loop_tuning(dev, detail::tuning_dtype<R>(), {}).cpu_grain,
                      detail::as_const_view(src0), detail::as_const_view(src)...);
  return out;
}

// Gather (getindex): out[j] = src[indices[j]], where indices are linear (row-major) positions in
// src; the result has the shape of indices. Any index outside [0, src.size()) is an error raised
// before anything is written.
template <class Src, class Idx>
auto take(const Src& src, const Idx& indices, const loop_options& o = {}) {
  const auto s = detail::as_const_view(src);
  const auto idx = detail::as_const_view(indices);
  using T = detail::element_t<const Src>;
  using I = detail::element_t<const Idx>;
  static_assert(std::is_integral_v<I> && !std::is_same_v<I, bool>, "ak::take: indices must be integers");
  const device dev = detail::cpu_algorithm_device("ak::take", "src", s.memory());
  detail::cpu_algorithm_device("ak::take", "indices", idx.memory());
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
    if (j >= 0) detail::throw_index_out_of_range("ak::take", j, static_cast<std::int64_t>(ip[j]), n);
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

// A row-major copy of any view (a slice, a transpose, a reversed view, ...).
template <class Src>
auto copy(const Src& src, const loop_options& o = {}) {
  const auto s = detail::as_const_view(src);
  using T = detail::element_t<const Src>;
  const device dev = detail::cpu_algorithm_device("ak::copy", "src", s.memory());
  array<T> out(s.shape());
  auto id = detail::identity_copy{};
  detail::elementwise(out.view(), id, detail::loop_tuning(dev, detail::tuning_dtype<T>(), o).cpu_grain, s);
  return out;
}

// The elements in reverse row-major order (for a 1-d array: back to front), same shape.
template <class Src>
auto reverse(const Src& src, const loop_options& o = {}) {
  const auto s = detail::as_const_view(src);
  using T = detail::element_t<const Src>;
  const device dev = detail::cpu_algorithm_device("ak::reverse", "src", s.memory());
  array<T> out(s.shape());
  auto id = detail::identity_copy{};
  detail::elementwise(out.view(), id, detail::loop_tuning(dev, detail::tuning_dtype<T>(), o).cpu_grain,
                      detail::reversed(s));
  return out;
}

// Reverses the elements of v in place (reverse row-major order).
template <class Dst>
void reverse_inplace(Dst&& dst, const loop_options& o = {}) {
  auto v = detail::as_view(dst);
  using T = typename decltype(v)::value_type;
  const device dev = detail::cpu_algorithm_device("ak::reverse_inplace", "v", v.memory());
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
