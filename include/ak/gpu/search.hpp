// searchsortedfirst / searchsortedlast on GPU-style devices: one binary search per query.
#pragma once

#include <cstdint>

#include "ak/gpu/algorithms.hpp"

namespace ak::gpu {

// out[q] = the first i in [0, m] with !lt(sorted[i], queries[q]) (m when none): Julia's
// searchsortedfirst, 0-based. `sorted` is in the order lt (ak's order by default).
template <class T, class Lt = kernels::isless>
void searchsortedfirst(const ak::device& dev, const T* sorted, std::int64_t m, const T* queries,
                       std::int64_t* out, std::int64_t nq, Lt lt = {}) {
  detail::check_call(dev, nq, "ak::gpu::searchsortedfirst");
  const auto t = ak::tuning(search_hook{}, dev, tuning_dtype<T>());
  foreachindex(dev, nq, kernels::search_body<T, Lt>{sorted, m, queries, out, lt, false},
               {.block_size = t.block_size, .items_per_thread = 1});
}

// out[q] = the last i with !lt(queries[q], sorted[i]), or -1 when none.
template <class T, class Lt = kernels::isless>
void searchsortedlast(const ak::device& dev, const T* sorted, std::int64_t m, const T* queries,
                      std::int64_t* out, std::int64_t nq, Lt lt = {}) {
  detail::check_call(dev, nq, "ak::gpu::searchsortedlast");
  const auto t = ak::tuning(search_hook{}, dev, tuning_dtype<T>());
  foreachindex(dev, nq, kernels::search_body<T, Lt>{sorted, m, queries, out, lt, true},
               {.block_size = t.block_size, .items_per_thread = 1});
}

}  // namespace ak::gpu
