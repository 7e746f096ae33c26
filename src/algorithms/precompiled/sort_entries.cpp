// Precompiled sort, sortperm and searchsorted for the standard dtypes in ak's default order (cpu;
// data on a GPU-style device goes to its backend's entry table, gpu_entries.hpp).
#include "ak/algorithms/search.hpp"
#include "ak/algorithms/sort.hpp"
#include "gpu_entries.hpp"

namespace ak::detail {

#define AK_DEFINE_SORT_ENTRIES(T)                                                                 \
  void sort_entry(const device& dev, const resolved_sort& r, view<T> v, const sort_segments& seg, \
                  const sort_options<>& o, const char* function) {                                \
    if (on_gpu(dev)) return gpu_entries_for(dev).sort_of<T>().sort(dev, r, v, seg, o, function);  \
    cpu_sort(dev, r, v, seg, o, function);                                                        \
  }                                                                                               \
  array<T> sort_copy_entry(const device& dev, const resolved_sort& r, view<const T> v,            \
                           std::size_t dim, const sort_segments& seg, const sort_options<>& o,    \
                           const char* function) {                                                \
    if (on_gpu(dev))                                                                              \
      return gpu_entries_for(dev).sort_of<T>().sort_copy(dev, r, v, dim, seg, o, function);       \
    return cpu_sort_copy(dev, r, v, dim, seg, o, function);                                       \
  }                                                                                               \
  void sortperm_entry(const device& dev, const resolved_sort& r, view<const T> v,                 \
                      view<std::int64_t> perm, const sort_segments& seg,                          \
                      const sort_options<>& o) {                                                  \
    if (on_gpu(dev)) return gpu_entries_for(dev).sort_of<T>().sortperm(dev, r, v, perm, seg, o);  \
    cpu_sortperm(dev, r, v, perm, seg, o, "ak::sortperm");                                        \
  }                                                                                               \
  array<std::int64_t> searchsorted_entry(const device& dev, const search_tuning& t,               \
                                         view<const T> sorted, view<const T> queries, bool last,  \
                                         const search_options<>& o) {                             \
    if (on_gpu(dev))                                                                              \
      return gpu_entries_for(dev).sort_of<T>().searchsorted(dev, t, sorted, queries, last, o);    \
    return cpu_searchsorted(t, sorted, queries, last, o);                                         \
  }
AK_FOR_EACH_PRECOMPILED_SORT_TYPE(AK_DEFINE_SORT_ENTRIES)
#undef AK_DEFINE_SORT_ENTRIES

}  // namespace ak::detail
