// Element types that ak knows by name: they key tunings and precompiled entry points.
// Custom element types have no dtype; they go through the header templates.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

namespace ak {

enum class dtype : std::uint8_t {
  bool_,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float32,
  float64,
};

inline constexpr std::size_t dtype_count = 11;

inline constexpr std::array<dtype, dtype_count> all_dtypes{
    dtype::bool_,  dtype::int8,   dtype::int16,  dtype::int32,   dtype::int64,  dtype::uint8,
    dtype::uint16, dtype::uint32, dtype::uint64, dtype::float32, dtype::float64};

// Classes of dtypes; tunings may be given per class ("float") as well as per dtype.
enum class dtype_category : std::uint8_t { boolean, signed_integer, unsigned_integer, floating };

constexpr std::size_t index_of(dtype t) noexcept {
  return static_cast<std::size_t>(t);
}

constexpr std::size_t size_of(dtype t) noexcept {
  switch (t) {
    case dtype::bool_:
    case dtype::int8:
    case dtype::uint8:
      return 1;
    case dtype::int16:
    case dtype::uint16:
      return 2;
    case dtype::int32:
    case dtype::uint32:
    case dtype::float32:
      return 4;
    case dtype::int64:
    case dtype::uint64:
    case dtype::float64:
      return 8;
  }
  return 0;
}

constexpr dtype_category category_of(dtype t) noexcept {
  switch (t) {
    case dtype::bool_:
      return dtype_category::boolean;
    case dtype::int8:
    case dtype::int16:
    case dtype::int32:
    case dtype::int64:
      return dtype_category::signed_integer;
    case dtype::uint8:
    case dtype::uint16:
    case dtype::uint32:
    case dtype::uint64:
      return dtype_category::unsigned_integer;
    case dtype::float32:
    case dtype::float64:
      return dtype_category::floating;
  }
  return dtype_category::boolean;
}

// Canonical names: "bool", "int8".."int64", "uint8".."uint64", "float32", "float64".
constexpr std::string_view name_of(dtype t) noexcept {
  constexpr std::array<std::string_view, dtype_count> names{"bool",   "int8",    "int16",  "int32",
                                                            "int64",  "uint8",   "uint16", "uint32",
                                                            "uint64", "float32", "float64"};
  return names[index_of(t)];
}
std::string_view name_of(dtype_category c) noexcept;
// Accepts the canonical names only.
std::optional<dtype> parse_dtype(std::string_view name) noexcept;
// "bool", "signed", "unsigned", "float" (the names tuning files use for classes of dtypes).
std::optional<dtype_category> parse_dtype_category(std::string_view name) noexcept;

// The one list of the element types that have a dtype, as X(T): AK_FOR_EACH_NUMERIC_TYPE for the
// numeric ones, AK_FOR_EACH_SORT_TYPE with bool too (what sorts and searches take). The
// dtype mapping below and the precompiled entry points (ak/algorithms/precompiled.hpp) are
// generated from it.
#define AK_FOR_EACH_NUMERIC_TYPE(X) \
  X(std::int8_t)                    \
  X(std::int16_t)                   \
  X(std::int32_t)                   \
  X(std::int64_t)                   \
  X(std::uint8_t) X(std::uint16_t) X(std::uint32_t) X(std::uint64_t) X(float) X(double)
#define AK_FOR_EACH_SORT_TYPE(X) X(bool) AK_FOR_EACH_NUMERIC_TYPE(X)

namespace detail {
// The dtype of one of the listed types, from its traits.
template <class T>
constexpr dtype dtype_from_traits() noexcept {
  if constexpr (std::is_same_v<T, bool>)
    return dtype::bool_;
  else if constexpr (std::is_floating_point_v<T>)
    return sizeof(T) == 4 ? dtype::float32 : dtype::float64;
  else if constexpr (std::is_signed_v<T>)
    return sizeof(T) == 1   ? dtype::int8
           : sizeof(T) == 2 ? dtype::int16
           : sizeof(T) == 4 ? dtype::int32
                            : dtype::int64;
  else
    return sizeof(T) == 1   ? dtype::uint8
           : sizeof(T) == 2 ? dtype::uint16
           : sizeof(T) == 4 ? dtype::uint32
                            : dtype::uint64;
}

template <class T>
struct dtype_of_impl {};
#define AK_DETAIL_DTYPE_OF(T)                              \
  template <>                                              \
  struct dtype_of_impl<T> {                                \
    static constexpr dtype value = dtype_from_traits<T>(); \
  };
AK_FOR_EACH_SORT_TYPE(AK_DETAIL_DTYPE_OF)
#undef AK_DETAIL_DTYPE_OF
}  // namespace detail

// True for the element types that have a dtype (and so precompiled entry points).
// clang-format 14 mangles C++20 requires-clauses and concepts:
// clang-format off
template <class T>
inline constexpr bool has_dtype_v = requires { detail::dtype_of_impl<std::remove_cv_t<T>>::value; };
// clang-format on

// clang-format off
template <class T>
  requires has_dtype_v<T>
inline constexpr dtype dtype_of_v = detail::dtype_of_impl<std::remove_cv_t<T>>::value;
// clang-format on

// The dtype whose tunings T uses: its own, else (a custom element type) the unsigned integer of
// its size, the largest (uint64) for bigger types, as docs/tuning.md says.
template <class T>
constexpr dtype tuning_dtype() noexcept {
  if constexpr (has_dtype_v<T>)
    return dtype_of_v<T>;
  else if constexpr (sizeof(T) == 1)
    return dtype::uint8;
  else if constexpr (sizeof(T) == 2)
    return dtype::uint16;
  else if constexpr (sizeof(T) == 4)
    return dtype::uint32;
  else
    return dtype::uint64;
}

}  // namespace ak
