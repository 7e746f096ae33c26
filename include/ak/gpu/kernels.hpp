// The GPU algorithms' kernels, in the kernel language only (they compile as CUDA device code:
// tests/sim/nvcc/gpu_kernels_check.cuh instantiates each). The host side that sizes, resolves and
// launches them is ak/gpu/algorithms.hpp.
//
// Operators must be associative (not necessarily commutative: values combine in element order),
// and `init` must be their neutral element: it pads partial tiles and starts every carry.
#pragma once

#include <cstdint>

#include "ak/kernel/kernel.hpp"

namespace ak::gpu::kernels {

using kernel::memory_order;
using kernel::memory_scope;

// ---- group-wide building blocks (every item of the group calls them, convergently) ------------

// The group's reduction of each item's `v`, in item order; valid in sub-group 0 (item 0 is where
// callers read it). `scratch` holds at least num_sub_groups() T of local memory.
template <class T, class Ctx, class Span, class Op>
AK_KERNEL_FN T group_reduce(Ctx& ctx, Span scratch, T v, Op op, T init) {
  const T r = ctx.sub_group_reduce(v, op);
  if (ctx.sub_group_lane() == 0) scratch[ctx.sub_group_id()] = r;
  ctx.barrier();
  T acc = init;
  if (ctx.sub_group_id() == 0) {
    const int nsg = ctx.num_sub_groups(), w = ctx.sub_group_size(), lane = ctx.sub_group_lane();
    for (int c = 0; c < nsg; c += w) {
      const T x = c + lane < nsg ? scratch[c + lane] : init;
      acc = op(acc, ctx.sub_group_reduce(x, op));
    }
  }
  ctx.barrier();  // scratch may be reused
  return acc;
}

// Each item's exclusive prefix of the items' `v` in item order (item 0 gets init); `total` gets
// the group's reduction in every item. `scratch` holds at least num_sub_groups() + 1 T.
template <class T, class Ctx, class Span, class Op>
AK_KERNEL_FN T group_exclusive_scan(Ctx& ctx, Span scratch, T v, Op op, T init, T& total) {
  const int lane = ctx.sub_group_lane(), sg = ctx.sub_group_id(), w = ctx.sub_group_size();
  const int nsg = ctx.num_sub_groups();
  const T inc = ctx.sub_group_inclusive_scan(v, op);
  T exc = ctx.shuffle_up(inc, 1);
  if (lane == 0) exc = init;
  if (lane == w - 1) scratch[sg] = inc;
  ctx.barrier();
  if (sg == 0) {
    T carry = init;
    for (int c = 0; c < nsg; c += w) {
      const T x = c + lane < nsg ? scratch[c + lane] : init;
      const T xi = ctx.sub_group_inclusive_scan(x, op);
      T xe = ctx.shuffle_up(xi, 1);
      if (lane == 0) xe = init;
      if (c + lane < nsg) scratch[c + lane] = op(carry, xe);
      carry = op(carry, ctx.shuffle(xi, w - 1));
    }
    if (lane == 0) scratch[nsg] = carry;
  }
  ctx.barrier();
  const T prefix = scratch[sg];
  total = scratch[nsg];
  ctx.barrier();  // scratch may be reused
  return op(prefix, exc);
}

// ---- foreachindex, map ---------------------------------------------------------------------

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

template <class In, class Out, class F>
struct map_kernel {
  const In* in;
  Out* out;
  F f;
  std::int64_t n;
  int items_per_thread;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const std::int64_t bs = ctx.local_size(0);
    const std::int64_t base = ctx.group_id(0) * bs * items_per_thread + ctx.local_id(0);
    for (int k = 0; k < items_per_thread; ++k) {
      const std::int64_t i = base + k * bs;
      if (i < n) out[i] = f(in[i]);
    }
  }
};

// ---- reduce ---------------------------------------------------------------------------------

// Group g reduces load(i) for i in [g * chunk, min((g + 1) * chunk, n)) into partials[g], tile by
// tile (block * items_per_thread elements; item l reduces its items_per_thread consecutive ones).
// Local memory: num_sub_groups() T.
template <class T, class Load, class Op>
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
      for (int k = 0; k < items_per_thread; ++k)
        if (b + k < end) v = op(v, load(b + k));
      const T r = group_reduce(ctx, scratch, v, op, init);
      if (lid == 0) acc = op(acc, r);
    }
    if (lid == 0) partials[ctx.group_id(0)] = acc;
  }
};

// Reads in[i] (the load of reduce_kernel for a plain reduction).
template <class T>
struct load_element {
  const T* in;
  AK_KERNEL_FN T operator()(std::int64_t i) const { return in[i]; }
};

// Reads f(in[i]) (mapreduce).
template <class T, class In, class F>
struct load_mapped {
  const In* in;
  F f;
  AK_KERNEL_FN T operator()(std::int64_t i) const { return static_cast<T>(f(in[i])); }
};

