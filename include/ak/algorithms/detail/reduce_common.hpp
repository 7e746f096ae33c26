// What the front of the reductions and both of its halves share (reduce.hpp, reduce_cpu.hpp,
// reduce_gpu.hpp): the neutral element a reduction starts from, and the bodies of count, any and
// all.
#pragma once

#include <cstdint>
#include <optional>

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

}  // namespace ak::detail
