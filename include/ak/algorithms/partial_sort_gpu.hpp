// The GPU half of partialsort and partialsortperm (the front is partial_sort.hpp): for numbers in
// ak's order, the threshold of the selection comes from radix selection (ak/gpu/radix_select.hpp)
// instead of a sample, so it lets through at least k elements and, for distinct keys, few more.
#pragma once

#include <cstdint>

#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/gpu/radix_select.hpp"

namespace ak::detail {

// An element t such that at least k of v (0 < k <= v.size()) are not after t in ak's order
// (reversed when rev), and at most `enough` are unless the k-th element's key has to be found
// whole (then those equal to it come too).
template <class T>
T gpu_partial_threshold(const device& dev, view<const T> v, std::int64_t k, bool rev,
                        std::int64_t enough) {
  const select_tuning t =
      tuning(select_hook{}, dev, tuning_dtype<T>(), select_tuning{}, {v.size()});
  const gpu_dense<T> d(dev, v);
  const ordered_key_t<T> u =
      gpu::detail::radix_select_key(dev, t, d.data(), v.size(), k, rev, enough);
  return from_ordered_key<T>(rev ? static_cast<ordered_key_t<T>>(~u) : u);
}

}  // namespace ak::detail
