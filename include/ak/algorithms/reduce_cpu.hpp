// The cpu half of the reductions (the front is reduce.hpp): each function takes the device and
// the tuning the front resolved, and looks neither up again.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/reduce_common.hpp"
#include "ak/algorithms/elementwise_cpu.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/backends/cpu/reduce.hpp"
#include "ak/backends/cpu/strided_loops.hpp"

namespace ak::detail {

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

// op over f(x) of every element, combined once with init. No elements give init, else the
// neutral element (the caller's or the operator's); the front has checked that one of them is
// there for an empty v.
template <class T, class R, class F, class Op>
R cpu_mapreduce_all(const reduce_tuning& t, view<const T> v, const F& f, const Op& op,
                    const reduce_options<R>& o) {
  const std::optional<R> neutral = init_or_neutral<R, Op>(o.neutral);
  const std::optional<R> r = cpu::mapreduce_space(v.data(), space_of(v), f, op, neutral, t);
  if (!r) return o.init ? *o.init : *neutral;
  return o.init ? static_cast<R>(op(*o.init, *r)) : *r;
}

// op over f(x) along the dimensions of `mask` into `out` (src's rank, those extents 1; not
// empty).
template <class T, class R, class F, class Op>
void cpu_mapreduce_along(const device& dev, const reduce_tuning& t, view<const T> v, const F& f,
                         const Op& op, std::uint32_t mask, const reduce_options<R>& o,
                         array<R>& out) {
  const std::optional<R> neutral = init_or_neutral<R, Op>(o.neutral);
  const strides out_strides = row_major_strides(out.shape());
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
}

// Whether p[s, f) may hold an element that would replace `best` in find_in_run: a strictly more
// extreme value in ak's order or a NaN, by the vector loop (cpu::extreme_in_order); other types:
// a strictly more extreme value, a NaN, or (best being a zero) any element, by one pass of plain
// comparisons on four independent accumulators. Either runs at the speed of the loads where
// find_in_run's dependent, branching loop does not.
template <bool Max, class T>
bool may_replace(const T* p, std::int64_t s, std::int64_t f, T best) {
  if constexpr (cpu::vector_loop_type_v<T>) {
    bool nan = false;
    const T e = cpu::extreme_in_order(p + s, f - s, Max, &nan);
    return nan || (Max ? isless{}(best, e) : isless{}(e, best));
  } else {
    if constexpr (std::is_floating_point_v<T>)
      if (best == T(0)) return true;  // -0.0 and +0.0 compare equal: let the scan decide
    T m[4] = {best, best, best, best};
    bool nan = false;
    auto step = [&](T& acc, T x) {
      acc = (Max ? acc < x : x < acc) ? x : acc;
      if constexpr (std::is_floating_point_v<T>) nan |= x != x;
    };
    std::int64_t i = s;
    for (; i + 4 <= f; i += 4)
      for (int k = 0; k < 4; ++k) step(m[k], p[i + k]);
    for (; i < f; ++i) step(m[0], p[i]);
    bool better = nan;
    for (int k = 0; k < 4; ++k) better |= Max ? best < m[k] : m[k] < best;
    return better;
  }
}

// The element findmin (Max = false) or findmax (Max = true) keeps from p[b, e) (b < e), for
// arithmetic types: what keep_found gives, in one comparison per element (the first NaN ends
// the run: nothing after it can win), over blocks that may_replace says may change the result.
template <bool Max, class T>
found_element<T> find_in_run(const T* p, std::int64_t b, std::int64_t e) {
  found_element<T> best{p[b], b};
  if constexpr (std::is_floating_point_v<T>)
    if (best.value != best.value) return best;
  constexpr std::int64_t block = 1024;
  for (std::int64_t s = b + 1; s < e; s += block) {
    const std::int64_t f = std::min(e, s + block);
    if (!may_replace<Max>(p, s, f, best.value)) continue;
    for (std::int64_t i = s; i < f; ++i) {
      const T x = p[i];
      if (Max ? best.value < x : x < best.value) {
        best = {x, i};
      } else if constexpr (std::is_floating_point_v<T>) {
        if (x != x) return {x, i};
        // -0.0 before +0.0 in ak's order.
        if (x == best.value && std::signbit(Max ? best.value : x) &&
            !std::signbit(Max ? x : best.value))
          best = {x, i};
      }
    }
  }
  return best;
}

// op over load(i) (i the row-major index) of every element of v (not empty), for findmin, findmax
// and extrema: chunks reduced in parallel, their results combined in order. Arithmetic elements
// take find_in_run (extrema: both, over blocks that stay in the L1 cache).
template <class R, template <class> class Load, class T, class Op>
R cpu_reduce_indexed(const reduce_tuning& t, view<const T> v, const Op& op) {
  const cpu_dense<T> d(t.cpu_grain, v);
  const Load<T> load{d.data()};
  const T* p = d.data();
  const cpu::chunks c = cpu::plan_chunks(
      v.size(), t.cpu_grain, t.cpu_tasks > 0 ? t.cpu_tasks : cpu::balanced_task_limit());
  std::vector<R> part(static_cast<std::size_t>(c.count));
  cpu::parallel_tasks(c.count, [&](std::int64_t k) {
    const std::int64_t b = c.begin(k), e = c.end(k);
    R acc{};
    if constexpr (std::is_arithmetic_v<T> && std::is_same_v<R, found_element<T>>) {
      acc = find_in_run<Op::max>(p, b, e);
    } else if constexpr (std::is_arithmetic_v<T> && std::is_same_v<R, extrema_element<T>>) {
      constexpr std::int64_t block = 2048;
      for (std::int64_t s = b; s < e; s += block) {
        const std::int64_t f = std::min(e, s + block);
        acc = op(acc, R{find_in_run<false>(p, s, f), find_in_run<true>(p, s, f)});
      }
    } else {
      acc = load(b);
      for (std::int64_t i = b + 1; i < e; ++i) acc = op(acc, load(i));
    }
    part[static_cast<std::size_t>(k)] = acc;
  });
  R r = part[0];
  for (std::size_t k = 1; k < part.size(); ++k) r = op(r, part[k]);
  return r;
}

// out[i] = load(i) for every element of v, row-major (the elements with their indices, which
// findmin, findmax and extrema along dims reduce).
template <class R, template <class> class Load, class T>
void cpu_fill_indexed(const reduce_tuning& t, view<const T> v, R* out) {
  const cpu_dense<T> d(t.cpu_grain, v);
  const Load<T> load{d.data()};
  cpu::parallel_for(v.size(), t.cpu_grain, [&](std::int64_t i) { out[i] = load(i); });
}

// Whether pred holds for some element (want = true) or fails for some (want = false); stops at
// the first that decides.
template <bool Want, class T, class Pred>
bool cpu_find_any(const map_tuning& t, view<const T> v, const Pred& pred) {
  return cpu::find_any<Want>(v.data(), space_of(v), pred, t.cpu_grain);
}

}  // namespace ak::detail
