// searchsortedfirst and searchsortedlast for many queries at once.
//
//   auto pos = ak::searchsortedfirst(sorted, queries);   // int64, shape of queries
//
// `sorted` is a 1-d array in the order lt(by(.), by(.)) (descending when rev). For each query q,
// searchsortedfirst gives the first index i with !(sorted[i] < q), or sorted.size() when there is
// none; searchsortedlast gives the last index i with !(q < sorted[i]), or -1 when there is none
// (Julia's results, 0-based).
#pragma once

#include <cstdint>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/algorithms/precompiled.hpp"
#include "ak/algorithms/sort.hpp"
#include "ak/backends/cpu/search.hpp"

namespace ak {

namespace detail {

template <class T, class By, class Lt>
array<std::int64_t> searchsorted_cpu(const device& dev, view<const T> s, view<const T> q, bool last,
                                     const search_options<By, Lt>& o) {
  const search_tuning t = tuning(search_hook{}, dev, tuning_dtype<T>(), o.tuning);
  // Queries in row-major order: q itself when contiguous, else a copy.
  array<T> packed;
  if (!q.is_contiguous()) packed = copy(q);
  array<std::int64_t> out(q.shape());
  const T* base = s.data();
  const std::int64_t stride = s.strides()[0], n = s.size();
  const T* qp = q.is_contiguous() ? q.data() : packed.data();
  const sort_less<By, Lt> less{o.by, o.lt, o.rev};
  cpu::search_sorted(base, stride, n, qp, out.size(), last, less, out.data(), t.cpu_grain);
  return out;
}

// The GPU path: one binary search per query (ak::gpu::searchsortedfirst/last) in the order
// lt(by(.), by(.)), reversed when rev; strided arrays are packed on the device first.
template <class T, class By, class Lt>
array<std::int64_t> gpu_searchsorted(const device& dev, view<const T> s, view<const T> q, bool last,
                                     const search_options<By, Lt>& o, std::string_view function) {
  check_gpu_types<T>(function, dev);
  array<std::int64_t> out(q.shape(), dev.memory());
  if (out.empty()) return out;
  const gpu_dense<T> sd(dev, s), qd(dev, q);
  const gpu_less<By, Lt> less{o.by, o.lt, o.rev};
  if (last)
    gpu::searchsortedlast(dev, sd.data(), s.size(), qd.data(), out.data(), q.size(), less);
  else
    gpu::searchsortedfirst(dev, sd.data(), s.size(), qd.data(), out.data(), q.size(), less);
  return out;
}

template <paths P = paths::both, class T, class By, class Lt>
array<std::int64_t> searchsorted_impl(view<const T> s, view<const T> q, bool last,
                                      const search_options<By, Lt>& o, std::string_view function) {
  const device dev = algorithm_device(function, "sorted", s.memory());
  check_same_device(function, "queries", dev, q.memory());
  if (s.rank() != 1) throw_rank(function, "sorted", "a 1-d array", s.rank());
  if constexpr (P == paths::gpu)
    return gpu_searchsorted(dev, s, q, last, o, function);
  else if constexpr (P == paths::cpu)
    return searchsorted_cpu(dev, s, q, last, o);
  else
    return on_gpu(dev) ? gpu_searchsorted(dev, s, q, last, o, function)
                       : searchsorted_cpu(dev, s, q, last, o);
}
template <class T, class By, class Lt>
array<std::int64_t> searchsorted_dispatch(view<const T> s, view<const T> q, bool last,
                                          const search_options<By, Lt>& o, const char* function) {
  if constexpr (precompiled_sort_v<T, By, Lt>)
    return searchsorted_entry(s, q, last, o);
  else
    return searchsorted_impl(s, q, last, o, function);
}

}  // namespace detail

template <class Sorted, class Queries, class By = identity, class Lt = isless>
array<std::int64_t> searchsortedfirst(const Sorted& sorted, const Queries& queries,
                                      const search_options<By, Lt>& o = {}) {
  using T = detail::element_t<const Sorted>;
  return detail::searchsorted_dispatch(detail::as_const_view(sorted),
                                       view<const T>(detail::as_const_view(queries)), false, o,
                                       "ak::searchsortedfirst");
}

template <class Sorted, class Queries, class By = identity, class Lt = isless>
array<std::int64_t> searchsortedlast(const Sorted& sorted, const Queries& queries,
                                     const search_options<By, Lt>& o = {}) {
  using T = detail::element_t<const Sorted>;
  return detail::searchsorted_dispatch(detail::as_const_view(sorted),
                                       view<const T>(detail::as_const_view(queries)), true, o,
                                       "ak::searchsortedlast");
}

}  // namespace ak
