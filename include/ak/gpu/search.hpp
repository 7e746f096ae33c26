// searchsortedfirst / searchsortedlast on GPU-style devices: one binary search per query.
#pragma once

#include <cstdint>

#include "ak/gpu/algorithms.hpp"

namespace ak::gpu {

namespace detail {
// One binary search per query with a resolved tuning (every field set), on a device check_call
// has accepted: what the public algorithms call once they have resolved.
template <class T, class Lt>
void searchsorted_run(const ak::device& dev, const T* sorted, std::int64_t m, const T* queries,
                      std::int64_t* out, std::int64_t nq, Lt lt, bool last,
                      const search_tuning& t) {
  foreachindex(dev, nq, kernels::search_body<T, Lt>{sorted, m, queries, out, lt, last},
               {.block_size = t.block_size, .items_per_thread = 1});
}
}  // namespace detail

// out[q] = the first i in [0, m] with !lt(sorted[i], queries[q]) (m when none): Julia's
// searchsortedfirst, 0-based. `sorted` is in the order lt (ak's order by default).
template <class T, class Lt = ak::isless>
void searchsortedfirst(const ak::device& dev, const T* sorted, std::int64_t m, const T* queries,
                       std::int64_t* out, std::int64_t nq, Lt lt = {}) {
  detail::check_call(dev, nq, "ak::gpu::searchsortedfirst");
  detail::searchsorted_run(dev, sorted, m, queries, out, nq, lt, false,
                           ak::tuning(search_hook{}, dev, tuning_dtype<T>(), tuning_size(nq)));
}

// out[q] = the last i with !lt(queries[q], sorted[i]), or -1 when none.
template <class T, class Lt = ak::isless>
void searchsortedlast(const ak::device& dev, const T* sorted, std::int64_t m, const T* queries,
                      std::int64_t* out, std::int64_t nq, Lt lt = {}) {
  detail::check_call(dev, nq, "ak::gpu::searchsortedlast");
  detail::searchsorted_run(dev, sorted, m, queries, out, nq, lt, true,
                           ak::tuning(search_hook{}, dev, tuning_dtype<T>(), tuning_size(nq)));
}

}  // namespace ak::gpu
