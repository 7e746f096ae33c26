// The kernels of ak::gpu::merge_sort, in the kernel language only: sorted runs, then merge passes
// that each item does by a merge-path search.
#pragma once

#include <cstdint>
#include "ak/kernel/kernel.hpp"
#include "ak/kernel/merge_path.hpp"

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
    const std::int64_t end = o + items_per_thread < n ? o + items_per_thread : n;
    kernel::merge_range(keys_in + a0, na, keys_in + b0, nb, o - pair, end - pair, lt,
                        [&](std::int64_t k, bool from_a, std::int64_t at) {
                          const std::int64_t src = (from_a ? a0 : b0) + at;
                          keys_out[pair + k] = keys_in[src];
                          if (values_in) values_out[pair + k] = values_in[src];
                        });
  }
};

}  // namespace ak::gpu::kernels
