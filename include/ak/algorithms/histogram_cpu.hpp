// The cpu half of histogram (the front is histogram.hpp), with the tuning the front resolved: each
// task counts a chunk of at least as many elements as there are bins into histograms of its own
// (four interleaved ones for up to 1024 bins, so that runs of equal bins do not wait on each
// other's increments, except for integer even bins: see below), then each bin's counts are
// summed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "ak/algorithms/detail/histogram_common.hpp"
#include "ak/algorithms/elementwise_cpu.hpp"
#include "ak/backends/cpu/parallel.hpp"
#include "ak/core/array.hpp"
#include "ak/runtime/hooks.hpp"

namespace ak::detail {

template <class T, class Bin>
array<std::int64_t> cpu_histogram(const select_tuning& t, view<const T> v, const Bin& bin,
                                  std::int64_t bins) {
  array<std::int64_t> out(shape{bins}, std::int64_t{0});
  const cpu_dense<T> d(t.cpu_grain, v);
  const T* p = d.data();
  const cpu::chunks c =
      cpu::plan_chunks(v.size(), std::max(t.cpu_grain, bins), cpu::balanced_task_limit());
  if (c.count == 0) return out;
  // An integer's even bin takes long enough (its exact 128-bit correction, histogram_common.hpp)
  // to hide an increment's wait: four histograms were 3-8% slower than one there (one thread, 1e7
  // int64, random, sorted and in a narrow range), and 25-33% faster for float32 (2026-12-06).
  constexpr bool slow_bin = std::is_same_v<Bin, even_bin<T>> && !std::is_floating_point_v<T>;
  const std::int64_t ways = bins <= 1024 && !slow_bin ? 4 : 1;
  std::vector<std::int64_t> hist(static_cast<std::size_t>(c.count * ways * bins), 0);
  cpu::parallel_tasks(c.count, [&](std::int64_t k) {
    const Bin bin_of = bin;  // a local copy: the counts' stores cannot alias its fields
    std::int64_t* h = hist.data() + k * ways * bins;
    std::int64_t i = c.begin(k);
    const std::int64_t e = c.end(k);
    if (ways == 4)
      for (; i + 4 <= e; i += 4)
        for (std::int64_t w = 0; w < 4; ++w) {
          const std::int64_t j = bin_of(p[i + w]);
          if (j >= 0) ++h[w * bins + j];
        }
    for (; i < e; ++i) {
      const std::int64_t j = bin_of(p[i]);
      if (j >= 0) ++h[j];
    }
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
