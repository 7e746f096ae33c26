// What the segmented algorithms share: the segments of a 1-d array as CSR offsets (ak::offsets,
// taken by the segmented reductions and scans of keyed.hpp and by the segmented sorts of
// sort.hpp) and their checks, made before anything is written.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/core/array.hpp"
#include "ak/runtime/device.hpp"

namespace ak {

// The segments of a 1-d array: CSR offsets (an int64 array of m + 1 values, the first 0, the
// last the array's length, never decreasing), on the array's device. Holds a view: the array
// must outlive the call.
class offsets {
 public:
  // clang-format 14 mangles C++20 requires-clauses:
  // clang-format off
  template <class A>
    requires detail::array_like<A>
  offsets(const A& a)  // NOLINT(google-explicit-constructor): ak::offsets{o} reads well
      : v_(detail::as_const_view(a)) {
    // clang-format on
    static_assert(std::is_same_v<detail::element_t<const A>, std::int64_t>,
                  "ak::offsets: the offsets must be an array of std::int64_t");
  }
  view<const std::int64_t> values() const noexcept { return v_; }

 private:
  view<const std::int64_t> v_;
};

}  // namespace ak

namespace ak::detail {

// Offsets checked against n elements (1-d, m + 1 >= 1 values, o[0] == 0, o[m] == n, never
// decreasing) before anything is written, and dense on their device: `data` points into the
// caller's offsets, or into `own`, a packed copy of them. The values are read on the host (one
// copy from a GPU-style device), so the check launches no kernel and is compiled once in libak
// (src/algorithms/arguments.cpp).
struct dense_offsets {
  array<std::int64_t> own;
  const std::int64_t* data = nullptr;
  std::int64_t count = 0;  // m, the number of segments
};
dense_offsets checked_offsets(const device& dev, const offsets& seg, std::int64_t n,
                              const char* function);

}  // namespace ak::detail
