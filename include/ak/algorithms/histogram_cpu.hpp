// The cpu half of histogram (the front is histogram.hpp), with the tuning the front resolved: each
// task counts a chunk of at least as many elements as there are bins into histograms of its own
// (four interleaved ones for up to 1024 bins, so that runs of equal bins do not wait on each
// other's increments, except for scalar integer even bins: see below), then each bin's counts are
// summed. Even bins of floats and of 4- and 8-byte integers are computed by the vector code
// (cpu/vector_loops.hpp); keys of at most 16 bits are counted by value, then each value's count
// goes to its bin (count_values).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "ak/algorithms/detail/histogram_common.hpp"
#include "ak/algorithms/elementwise_cpu.hpp"
#include "ak/backends/cpu/parallel.hpp"
#include "ak/backends/cpu/vector_loops.hpp"
#include "ak/core/array.hpp"
#include "ak/runtime/hooks.hpp"

namespace ak::detail {

// Keys of one or two bytes, read as their unsigned form U: each value counted (one byte: in four
// interleaved arrays of 256 counters, 4 KiB in the L1 cache, so that runs of equal keys do not
// wait on each other's increments; two bytes: one array of 65536, 256 KiB), then each value's
// count added to its bin. table: the bin of each value from the lowest, -1 for none; `flip`: the
// keys are signed, so the unsigned form u is the value u ^ (the sign bit) from the lowest. No
// lookup and no test per key: a test of the bin's range mispredicts wherever a share of the keys
// is out of it. 32-bit counters, folded into h every `slab` keys (at most 2^32 - 1).
template <class U>
void count_values(const U* p, std::int64_t n, const std::int32_t* table, bool flip, std::int64_t* h,
                  std::int64_t slab = std::int64_t{1} << 30) {
  constexpr std::size_t values = std::size_t{1} << (8 * sizeof(U));
  constexpr std::size_t ways = sizeof(U) == 1 ? 4 : 1;
  const std::size_t sign = flip ? values / 2 : 0;
  std::vector<std::uint32_t> counters(ways * values);
  std::uint32_t* const c = counters.data();
  for (std::int64_t at = 0; at < n; at += slab) {
    const std::int64_t m = std::min(slab, n - at);
    const U* const q = p + at;
    if (at > 0) std::fill(counters.begin(), counters.end(), 0u);
    std::int64_t i = 0;
    if constexpr (ways == 4)
      for (; i + 4 <= m; i += 4) {
        ++c[q[i]];
        ++c[values + q[i + 1]];
        ++c[2 * values + q[i + 2]];
        ++c[3 * values + q[i + 3]];
      }
    for (; i < m; ++i) ++c[q[i]];
    for (std::size_t u = 0; u < values; ++u) {
      std::int64_t sum = 0;
      for (std::size_t w = 0; w < ways; ++w) sum += c[w * values + u];
      const std::int32_t j = table[u ^ sign];
      if (j >= 0) h[j] += sum;
    }
  }
}

template <class T, class Bin>
array<std::int64_t> cpu_histogram(const select_tuning& t, view<const T> v, const Bin& bin,
                                  std::int64_t bins) {
  array<std::int64_t> out(shape{bins}, std::int64_t{0});
  const cpu_dense<T> d(t.cpu_grain, v);
  const T* p = d.data();
  // Even bins of floats and of 4- and 8-byte integers are computed a block at a time by the vector
  // code (floats: a multiply, subtract and multiply in double and a conversion per key, which the
  // x86-64 baseline does one key at a time; integers: an estimate in double and the exact test of
  // its neighbours in vector products, instead of the scalar bin's 128-bit ones), then counted.
  constexpr bool even = std::is_same_v<Bin, even_bin<T>>;
  constexpr bool float_bins = even && (std::is_same_v<T, float> || std::is_same_v<T, double>);
  constexpr bool int_bins =
      even && (std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> ||
               std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>);
  const bool vector_bins =
      (float_bins || int_bins) && bins <= std::numeric_limits<std::int32_t>::max();
  // Keys of at most 16 bits, at least twice as many as their type has values: counted by value
  // (count_values), then each value's count goes to its bin, from a table that the bin itself
  // makes (a bin of any kind for every value). Each task then takes at least twice as many keys
  // as there are values, so that the counters' clearing and folding stay a small share.
  constexpr bool small_keys = std::is_integral_v<T> && !std::is_same_v<T, bool> && sizeof(T) <= 2;
  constexpr std::int64_t values = std::int64_t{1} << (small_keys ? 8 * sizeof(T) : 0);
  std::vector<std::int32_t> table;
  if constexpr (small_keys)
    if (v.size() >= 2 * values && bins <= std::numeric_limits<std::int32_t>::max()) {
      table.resize(static_cast<std::size_t>(values));
      for (std::int64_t k = 0; k < values; ++k)
        table[static_cast<std::size_t>(k)] = static_cast<std::int32_t>(
            bin(static_cast<T>(std::int64_t{std::numeric_limits<T>::lowest()} + k)));
    }
  const cpu::chunks c =
      cpu::plan_chunks(v.size(), std::max({t.cpu_grain, bins, table.empty() ? 0 : 2 * values}),
                       cpu::balanced_task_limit());
  if (c.count == 0) return out;
  // Four interleaved histograms per task for up to 1024 bins; one where keys are counted by value
  // (count_values keeps its own), or where a scalar integer bin takes long enough (its exact
  // 128-bit correction, histogram_common.hpp) to hide an increment's wait: four histograms were
  // 3-8% slower than one there (one thread, 1e7 int64, random, sorted and in a narrow range), and
  // 25-33% faster for float32 (2026-12-06).
  const bool slow_bin = even && !std::is_floating_point_v<T> && !vector_bins;
  const std::int64_t ways = bins <= 1024 && !slow_bin && table.empty() ? 4 : 1;
  std::vector<std::int64_t> hist(static_cast<std::size_t>(c.count * ways * bins), 0);
  cpu::parallel_tasks(c.count, [&](std::int64_t k) {
    const Bin bin_of = bin;  // a local copy: the counts' stores cannot alias its fields
    std::int64_t* h = hist.data() + k * ways * bins;
    const auto add = [h, bins](std::int64_t j, std::int64_t w) {
      if (j >= 0) ++h[w * bins + j];
    };
    // bin(q) for q in [0, m) into the `ways` histograms in turn.
    const auto count = [&](std::int64_t m, const auto& bin_at) {
      std::int64_t q = 0;
      if (ways == 4)
        for (; q + 4 <= m; q += 4)
          for (std::int64_t w = 0; w < 4; ++w) add(bin_at(q + w), w);
      for (; q < m; ++q) add(bin_at(q), 0);
    };
    std::int64_t i = c.begin(k);
    const std::int64_t e = c.end(k);
    if constexpr (small_keys)
      if (!table.empty()) {
        using U = std::make_unsigned_t<T>;
        count_values(reinterpret_cast<const U*>(p) + i, e - i, table.data(), std::is_signed_v<T>,
                     h);
        return;
      }
    if constexpr (float_bins || int_bins) {
      if (vector_bins) {
        constexpr std::int64_t block = 1024;
        std::int32_t j[block];
        for (; i < e; i += block) {
          const std::int64_t len = std::min(block, e - i);
          std::int64_t m = 0;
          if constexpr (float_bins)
            m = cpu::even_bin_indices(p + i, len, bin_of.lower, bin_of.upper, bin_of.scaling,
                                      bin_of.origin, bin_of.scale, bin_of.count, j);
          else
            m = cpu::even_bin_indices(p + i, len, bin_of.lower,
                                      bin_of.offset(bin_of.upper, bin_of.lower), bin_of.count, j);
          count(m, [&](std::int64_t q) { return std::int64_t{j[q]}; });
          for (std::int64_t q = m; q < len; ++q) add(bin_of(p[i + q]), 0);
        }
        return;
      }
    }
    count(e - i, [&](std::int64_t q) { return bin_of(p[i + q]); });
  });
  std::int64_t* o = out.data();
  const std::int64_t rows = c.count * ways;
  cpu::parallel_for(bins, t.cpu_grain, [&](std::int64_t b) {
    std::int64_t s = 0;
    for (std::int64_t r = 0; r < rows; ++r) s += hist[static_cast<std::size_t>(r * bins + b)];
    o[b] = s;
  });
  return out;
}

}  // namespace ak::detail
