// The precompiled entry points (DESIGN.md section 3): for the standard element types and
// operators, the algorithms are compiled once into libak and a user's call links to them, so a
// program that sums or sorts floats instantiates no algorithm template. The public templates
// route here with `if constexpr`; everything else takes the header templates.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ak/algorithms/options.hpp"
#include "ak/core/array.hpp"
#include "ak/core/operators.hpp"
#include "ak/core/view.hpp"

// X(T) for every numeric dtype; AK_FOR_EACH_SORT_TYPE adds bool.
#define AK_FOR_EACH_NUMERIC_TYPE(X)                                                \
  X(std::int8_t)                                                                   \
  X(std::int16_t) X(std::int32_t) X(std::int64_t) X(std::uint8_t) X(std::uint16_t) \
      X(std::uint32_t) X(std::uint64_t) X(float) X(double)
#define AK_FOR_EACH_SORT_TYPE(X) X(bool) AK_FOR_EACH_NUMERIC_TYPE(X)

namespace ak::detail {

template <class T>
inline constexpr bool precompiled_type_v =
    std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::int16_t> ||
    std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t> ||
    std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::uint16_t> ||
    std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t> ||
    std::is_same_v<T, float> || std::is_same_v<T, double>;

template <class T>
inline constexpr bool precompiled_sort_type_v = precompiled_type_v<T> || std::is_same_v<T, bool>;

// Bitwise operators exist for integers only; the entry points throw for a float with them
// (the template path would not compile).
#define AK_DECLARE_NUMERIC_ENTRIES(T)                                          \
  T reduce_entry(view<const T> src, op_kind op, const reduce_options<T>& o);   \
  array<T> reduce_dims_entry(view<const T> src, op_kind op, const dims& along, \
                             const reduce_options<T>& o);                      \
  void accumulate_entry(view<const T> src, view<T> dst, op_kind op,            \
                        const accumulate_options<T>& o, const char* function);
AK_FOR_EACH_NUMERIC_TYPE(AK_DECLARE_NUMERIC_ENTRIES)
#undef AK_DECLARE_NUMERIC_ENTRIES

#define AK_DECLARE_SORT_ENTRIES(T)                                                               \
  void sort_entry(view<T> v, const sort_options<>& o, const char* function);                     \
  array<std::int64_t> sortperm_entry(view<const T> v, const sort_options<>& o);                  \
  array<std::int64_t> searchsorted_entry(view<const T> sorted, view<const T> queries, bool last, \
                                         const search_options<>& o);
AK_FOR_EACH_SORT_TYPE(AK_DECLARE_SORT_ENTRIES)
#undef AK_DECLARE_SORT_ENTRIES

}  // namespace ak::detail
