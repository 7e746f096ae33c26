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

// The number of elements a lookup is for. Entries measured at sizes apply by the nearest size:
// sizes compare by their power-of-two class (std::bit_width), a tie goes to the larger size, and
// a lookup of any() size sees none of them. No default constructor: `{}` in a call's argument
// list stays the options or facts it was before sizes existed.
struct tuning_size {
  constexpr tuning_size(std::int64_t elements) noexcept : n(elements) {}  // NOLINT: implicit
  static constexpr tuning_size any() noexcept { return tuning_size(-1); }
  constexpr bool known() const noexcept { return n >= 0; }
  std::int64_t n;
};

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

// ---- the tuning fields, each declared once ---------------------------------------------------
//
// Each hook's fields, in their order in its tuning type, one line each:
//   F(type, name, carried_by, "what it is")
// `carried_by` has one flag per algorithm value of the hook (algorithm_values.hpp: the sort
// hook's radix_sort, merge_sort, sample_sort; the scan hook's reduce_then_scan and
// decoupled_lookback): 1 where the value takes the field as its own, as in
// `ak::radix_sort{.radix_digit_bits = 11}`. Hooks without algorithm values have `()`.
// From these lists come the tuning types below, the algorithm values and their call layer
// (src/runtime/resolve.cpp) and the schemas' field names and docs (src/runtime/hook_schemas.cpp,
// which gives each field its valid range and generic default: no value is in this header).
// A new field is one line here and one range there.
// clang-format off
#define AK_REDUCE_TUNING_FIELDS(F)                                                             \
  F(std::int64_t, block_size,       (), "GPU work-items per group")                             \
  F(std::int64_t, items_per_thread, (), "GPU elements each work-item reduces first")            \
  F(std::int64_t, vector_width,     (), "GPU elements per vector load (1, 2 or 4; at most 16 bytes)") \
  F(std::int64_t, switch_below,     (), "reduce in a single group/thread below this many elements") \
  F(std::int64_t, cpu_tasks,        (), "CPU tasks; 0 = one per worker thread")                 \
  F(std::int64_t, cpu_grain,        (), "CPU elements per task at least")

//                                     reduce_then_scan, decoupled_lookback
#define AK_SCAN_TUNING_FIELDS(F)                                                               \
  F(std::int64_t,   block_size,       (1, 1), "GPU work-items per group")                       \
  F(std::int64_t,   items_per_thread, (1, 1), "GPU elements each work-item scans")              \
  F(scan_algorithm, algorithm,        (0, 0), "device-wide scan algorithm")                     \
  F(std::int64_t,   sub_group_width,  (1, 1), "sub-group width to scan with; 0 = the device's") \
  F(std::int64_t,   cpu_grain,        (0, 0), "CPU elements per task at least")

//                                                 radix, merge, sample
#define AK_SORT_TUNING_FIELDS(F)                                                                \
  F(sort_algorithm, algorithm,              (0, 0, 0), "what the auto algorithm picks")          \
  F(std::int64_t,   radix_digit_bits,       (1, 0, 0), "bits per radix digit")                   \
  F(std::int64_t,   block_size,             (1, 1, 1), "GPU work-items per group")               \
  F(std::int64_t,   merge_tile_size,        (0, 1, 0), "elements each group merges per step")    \
  F(std::int64_t,   sample_oversampling,    (0, 0, 1), "samples per bucket in sample sort")      \
  F(std::int64_t,   cpu_grain,              (1, 1, 1), "CPU elements per task at least")         \
  F(std::int64_t,   radix_items_per_thread, (1, 0, 0),                                           \
    "GPU keys per work-item in a radix tile (halved where local memory is short)")            \
  F(std::int64_t,   radix_msd_passes,       (1, 0, 0),                                           \
    "CPU: a run in cache takes an MSD step first when LSD would need more passes than this")  \
  F(std::int64_t,   radix_msd_run,          (1, 0, 0),                                           \
    "CPU: the keys per bucket that such an in-cache MSD step aims at")                        \
  F(std::int64_t,   insertion_run,          (1, 1, 1),                                           \
    "CPU: runs of at most this many elements are insertion sorted, whatever the algorithm")   \
  F(std::int64_t,   radix_min_run,          (1, 0, 0),                                           \
    "CPU: radix sort takes runs of at least this many keys; shorter ones are merge sorted")   \
  F(std::int64_t,   radix_vector_run,       (1, 0, 0),                                           \
    "CPU: numbers alone in in-cache runs of at least this many keys are sorted by the vector " \
    "code (Highway's vqsort); 0 = never")                                                     \
  F(std::int64_t,   radix_packed_run,       (1, 0, 0),                                           \
    "CPU sortperm of keys of at most 4 bytes: each key and its index packed in one 64-bit "   \
    "number, sorted with in-cache runs of at least this many going to the vector code; "      \
    "0 = never packed")                                                                       \
  F(std::int64_t,   sample_leaf_size,       (0, 0, 1),                                           \
    "CPU sample sort: runs of at most this many elements are sorted by rank or insertion")

