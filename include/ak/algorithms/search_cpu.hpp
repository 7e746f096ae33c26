// The cpu half of searchsortedfirst and searchsortedlast (the front is search.hpp): it takes the
// device and the tuning the front resolved.
#pragma once

#include <cstdint>

#include "ak/algorithms/elementwise.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/backends/cpu/search.hpp"

namespace ak::detail {

template <class T, class By, class Lt>
array<std::int64_t> cpu_searchsorted(const device& dev, const search_tuning& t, view<const T> s,
                                     view<const T> q, bool last, const search_options<By, Lt>& o) {
  // Queries in row-major order: q itself when contiguous, else a copy.
  array<T> packed;
  if (!q.is_contiguous()) packed = copy_on_cpu(dev, q, loop_options{});
  array<std::int64_t> out(q.shape());
  const T* base = s.data();
  const std::int64_t stride = s.strides()[0], n = s.size();
  const T* qp = q.is_contiguous() ? q.data() : packed.data();
  const sort_less<const By&, const Lt&> less{o.by, o.lt, o.rev};
  cpu::search_sorted(base, stride, n, qp, out.size(), last, less, out.data(), t.cpu_grain);
  return out;
}

}  // namespace ak::detail
