// The GPU algorithms' kernels, in the kernel language only (they compile as CUDA device code:
// tests/sim/nvcc/gpu_kernels_check.cuh instantiates each). The host side that sizes, resolves and
// launches them is ak/gpu/algorithms.hpp.
//
// Operators must be associative (not necessarily commutative: values combine in element order),
// and `init` must be their neutral element: it pads partial tiles and starts every carry.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ak/core/operators.hpp"
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

// ---- reduce ---------------------------------------------------------------------------------

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

// ---- scan -------------------------------------------------------------------------------------

// One element of a sequential scan: `acc` holds the prefix before x; stores the inclusive
// (acc op x) or the exclusive (acc) prefix to `dst` and advances acc past x. x is taken by value,
// so dst may be the element x was read from.
template <class T, class Op>
AK_KERNEL_INLINE void scan_step(T& acc, T x, T& dst, Op op, bool inclusive) {
  if (inclusive) {
    acc = op(acc, x);
    dst = acc;
  } else {
    dst = acc;
    acc = op(acc, x);
  }
}

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
// Local memory: local_bytes(block, items_per_thread, num_sub_groups).
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
  // Where element j of the tile lives: one pad slot every 32 elements, so that items reading
  // their items_per_thread consecutive elements hit distinct local-memory banks.
  static constexpr AK_KERNEL_FN std::int64_t slot(std::int64_t j) { return j + j / 32; }
  static constexpr AK_KERNEL_FN std::size_t local_bytes(std::size_t block, std::size_t ipt,
                                                        std::size_t sub_groups) {
    return tile_offset() + (block * ipt + block * ipt / 32 + 1 + sub_groups + 2) * sizeof(T);
  }

  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const int nsg = ctx.num_sub_groups();
    const std::int64_t bs = ctx.local_size(0), lid = ctx.local_id(0);
    const std::int64_t tile_n = bs * items_per_thread;
    const std::int64_t tile_slots = slot(tile_n - 1) + 1;
    auto id = kernel::local_array<std::int64_t>(ctx, 0, 1);
    auto tile = kernel::local_array<T>(ctx, tile_offset(), static_cast<std::size_t>(tile_slots));
    auto scratch = kernel::local_array<T>(ctx, tile_offset() + tile_slots * sizeof(T),
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
      tile[slot(j)] = base + j < n ? in[base + j] : init;
    }
    ctx.barrier();
    T v = init;
    for (int k = 0; k < items_per_thread; ++k) v = op(v, tile[slot(lid * items_per_thread + k)]);
    T total = init;
    const T excl = group_exclusive_scan(ctx, scratch, v, op, init, total);

    T carry = init;
    if (lookback.flags) {
      if (ctx.sub_group_id() == 0) {  // t is the same for the whole group
        T tile_excl = init;
        if (t > 0) {
          tile_excl = look_back(ctx, t, total);
        } else if (ctx.sub_group_lane() == 0) {
          lookback.prefixes[0] = total;
          ctx.atomic_store(&lookback.flags[0], 2, memory_order::release, memory_scope::device);
        }
        if (ctx.sub_group_lane() == 0) scratch[nsg + 1] = tile_excl;
      }
      ctx.barrier();
      carry = scratch[nsg + 1];
    } else if (tile_prefix) {
      carry = tile_prefix[t];
    }

    T acc = op(carry, excl);
    for (int k = 0; k < items_per_thread; ++k) {
      const std::int64_t j = slot(lid * items_per_thread + k);
      scan_step(acc, tile[j], tile[j], op, inclusive);
    }
    ctx.barrier();
    for (int k = 0; k < items_per_thread; ++k) {
      const std::int64_t j = k * bs + lid;
      if (base + j < n) out[base + j] = tile[slot(j)];
    }
  }

  // Decoupled look-back by sub-group 0 of tile t > 0: publishes the tile's aggregate, then reads
  // its predecessors a sub-group-wide window at a time (lane l: tile lo + l, oldest first), each
  // lane waiting until its tile has published something. The window's newest prefix ends the
  // search; the aggregates after it, and those of the windows already passed, complete the
  // carry, combined oldest first. Publishes the tile's prefix and returns its carry.
  template <class Ctx>
  AK_KERNEL_FN T look_back(Ctx& ctx, std::int64_t t, const T& total) const {
    const int w = ctx.sub_group_size(), lane = ctx.sub_group_lane();
    if (lane == 0) {
      lookback.aggregates[t] = total;
      ctx.atomic_store(&lookback.flags[t], 1, memory_order::release, memory_scope::device);
    }
    T newer = init;  // tiles after the current window, up to t - 1
    for (std::int64_t hi = t - 1;; hi -= w) {
      const std::int64_t j = hi - (w - 1) + lane;
      int f = 1;  // tiles before 0 (never reached past tile 0's prefix) count as init
      if (j >= 0)
        while ((f = ctx.atomic_load(&lookback.flags[j], memory_order::acquire,
                                    memory_scope::device)) == 0) {
        }
      const std::uint64_t holds_prefix = ctx.ballot(f == 2);
      int newest = -1;  // the highest lane whose tile holds a prefix
      for (int b = w - 1; b >= 0 && newest < 0; --b)
        if ((holds_prefix >> b) & 1u) newest = b;
      T x = init;
      if (j >= 0 && lane >= newest)
        x = lane == newest ? lookback.prefixes[j] : lookback.aggregates[j];
      const T window = ctx.sub_group_reduce(x, op);
      newer = op(window, newer);
      if (newest >= 0) break;
    }
    if (lane == 0) {
      lookback.prefixes[t] = op(newer, total);
      ctx.atomic_store(&lookback.flags[t], 2, memory_order::release, memory_scope::device);
    }
    return newer;
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

// ---- elementwise helpers (bodies of foreach_kernel) ---------------------------------------------

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

struct to_int64 {
  template <class T>
  AK_KERNEL_FN std::int64_t operator()(T x) const {
    return static_cast<std::int64_t>(x);
  }
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

// ---- searchsorted -------------------------------------------------------------------------------

// out[q] = the first i with !lt(sorted[i], queries[q]) (or m), or with `last` the last i with
// !lt(queries[q], sorted[i]) (or -1).
template <class T, class Lt>
struct search_body {
  const T* sorted;
  std::int64_t m;
  const T* queries;
  std::int64_t* out;
  Lt lt;
  bool last;
  AK_KERNEL_FN void operator()(std::int64_t q) const {
    const T x = queries[q];
    std::int64_t lo = 0, hi = m;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      const bool go_right = last ? !lt(x, sorted[mid]) : lt(sorted[mid], x);
      if (go_right)
        lo = mid + 1;
      else
        hi = mid;
    }
    out[q] = last ? lo - 1 : lo;
  }
};

// ---- merge sort -------------------------------------------------------------------------------

// Sorts each run of `run` consecutive keys (and values, when not null) in place, stably, one
// run per work-item (insertion sort: runs are short).
template <class K, class V, class Lt>
struct sort_runs_body {
  K* keys;
  V* values;
  std::int64_t n;
  std::int64_t run;
  Lt lt;
  AK_KERNEL_FN void operator()(std::int64_t r) const {
    const std::int64_t b = r * run, e = b + run < n ? b + run : n;
    for (std::int64_t i = b + 1; i < e; ++i) {
      const K k = keys[i];
      V v{};
      if (values) v = values[i];
      std::int64_t j = i;
      for (; j > b && lt(k, keys[j - 1]); --j) {
        keys[j] = keys[j - 1];
        if (values) values[j] = values[j - 1];
      }
      keys[j] = k;
      if (values) values[j] = v;
    }
  }
};

// One merge pass: merges the pairs of sorted runs of `width` elements of `in` into `out`, each
// work-item `items_per_thread` outputs, found by a merge-path search (stable: on ties the left
// run's element comes first).
template <class K, class V, class Lt>
struct merge_pass_kernel {
  const K* keys_in;
  K* keys_out;
  const V* values_in;  // null: keys only
  V* values_out;
  std::int64_t n;
  std::int64_t width;
  int items_per_thread;
  Lt lt;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const std::int64_t o = ctx.global_id(0) * items_per_thread;
    if (o >= n) return;
    const std::int64_t pair = o / (2 * width) * (2 * width);
    const std::int64_t a0 = pair, a1 = pair + width < n ? pair + width : n;
    const std::int64_t b0 = a1, b1 = pair + 2 * width < n ? pair + 2 * width : n;
    const std::int64_t na = a1 - a0, nb = b1 - b0;
    const std::int64_t d = o - pair;
    std::int64_t lo = d - nb > 0 ? d - nb : 0, hi = d < na ? d : na;
    while (lo < hi) {
      const std::int64_t mid = (lo + hi) / 2;
      if (!lt(keys_in[b0 + d - 1 - mid], keys_in[a0 + mid]))
        lo = mid + 1;
      else
        hi = mid;
    }
    std::int64_t i = a0 + lo, j = b0 + (d - lo);
    const std::int64_t end = o + items_per_thread < n ? o + items_per_thread : n;
    for (std::int64_t k = o; k < end; ++k) {
      const bool take_a = i < a1 && (j >= b1 || !lt(keys_in[j], keys_in[i]));
      const std::int64_t src = take_a ? i++ : j++;
      keys_out[k] = keys_in[src];
      if (values_in) values_out[k] = values_in[src];
    }
  }
};

}  // namespace ak::gpu::kernels
