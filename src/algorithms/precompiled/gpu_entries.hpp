// The GPU halves of the precompiled entry points: the cpu entries (reduce_entries.cpp, ...) route
// data on a GPU-style device here, to instantiations compiled in translation units of their own
// (gpu_*_entries.cpp), so that libak's build spreads over cores and the cpu entries stay as they
// were.
#pragma once

#include "ak/algorithms/precompiled.hpp"

namespace ak::detail {

#define AK_DECLARE_GPU_NUMERIC_ENTRIES(T)                                                       \
  T gpu_reduce_entry(view<const T> src, op_kind op, const reduce_options<T>& o);                \
  array<T> gpu_reduce_dims_entry(view<const T> src, op_kind op, const dims& along,             \
                                 const reduce_options<T>& o);                                  \
  void gpu_accumulate_entry(view<const T> src, view<T> dst, op_kind op,                         \
                            const accumulate_options<T>& o, const char* function);
AK_FOR_EACH_NUMERIC_TYPE(AK_DECLARE_GPU_NUMERIC_ENTRIES)
#undef AK_DECLARE_GPU_NUMERIC_ENTRIES

#define AK_DECLARE_GPU_SORT_ENTRIES(T)                                                          \
  void gpu_sort_entry(view<T> v, const sort_options<>& o, const char* function);                \
  array<std::int64_t> gpu_sortperm_entry(view<const T> v, const sort_options<>& o);             \
  array<std::int64_t> gpu_searchsorted_entry(view<const T> sorted, view<const T> queries,       \
                                             bool last, const search_options<>& o);
AK_FOR_EACH_SORT_TYPE(AK_DECLARE_GPU_SORT_ENTRIES)
#undef AK_DECLARE_GPU_SORT_ENTRIES

}  // namespace ak::detail
