// searchsortedfirst and searchsortedlast for many queries at once.
//
//   auto pos = ak::searchsortedfirst(sorted, queries);   // int64, shape of queries
//
// `sorted` is a 1-d array in the order lt(by(.), by(.)) (descending when rev). For each query q,
// searchsortedfirst gives the first index i with !(sorted[i] < q), or sorted.size() when there is
// none; searchsortedlast gives the last index i with !(q < sorted[i]), or -1 when there is none
// (Julia's results, 0-based).
//
// This is the family's front: it checks the arguments, finds the device and resolves the tuning
// once, then runs the precompiled entry (the standard types in the default order) or the cpu half
// (search_cpu.hpp) or GPU half (search_gpu.hpp).
#pragma once

#include <cstdint>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/algorithms/precompiled.hpp"
#include "ak/algorithms/search_cpu.hpp"
#include "ak/algorithms/search_gpu.hpp"
#include "ak/algorithms/sort.hpp"

namespace ak {

namespace detail {

template <class T, class By, class Lt>
array<std::int64_t> searchsorted_front(view<const T> s, view<const T> q, bool last,
                                       const search_options<By, Lt>& o, const char* function) {
  const device dev = algorithm_device(function, "sorted", s.memory());
  check_same_device(function, "queries", dev, q.memory());
  if (s.rank() != 1) throw_rank(function, "sorted", "a 1-d array", s.rank());
  if (on_gpu(dev)) check_gpu_types<T>(function, dev);
  const search_tuning t = tuning(search_hook{}, dev, tuning_dtype<T>(), o.tuning, {q.size()});
  if constexpr (precompiled_sort_v<T, By, Lt>)
    return searchsorted_entry(dev, t, s, q, last, o);
  else if (on_gpu(dev))
    return gpu_searchsorted(dev, t, s, q, last, o);
  else
    return cpu_searchsorted(t, s, q, last, o);
}

}  // namespace detail

template <class Sorted, class Queries, class By = identity, class Lt = isless>
array<std::int64_t> searchsortedfirst(const Sorted& sorted, const Queries& queries,
                                      const search_options<By, Lt>& o = {}) {
  using T = detail::element_t<const Sorted>;
  return detail::searchsorted_front(detail::as_const_view(sorted),
                                    view<const T>(detail::as_const_view(queries)), false, o,
                                    "ak::searchsortedfirst");
}

template <class Sorted, class Queries, class By = identity, class Lt = isless>
array<std::int64_t> searchsortedlast(const Sorted& sorted, const Queries& queries,
                                     const search_options<By, Lt>& o = {}) {
  using T = detail::element_t<const Sorted>;
  return detail::searchsorted_front(detail::as_const_view(sorted),
                                    view<const T>(detail::as_const_view(queries)), true, o,
                                    "ak::searchsortedlast");
}

}  // namespace ak
