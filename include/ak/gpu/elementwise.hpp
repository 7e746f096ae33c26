// GPU algorithms over elements: reverse, gather (take), count, any, all. Device pointers, as in
// ak/gpu/algorithms.hpp.
#pragma once

#include <cstdint>

#include "ak/gpu/algorithms.hpp"

namespace ak::gpu {

// Reverses p[0, n) in place.
template <class T>
void reverse(const ak::device& dev, T* p, std::int64_t n) {
  detail::check_call(dev, n, "ak::gpu::reverse");
  foreachindex(dev, n / 2, kernels::reverse_body<T>{p, n});
}

// out[i] = in[n - 1 - i]; in and out must not overlap.
template <class T>
void reverse_copy(const ak::device& dev, const T* in, T* out, std::int64_t n) {
  detail::check_call(dev, n, "ak::gpu::reverse_copy");
  foreachindex(dev, n, kernels::reverse_copy_body<T>{in, out, n});
}

// out[i] = src[idx[i]] for i in [0, n); every index must be valid (the public API checks them).
template <class T, class I>
void gather(const ak::device& dev, const T* src, const I* idx, T* out, std::int64_t n) {
  detail::check_call(dev, n, "ak::gpu::gather");
  foreachindex(dev, n, kernels::gather_body<T, I>{src, idx, out});
}

// How many of in[0, n) satisfy pred.
template <class T, class Pred>
std::int64_t count(const ak::device& dev, const T* in, std::int64_t n, Pred pred) {
  return mapreduce(dev, in, n, kernels::predicate_count<T, Pred>{pred}, kernels::sum_op{},
                   std::int64_t{0});
}

template <class T, class Pred>
bool any(const ak::device& dev, const T* in, std::int64_t n, Pred pred) {
  return count(dev, in, n, pred) > 0;
}

template <class T, class Pred>
bool all(const ak::device& dev, const T* in, std::int64_t n, Pred pred) {
  return count(dev, in, n, pred) == n;
}

}  // namespace ak::gpu
