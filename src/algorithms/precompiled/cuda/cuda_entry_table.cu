// The table of the cuda plugin's precompiled entries, exported as AK_GPU_ENTRY_TABLE_SYMBOL
// (gpu_entries.hpp): libak's entry points call through it for data on cuda devices.
#include "cuda_entries.hpp"

namespace ak {
#define AK_USE(T)                    \
  AK_CUDA_REDUCE_INSTANCE(extern, T) \
  AK_CUDA_REDUCE_DIMS_INSTANCE(extern, T) AK_CUDA_ACCUMULATE_INSTANCE(extern, T)
AK_FOR_EACH_NUMERIC_TYPE(AK_USE)
#undef AK_USE
#define AK_USE(T) AK_CUDA_SORT_INSTANCES(extern, T)
AK_FOR_EACH_SORT_TYPE(AK_USE)
#undef AK_USE
}  // namespace ak

namespace {

using namespace ak::detail;

#define AK_NUMERIC_ROW(T) \
  gpu_numeric_entries<T>{&gpu_reduce_body<T>, &gpu_reduce_dims_body<T>, &gpu_accumulate_body<T>},
#define AK_SORT_ROW(T) \
  gpu_sort_entries<T>{&gpu_sort_body<T>, &gpu_sortperm_body<T>, &gpu_searchsorted_body<T>},

}  // namespace

// AK_BUILD_VERSION: the project's version, set by the build (CMake's PROJECT_VERSION).
extern "C" __attribute__((visibility("default"))) const gpu_entry_table ak_gpu_entry_table_v1 = {
    sizeof(gpu_entry_table),
    AK_BUILD_VERSION,
    {AK_FOR_EACH_NUMERIC_TYPE(AK_NUMERIC_ROW) gpu_entries_end{}},
    {AK_FOR_EACH_SORT_TYPE(AK_SORT_ROW) gpu_entries_end{}}};
