// The cpu half of searchsortedfirst and searchsortedlast (the front is search.hpp): it takes the
// device and the tuning the front resolved.
#pragma once

#include <cstdint>

#include "ak/algorithms/elementwise.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/backends/cpu/search.hpp"

namespace ak::detail {

template <class T, class By, class Lt>
array<std::int64_t> cpu_searchsorted(const search_tuning& t, view<const T> s, view<const T> q,
                                     bool last, const search_options<By, Lt>& o) {
  const cpu_dense<T> queries(t.cpu_grain, q);  // row-major: q itself when contiguous, else a copy
  array<std::int64_t> out(q.shape());
  const sort_less<const By&, const Lt&> less{o.by, o.lt, o.rev};
  cpu::search_sorted(s.data(), s.strides()[0], s.size(), queries.data(), out.size(), last, less,
                     out.data(), t.cpu_grain);
  return out;
}

}  // namespace ak::detail
