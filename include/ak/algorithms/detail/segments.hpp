// What the segmented algorithms share: the segments of a 1-d array as CSR offsets (ak::offsets,
// taken by the segmented reductions and scans of keyed.hpp and by the segmented sorts of
// sort.hpp) and their checks, made before anything is written.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/kernel/config.hpp"

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

// Where offsets are not a valid CSR array for n elements: o[s] > o[s + 1] (the flag of a count
// over the m segments; the front checks o[0] == 0 and o[m] == n itself).
struct offsets_descend {
  const std::int64_t* offsets;
  AK_KERNEL_FN bool operator()(std::int64_t s) const { return offsets[s] > offsets[s + 1]; }
};

// The offsets checked against n elements (1-d, m + 1 >= 1 values, o[0] == 0, o[m] == n, never
// decreasing) and packed; their number of segments is size() - 1.
template <class S>
auto checked_offsets(const S& s, const device& dev, const offsets& seg, std::int64_t n,
                     const char* function) {
  const view<const std::int64_t> o = seg.values();
  check_same_device(function, "offsets", dev, o.memory());
  if (o.rank() != 1) throw_rank(function, "offsets", "a 1-d array", o.rank());
  if (o.size() < 1)
    throw argument_error(function, "offsets", "m + 1 >= 1 values (CSR offsets)", "none");
  auto d = s.dense_of(o);
  const std::int64_t m = o.size() - 1;
  const std::int64_t first = gpu::detail::read_one(dev, d.data());
  const std::int64_t last = gpu::detail::read_one(dev, d.data() + m);
  if (first != 0)
    throw argument_error(function, "offsets", "offsets[0] == 0", std::to_string(first));
  if (last != n)
    throw argument_error(function, "offsets",
                         "offsets[m] == " + std::to_string(n) + " (the length of src)",
                         std::to_string(last));
  if (m > 0 && s.count(m, offsets_descend{d.data()}).total > 0)
    throw argument_error(function, "offsets", "offsets that never decrease", "a decreasing step");
  return d;
}

}  // namespace ak::detail
