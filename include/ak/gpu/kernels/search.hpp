// The body of ak::gpu::searchsortedfirst / searchsortedlast, in the kernel language only.
#pragma once

#include <cstdint>
#include "ak/core/operators.hpp"
#include "ak/kernel/kernel.hpp"

namespace ak::gpu::kernels {

// out[q] = the first i with !lt(sorted[i], queries[q]) (or m), or with `last` the last i with
// !lt(queries[q], sorted[i]) (or -1).
template <class T, class Lt>
struct search_body {
  const T* sorted;
  std::int64_t m;
  const T* queries;
  std::int64_t* out;
  Lt lt;
  bool last;
  AK_KERNEL_FN void operator()(std::int64_t q) const {
    const T x = queries[q];
    std::int64_t lo = 0, hi = m;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      const bool go_right = last ? !lt(x, sorted[mid]) : lt(sorted[mid], x);
      if (go_right)
        lo = mid + 1;
      else
        hi = mid;
    }
    out[q] = last ? lo - 1 : lo;
  }
};

}  // namespace ak::gpu::kernels
