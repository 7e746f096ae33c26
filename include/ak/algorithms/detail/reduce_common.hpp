// What the front of the reductions and both of its halves share (reduce.hpp, reduce_cpu.hpp,
// reduce_gpu.hpp): the neutral element a reduction starts from, and the bodies of count, any and
// all.
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>

#include "ak/core/operators.hpp"
#include "ak/kernel/config.hpp"

namespace ak::detail {

// The caller's neutral element, else the operator's (none for an operator ak does not know).
template <class R, class Op>
std::optional<R> init_or_neutral(const std::optional<R>& given) {
  return given ? given : neutral_element<R, Op>();
}

template <class Pred>
struct count_if_true {
  static constexpr bool zero_or_one = true;  // the cpu sums it as a count (cpu::count_row)
  Pred pred;
  template <class T>
  AK_KERNEL_FN std::int64_t operator()(const T& x) const {
    return pred(x) ? 1 : 0;
  }
};

// The predicate of count, any and all without one: true / nonzero.
struct truthy {
  template <class T>
  AK_KERNEL_FN bool operator()(const T& x) const {
    return static_cast<bool>(x);
  }
};

// ---- findmin, findmax, extrema -----------------------------------------------------------------

// An element found by findmin or findmax (which the front writes in namespace ak): its value and
// the first (row-major, 0-based) index where it occurs; index -1 stands for no element.
template <class T>
struct found_element {
  T value{};
  std::int64_t index = -1;
};

// Which of two found elements findmin (Max = false) or findmax (Max = true) keeps: NaN before
// every other value (it propagates, as in minimum and maximum), then the smaller (larger) in ak's
// order, then the lower index. Commutative and associative; found_element{} is its neutral
// element.
template <bool Max>
struct keep_found {
  static constexpr bool max = Max;
  template <class T>
  AK_KERNEL_FN found_element<T> operator()(const found_element<T>& a,
                                           const found_element<T>& b) const {
    if (a.index < 0) return b;
    if (b.index < 0) return a;
    int c = 0;  // < 0: a goes first, > 0: b does
    if constexpr (std::is_floating_point_v<T>) {
      const bool an = a.value != a.value, bn = b.value != b.value;
      if (an || bn) c = an && bn ? 0 : an ? -1 : 1;
    }
    if (c == 0 && isless{}(a.value, b.value)) c = Max ? 1 : -1;
    if (c == 0 && isless{}(b.value, a.value)) c = Max ? -1 : 1;
    if (c == 0) c = a.index <= b.index ? -1 : 1;
    return c < 0 ? a : b;
  }
};

// The smallest and the largest element at once (extrema), each as findmin and findmax keep them.
template <class T>
struct extrema_element {
  found_element<T> min{};
  found_element<T> max{};
};
struct keep_extrema {
  template <class T>
  AK_KERNEL_FN extrema_element<T> operator()(const extrema_element<T>& a,
                                             const extrema_element<T>& b) const {
    return {keep_found<false>{}(a.min, b.min), keep_found<true>{}(a.max, b.max)};
  }
};

// Element i of a contiguous array with its index, as findmin/findmax (load_found) and extrema
// (load_extrema) reduce it.
template <class T>
struct load_found {
  const T* src;
  AK_KERNEL_FN found_element<T> operator()(std::int64_t i) const { return {src[i], i}; }
};
template <class T>
struct load_extrema {
  const T* src;
  AK_KERNEL_FN extrema_element<T> operator()(std::int64_t i) const {
    return {{src[i], i}, {src[i], i}};
  }
};

}  // namespace ak::detail
