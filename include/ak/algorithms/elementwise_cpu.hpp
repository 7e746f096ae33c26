// The cpu half of the loops and element-wise operations (the front is elementwise.hpp): the
// strided loops over broadcast index spaces and the cpu's take, each with the tuning the front
// resolved.
#pragma once

#include <array>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/backends/cpu/parallel.hpp"
#include "ak/backends/cpu/strided_loops.hpp"

namespace ak::detail {

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

struct identity_copy {
  template <class T>
  T operator()(const T& x) const {
    return x;
  }
};

// A row-major copy of a view on the cpu (the sorts' cpu halves pack strided views with it).
template <class T>
void cpu_copy_into(const map_tuning& t, view<T> dst, view<const T> s) {
  auto id = identity_copy{};
  elementwise(dst, id, t.cpu_grain, s);
}
template <class T>
array<T> cpu_copy(const map_tuning& t, view<const T> s) {
  array<T> out(s.shape());
  cpu_copy_into(t, out.view(), s);
  return out;
}
// The elements of a view, row-major and contiguous: the view's own memory when it is, else a
// packed copy (cpu_copy with the given grain).
template <class T>
class cpu_dense {
 public:
  cpu_dense(std::int64_t grain, view<const T> v)
      : own_(v.is_contiguous() ? array<T>() : cpu_copy(map_tuning{.cpu_grain = grain}, v)),
        p_(v.is_contiguous() ? v.data() : own_.data()) {}
  const T* data() const noexcept { return p_; }

 private:
  array<T> own_;
  const T* p_;
};

template <class T>
array<T> copy_on_cpu(const device& dev, view<const T> s, const loop_options& o) {
  return cpu_copy(tuning(map_hook{}, dev, tuning_dtype<T>(), o.tuning, {s.size()}), s);
}

// Gather with the indices checked first (the lowest bad position is named), in parallel.
template <class T, class I>
array<T> cpu_take(const map_tuning& t, view<const T> s, view<const I> idx) {
  const std::int64_t grain = t.cpu_grain;
  // Find the first bad index (the lowest position), in parallel.
  const std::int64_t n = s.size();
  const cpu::chunks c = cpu::plan_chunks(idx.size(), grain, cpu::balanced_task_limit());
  std::vector<std::int64_t> first_bad(static_cast<std::size_t>(c.count), -1);
  array<I> flat_idx = [&] {
    array<I> a(idx.shape());
    auto id = identity_copy{};
    elementwise(a.view(), id, grain, idx);
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
    if (j >= 0) throw_index_out_of_range("ak::take", j, static_cast<std::int64_t>(ip[j]), n);
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

// Reverses p[0, n) in place.
template <class T>
void cpu_reverse_inplace(const map_tuning& t, T* p, std::int64_t n) {
  cpu::parallel_reverse(p, n, t.cpu_grain);
}

}  // namespace ak::detail
