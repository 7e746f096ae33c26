// The kernels of ak::gpu::merge_sort, in the kernel language only: sorted runs, then merge passes
// that each item does by a merge-path search.
#pragma once

#include <cstdint>
#include "ak/kernel/kernel.hpp"

namespace ak::gpu::kernels {

// Sorts each run of `run` consecutive keys (and values, when not null) in place, stably, one
// run per work-item (insertion sort: runs are short).
template <class K, class V, class Lt>
struct sort_runs_body {
  K* keys;
  V* values;
  std::int64_t n;
  std::int64_t run;
  Lt lt;
  AK_KERNEL_FN void operator()(std::int64_t r) const {
    const std::int64_t b = r * run, e = b + run < n ? b + run : n;
    for (std::int64_t i = b + 1; i < e; ++i) {
      const K k = keys[i];
      V v{};
      if (values) v = values[i];
      std::int64_t j = i;
      for (; j > b && lt(k, keys[j - 1]); --j) {
        keys[j] = keys[j - 1];
        if (values) values[j] = values[j - 1];
      }
      keys[j] = k;
      if (values) values[j] = v;
    }
  }
};

// One merge pass: merges the pairs of sorted runs of `width` elements of `in` into `out`, each
// work-item `items_per_thread` outputs, found by a merge-path search (stable: on ties the left
// run's element comes first).
template <class K, class V, class Lt>
struct merge_pass_kernel {
  const K* keys_in;
  K* keys_out;
  const V* values_in;  // null: keys only
  V* values_out;
  std::int64_t n;
  std::int64_t width;
  int items_per_thread;
  Lt lt;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const std::int64_t o = ctx.global_id(0) * items_per_thread;
    if (o >= n) return;
    const std::int64_t pair = o / (2 * width) * (2 * width);
    const std::int64_t a0 = pair, a1 = pair + width < n ? pair + width : n;
    const std::int64_t b0 = a1, b1 = pair + 2 * width < n ? pair + 2 * width : n;
    const std::int64_t na = a1 - a0, nb = b1 - b0;
    const std::int64_t d = o - pair;
    std::int64_t lo = d - nb > 0 ? d - nb : 0, hi = d < na ? d : na;
    while (lo < hi) {
      const std::int64_t mid = (lo + hi) / 2;
      if (!lt(keys_in[b0 + d - 1 - mid], keys_in[a0 + mid]))
        lo = mid + 1;
      else
        hi = mid;
    }
    std::int64_t i = a0 + lo, j = b0 + (d - lo);
    const std::int64_t end = o + items_per_thread < n ? o + items_per_thread : n;
    for (std::int64_t k = o; k < end; ++k) {
      const bool take_a = i < a1 && (j >= b1 || !lt(keys_in[j], keys_in[i]));
      const std::int64_t src = take_a ? i++ : j++;
      keys_out[k] = keys_in[src];
      if (values_in) values_out[k] = values_in[src];
    }
  }
};

}  // namespace ak::gpu::kernels
