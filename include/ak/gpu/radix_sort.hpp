// LSD radix sort on GPU-style devices, in ak's order (ordered_key): keys, or keys with values.
// Onesweep-style where the device has a device-scope fence, forward progress and 64-bit atomics
// (one histogram pass for every digit, read by the host once, then one pass per digit that moves
// keys, whose bucket offsets chain between tiles by decoupled look-back); elsewhere the offsets
// come from a scan of per-tile digit counts (two launches and a scan per digit). Stable.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ak/gpu/algorithms.hpp"
#include "ak/gpu/kernels/radix_sort.hpp"
#include "ak/gpu/sort.hpp"

namespace ak::gpu {

namespace detail {

inline bool can_onesweep(const ak::device& dev) {
  const auto& c = dev.caps();
  return c.device_scope_fence && c.forward_progress && c.atomics64;
}

// What the onesweep passes take from the histogram of every digit place, `counts` (passes x
// radix, digit-major within a pass), copied to the host once: the passes that move keys, and
// each one's bucket starts (the exclusive scan of its counts; radix numbers per moving pass). A
// pass whose digit is the same for every key (one count of n) would copy the keys in order, so it
// is left out: small integers in wide types, keys that share their low bits, equal keys.
struct onesweep_plan {
  std::vector<int> passes;
  std::vector<std::int64_t> starts;
};

inline onesweep_plan plan_onesweep(const std::vector<unsigned long long>& counts, std::int64_t n,
                                   int radix) {
  onesweep_plan plan;
  const auto r = static_cast<std::size_t>(radix);
  for (std::size_t p = 0; p * r < counts.size(); ++p) {
    const auto first = counts.begin() + static_cast<std::ptrdiff_t>(p * r);
    if (std::find(first, first + radix, static_cast<unsigned long long>(n)) != first + radix)
      continue;
    plan.passes.push_back(static_cast<int>(p));
    std::int64_t sum = 0;
    for (auto c = first; c != first + radix; ++c) {
      plan.starts.push_back(sum);
      sum += static_cast<std::int64_t>(*c);
    }
  }
  return plan;
}

// Sorts keys[0, n) (and values, when not null) with a resolved tuning `t` (every field set), on a
// device check_call has accepted: what the public algorithms call once they have resolved.
// Descending when `descending` (every digit complemented: still stable, ties in input order).
template <class K, class V>
void radix_sort_run(const ak::device& dev, K* keys, V* values, std::int64_t n, const sort_tuning& t,
                    const char* fn, bool descending = false) {
  static_assert(has_ordered_key_v<K>, "radix sort orders numeric keys (1, 2, 4 or 8 bytes)");
  const int digit_bits = static_cast<int>(t.radix_digit_bits);
  if (digit_bits > 8)
    throw ak::capability_error(std::string(fn) + ": radix_digit_bits " +
                               std::to_string(digit_bits) +
                               " on a GPU-style device; its tiles rank digits of at most 8 bits");
  if (n < 2) return;
  const int radix = 1 << digit_bits;
  const int key_bits = static_cast<int>(8 * sizeof(ak::ordered_key(K{})));
  const int passes = (key_bits + digit_bits - 1) / digit_bits;
  const std::size_t value_bytes = values ? sizeof(V) : 0;

  // A tile that fits local memory and the keys' 16-bit ranks (radix_tile_most keys):
  // block * sort.radix_items_per_thread, halved as needed.
  std::int64_t block = fit_block(dev, t.block_size);
  int ipt = static_cast<int>(t.radix_items_per_thread);
  auto layout = [&] {
    return kernels::radix_layout::make(static_cast<std::size_t>(block * ipt), sizeof(K),
                                       value_bytes, static_cast<std::size_t>(radix),
                                       static_cast<std::size_t>(num_sub_groups(dev, block)));
  };
  const auto local_limit = static_cast<std::size_t>(dev.info().local_memory_bytes);
  while ((layout().bytes > local_limit || block * ipt > kernels::radix_tile_most) && ipt > 1)
    ipt /= 2;
  while (layout().bytes > local_limit && block > dev.info().sub_group_width)
    block = fit_block(dev, block / 2);
  block = block_for(dev, block, n, ipt);
  const kernels::radix_layout lay = layout();
  if (lay.bytes > local_limit)
    throw ak::capability_error(std::string(fn) +
                               ": a radix tile does not fit the local memory of " + dev.name());
  const std::int64_t tile = block * ipt;
  const std::int64_t tiles = cdiv(n, tile);
  const kernel::nd_range tile_range = kernel::range_1d(tiles * block, block);
  if (tiles == 1) {  // every pass in one group's local memory, in place: one launch
    launch(dev, {tile_range, lay.bytes, "ak::gpu::radix_single_tile"},
           kernels::radix_single_tile_kernel<K, V>{keys, values, static_cast<int>(n), ipt, passes,
                                                   digit_bits, descending, lay});
    return;
  }

  ping_pong<K, V> pp(dev, keys, values, n);
  const bool onesweep = can_onesweep(dev);

  if (onesweep) {
    device_buffer<unsigned long long> hist(dev, static_cast<std::int64_t>(passes) * radix);
    foreachindex(dev, hist.size(), kernels::fill_body<unsigned long long>{hist.data(), 0});
    const std::size_t hist_local = static_cast<std::size_t>(radix * passes) * sizeof(int);
    launch(dev, {tile_range, hist_local, "ak::gpu::radix_histogram"},
           kernels::radix_histogram_kernel<K>{pp.kin, n, ipt, digit_bits, passes, descending,
                                              hist.data()});
    const onesweep_plan plan = plan_onesweep(hist.to_host(), n, radix);
    const auto moving = static_cast<std::int64_t>(plan.passes.size());
    if (moving > 0) {
      const device_buffer<std::int64_t> starts(dev, std::span<const std::int64_t>(plan.starts));
      device_buffer<unsigned long long> status(dev, moving * tiles * radix);
      device_buffer<unsigned> counters(dev, moving);
      foreachindex(dev, status.size(), kernels::fill_body<unsigned long long>{status.data(), 0});
      foreachindex(dev, moving, kernels::fill_body<unsigned>{counters.data(), 0u});
      for (std::int64_t m = 0; m < moving; ++m) {
        launch(dev, {tile_range, lay.bytes, "ak::gpu::radix_onesweep"},
               kernels::radix_scatter_kernel<K, V>{
                   pp.kin, pp.kout, pp.vin, pp.vout, n, tiles, ipt,
                   plan.passes[static_cast<std::size_t>(m)] * digit_bits, digit_bits, descending,
                   lay, nullptr, starts.data() + m * radix, status.data() + m * tiles * radix,
                   counters.data() + m});
        pp.swap();
      }
    }
  } else {
    device_buffer<std::int64_t> counts(dev, tiles * radix), offsets(dev, tiles * radix);
    const std::size_t count_local = static_cast<std::size_t>(radix) * sizeof(int);
    for (int p = 0; p < passes; ++p) {
      launch(dev, {tile_range, count_local, "ak::gpu::radix_count"},
             kernels::radix_count_kernel<K>{pp.kin, n, tiles, ipt, p * digit_bits, digit_bits,
                                            descending, counts.data()});
      accumulate(dev, counts.data(), offsets.data(), counts.size(), kernels::sum_op{},
                 std::int64_t{0}, false, ak::reduce_then_scan{});
      launch(dev, {tile_range, lay.bytes, "ak::gpu::radix_scatter"},
             kernels::radix_scatter_kernel<K, V>{pp.kin, pp.kout, pp.vin, pp.vout, n, tiles, ipt,
                                                 p * digit_bits, digit_bits, descending, lay,
                                                 offsets.data(), nullptr, nullptr, nullptr});
      pp.swap();
    }
  }
  pp.finish(dev);
}

template <class K, class V>
void radix_sort_impl(const ak::device& dev, K* keys, V* values, std::int64_t n,
                     const sort_tuning& call, const char* fn) {
  check_call(dev, n, fn);
  radix_sort_run(dev, keys, values, n, ak::tuning(sort_hook{}, dev, tuning_dtype<K>(), call, {n}),
                 fn);
}

}  // namespace detail

// Sorts keys[0, n) in ak's order. Tuning: sort.radix_digit_bits (at most 8), sort.block_size.
template <class K>
void radix_sort(const ak::device& dev, K* keys, std::int64_t n, const sort_tuning& call = {}) {
  detail::radix_sort_impl<K, unsigned char>(dev, keys, nullptr, n, call, "ak::gpu::radix_sort");
}

// Sorts keys[0, n) in ak's order, stably, moving values[0, n) with them.
template <class K, class V>
void radix_sort_by_key(const ak::device& dev, K* keys, V* values, std::int64_t n,
                       const sort_tuning& call = {}) {
  detail::radix_sort_impl<K, V>(dev, keys, values, n, call, "ak::gpu::radix_sort_by_key");
}

// Sorts keys[0, n) in ak's order with the algorithm `alg` resolves to on this device:
// ak::auto_alg{} (the sort tuning's choice), ak::radix_sort{} or ak::merge_sort{}, with their
// fields as the call's tuning. ak::sample_sort{} is an ak::capability_error here (none on GPUs).
template <class K>
void sort(const ak::device& dev, K* keys, std::int64_t n, const sort_alg& alg = auto_alg{}) {
  detail::check_call(dev, n, "ak::gpu::sort");
  // Keys with no ordered key (long double) sort as a custom order does: by merge sort.
  const resolved_sort r =
      ak::resolve(alg, dev, tuning_dtype<K>(), {.custom_order = !has_ordered_key_v<K>}, {n});
  if constexpr (has_ordered_key_v<K>)
    if (r.algorithm == sort_algorithm::radix) return radix_sort(dev, keys, n, r.tuning);
  if (r.algorithm == sort_algorithm::merge)
    merge_sort(dev, keys, n, ak::isless{}, r.tuning);
  else
    throw ak::capability_error("ak::gpu::sort: sample_sort has no GPU implementation on " +
                               dev.name() + "; use ak::radix_sort, ak::merge_sort or ak::auto_alg");
}

}  // namespace ak::gpu
