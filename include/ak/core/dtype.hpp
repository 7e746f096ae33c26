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
std::string_view name_of(dtype t) noexcept;
std::string_view name_of(dtype_category c) noexcept;
// Accepts the canonical names only.
std::optional<dtype> parse_dtype(std::string_view name) noexcept;
// "bool", "signed", "unsigned", "float" (the names tuning files use for classes of dtypes).
std::optional<dtype_category> parse_dtype_category(std::string_view name) noexcept;

namespace detail {
template <class T>
struct dtype_of_impl {};
#define AK_DETAIL_DTYPE_OF(T, D)             \
  template <>                                \
  struct dtype_of_impl<T> {                  \
    static constexpr dtype value = dtype::D; \
  };
AK_DETAIL_DTYPE_OF(bool, bool_)
AK_DETAIL_DTYPE_OF(std::int8_t, int8)
AK_DETAIL_DTYPE_OF(std::int16_t, int16)
AK_DETAIL_DTYPE_OF(std::int32_t, int32)
AK_DETAIL_DTYPE_OF(std::int64_t, int64)
AK_DETAIL_DTYPE_OF(std::uint8_t, uint8)
AK_DETAIL_DTYPE_OF(std::uint16_t, uint16)
AK_DETAIL_DTYPE_OF(std::uint32_t, uint32)
AK_DETAIL_DTYPE_OF(std::uint64_t, uint64)
AK_DETAIL_DTYPE_OF(float, float32)
AK_DETAIL_DTYPE_OF(double, float64)
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

}  // namespace ak
