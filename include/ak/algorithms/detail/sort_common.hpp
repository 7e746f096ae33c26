// What the front of the sorts and both of its halves share (sort.hpp, sort_cpu.hpp,
// sort_gpu.hpp): which orders radix sort can take, and the size of a sort's scratch memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ak/backends/cpu/radix_sort.hpp"
#include "ak/core/operators.hpp"

namespace ak::detail {

// The key a sort orders T by (by(x)), and whether the cpu radix sort can order by it: the default
// lt and a numeric key (the element itself, or a number that `by` picks, such as a struct's
// field).
template <class T, class By>
using sort_key_t = cpu::radix_key_of_t<T, By>;
template <class T, class By, class Lt>
inline constexpr bool radix_order_v =
    std::is_same_v<Lt, isless>&& has_ordered_key_v<sort_key_t<T, By>>;

// The GPU radix sort orders the elements themselves: numbers with an ordered key (ak's order).
template <class T, class By, class Lt>
inline constexpr bool gpu_radix_order_v =
    std::is_same_v<By, identity>&& std::is_same_v<Lt, isless>&& has_ordered_key_v<T>;

// Bytes of scratch memory (sort_options::temp) a sort of n elements of T uses: one aligned copy.
template <class T>
std::size_t sort_scratch_bytes(std::int64_t n) {
  return static_cast<std::size_t>(n) * sizeof(T) + alignof(T);
}

}  // namespace ak::detail