// ---- scan -------------------------------------------------------------------------------------

// The status of a tile in decoupled look-back: flags[t] is 0 (nothing yet), 1 (aggregates[t]
// holds the tile's own reduction) or 2 (prefixes[t] holds the reduction of tiles 0..t).
template <class T>
struct lookback_state {
  unsigned* tile_counter;  // dynamic tile ids, in the order groups start
  int* flags;
  T* aggregates;
  T* prefixes;
};

// Scans tiles of block * items_per_thread elements: staged through local memory (coalesced),
// each item scans its items_per_thread consecutive elements after a group scan of the items'
// totals. The carry into a tile is tile_prefix[t] (reduce-then-scan), init (a single tile), or
// found by decoupled look-back when `lookback.flags` is set. in may equal out.
// Local memory: scan_local_bytes<T>(block, items_per_thread, num_sub_groups).
template <class T, class Op>
struct scan_kernel {
  const T* in;
  T* out;
  std::int64_t n;
  int items_per_thread;
  Op op;
  T init;
  bool inclusive;
  const T* tile_prefix;  // may be null
  lookback_state<T> lookback;

  static constexpr AK_KERNEL_FN std::size_t align_up(std::size_t x, std::size_t a) {
    return (x + a - 1) / a * a;
  }
  static constexpr AK_KERNEL_FN std::size_t tile_offset() {
    return align_up(sizeof(std::int64_t), alignof(T));
  }
  static constexpr AK_KERNEL_FN std::size_t local_bytes(std::size_t block, std::size_t ipt,
                                                        std::size_t sub_groups) {
    return tile_offset() + (block * ipt + sub_groups + 2) * sizeof(T);
  }

  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const int nsg = ctx.num_sub_groups();
    const std::int64_t bs = ctx.local_size(0), lid = ctx.local_id(0);
    const std::int64_t tile_n = bs * items_per_thread;
    auto id = kernel::local_array<std::int64_t>(ctx, 0, 1);
    auto tile = kernel::local_array<T>(ctx, tile_offset(), static_cast<std::size_t>(tile_n));
    auto scratch = kernel::local_array<T>(ctx, tile_offset() + tile_n * sizeof(T),
                                          static_cast<std::size_t>(nsg + 2));
    std::int64_t t = ctx.group_id(0);
    if (lookback.flags) {
      if (lid == 0)
        id[0] =
            ctx.atomic_add(lookback.tile_counter, 1u, memory_order::relaxed, memory_scope::device);
      ctx.barrier();
      t = id[0];
    }
    const std::int64_t base = t * tile_n;
    for (int k = 0; k < items_per_thread; ++k) {
      const std::int64_t j = k * bs + lid;
      tile[j] = base + j < n ? in[base + j] : init;
    }
    ctx.barrier();
    T v = init;
    for (int k = 0; k < items_per_thread; ++k) v = op(v, tile[lid * items_per_thread + k]);
    T total = init;
    const T excl = group_exclusive_scan(ctx, scratch, v, op, init, total);

    T carry = init;
    if (lookback.flags) {
      if (lid == 0) {
        T tile_excl = init;
        if (t == 0) {
          lookback.prefixes[0] = total;
          ctx.atomic_store(&lookback.flags[0], 2, memory_order::release, memory_scope::device);
        } else {
          lookback.aggregates[t] = total;
          ctx.atomic_store(&lookback.flags[t], 1, memory_order::release, memory_scope::device);
          T run = init;  // tiles j+1 .. t-1
          for (std::int64_t j = t - 1;; --j) {
            int f = 0;
            while ((f = ctx.atomic_load(&lookback.flags[j], memory_order::acquire,
                                        memory_scope::device)) == 0) {
            }
            if (f == 2) {
              tile_excl = op(lookback.prefixes[j], run);
              break;
            }
            run = op(lookback.aggregates[j], run);
          }
          lookback.prefixes[t] = op(tile_excl, total);
          ctx.atomic_store(&lookback.flags[t], 2, memory_order::release, memory_scope::device);
        }
        scratch[nsg + 1] = tile_excl;
      }
      ctx.barrier();
      carry = scratch[nsg + 1];
    } else if (tile_prefix) {
      carry = tile_prefix[t];
    }

    T acc = op(carry, excl);
    for (int k = 0; k < items_per_thread; ++k) {
      const std::int64_t j = lid * items_per_thread + k;
      const T x = tile[j];
      if (inclusive) {
        acc = op(acc, x);
        tile[j] = acc;
      } else {
        tile[j] = acc;
        acc = op(acc, x);
      }
    }
    ctx.barrier();
    for (int k = 0; k < items_per_thread; ++k) {
      const std::int64_t j = k * bs + lid;
      if (base + j < n) out[base + j] = tile[j];
    }
  }
};

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

}  // namespace ak::gpu::kernels
