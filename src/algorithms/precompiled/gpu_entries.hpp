// The GPU halves of the precompiled entry points: the cpu entries (reduce_entries.cpp, ...) route
// data on a GPU-style device to the gpu_*_entry functions below. Each runs the entry's body
// (gpu_entry_bodies.hpp) from the backend that compiled its kernels: a backend plugin that
// compiles them itself (cuda, with nvcc) exports them in a gpu_entry_table, and libak's own
// instantiations (gpu_*_entries.cpp, in translation units of their own so that libak's build
// spreads over cores) serve the backends that run kernels from any translation unit (sim).
#pragma once

#include <cstdint>
#include <tuple>

#include "ak/algorithms/precompiled.hpp"

namespace ak::detail {

#define AK_DECLARE_GPU_NUMERIC_ENTRIES(T)                                          \
  T gpu_reduce_entry(view<const T> src, op_kind op, const reduce_options<T>& o);   \
  array<T> gpu_reduce_dims_entry(view<const T> src, op_kind op, const dims& along, \
                                 const reduce_options<T>& o);                      \
  void gpu_accumulate_entry(view<const T> src, view<T> dst, op_kind op,            \
                            const accumulate_options<T>& o, const char* function);
AK_FOR_EACH_NUMERIC_TYPE(AK_DECLARE_GPU_NUMERIC_ENTRIES)
#undef AK_DECLARE_GPU_NUMERIC_ENTRIES

#define AK_DECLARE_GPU_SORT_ENTRIES(T)                                                    \
  void gpu_sort_entry(view<T> v, const sort_options<>& o, const char* function);          \
  array<std::int64_t> gpu_sortperm_entry(view<const T> v, const sort_options<>& o);       \
  array<std::int64_t> gpu_searchsorted_entry(view<const T> sorted, view<const T> queries, \
                                             bool last, const search_options<>& o);
AK_FOR_EACH_SORT_TYPE(AK_DECLARE_GPU_SORT_ENTRIES)
#undef AK_DECLARE_GPU_SORT_ENTRIES

// One element type's entries, as a backend plugin exports them.
template <class T>
struct gpu_numeric_entries {
  T (*reduce)(view<const T>, op_kind, const reduce_options<T>&);
  array<T> (*reduce_dims)(view<const T>, op_kind, const dims&, const reduce_options<T>&);
  void (*accumulate)(view<const T>, view<T>, op_kind, const accumulate_options<T>&, const char*);
};
template <class T>
struct gpu_sort_entries {
  void (*sort)(view<T>, const sort_options<>&, const char*);
  array<std::int64_t> (*sortperm)(view<const T>, const sort_options<>&);
  array<std::int64_t> (*searchsorted)(view<const T>, view<const T>, bool, const search_options<>&);
};

struct gpu_entries_end {};
#define AK_GPU_NUMERIC_ENTRIES_OF(T) gpu_numeric_entries<T>,
#define AK_GPU_SORT_ENTRIES_OF(T) gpu_sort_entries<T>,

// What a backend plugin that compiles the GPU algorithms itself exports as
// AK_GPU_ENTRY_TABLE_SYMBOL. Its types are ak's C++ types, so the plugin must come from the same
// version of ak (checked, with the table's size, before use).
struct gpu_entry_table {
  std::uint32_t size;      // sizeof(gpu_entry_table) where the plugin was built
  const char* ak_version;  // ak::version_string() of the plugin's build
  std::tuple<AK_FOR_EACH_NUMERIC_TYPE(AK_GPU_NUMERIC_ENTRIES_OF) gpu_entries_end> numeric;
  std::tuple<AK_FOR_EACH_SORT_TYPE(AK_GPU_SORT_ENTRIES_OF) gpu_entries_end> sort;

  template <class T>
  const gpu_numeric_entries<T>& numeric_of() const {
    return std::get<gpu_numeric_entries<T>>(numeric);
  }
  template <class T>
  const gpu_sort_entries<T>& sort_of() const {
    return std::get<gpu_sort_entries<T>>(sort);
  }
};
#define AK_GPU_ENTRY_TABLE_SYMBOL "ak_gpu_entry_table_v1"

// The table exported by the backend whose device owns `memory`, or nullptr when that backend
// exports none (libak's own instantiations serve it). A table from another version of ak is an
// ak::backend_error.
const gpu_entry_table* exported_gpu_entries(const memory_space& memory);

}  // namespace ak::detail
