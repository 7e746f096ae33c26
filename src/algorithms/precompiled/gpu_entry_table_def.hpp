// The table of a GPU backend plugin's precompiled entries, exported as AK_GPU_ENTRY_TABLE_SYMBOL
// (gpu_entries.hpp): libak's entry points call through it for data on that plugin's devices.
// Included by one translation unit of each plugin (<plugin>/entries/*_entry_table.*), which the
// build gives AK_BUILD_VERSION, the project's version (CMake's PROJECT_VERSION); the
// instantiations it points to are made by the plugin's other entries/*_entries.* files.
#pragma once

#include "gpu_entry_instances.hpp"

namespace ak {
#define AK_USE(T)                        \
  AK_GPU_REDUCE_INSTANCE(extern, T)      \
  AK_GPU_REDUCE_DIMS_INSTANCE(extern, T) \
  AK_GPU_ACCUMULATE_INSTANCE(extern, T) AK_GPU_HISTOGRAM_INSTANCES(extern, T)
AK_FOR_EACH_PRECOMPILED_NUMERIC_TYPE(AK_USE)
#undef AK_USE
#define AK_USE(T) AK_GPU_SORT_INSTANCES(extern, T) AK_GPU_SELECT_INSTANCES(extern, T)
AK_FOR_EACH_PRECOMPILED_SORT_TYPE(AK_USE)
#undef AK_USE
}  // namespace ak

#define AK_NUMERIC_ROW(T)                                                                         \
  ak::detail::gpu_numeric_entries<T>{&ak::detail::gpu_reduce_body<T>,                             \
                                     &ak::detail::gpu_reduce_dims_body<T>,                        \
                                     &ak::detail::gpu_accumulate_body<T>,                         \
                                     &ak::detail::gpu_histogram_body<T, ak::detail::even_bin<T>>, \
                                     &ak::detail::gpu_histogram_body<T, ak::detail::edge_bin<T>>},
#define AK_SORT_ROW(T)                                                          \
  ak::detail::gpu_sort_entries<T>{                                              \
      &ak::detail::gpu_sort_body<T>, &ak::detail::gpu_sort_copy_body<T>,        \
      &ak::detail::gpu_sortperm_body<T>, &ak::detail::gpu_searchsorted_body<T>, \
      &ak::detail::gpu_count_body<T>},
#define AK_SELECT_ROW(T)                                                          \
  ak::detail::gpu_select_entries<T>{                                              \
      &ak::detail::gpu_findall_body<T>,    &ak::detail::gpu_copy_if_body<T>,      \
      &ak::detail::gpu_unique_body<T>,     &ak::detail::gpu_unique_count_body<T>, \
      &ak::detail::gpu_run_length_body<T>, &ak::detail::gpu_find_body<T, false>,  \
      &ak::detail::gpu_find_body<T, true>, &ak::detail::gpu_extrema_body<T>},

extern "C" __attribute__((visibility("default")))
const ak::detail::gpu_entry_table ak_gpu_entry_table_v1 = {
    sizeof(ak::detail::gpu_entry_table),
    AK_BUILD_VERSION,
    {AK_FOR_EACH_PRECOMPILED_NUMERIC_TYPE(AK_NUMERIC_ROW) ak::detail::gpu_entries_end{}},
    {AK_FOR_EACH_PRECOMPILED_SORT_TYPE(AK_SORT_ROW) ak::detail::gpu_entries_end{}},
    {AK_FOR_EACH_PRECOMPILED_SORT_TYPE(AK_SELECT_ROW) ak::detail::gpu_entries_end{}}};

#undef AK_NUMERIC_ROW
#undef AK_SORT_ROW
#undef AK_SELECT_ROW
