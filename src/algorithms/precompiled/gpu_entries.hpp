// The GPU halves of the precompiled entry points: the entries of libak (reduce_entries.cpp, ...)
// send data on a GPU-style device to the table of precompiled entries that the device's backend
// exports. Each backend that runs portable kernels (sim with the host compiler, cuda with nvcc)
// compiles the entries' bodies (gpu_entry_bodies.hpp) itself, in its own folder
// (src/backends/<name>/entries), so libak holds no kernel code and editing a kernel rebuilds the
// plugins alone.
#pragma once

#include <cstdint>
#include <tuple>

#include "ak/algorithms/precompiled.hpp"

namespace ak::detail {

// One element type's entries, as a backend plugin exports them.
// The entries of precompiled.hpp that run on GPU-style devices, with the same arguments.
template <class T>
struct gpu_numeric_entries {
  T(*reduce)
  (const device&, const reduce_tuning&, view<const T>, op_kind, const reduce_options<T>&);
  void (*reduce_dims)(const device&, const reduce_tuning&, view<const T>, op_kind, std::uint32_t,
                      std::int64_t, const reduce_options<T>&, array<T>&);
  void (*accumulate)(const device&, const resolved_scan&, view<const T>, view<T>, std::size_t,
                     op_kind, const accumulate_options<T>&, const char*);
  array<std::int64_t> (*histogram_even)(const device&, const select_tuning&, view<const T>,
                                        const even_bin<T>&, std::int64_t);
  array<std::int64_t> (*histogram_edges)(const device&, const select_tuning&, view<const T>,
                                         const edge_bin<T>&, std::int64_t);
};
template <class T>
struct gpu_sort_entries {
  void (*sort)(const device&, const resolved_sort&, view<T>, const sort_segments&,
               const sort_options<>&, const char*);
  array<T> (*sort_copy)(const device&, const resolved_sort&, view<const T>, std::size_t,
                        const sort_segments&, const sort_options<>&, const char*);
  void (*sortperm)(const device&, const resolved_sort&, view<const T>, view<std::int64_t>,
                   const sort_segments&, const sort_options<>&);
  array<std::int64_t> (*searchsorted)(const device&, const search_tuning&, view<const T>,
                                      view<const T>, bool, const search_options<>&);
  std::int64_t (*count)(const device&, const reduce_tuning&, view<const T>);
};

template <class T>
struct gpu_select_entries {
  array<std::int64_t> (*findall)(const device&, const select_tuning&, view<const T>);
  array<T> (*copy_if)(const device&, const select_tuning&, view<const T>, view<const bool>);
  array<T> (*unique)(const device&, const select_tuning&, view<const T>);
  std::int64_t (*unique_count)(const device&, const select_tuning&, view<const T>);
  run_length_result<T> (*run_length)(const device&, const select_tuning&, view<const T>);
  found_element<T> (*findmin)(const device&, const reduce_tuning&, view<const T>);
  found_element<T> (*findmax)(const device&, const reduce_tuning&, view<const T>);
  extrema_element<T> (*extrema)(const device&, const reduce_tuning&, view<const T>);
};

struct gpu_entries_end {};
#define AK_GPU_NUMERIC_ENTRIES_OF(T) gpu_numeric_entries<T>,
#define AK_GPU_SORT_ENTRIES_OF(T) gpu_sort_entries<T>,
#define AK_GPU_SELECT_ENTRIES_OF(T) gpu_select_entries<T>,

// What a backend plugin that compiles the GPU algorithms itself exports as
// AK_GPU_ENTRY_TABLE_SYMBOL. Its types are ak's C++ types, so the plugin must come from the same
// version of ak (checked, with the table's size, before use).
struct gpu_entry_table {
  std::uint32_t size;      // sizeof(gpu_entry_table) where the plugin was built
  const char* ak_version;  // ak::version_string() of the plugin's build
  std::tuple<AK_FOR_EACH_PRECOMPILED_NUMERIC_TYPE(AK_GPU_NUMERIC_ENTRIES_OF) gpu_entries_end>
      numeric;
  std::tuple<AK_FOR_EACH_PRECOMPILED_SORT_TYPE(AK_GPU_SORT_ENTRIES_OF) gpu_entries_end> sort;
  std::tuple<AK_FOR_EACH_PRECOMPILED_SORT_TYPE(AK_GPU_SELECT_ENTRIES_OF) gpu_entries_end> select;

  template <class T>
  const gpu_numeric_entries<T>& numeric_of() const {
    return std::get<gpu_numeric_entries<T>>(numeric);
  }
  template <class T>
  const gpu_sort_entries<T>& sort_of() const {
    return std::get<gpu_sort_entries<T>>(sort);
  }
  template <class T>
  const gpu_select_entries<T>& select_of() const {
    return std::get<gpu_select_entries<T>>(select);
  }
};
#define AK_GPU_ENTRY_TABLE_SYMBOL "ak_gpu_entry_table_v1"

// The table exported by the backend of `dev` (a GPU-style device), or of the device that owns
// `memory`. A backend that exports none, or a table from another version of ak, is an
// ak::backend_error.
const gpu_entry_table& gpu_entries_for(const device& dev);
// Whether the backend of `dev` exports a table (of this version of ak: a table from another
// version is an ak::backend_error here too).
bool has_gpu_entries(const device& dev);
const gpu_entry_table& gpu_entries_for(const memory_space& memory);

}  // namespace ak::detail
