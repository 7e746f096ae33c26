// Precompiled selection (findall of truthy elements; copy_if with bool flags; unique,
// unique_count and run_length_encode with isequal), findmin, findmax and extrema of whole arrays
// for every dtype, and histograms for every numeric dtype (cpu; data on a GPU-style device goes to
// its backend's entry table, gpu_entries.hpp).
#include "ak/algorithms/histogram.hpp"
#include "ak/algorithms/reduce.hpp"
#include "ak/algorithms/select.hpp"
#include "gpu_entries.hpp"

namespace ak::detail {

#define AK_DEFINE_SELECT_ENTRIES(T)                                                               \
  array<std::int64_t> findall_entry(const device& dev, const select_tuning& t, view<const T> v) { \
    if (on_gpu(dev)) return gpu_entries_for(dev).select_of<T>().findall(dev, t, v);               \
    return findall_body(cpu_selection(t), v, truthy{});                                           \
  }                                                                                               \
  array<T> copy_if_entry(const device& dev, const select_tuning& t, view<const T> v,              \
                         view<const bool> flags) {                                                \
    if (on_gpu(dev)) return gpu_entries_for(dev).select_of<T>().copy_if(dev, t, v, flags);        \
    return copy_if_body(cpu_selection(t), v, flags);                                              \
  }                                                                                               \
  array<T> unique_entry(const device& dev, const select_tuning& t, view<const T> v) {             \
    if (on_gpu(dev)) return gpu_entries_for(dev).select_of<T>().unique(dev, t, v);                \
    return unique_body(cpu_selection(t), v, isequal{});                                           \
  }                                                                                               \
  std::int64_t unique_count_entry(const device& dev, const select_tuning& t, view<const T> v) {   \
    if (on_gpu(dev)) return gpu_entries_for(dev).select_of<T>().unique_count(dev, t, v);          \
    return unique_count_body(cpu_selection(t), v, isequal{});                                     \
  }                                                                                               \
  run_length_result<T> run_length_entry(const device& dev, const select_tuning& t,                \
                                        view<const T> v) {                                        \
    if (on_gpu(dev)) return gpu_entries_for(dev).select_of<T>().run_length(dev, t, v);            \
    return run_length_body(cpu_selection(t), v, isequal{});                                       \
  }                                                                                               \
  found_element<T> reduce_indexed_entry(const device& dev, const reduce_tuning& t,                \
                                        view<const T> v, keep_found<false> op) {                  \
    if (on_gpu(dev)) return gpu_entries_for(dev).select_of<T>().findmin(dev, t, v);               \
    return cpu_reduce_indexed<found_element<T>, load_found>(t, v, op);                            \
  }                                                                                               \
  found_element<T> reduce_indexed_entry(const device& dev, const reduce_tuning& t,                \
                                        view<const T> v, keep_found<true> op) {                   \
    if (on_gpu(dev)) return gpu_entries_for(dev).select_of<T>().findmax(dev, t, v);               \
    return cpu_reduce_indexed<found_element<T>, load_found>(t, v, op);                            \
  }                                                                                               \
  extrema_element<T> reduce_indexed_entry(const device& dev, const reduce_tuning& t,              \
                                          view<const T> v, keep_extrema op) {                     \
    if (on_gpu(dev)) return gpu_entries_for(dev).select_of<T>().extrema(dev, t, v);               \
    return cpu_reduce_indexed<extrema_element<T>, load_extrema>(t, v, op);                        \
  }
AK_FOR_EACH_PRECOMPILED_SORT_TYPE(AK_DEFINE_SELECT_ENTRIES)
#undef AK_DEFINE_SELECT_ENTRIES

#define AK_DEFINE_HISTOGRAM_ENTRIES(T)                                                            \
  array<std::int64_t> histogram_entry(const device& dev, const select_tuning& t, view<const T> v, \
                                      const even_bin<T>& bin, std::int64_t bins) {                \
    if (on_gpu(dev))                                                                              \
      return gpu_entries_for(dev).numeric_of<T>().histogram_even(dev, t, v, bin, bins);           \
    return cpu_histogram(t, v, bin, bins);                                                        \
  }                                                                                               \
  array<std::int64_t> histogram_entry(const device& dev, const select_tuning& t, view<const T> v, \
                                      const edge_bin<T>& bin, std::int64_t bins) {                \
    if (on_gpu(dev))                                                                              \
      return gpu_entries_for(dev).numeric_of<T>().histogram_edges(dev, t, v, bin, bins);          \
    return cpu_histogram(t, v, bin, bins);                                                        \
  }
AK_FOR_EACH_PRECOMPILED_NUMERIC_TYPE(AK_DEFINE_HISTOGRAM_ENTRIES)
#undef AK_DEFINE_HISTOGRAM_ENTRIES

}  // namespace ak::detail
