// Kernels of the GPU reductions and scans along dimensions of n-d arrays (ak/gpu/dims.hpp), in the
// kernel language only. Arrays are described by shapes and element strides (any strides; up to 8
// dimensions); reduced and scanned elements combine in row-major order (the last dimension
// fastest), so operators need not be commutative.
#pragma once

#include <cstdint>

#include "ak/gpu/group/reduce.hpp"
#include "ak/gpu/group/scan.hpp"
#include "ak/gpu/kernels/scan.hpp"
#include "ak/kernel/kernel.hpp"

namespace ak::gpu::kernels {

inline constexpr int max_dims = 8;

// An index space of `rank` dimensions (row-major linear indices) mapped to element offsets.
struct strided_space {
  int rank = 0;
  std::int64_t shape[max_dims] = {};
  std::int64_t stride[max_dims] = {};

  AK_KERNEL_FN std::int64_t size() const {
    std::int64_t s = 1;
    for (int d = 0; d < rank; ++d) s *= shape[d];
    return s;
  }
  // linear must be below size(): what is left after the inner dimensions indexes dimension 0
  // without a division (64-bit divisions are slow on GPUs; a 1-d space needs none).
  AK_KERNEL_FN std::int64_t offset(std::int64_t linear) const {
    std::int64_t off = 0;
    for (int d = rank - 1; d > 0; --d) {
      off += (linear % shape[d]) * stride[d];
      linear /= shape[d];
    }
    return rank > 0 ? off + linear * stride[0] : off;
  }
};

// init op base[space.offset(b)] op ... op base[space.offset(e - 1)], sequentially.
template <class T, class Op>
AK_KERNEL_INLINE T reduce_strided(const T* base, const strided_space& space, std::int64_t b,
                                  std::int64_t e, Op op, T init) {
  T v = init;
  for (std::int64_t r = b; r < e; ++r) v = op(v, base[space.offset(r)]);
  return v;
}

// out[o] = the reduction over the reduced space of in[kept.offset(o) + reduced.offset(r)].
// One group per output: each item reduces a contiguous run of the reduced range, then the group.
// Local memory: num_sub_groups() T.
template <class T, class Op>
struct reduce_dims_group_kernel {
  const T* in;
  T* out;
  strided_space kept;
  strided_space reduced;
  Op op;
  T init;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    auto scratch = kernel::local_array<T>(ctx, 0, static_cast<std::size_t>(ctx.num_sub_groups()));
    const std::int64_t o = ctx.group_id(0);
    const std::int64_t r_n = reduced.size();
    const std::int64_t bs = ctx.local_size(0);
    const std::int64_t chunk = (r_n + bs - 1) / bs;
    const std::int64_t b = ctx.local_id(0) * chunk;
    const std::int64_t e = b + chunk < r_n ? b + chunk : r_n;
    const T v = reduce_strided(in + kept.offset(o), reduced, b, e, op, init);
    const T total = group_reduce(ctx, scratch, v, op, init);
    if (ctx.local_id(0) == 0) out[o] = total;
  }
};

// The same with one work-item per output (many outputs, short reductions).
template <class T, class Op>
struct reduce_dims_item_body {
  const T* in;
  T* out;
  strided_space kept;
  strided_space reduced;
  Op op;
  T init;
  AK_KERNEL_FN void operator()(std::int64_t o) const {
    out[o] = reduce_strided(in + kept.offset(o), reduced, 0, reduced.size(), op, init);
  }
};

// Scans along one dimension: line l starts at lines.offset(l) in both arrays (with their own
// strides) and has `len` elements `in_step` / `out_step` apart. One work-item per line.
template <class T, class Op>
struct scan_dim_item_body {
  const T* in;
  T* out;
  strided_space in_lines;
  strided_space out_lines;
  std::int64_t len;
  std::int64_t in_step;
  std::int64_t out_step;
  Op op;
  T init;
  bool inclusive;
  AK_KERNEL_FN void operator()(std::int64_t l) const {
    const T* src = in + in_lines.offset(l);
    T* dst = out + out_lines.offset(l);
    T acc = init;
    for (std::int64_t i = 0; i < len; ++i)
      scan_step(acc, src[i * in_step], dst[i * out_step], op, inclusive);
  }
};

// One group per line (few, long lines): tiles of block * items_per_thread elements, each item
// scanning its consecutive run after a group scan, the carry passed from tile to tile.
// Local memory: num_sub_groups() + 1 T.
template <class T, class Op>
struct scan_dim_group_kernel {
  const T* in;
  T* out;
  strided_space in_lines;
  strided_space out_lines;
  std::int64_t len;
  std::int64_t in_step;
  std::int64_t out_step;
  int items_per_thread;
  Op op;
  T init;
  bool inclusive;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    auto scratch =
        kernel::local_array<T>(ctx, 0, static_cast<std::size_t>(ctx.num_sub_groups() + 1));
    const std::int64_t l = ctx.group_id(0);
    const T* src = in + in_lines.offset(l);
    T* dst = out + out_lines.offset(l);
    const std::int64_t bs = ctx.local_size(0), lid = ctx.local_id(0);
    const std::int64_t tile = bs * items_per_thread;
    T carry = init;
    for (std::int64_t t0 = 0; t0 < len; t0 += tile) {
      const std::int64_t b = t0 + lid * items_per_thread;
      T v = init;
      for (int k = 0; k < items_per_thread; ++k)
        if (b + k < len) v = op(v, src[(b + k) * in_step]);
      T total = init;
      const T excl = group_exclusive_scan(ctx, scratch, v, op, init, total);
      T acc = op(carry, excl);
      for (int k = 0; k < items_per_thread && b + k < len; ++k)
        scan_step(acc, src[(b + k) * in_step], dst[(b + k) * out_step], op, inclusive);
      carry = op(carry, total);
    }
  }
};

// out[o] = f(a[a_space.offset(o)], b[b_space.offset(o)]) for o in [0, n): n-d broadcasting, where
// a stride of 0 repeats an operand along that dimension (a body of foreach_kernel).
template <class A, class B, class Out, class F>
struct broadcast_body {
  const A* a;
  const B* b;
  Out* out;
  strided_space a_space;
  strided_space b_space;
  strided_space out_space;
  F f;
  AK_KERNEL_FN void operator()(std::int64_t o) const {
    out[out_space.offset(o)] = f(a[a_space.offset(o)], b[b_space.offset(o)]);
  }
};

}  // namespace ak::gpu::kernels
