// The tuning hooks and their tuning types.
//
// A hook names one family of tunable decisions and declares its tuning type: a plain struct of
// 64-bit fields. Every field starts out `ak::unset`; a struct with some fields set is how a layer
// (a backend's defaults, an override, a call's options) says "these fields, the rest from below".
// This header holds no tuning value: generic defaults, ranges and field names live in the runtime
// (src/runtime/hook_schemas.cpp) and backends' defaults in their own sources, so that changing a
// value never recompiles code that includes this header.
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

namespace ak {

// The value of a tuning field that is not given at this layer.
inline constexpr std::int64_t unset = std::numeric_limits<std::int64_t>::min();

enum class scan_algorithm : std::int64_t {
  not_set = ak::unset,
  reduce_then_scan = 0,
  decoupled_lookback = 1,
};

enum class sort_algorithm : std::int64_t {
  not_set = ak::unset,
  radix = 0,
  merge = 1,
  sample = 2,
};

struct reduce_tuning {
  static constexpr std::string_view type_name = "ak::reduce_tuning";
  std::int64_t block_size = unset;        // GPU work-items per group
  std::int64_t items_per_thread = unset;  // GPU elements each work-item reduces before the group
  std::int64_t vector_width = unset;      // elements per vector load
  std::int64_t switch_below = unset;      // below this many elements, reduce in one group/thread
  std::int64_t cpu_tasks = unset;         // CPU tasks; 0 = one per worker thread
  std::int64_t cpu_grain = unset;         // CPU elements per task at least
};

struct scan_tuning {
  static constexpr std::string_view type_name = "ak::scan_tuning";
  std::int64_t block_size = unset;
  std::int64_t items_per_thread = unset;
  scan_algorithm algorithm = scan_algorithm::not_set;
  std::int64_t sub_group_width = unset;  // 0 = the device's native width
  std::int64_t cpu_grain = unset;
};

struct sort_tuning {
  static constexpr std::string_view type_name = "ak::sort_tuning";
  sort_algorithm algorithm = sort_algorithm::not_set;  // what `auto` picks, per dtype (class)
  std::int64_t radix_digit_bits = unset;
  std::int64_t block_size = unset;
  std::int64_t merge_tile_size = unset;  // elements each group merges per step
  std::int64_t sample_oversampling = unset;
  std::int64_t cpu_grain = unset;
  std::int64_t radix_items_per_thread = unset;  // GPU keys per work-item in a radix tile
};

struct map_tuning {
  static constexpr std::string_view type_name = "ak::map_tuning";
  std::int64_t block_size = unset;
  std::int64_t items_per_thread = unset;
  std::int64_t cpu_grain = unset;
};

struct search_tuning {
  static constexpr std::string_view type_name = "ak::search_tuning";
  std::int64_t block_size = unset;
  std::int64_t cpu_grain = unset;
};

struct reduce_hook {
  using type = reduce_tuning;
  static constexpr std::string_view name = "reduce";
};
struct scan_hook {
  using type = scan_tuning;
  static constexpr std::string_view name = "scan";
};
struct sort_hook {
  using type = sort_tuning;
  static constexpr std::string_view name = "sort";
};
struct map_hook {
  using type = map_tuning;
  static constexpr std::string_view name = "map";
};
struct search_hook {
  using type = search_tuning;
  static constexpr std::string_view name = "search";
};

// What makes a type usable as a tuning type: 64-bit fields only, so that every layer can
// treat it as an array of int64 slots, and a name to check it by.
// clang-format 14 mangles C++20 requires-clauses and concepts:
// clang-format off
template <class T>
concept tuning_type = std::is_trivially_copyable_v<T> && std::is_standard_layout_v<T> &&
                      sizeof(T) % sizeof(std::int64_t) == 0 &&
                      std::is_same_v<std::remove_cvref_t<decltype(T::type_name)>, std::string_view>;
// clang-format on

// clang-format off
template <class H>
concept tuning_hook = tuning_type<typename H::type> &&
                      std::is_same_v<std::remove_cvref_t<decltype(H::name)>, std::string_view>;
// clang-format on

template <tuning_type T>
inline constexpr std::uint32_t field_count_v = static_cast<std::uint32_t>(sizeof(T) /
                                                                          sizeof(std::int64_t));

}  // namespace ak
