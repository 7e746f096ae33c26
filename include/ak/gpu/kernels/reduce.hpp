// The kernels of ak::gpu::reduce and mapreduce, in the kernel language only: each group reduces
// its tiles (vector loads, a per-item tree, then the group's reduction).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include "ak/gpu/group/reduce.hpp"
#include "ak/kernel/kernel.hpp"

namespace ak::gpu::kernels {

// Vector loads: VW consecutive elements of an array read as one load (VW * sizeof(In) bytes at
// most 16, aligned to that size). Only loads that read a plain array (load_element, load_mapped:
// they name the array `in` and the per-element conversion `convert`) are read this way.
template <class In, int VW>
struct alignas(sizeof(In) * VW) vector_of {
  In v[VW];
};

template <class V, class In>
AK_KERNEL_INLINE V load_vector(const In* p) {
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<const V*>(p);  // one ld.global.v2/v4
#else
  V v;  // a copy, not an aliasing read: the host compiler turns it into one load as well
  std::memcpy(&v, p, sizeof(V));
  return v;
#endif
}

// The reduction of x[0, E) as a balanced tree: independent operations the hardware overlaps.
template <int E, class T, class Op>
AK_KERNEL_INLINE T tree_reduce(const T* x, Op op) {
  if constexpr (E == 1)
    return x[0];
  else
    return op(tree_reduce<E / 2>(x, op), tree_reduce<E - E / 2>(x + E / 2, op));
}

// Group g reduces load(i) for i in [g * chunk, min((g + 1) * chunk, n)) into partials[g], tile by
// tile (block * items_per_thread elements; item l reduces its items_per_thread consecutive ones,
// VW at a time by vector loads when VW > 1: then items_per_thread is a multiple of VW, and chunk
// and load.in are aligned to VW elements). Local memory: num_sub_groups() T.
template <class T, class Load, class Op, int VW = 1>
struct reduce_kernel {
  Load load;
  T* partials;
  std::int64_t n;
  std::int64_t chunk;
  int items_per_thread;
  Op op;
  T init;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    auto scratch = kernel::local_array<T>(ctx, 0, static_cast<std::size_t>(ctx.num_sub_groups()));
    const std::int64_t bs = ctx.local_size(0), lid = ctx.local_id(0);
    const std::int64_t start = ctx.group_id(0) * chunk;
    const std::int64_t end = start + chunk < n ? start + chunk : n;
    T acc = init;
    for (std::int64_t tile = start; tile < end; tile += bs * items_per_thread) {
      T v = init;
      const std::int64_t b = tile + lid * items_per_thread;
      if constexpr (VW > 1) {
        using V = vector_of<typename Load::input, VW>;
        if (b + items_per_thread <= end) {
          for (int k = 0; k < items_per_thread; k += VW) {
            const V x = load_vector<V>(load.in + b + k);
            for (int e = 0; e < VW; ++e) v = op(v, load.convert(x.v[e]));
          }
        } else {
          for (int k = 0; k < items_per_thread; ++k)
            if (b + k < end) v = op(v, load(b + k));
        }
      } else {
        for (int k = 0; k < items_per_thread; ++k)
          if (b + k < end) v = op(v, load(b + k));
      }
      const T r = group_reduce(ctx, scratch, v, op, init);
      if (lid == 0) acc = op(acc, r);
    }
    if (lid == 0) partials[ctx.group_id(0)] = acc;
  }
};

// The same reduction for commutative operators: item l of group g reduces load(i) for i = start +
// l, start + l + block, ... (each load coalesced across the group, eight elements in flight per
// item; with VW > 1, vectors j = start / VW + l, + block, ... of VW elements each, then the
// elements past the last whole vector one by one), then one group reduction. Elements combine in
// a fixed order that is not element order, so the result is the same run to run for a given
// tuning but the operator must be commutative. Local memory: as reduce_kernel.
template <class T, class Load, class Op, int VW = 1>
struct reduce_striped_kernel {
  Load load;
  T* partials;
  std::int64_t n;
  std::int64_t chunk;
  Op op;
  T init;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    auto scratch = kernel::local_array<T>(ctx, 0, static_cast<std::size_t>(ctx.num_sub_groups()));
    const std::int64_t bs = ctx.local_size(0);
    const std::int64_t start = ctx.group_id(0) * chunk;
    const std::int64_t end = start + chunk < n ? start + chunk : n;
    constexpr int per_step = VW > 8 ? VW : 8;  // elements per item per step
    constexpr int vectors = per_step / VW;
    T acc = init;
    std::int64_t i = start + ctx.local_id(0);
    if constexpr (VW > 1) {
      using V = vector_of<typename Load::input, VW>;
      const std::int64_t vend = end / VW;  // start is a multiple of VW
      std::int64_t j = start / VW + ctx.local_id(0);
      for (; j + (vectors - 1) * bs < vend; j += vectors * bs) {
        T x[per_step];
        for (int u = 0; u < vectors; ++u) {
          const V v = load_vector<V>(load.in + (j + u * bs) * VW);
          for (int e = 0; e < VW; ++e) x[u * VW + e] = load.convert(v.v[e]);
        }
        acc = op(acc, tree_reduce<per_step>(x, op));
      }
      for (; j < vend; j += bs) {
        const V v = load_vector<V>(load.in + j * VW);
        for (int e = 0; e < VW; ++e) acc = op(acc, load.convert(v.v[e]));
      }
      i = vend * VW + ctx.local_id(0);
    } else {
      for (; i + 7 * bs < end; i += 8 * bs) {
        T x[8];
        for (int u = 0; u < 8; ++u) x[u] = load(i + u * bs);
        acc = op(acc, tree_reduce<8>(x, op));
      }
    }
    for (; i < end; i += bs) acc = op(acc, load(i));
    const T r = group_reduce(ctx, scratch, acc, op, init);
    if (ctx.local_id(0) == 0) partials[ctx.group_id(0)] = r;
  }
};

// Reads in[i] (the load of reduce_kernel for a plain reduction).
template <class T>
struct load_element {
  using input = T;
  const T* in;
  AK_KERNEL_FN T convert(T x) const { return x; }
  AK_KERNEL_FN T operator()(std::int64_t i) const { return in[i]; }
};

// Reads f(in[i]) (mapreduce).
template <class T, class In, class F>
struct load_mapped {
  using input = In;
  const In* in;
  F f;
  AK_KERNEL_FN T convert(In x) const { return static_cast<T>(f(x)); }
  AK_KERNEL_FN T operator()(std::int64_t i) const { return convert(in[i]); }
};

}  // namespace ak::gpu::kernels
