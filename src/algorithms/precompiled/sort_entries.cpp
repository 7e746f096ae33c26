// Precompiled sort, sortperm and searchsorted for the standard dtypes in ak's default order.
#include "ak/algorithms/search.hpp"
#include "ak/algorithms/sort.hpp"

namespace ak::detail {

#define AK_DEFINE_SORT_ENTRIES(T)                                                              \
  void sort_entry(view<T> v, const sort_options<>& o, const char* function) {                  \
    sort_impl(v, o, function);                                                                 \
  }                                                                                            \
  array<std::int64_t> sortperm_entry(view<const T> v, const sort_options<>& o) {               \
    return sortperm_impl(v, o, "ak::sortperm");                                                \
  }                                                                                            \
  array<std::int64_t> searchsorted_entry(view<const T> sorted, view<const T> queries,          \
                                         bool last, const search_options<>& o) {               \
    return searchsorted_impl(sorted, queries, last, o,                                         \
                             last ? "ak::searchsortedlast" : "ak::searchsortedfirst");         \
  }
AK_FOR_EACH_SORT_TYPE(AK_DEFINE_SORT_ENTRIES)
#undef AK_DEFINE_SORT_ENTRIES

}  // namespace ak::detail
