// The bodies of the precompiled entry points on GPU-style devices, as templates over the element
// type: the families' GPU halves, with the standard operator that an op_kind names. Each GPU
// backend plugin instantiates them with its own compiler (gpu_entry_instances.hpp) and exports
// them in a gpu_entry_table (gpu_entries.hpp).
#pragma once

#include "ak/algorithms/accumulate.hpp"
#include "ak/algorithms/histogram.hpp"
#include "ak/algorithms/reduce.hpp"
#include "ak/algorithms/search.hpp"
#include "ak/algorithms/select.hpp"
#include "ak/algorithms/sort.hpp"
#include "dispatch_op.hpp"

namespace ak::detail {

template <class T>
T gpu_reduce_body(const device& dev, const reduce_tuning& t, view<const T> src, op_kind op,
                  const reduce_options<T>& o) {
  return with_standard_op<T, true>(op, "ak::reduce", [&](auto f) -> T {
    return gpu_mapreduce_all(dev, t, src, identity{}, f, o, "ak::reduce");
  });
}

template <class T>
void gpu_reduce_dims_body(const device& dev, const reduce_tuning& t, view<const T> src, op_kind op,
                          std::uint32_t mask, std::int64_t per_output, const reduce_options<T>& o,
                          array<T>& out) {
  with_standard_op<T, true>(op, "ak::reduce", [&](auto f) {
    gpu_mapreduce_along(dev, t, src, identity{}, f, mask, per_output, o, out, "ak::reduce");
  });
}

template <class T>
void gpu_accumulate_body(const device& dev, const resolved_scan& r, view<const T> src, view<T> dst,
                         std::size_t dim, op_kind op, const accumulate_options<T>& o,
                         const char* function) {
  with_standard_op<T, false>(
      op, function, [&](auto f) { gpu_accumulate(dev, r, src, dst, dim, f, o, function); });
}

template <class T>
std::int64_t gpu_count_body(const device& dev, const reduce_tuning& t, view<const T> v) {
  return gpu_count(dev, t, v, truthy{});
}

template <class T>
void gpu_sort_body(const device& dev, const resolved_sort& r, view<T> v, const sort_segments& seg,
                   const sort_options<>& o, const char* function) {
  gpu_sort(dev, r, v, seg, o, function);
}

template <class T>
array<T> gpu_sort_copy_body(const device& dev, const resolved_sort& r, view<const T> v,
                            std::size_t dim, const sort_segments& seg, const sort_options<>& o,
                            const char* function) {
  return gpu_sort_copy(dev, r, v, dim, seg, o, function);
}

template <class T>
void gpu_sortperm_body(const device& dev, const resolved_sort& r, view<const T> v,
                       view<std::int64_t> perm, const sort_segments& seg, const sort_options<>& o) {
  gpu_sortperm(dev, r, v, perm, seg, o, "ak::sortperm");
}

template <class T>
array<std::int64_t> gpu_searchsorted_body(const device& dev, const search_tuning& t,
                                          view<const T> sorted, view<const T> queries, bool last,
                                          const search_options<>& o) {
  return gpu_searchsorted(dev, t, sorted, queries, last, o);
}

template <class T>
array<std::int64_t> gpu_findall_body(const device& dev, const select_tuning& t, view<const T> v) {
  return findall_body(gpu_selection(dev, t), v, truthy{});
}

template <class T>
array<T> gpu_copy_if_body(const device& dev, const select_tuning& t, view<const T> v,
                          view<const bool> flags) {
  return copy_if_body(gpu_selection(dev, t), v, flags);
}

template <class T>
array<T> gpu_unique_body(const device& dev, const select_tuning& t, view<const T> v) {
  return unique_body(gpu_selection(dev, t), v, isequal{});
}

template <class T>
std::int64_t gpu_unique_count_body(const device& dev, const select_tuning& t, view<const T> v) {
  return unique_count_body(gpu_selection(dev, t), v, isequal{});
}

template <class T>
run_length_result<T> gpu_run_length_body(const device& dev, const select_tuning& t,
                                         view<const T> v) {
  return run_length_body(gpu_selection(dev, t), v, isequal{});
}

template <class T, bool Max>
found_element<T> gpu_find_body(const device& dev, const reduce_tuning& t, view<const T> v) {
  return gpu_reduce_indexed<found_element<T>, load_found>(dev, t, v, keep_found<Max>{});
}

template <class T>
extrema_element<T> gpu_extrema_body(const device& dev, const reduce_tuning& t, view<const T> v) {
  return gpu_reduce_indexed<extrema_element<T>, load_extrema>(dev, t, v, keep_extrema{});
}

template <class T, class Bin>
array<std::int64_t> gpu_histogram_body(const device& dev, const select_tuning& t, view<const T> v,
                                       const Bin& bin, std::int64_t bins) {
  return gpu_histogram(dev, t, v, bin, bins);
}

}  // namespace ak::detail
