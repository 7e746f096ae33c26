// The merge's one body, for both halves (merge.hpp): merge path (ak/kernel/merge_path.hpp). The
// output is cut into chunks of `chunk` elements; each chunk finds by binary search how many of
// its predecessors come from a (the split of its first diagonal), then merges its elements one by
// one. On the cpu a chunk is a task's worth; on a GPU-style device a work-item's.
#pragma once

#include <cstdint>

#include "ak/kernel/config.hpp"
#include "ak/kernel/merge_path.hpp"

namespace ak::detail {

// out[c * chunk, (c + 1) * chunk) of the stable merge of a[0, na) and b[0, nb) (both sorted by
// less; ties take a's elements first), with their values va, vb into vout (when vout is not
// null).
template <class K, class V, class Less>
struct merge_chunks {
  const K* a;
  std::int64_t na;
  const K* b;
  std::int64_t nb;
  const V* va;
  const V* vb;
  K* out;
  V* vout;
  std::int64_t chunk;
  Less less;

  AK_KERNEL_FN void operator()(std::int64_t c) const {
    const std::int64_t n = na + nb, d0 = c * chunk, d1 = n - d0 < chunk ? n : d0 + chunk;
    if (vout)
      kernel::merge_range(a, na, b, nb, d0, d1, less,
                          [this](std::int64_t k, bool from_a, std::int64_t at) {
                            out[k] = from_a ? a[at] : b[at];
                            vout[k] = from_a ? va[at] : vb[at];
                          });
    else
      kernel::merge_range(a, na, b, nb, d0, d1, less,
                          [this](std::int64_t k, bool from_a, std::int64_t at) {
                            out[k] = from_a ? a[at] : b[at];
                          });
  }
};

}  // namespace ak::detail
