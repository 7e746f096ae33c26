// What the front of the sorts and both of its halves share (sort.hpp, sort_cpu.hpp,
// sort_gpu.hpp): which orders radix sort can take, the segments of a segmented sort, and the size
// of a sort's scratch memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ak/backends/cpu/radix_sort.hpp"
#include "ak/core/operators.hpp"
#include "ak/core/view.hpp"
#include "ak/kernel/config.hpp"

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

// The segments a segmented sort sorts each of on its own, in a contiguous run of n elements:
// `count` segments given by CSR offsets (offsets[s] .. offsets[s + 1], on the data's device), or,
// where offsets is null, `count` slices of `length` elements each (the slices of an n-d array
// along one dimension, moved last).
struct sort_segments {
  const std::int64_t* offsets = nullptr;
  std::int64_t length = 0;
  std::int64_t count = 0;

  AK_KERNEL_FN std::int64_t start(std::int64_t s) const {
    return offsets ? offsets[s] : s * length;
  }
  // The segment that holds element i (0 <= i < n).
  AK_KERNEL_FN std::int64_t segment_of(std::int64_t i) const {
    if (!offsets) return i / length;
    std::int64_t lo = 0, hi = count;  // the last s with offsets[s] <= i lies in [lo, hi)
    while (hi - lo > 1) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (offsets[mid] <= i)
        lo = mid;
      else
        hi = mid;
    }
    return lo;
  }
  // The first segment that starts at or after element i (count when none does).
  AK_KERNEL_FN std::int64_t first_from(std::int64_t i) const {
    if (!offsets) return (i + length - 1) / length;
    std::int64_t lo = 0, hi = count;  // the first s with offsets[s] >= i lies in [lo, hi]
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (offsets[mid] < i)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  }
};

// v with dimension dim moved last: its elements in row-major order are the slices along dim, one
// after another, and each slice is a segment of the sort.
template <class T>
view<T> slices_last(view<T> v, std::size_t dim) {
  const auto last = static_cast<std::int64_t>(v.rank()) - 1;
  return static_cast<std::int64_t>(dim) == last ? v
                                                : v.transpose(static_cast<std::int64_t>(dim), last);
}
// The slices along dim of an array of shape s.
inline sort_segments slices(const shape& s, std::size_t dim) {
  const std::int64_t length = s[dim];
  return {nullptr, length, length > 0 ? s.size() / length : 0};
}

// A whole array of n elements as one segment.
inline sort_segments whole_segment(std::int64_t n) {
  return {nullptr, n, 1};
}

// Bytes of scratch memory (sort_options::temp) a sort of n elements of T uses: one aligned copy.
template <class T>
std::size_t sort_scratch_bytes(std::int64_t n) {
  return static_cast<std::size_t>(n) * sizeof(T) + alignof(T);
}

}  // namespace ak::detail
