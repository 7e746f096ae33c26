// The precompiled entry points (DESIGN.md section 3): for the standard element types and
// operators, the algorithms are compiled once into libak and a user's call links to them, so a
// program that sums or sorts floats instantiates no algorithm template. The public templates
// route here with `if constexpr`; everything else takes the header templates.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ak/algorithms/detail/reduce_common.hpp"
#include "ak/algorithms/detail/sort_common.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/core/array.hpp"
#include "ak/core/dtype.hpp"
#include "ak/core/operators.hpp"
#include "ak/core/view.hpp"

namespace ak {
template <class T>
struct run_length_result;
}  // namespace ak

namespace ak::detail {

template <class T>
struct even_bin;
template <class T>
struct edge_bin;

// The element types with precompiled entry points, as X(T): every dtype's type (the lists of
// ak/core/dtype.hpp), or, in a build configured with AK_SANITIZERS (the ak target then gives its
// users AK_PRECOMPILE_ONE_TYPE_PER_SIZE), one integer of each size and both floats: what a
// sanitizer finds in an entry depends on the element's size and kind, not on which type of that
// size it is, and the entries of every dtype take most of a sanitizer build's time. A call with
// another type there takes the header templates. libak and its plugins must agree on this list:
// the GPU entry table's size (gpu_entries.hpp) is checked when a plugin loads.
#ifndef AK_PRECOMPILE_ONE_TYPE_PER_SIZE
#define AK_FOR_EACH_PRECOMPILED_NUMERIC_TYPE(X) AK_FOR_EACH_NUMERIC_TYPE(X)
#else
#define AK_FOR_EACH_PRECOMPILED_NUMERIC_TYPE(X) \
  X(std::int8_t) X(std::uint16_t) X(std::int32_t) X(float) X(double)
#endif
#define AK_FOR_EACH_PRECOMPILED_SORT_TYPE(X) X(bool) AK_FOR_EACH_PRECOMPILED_NUMERIC_TYPE(X)

#define AK_DETAIL_IS(U) || std::is_same_v<T, U>
template <class T>
inline constexpr bool precompiled_type_v = false AK_FOR_EACH_PRECOMPILED_NUMERIC_TYPE(AK_DETAIL_IS);
template <class T>
inline constexpr bool precompiled_sort_type_v =
    false AK_FOR_EACH_PRECOMPILED_SORT_TYPE(AK_DETAIL_IS);
#undef AK_DETAIL_IS

// Each entry takes the device and what the front resolved for it (along dims: the mask of the
// reduced dimensions, how many elements make each output, and the allocated, non-empty `out`).
// Bitwise operators exist for integers only; the entry points throw for a float with them (the
// template path would not compile).
#define AK_DECLARE_NUMERIC_ENTRIES(T)                                                              \
  T reduce_entry(const device& dev, const reduce_tuning& t, view<const T> src, op_kind op,         \
                 const reduce_options<T>& o);                                                      \
  void reduce_dims_entry(const device& dev, const reduce_tuning& t, view<const T> src, op_kind op, \
                         std::uint32_t mask, std::int64_t per_output, const reduce_options<T>& o,  \
                         array<T>& out);                                                           \
  void accumulate_entry(const device& dev, const resolved_scan& r, view<const T> src, view<T> dst, \
                        std::size_t dim, op_kind op, const accumulate_options<T>& o,               \
                        const char* function);
AK_FOR_EACH_PRECOMPILED_NUMERIC_TYPE(AK_DECLARE_NUMERIC_ENTRIES)
#undef AK_DECLARE_NUMERIC_ENTRIES

// The sorts and searches, and the predicate-free count and any/all (of truthy elements), for every
// dtype; any and all take find_any_entry on the cpu alone (a GPU-style device counts).
#define AK_DECLARE_SORT_ENTRIES(T)                                                                 \
  void sort_entry(const device& dev, const resolved_sort& r, view<T> v, const sort_segments& seg,  \
                  const sort_options<>& o, const char* function);                                  \
  array<T> sort_copy_entry(const device& dev, const resolved_sort& r, view<const T> v,             \
                           std::size_t dim, const sort_segments& seg, const sort_options<>& o,     \
                           const char* function);                                                  \
  void sortperm_entry(const device& dev, const resolved_sort& r, view<const T> v,                  \
                      view<std::int64_t> perm, const sort_segments& seg, const sort_options<>& o); \
  array<std::int64_t> searchsorted_entry(const device& dev, const search_tuning& t,                \
                                         view<const T> sorted, view<const T> queries, bool last,   \
                                         const search_options<>& o);                               \
  std::int64_t count_entry(const device& dev, const reduce_tuning& t, view<const T> v);            \
  bool find_any_entry(const map_tuning& t, view<const T> v, bool want);
AK_FOR_EACH_PRECOMPILED_SORT_TYPE(AK_DECLARE_SORT_ENTRIES)
#undef AK_DECLARE_SORT_ENTRIES

// The selection family's calls with the default predicate or equality (findall of truthy
// elements, copy_if with bool flags, unique, unique_count and run_length_encode with isequal),
// and findmin, findmax and extrema of a whole array, for every dtype; histograms for every
// numeric dtype.
#define AK_DECLARE_SELECT_ENTRIES(T)                                                             \
  array<std::int64_t> findall_entry(const device& dev, const select_tuning& t, view<const T> v); \
  array<T> copy_if_entry(const device& dev, const select_tuning& t, view<const T> v,             \
                         view<const bool> flags);                                                \
  array<T> unique_entry(const device& dev, const select_tuning& t, view<const T> v);             \
  std::int64_t unique_count_entry(const device& dev, const select_tuning& t, view<const T> v);   \
  run_length_result<T> run_length_entry(const device& dev, const select_tuning& t,               \
                                        view<const T> v);                                        \
  found_element<T> reduce_indexed_entry(const device& dev, const reduce_tuning& t,               \
                                        view<const T> v, keep_found<false>);                     \
  found_element<T> reduce_indexed_entry(const device& dev, const reduce_tuning& t,               \
                                        view<const T> v, keep_found<true>);                      \
  extrema_element<T> reduce_indexed_entry(const device& dev, const reduce_tuning& t,             \
                                          view<const T> v, keep_extrema);
AK_FOR_EACH_PRECOMPILED_SORT_TYPE(AK_DECLARE_SELECT_ENTRIES)
#undef AK_DECLARE_SELECT_ENTRIES
#define AK_DECLARE_HISTOGRAM_ENTRIES(T)                                                           \
  array<std::int64_t> histogram_entry(const device& dev, const select_tuning& t, view<const T> v, \
                                      const even_bin<T>& bin, std::int64_t bins);                 \
  array<std::int64_t> histogram_entry(const device& dev, const select_tuning& t, view<const T> v, \
                                      const edge_bin<T>& bin, std::int64_t bins);
AK_FOR_EACH_PRECOMPILED_NUMERIC_TYPE(AK_DECLARE_HISTOGRAM_ENTRIES)
#undef AK_DECLARE_HISTOGRAM_ENTRIES

}  // namespace ak::detail
