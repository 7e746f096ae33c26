// Precompiled sort, sortperm and searchsorted on GPU-style devices (see gpu_entries.hpp).
#include "ak/algorithms/search.hpp"
#include "ak/algorithms/sort.hpp"
#include "gpu_entries.hpp"

namespace ak::detail {

#define AK_DEFINE_GPU_SORT_ENTRIES(T)                                                          \
  void gpu_sort_entry(view<T> v, const sort_options<>& o, const char* function) {              \
    sort_impl<paths::gpu>(v, o, function);                                                     \
  }                                                                                            \
  array<std::int64_t> gpu_sortperm_entry(view<const T> v, const sort_options<>& o) {           \
    return sortperm_impl<paths::gpu>(v, o, "ak::sortperm");                                    \
  }                                                                                            \
  array<std::int64_t> gpu_searchsorted_entry(view<const T> sorted, view<const T> queries,      \
                                             bool last, const search_options<>& o) {           \
    return searchsorted_impl<paths::gpu>(sorted, queries, last, o,                             \
                                         last ? "ak::searchsortedlast" : "ak::searchsortedfirst"); \
  }
AK_FOR_EACH_SORT_TYPE(AK_DEFINE_GPU_SORT_ENTRIES)
#undef AK_DEFINE_GPU_SORT_ENTRIES

}  // namespace ak::detail