#define AK_MAP_TUNING_FIELDS(F)                                                                 \
  F(std::int64_t, block_size,       (), "GPU work-items per group")                              \
  F(std::int64_t, items_per_thread, (), "GPU elements per work-item")                            \
  F(std::int64_t, cpu_grain,        (), "CPU elements per task at least")

#define AK_SEARCH_TUNING_FIELDS(F)                                                              \
  F(std::int64_t, block_size, (), "GPU work-items per group")                                    \
  F(std::int64_t, cpu_grain,  (), "CPU queries per task at least")

#define AK_SELECT_TUNING_FIELDS(F)                                                              \
  F(std::int64_t, block_size,       (), "GPU work-items per group")                              \
  F(std::int64_t, items_per_thread, (), "GPU consecutive elements each work-item flags (1 to 32)") \
  F(std::int64_t, cpu_grain,        (), "CPU elements per task at least")
// clang-format on

// A member of a tuning type: every field starts out unset.
#define AK_TUNING_MEMBER(type, name, carried_by, doc) type name{::ak::unset};

struct reduce_tuning {
  static constexpr std::string_view type_name = "ak::reduce_tuning";
  AK_REDUCE_TUNING_FIELDS(AK_TUNING_MEMBER)
};

struct scan_tuning {
  static constexpr std::string_view type_name = "ak::scan_tuning";
  AK_SCAN_TUNING_FIELDS(AK_TUNING_MEMBER)
};

struct sort_tuning {
  static constexpr std::string_view type_name = "ak::sort_tuning";
  AK_SORT_TUNING_FIELDS(AK_TUNING_MEMBER)
};

struct map_tuning {
  static constexpr std::string_view type_name = "ak::map_tuning";
  AK_MAP_TUNING_FIELDS(AK_TUNING_MEMBER)
};

struct search_tuning {
  static constexpr std::string_view type_name = "ak::search_tuning";
  AK_SEARCH_TUNING_FIELDS(AK_TUNING_MEMBER)
};

struct select_tuning {
  static constexpr std::string_view type_name = "ak::select_tuning";
  AK_SELECT_TUNING_FIELDS(AK_TUNING_MEMBER)
};

// The tuning of an element-wise loop run inside another family's call: the fields of that
// family's tuning that a loop has (block_size, items_per_thread, cpu_grain), the rest unset.
template <class Tuning>
map_tuning loop_tuning(const Tuning& t) {
  map_tuning m{};
  if constexpr (requires { t.block_size; }) m.block_size = t.block_size;
  if constexpr (requires { t.items_per_thread; }) m.items_per_thread = t.items_per_thread;
  if constexpr (requires { t.cpu_grain; }) m.cpu_grain = t.cpu_grain;
  return m;
}

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
// The selection family (findall, copy_if, partition, unique, run_length_encode, histogram).
struct select_hook {
  using type = select_tuning;
  static constexpr std::string_view name = "select";
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
