// Algorithms are values: `ak::merge_sort{.block_size = 256}`, `ak::radix_sort{}`,
// `ak::decoupled_lookback{}`, `ak::auto_alg{}`. Every call resolves its algorithm value once, on
// the host, before touching data, in four steps (DESIGN.md section 2):
//
//   1. check the fields the caller set (ranges; whether the algorithm can honour the options);
//   2. for auto_alg, select an algorithm from the tuning, the device's capabilities and static
//      facts of the call (never from the data's contents);
//   3. fill the unset fields from the tuning registry;
//   4. check the result against the device's capabilities.
//
// An explicit algorithm is honoured or rejected with ak::capability_error, never replaced.
#pragma once

#include <cstdint>
#include <string_view>
#include <variant>

#include "ak/core/dtype.hpp"
#include "ak/runtime/device.hpp"
#include "ak/runtime/hooks.hpp"

// The fields of an algorithm value are those of its hook's field list (ak/runtime/hooks.hpp)
// whose `carried_by` flag at the value's position is 1, in the list's order (the order in which
// designated initialisers name them). AK_ALGORITHM_FIELD_K declares them for the value at
// position K; AK_IF_CARRIED(K, carried_by)(tokens) keeps the tokens where the flag is 1.
#define AK_ALGORITHM_CAT_(a, b) a##b
#define AK_ALGORITHM_CAT(a, b) AK_ALGORITHM_CAT_(a, b)
#define AK_ALGORITHM_FLAG_0(f0, ...) f0
#define AK_ALGORITHM_FLAG_1(f0, f1, ...) f1
#define AK_ALGORITHM_FLAG_2(f0, f1, f2, ...) f2
#define AK_ALGORITHM_KEEP_0(...)
#define AK_ALGORITHM_KEEP_1(...) __VA_ARGS__
#define AK_IF_CARRIED(K, carried_by) \
  AK_ALGORITHM_CAT(AK_ALGORITHM_KEEP_, AK_ALGORITHM_FLAG_##K carried_by)
#define AK_ALGORITHM_FIELD_0(type, name, carried_by, doc) \
  AK_IF_CARRIED(0, carried_by)(type name{::ak::unset};)
#define AK_ALGORITHM_FIELD_1(type, name, carried_by, doc) \
  AK_IF_CARRIED(1, carried_by)(type name{::ak::unset};)
#define AK_ALGORITHM_FIELD_2(type, name, carried_by, doc) \
  AK_IF_CARRIED(2, carried_by)(type name{::ak::unset};)

namespace ak {

// Let the tuning, the device and the call's static facts choose.
struct auto_alg {
  static constexpr std::string_view name = "auto";
};

// ---- scans ----------------------------------------------------------------------------------

// Reduce each tile, scan the tile totals, scan each tile again with its carry: runs everywhere.
// Fields: block_size, items_per_thread, sub_group_width (the first column of
// AK_SCAN_TUNING_FIELDS).
struct reduce_then_scan {
  static constexpr std::string_view name = "reduce_then_scan";
  AK_SCAN_TUNING_FIELDS(AK_ALGORITHM_FIELD_0)
};

// One pass; each tile waits for its predecessors' published prefixes. Needs a device-scope fence
// and forward progress between groups. Fields: as reduce_then_scan (the second column).
struct decoupled_lookback {
  static constexpr std::string_view name = "decoupled_lookback";
  AK_SCAN_TUNING_FIELDS(AK_ALGORITHM_FIELD_1)
};

using scan_alg = std::variant<auto_alg, reduce_then_scan, decoupled_lookback>;

// The name of the algorithm value a resolved choice stands for ("decoupled_lookback").
constexpr std::string_view name_of(scan_algorithm a) noexcept {
  return a == scan_algorithm::decoupled_lookback ? decoupled_lookback::name
                                                 : reduce_then_scan::name;
}

struct resolved_scan {
  scan_algorithm algorithm;
  scan_tuning tuning;  // every field set
};

resolved_scan resolve(const scan_alg& alg, const device& dev, dtype t,
                      tuning_size size = tuning_size::any());
// The same from a call's scan tuning (the options' `.tuning`): every field it sets is the call's
// layer, and its `algorithm`, when set, is an explicit choice. Errors in it name `function`.
resolved_scan resolve(const scan_tuning& call, const device& dev, dtype t,
                      std::string_view function, tuning_size size = tuning_size::any());

// ---- sorts ----------------------------------------------------------------------------------

// Radix sort: numeric keys in the order of DESIGN.md (the element, or a number `by` returns);
// cannot take a custom `lt`. Fields (the first column of AK_SORT_TUNING_FIELDS):
// radix_digit_bits, block_size, cpu_grain, radix_items_per_thread, radix_msd_passes,
// radix_msd_run, insertion_run, radix_min_run, radix_vector_run, radix_packed_run.
struct radix_sort {
  static constexpr std::string_view name = "radix_sort";
  AK_SORT_TUNING_FIELDS(AK_ALGORITHM_FIELD_0)
};

// Stable merge sort with any comparator. Fields (the second column): block_size,
// merge_tile_size, cpu_grain, insertion_run.
struct merge_sort {
  static constexpr std::string_view name = "merge_sort";
  AK_SORT_TUNING_FIELDS(AK_ALGORITHM_FIELD_1)
};

// Parallel sample sort with any comparator; stable on cpu. Fields (the third column):
// block_size, sample_oversampling, cpu_grain, insertion_run, sample_leaf_size.
struct sample_sort {
  static constexpr std::string_view name = "sample_sort";
  AK_SORT_TUNING_FIELDS(AK_ALGORITHM_FIELD_2)
};

using sort_alg = std::variant<auto_alg, radix_sort, merge_sort, sample_sort>;

// The name of the algorithm value a resolved choice stands for ("radix_sort").
constexpr std::string_view name_of(sort_algorithm a) noexcept {
  return a == sort_algorithm::radix   ? radix_sort::name
         : a == sort_algorithm::merge ? merge_sort::name
                                      : sample_sort::name;
}

// What a sort call knows before it looks at data.
struct sort_facts {
  bool custom_order =
      false;           // a custom `lt`, or a `by` with no numeric result: comparison sorts only
  bool stable = true;  // the caller needs equal keys kept in order
};

struct resolved_sort {
  sort_algorithm algorithm;
  sort_tuning tuning;  // every field set
};

// `t` is the key's dtype; custom key types resolve as their `dtype` stand-in (see sort docs).
// `size` is the number of keys (see ak::tuning_size).
resolved_sort resolve(const sort_alg& alg, const device& dev, dtype t, const sort_facts& facts,
                      tuning_size size = tuning_size::any());

}  // namespace ak
