// The kernels of ak::gpu::foreachindex and map, and the bodies of foreach_kernel that the
// element-wise algorithms run (copies, fills, gathers, reversals, counts), in the kernel language
// only.
#pragma once

#include <cstdint>
#include <type_traits>
#include "ak/kernel/kernel.hpp"

namespace ak::gpu::kernels {

// f(i) for every i in [0, n): each group covers block * items_per_thread consecutive indices,
// item l the indices l, l + block, ... (coalesced).
template <class F>
struct foreach_kernel {
  F f;
  std::int64_t n;
  int items_per_thread;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const std::int64_t bs = ctx.local_size(0);
    const std::int64_t base = ctx.group_id(0) * bs * items_per_thread + ctx.local_id(0);
    for (int k = 0; k < items_per_thread; ++k) {
      const std::int64_t i = base + k * bs;
      if (i < n) f(i);
    }
  }
};

// out[i] = f(in[i]) (a body of foreach_kernel).
template <class In, class Out, class F>
struct map_body {
  const In* in;
  Out* out;
  F f;
  AK_KERNEL_FN void operator()(std::int64_t i) const { out[i] = f(in[i]); }
};

template <class In, class Out, class F>
using map_kernel = foreach_kernel<map_body<In, Out, F>>;

// Sets p[i] = v for i in [0, n) (clears look-back state before a scan).
template <class T>
struct fill_kernel {
  T* p;
  T v;
  std::int64_t n;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const auto i = ctx.global_id(0);
    if (i < n) p[i] = v;
  }
};

// ---- element-wise bodies of foreach_kernel ---------------------------------------------------

template <class T>
struct reverse_body {  // swaps p[i] and p[n - 1 - i], for i < n / 2
  T* p;
  std::int64_t n;
  AK_KERNEL_FN void operator()(std::int64_t i) const {
    const T t = p[i];
    p[i] = p[n - 1 - i];
    p[n - 1 - i] = t;
  }
};

template <class T>
struct reverse_copy_body {
  const T* in;
  T* out;
  std::int64_t n;
  AK_KERNEL_FN void operator()(std::int64_t i) const { out[i] = in[n - 1 - i]; }
};

template <class T, class I>
struct gather_body {  // out[i] = src[idx[i]]
  const T* src;
  const I* idx;
  T* out;
  AK_KERNEL_FN void operator()(std::int64_t i) const { out[i] = src[idx[i]]; }
};

template <class T>
struct copy_body {
  const T* in;
  T* out;
  AK_KERNEL_FN void operator()(std::int64_t i) const { out[i] = in[i]; }
};

template <class T>
struct fill_body {
  T* p;
  T v;
  AK_KERNEL_FN void operator()(std::int64_t i) const { p[i] = v; }
};

struct sum_op {
  template <class T>
  AK_KERNEL_FN T operator()(T a, T b) const {
    return a + b;
  }
};

template <class T>
struct iota_body {
  T* out;
  AK_KERNEL_FN void operator()(std::int64_t i) const { out[i] = static_cast<T>(i); }
};

// 1 where pred(in[i]) holds (count, any, all through mapreduce).
template <class T, class Pred>
struct predicate_count {
  Pred pred;
  AK_KERNEL_FN std::int64_t operator()(const T& x) const { return pred(x) ? 1 : 0; }
};

}  // namespace ak::gpu::kernels
