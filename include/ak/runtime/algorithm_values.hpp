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

namespace ak {

// Let the tuning, the device and the call's static facts choose.
struct auto_alg {
  static constexpr std::string_view name = "auto";
};

// ---- scans ----------------------------------------------------------------------------------

// Reduce each tile, scan the tile totals, scan each tile again with its carry: runs everywhere.
struct reduce_then_scan {
  static constexpr std::string_view name = "reduce_then_scan";
  std::int64_t block_size = unset;
  std::int64_t items_per_thread = unset;
  std::int64_t sub_group_width = unset;
};

// One pass; each tile waits for its predecessors' published prefixes. Needs a device-scope fence
// and forward progress between groups.
struct decoupled_lookback {
  static constexpr std::string_view name = "decoupled_lookback";
  std::int64_t block_size = unset;
  std::int64_t items_per_thread = unset;
  std::int64_t sub_group_width = unset;
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

resolved_scan resolve(const scan_alg& alg, const device& dev, dtype t);

// ---- sorts ----------------------------------------------------------------------------------

// Radix sort: numeric keys in the order of DESIGN.md (the element, or a number `by` returns);
// cannot take a custom `lt`.
struct radix_sort {
  static constexpr std::string_view name = "radix_sort";
  std::int64_t radix_digit_bits = unset;
  std::int64_t block_size = unset;
  std::int64_t cpu_grain = unset;
  std::int64_t radix_items_per_thread = unset;  // GPU keys per work-item in a tile
};

// Stable merge sort with any comparator.
struct merge_sort {
  static constexpr std::string_view name = "merge_sort";
  std::int64_t block_size = unset;
  std::int64_t merge_tile_size = unset;
  std::int64_t cpu_grain = unset;
};

// Parallel sample sort with any comparator; stable on cpu.
struct sample_sort {
  static constexpr std::string_view name = "sample_sort";
  std::int64_t sample_oversampling = unset;
  std::int64_t block_size = unset;
  std::int64_t cpu_grain = unset;
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
resolved_sort resolve(const sort_alg& alg, const device& dev, dtype t, const sort_facts& facts);

}  // namespace ak
