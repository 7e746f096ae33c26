// The precompiled entry points of a GPU backend plugin (sim, cuda): the bodies of
// gpu_entry_bodies.hpp, instantiated by the plugin's own compiler (the host compiler for sim,
// nvcc for cuda, so that ak::gpu::launch reaches that backend's kernels). Each plugin makes them
// in one translation unit per kind of entry (<plugin>/entries/*_entries.*), so that its build
// spreads over cores, and exports them from one more (gpu_entry_table_def.hpp). Each macro below
// names one instantiation; PREFIX is empty to make it, `extern` to use one made elsewhere.
#pragma once

#include "gpu_entries.hpp"
#include "gpu_entry_bodies.hpp"

#define AK_GPU_REDUCE_INSTANCE(PREFIX, T)           \
  PREFIX template T ak::detail::gpu_reduce_body<T>( \
      const device&, const reduce_tuning&, view<const T>, op_kind, const reduce_options<T>&);
#define AK_GPU_REDUCE_DIMS_INSTANCE(PREFIX, T)                                                  \
  PREFIX template void ak::detail::gpu_reduce_dims_body<T>(                                     \
      const device&, const reduce_tuning&, view<const T>, op_kind, std::uint32_t, std::int64_t, \
      const reduce_options<T>&, array<T>&);
#define AK_GPU_ACCUMULATE_INSTANCE(PREFIX, T)                                            \
  PREFIX template void ak::detail::gpu_accumulate_body<T>(                               \
      const device&, const resolved_scan&, view<const T>, view<T>, std::size_t, op_kind, \
      const accumulate_options<T>&, const char*);
#define AK_GPU_SORT_INSTANCES(PREFIX, T)                                                          \
  PREFIX template void ak::detail::gpu_sort_body<T>(const device&, const resolved_sort&, view<T>, \
                                                    const sort_segments&, const sort_options<>&,  \
                                                    const char*);                                 \
  PREFIX template ak::array<T> ak::detail::gpu_sort_copy_body<T>(                                 \
      const device&, const resolved_sort&, view<const T>, std::size_t, const sort_segments&,      \
      const sort_options<>&, const char*);                                                        \
  PREFIX template void ak::detail::gpu_sortperm_body<T>(                                          \
      const device&, const resolved_sort&, view<const T>, view<std::int64_t>,                     \
      const sort_segments&, const sort_options<>&);                                               \
  PREFIX template ak::array<std::int64_t> ak::detail::gpu_searchsorted_body<T>(                   \
      const device&, const search_tuning&, view<const T>, view<const T>, bool,                    \
      const search_options<>&);                                                                   \
  PREFIX template std::int64_t ak::detail::gpu_count_body<T>(const device&, const reduce_tuning&, \
                                                             view<const T>);
#define AK_GPU_SELECT_INSTANCES(PREFIX, T)                                                         \
  PREFIX template ak::array<std::int64_t> ak::detail::gpu_findall_body<T>(                         \
      const device&, const select_tuning&, view<const T>);                                         \
  PREFIX template ak::array<T> ak::detail::gpu_copy_if_body<T>(                                    \
      const device&, const select_tuning&, view<const T>, view<const bool>);                       \
  PREFIX template ak::array<T> ak::detail::gpu_unique_body<T>(const device&, const select_tuning&, \
                                                              view<const T>);                      \
  PREFIX template std::int64_t ak::detail::gpu_unique_count_body<T>(                               \
      const device&, const select_tuning&, view<const T>);                                         \
  PREFIX template ak::run_length_result<T> ak::detail::gpu_run_length_body<T>(                     \
      const device&, const select_tuning&, view<const T>);                                         \
  PREFIX template ak::detail::found_element<T> ak::detail::gpu_find_body<T, false>(                \
      const device&, const reduce_tuning&, view<const T>);                                         \
  PREFIX template ak::detail::found_element<T> ak::detail::gpu_find_body<T, true>(                 \
      const device&, const reduce_tuning&, view<const T>);                                         \
  PREFIX template ak::detail::extrema_element<T> ak::detail::gpu_extrema_body<T>(                  \
      const device&, const reduce_tuning&, view<const T>);
#define AK_GPU_HISTOGRAM_INSTANCES(PREFIX, T)                                                     \
  PREFIX template ak::array<std::int64_t> ak::detail::gpu_histogram_body<T, detail::even_bin<T>>( \
      const device&, const select_tuning&, view<const T>, const detail::even_bin<T>&,             \
      std::int64_t);                                                                              \
  PREFIX template ak::array<std::int64_t> ak::detail::gpu_histogram_body<T, detail::edge_bin<T>>( \
      const device&, const select_tuning&, view<const T>, const detail::edge_bin<T>&,             \
      std::int64_t);
// What a plugin's <plugin>_select_entries file makes.
#define AK_MAKE_GPU_SELECT_INSTANCES(T) AK_GPU_SELECT_INSTANCES(, T)
#define AK_MAKE_GPU_HISTOGRAM_INSTANCES(T) AK_GPU_HISTOGRAM_INSTANCES(, T)
