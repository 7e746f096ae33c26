// Precompiled sort, sortperm and searchsorted on GPU-style devices (see gpu_entries.hpp).
#include "gpu_entries.hpp"
#include "gpu_entry_bodies.hpp"

namespace ak::detail {

#define AK_DEFINE_GPU_SORT_ENTRIES(T)                                                            \
  void gpu_sort_entry(view<T> v, const sort_options<>& o, const char* function) {                \
    if (const auto* t = exported_gpu_entries(v.memory()))                                        \
      return t->sort_of<T>().sort(v, o, function);                                               \
    gpu_sort_body<T>(v, o, function);                                                            \
  }                                                                                              \
  array<std::int64_t> gpu_sortperm_entry(view<const T> v, const sort_options<>& o) {             \
    if (const auto* t = exported_gpu_entries(v.memory())) return t->sort_of<T>().sortperm(v, o); \
    return gpu_sortperm_body<T>(v, o);                                                           \
  }                                                                                              \
  array<std::int64_t> gpu_searchsorted_entry(view<const T> sorted, view<const T> queries,        \
                                             bool last, const search_options<>& o) {             \
    if (const auto* t = exported_gpu_entries(sorted.memory()))                                   \
      return t->sort_of<T>().searchsorted(sorted, queries, last, o);                             \
    return gpu_searchsorted_body<T>(sorted, queries, last, o);                                   \
  }
AK_FOR_EACH_SORT_TYPE(AK_DEFINE_GPU_SORT_ENTRIES)
#undef AK_DEFINE_GPU_SORT_ENTRIES

}  // namespace ak::detail
