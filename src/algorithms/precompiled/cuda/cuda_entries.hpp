// The precompiled entry points of the cuda plugin: the bodies of gpu_entry_bodies.hpp, compiled
// by nvcc (so that ak::gpu::launch reaches CUDA) in one translation unit per kind of entry, so
// that the build spreads over cores, and gathered in the table that the plugin exports
// (cuda_entry_table.cu). Each macro below names one instantiation; PREFIX is empty to make it,
// `extern` to use one made elsewhere.
#pragma once

#include "../gpu_entries.hpp"
#include "../gpu_entry_bodies.hpp"

#define AK_CUDA_REDUCE_INSTANCE(PREFIX, T)                                 \
  PREFIX template T ak::detail::gpu_reduce_body<T>(view<const T>, op_kind, \
                                                   const reduce_options<T>&);
#define AK_CUDA_REDUCE_DIMS_INSTANCE(PREFIX, T)                     \
  PREFIX template ak::array<T> ak::detail::gpu_reduce_dims_body<T>( \
      view<const T>, op_kind, const dims&, const reduce_options<T>&);
#define AK_CUDA_ACCUMULATE_INSTANCE(PREFIX, T)             \
  PREFIX template void ak::detail::gpu_accumulate_body<T>( \
      view<const T>, view<T>, op_kind, const accumulate_options<T>&, const char*);
#define AK_CUDA_SORT_INSTANCES(PREFIX, T)                                                          \
  PREFIX template void ak::detail::gpu_sort_body<T>(view<T>, const sort_options<>&, const char*);  \
  PREFIX template ak::array<std::int64_t> ak::detail::gpu_sortperm_body<T>(view<const T>,          \
                                                                           const sort_options<>&); \
  PREFIX template ak::array<std::int64_t> ak::detail::gpu_searchsorted_body<T>(                    \
      view<const T>, view<const T>, bool, const search_options<>&);
