// The GPU half of searchsortedfirst and searchsortedlast (the front is search.hpp): one binary
// search per query (ak::gpu's) in the order lt(by(.), by(.)), reversed when rev, with the tuning
// the front resolved; strided arrays are packed on the device first.
#pragma once

#include <cstdint>

#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/algorithms/options.hpp"

namespace ak::detail {

template <class T, class By, class Lt>
array<std::int64_t> gpu_searchsorted(const device& dev, const search_tuning& t, view<const T> s,
                                     view<const T> q, bool last, const search_options<By, Lt>& o) {
  array<std::int64_t> out(q.shape(), dev.memory());
  if (out.empty()) return out;
  const gpu_dense<T> sd(dev, s), qd(dev, q);
  gpu::detail::searchsorted_run(dev, sd.data(), s.size(), qd.data(), out.data(), q.size(),
                                sort_less<By, Lt>{o.by, o.lt, o.rev}, last, t);
  return out;
}

}  // namespace ak::detail
