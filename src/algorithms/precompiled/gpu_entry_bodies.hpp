// The bodies of the precompiled entry points on GPU-style devices, as templates over the element
// type. libak instantiates them for sim (gpu_*_entries.cpp, compiled by the host compiler); the
// cuda plugin instantiates the very same bodies with nvcc (cuda/, where ak::gpu::launch reaches
// CUDA) and exports them in a gpu_entry_table (gpu_entries.hpp).
#pragma once

#include "ak/algorithms/accumulate.hpp"
#include "ak/algorithms/reduce.hpp"
#include "ak/algorithms/search.hpp"
#include "ak/algorithms/sort.hpp"
#include "dispatch_op.hpp"

namespace ak::detail {

template <class T>
T gpu_reduce_body(view<const T> src, op_kind op, const reduce_options<T>& o) {
  const device dev = algorithm_device("ak::reduce", "src", src.memory());
  return with_standard_op<T, true>(op, "ak::reduce", [&](auto f) -> T {
    return gpu_mapreduce_all(dev, src, identity{}, f, o, "ak::reduce");
  });
}

template <class T>
array<T> gpu_reduce_dims_body(view<const T> src, op_kind op, const dims& along,
                              const reduce_options<T>& o) {
  return with_standard_op<T, true>(op, "ak::reduce", [&](auto f) -> array<T> {
    return mapreduce_along<paths::gpu>(src, identity{}, f, along, o, "ak::reduce");
  });
}

template <class T>
void gpu_accumulate_body(view<const T> src, view<T> dst, op_kind op, const accumulate_options<T>& o,
                         const char* function) {
  with_standard_op<T, false>(
      op, function, [&](auto f) { accumulate_impl<paths::gpu>(src, dst, f, o, function); });
}

template <class T>
void gpu_sort_body(view<T> v, const sort_options<>& o, const char* function) {
  sort_impl<paths::gpu>(v, o, function);
}

template <class T>
array<std::int64_t> gpu_sortperm_body(view<const T> v, const sort_options<>& o) {
  return sortperm_impl<paths::gpu>(v, o, "ak::sortperm");
}

template <class T>
array<std::int64_t> gpu_searchsorted_body(view<const T> sorted, view<const T> queries, bool last,
                                          const search_options<>& o) {
  return searchsorted_impl<paths::gpu>(sorted, queries, last, o,
                                       last ? "ak::searchsortedlast" : "ak::searchsortedfirst");
}

}  // namespace ak::detail
