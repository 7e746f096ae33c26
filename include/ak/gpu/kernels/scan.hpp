// The kernel of ak::gpu::accumulate, in the kernel language only: a tile scan, its carry from
// reduce-then-scan's tile prefixes or from a decoupled look-back over the tiles before it.
#pragma once

#include <cstdint>
#include <type_traits>
#include "ak/gpu/group/scan.hpp"
#include "ak/kernel/kernel.hpp"

namespace ak::gpu::kernels {

using kernel::memory_order;
using kernel::memory_scope;

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
  int* tile_counter;  // dynamic tile ids, in the order groups start
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
            ctx.atomic_add(lookback.tile_counter, 1, memory_order::relaxed, memory_scope::device);
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

}  // namespace ak::gpu::kernels
