// Precompiled sort, sortperm and searchsorted for the standard dtypes in ak's default order (cpu;
// data on a GPU-style device goes to gpu_sort_entries.cpp).
#include "ak/algorithms/search.hpp"
#include "ak/algorithms/sort.hpp"
#include "gpu_entries.hpp"

namespace ak::detail {

#define AK_DEFINE_SORT_ENTRIES(T)                                                                  \
  void sort_entry(view<T> v, const sort_options<>& o, const char* function) {                      \
    if (on_gpu_memory(v.memory())) return gpu_sort_entry(v, o, function);                          \
    sort_impl<paths::cpu>(v, o, function);                                                         \
  }                                                                                                \
  array<std::int64_t> sortperm_entry(view<const T> v, const sort_options<>& o) {                   \
    if (on_gpu_memory(v.memory())) return gpu_sortperm_entry(v, o);                                \
    return sortperm_impl<paths::cpu>(v, o, "ak::sortperm");                                        \
  }                                                                                                \
  array<std::int64_t> searchsorted_entry(view<const T> sorted, view<const T> queries, bool last,   \
                                         const search_options<>& o) {                              \
    if (on_gpu_memory(sorted.memory())) return gpu_searchsorted_entry(sorted, queries, last, o);   \
    return searchsorted_impl<paths::cpu>(sorted, queries, last, o,                                 \
                                         last ? "ak::searchsortedlast" : "ak::searchsortedfirst"); \
  }
AK_FOR_EACH_SORT_TYPE(AK_DEFINE_SORT_ENTRIES)
#undef AK_DEFINE_SORT_ENTRIES

}  // namespace ak::detail
