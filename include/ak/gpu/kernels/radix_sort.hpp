// The kernels of the GPU radix sort (ak/gpu/radix_sort.hpp), in the kernel language only. Keys
// sort by ordered_key (ak's order); `digit_bits` at most 8.
//
// Every pass sorts each tile (block * items_per_thread keys, with their values) by the pass's
// digit in local memory, with one stable split per 4 bits of the digit (a group scan of packed
// per-value counters), and scatters it to the digit's bucket at the tile's offset there. The
// offsets come either from a scan of a digit-major count matrix (reduce-then-scan: runs everywhere)
// or, onesweep-style, from one histogram of every pass's digits and a decoupled look-back over the
// tiles' per-digit counts.
#pragma once

#include <cstdint>

#include "ak/core/operators.hpp"
#include "ak/gpu/group/scan.hpp"
#include "ak/kernel/kernel.hpp"

namespace ak::gpu::kernels {

using kernel::memory_order;
using kernel::memory_scope;

template <class K>
AK_KERNEL_INLINE unsigned radix_digit(const K& k, int shift, unsigned mask) {
  return static_cast<unsigned>((ordered_key(k) >> shift) & mask);
}

// Tiles hold at most this many keys: the counters of radix_counts are 16 bits wide.
inline constexpr std::int64_t radix_tile_most = 65535;

// The counts of the values of a sub-digit of at most 4 bits: sixteen 16-bit counters in four
// words, so that one group scan of them ranks every value at once (no counter overflows into the
// next: a tile holds at most radix_tile_most keys).
struct radix_counts {
  std::uint64_t w[4];
  AK_KERNEL_FN unsigned get(unsigned v) const {
    return static_cast<unsigned>((w[v >> 2] >> (16 * (v & 3))) & 0xffffu);
  }
  AK_KERNEL_FN void add(unsigned v, unsigned c) {
    w[v >> 2] += static_cast<std::uint64_t>(c) << (16 * (v & 3));
  }
};
struct radix_counts_plus {
  AK_KERNEL_FN radix_counts operator()(radix_counts a, const radix_counts& b) const {
    for (int i = 0; i < 4; ++i) a.w[i] += b.w[i];
    return a;
  }
};

// Where each array of a radix tile kernel lives in local memory.
struct radix_layout {
  std::size_t keys_a, keys_b, values_a, values_b, scratch, starts, ends, offsets, tile_id, bytes;

  static constexpr AK_KERNEL_FN std::size_t up(std::size_t x, std::size_t a) {
    return (x + a - 1) / a * a;
  }
  static constexpr AK_KERNEL_FN radix_layout make(std::size_t tile, std::size_t key_bytes,
                                                  std::size_t value_bytes, std::size_t radix,
                                                  std::size_t sub_groups) {
    radix_layout l{};
    std::size_t at = 0;
    l.keys_a = at;
    at = up(at + tile * key_bytes, 16);
    l.keys_b = at;
    at = up(at + tile * key_bytes, 16);
    l.values_a = at;
    at = up(at + tile * value_bytes, 16);
    l.values_b = at;
    at = up(at + tile * value_bytes, 16);
    l.scratch = at;
    at = up(at + (sub_groups + 1) * sizeof(radix_counts), 16);
    l.starts = at;
    at = up(at + radix * sizeof(int), 16);
    l.ends = at;
    at = up(at + radix * sizeof(int), 16);
    l.offsets = at;
    at = up(at + radix * sizeof(std::int64_t), 16);
    l.tile_id = at;
    l.bytes = at + sizeof(std::int64_t);
    return l;
  }
};

// Counts, per tile, how many keys have each digit: counts[digit * tiles + tile] (digit-major, so
// that an exclusive scan of the matrix gives every (digit, tile) its output offset).
template <class K>
struct radix_count_kernel {
  const K* keys;
  std::int64_t n;
  std::int64_t tiles;
  int items_per_thread;
  int shift;
  int digit_bits;
  std::int64_t* counts;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const int radix = 1 << digit_bits;
    const unsigned mask = static_cast<unsigned>(radix - 1);
    auto hist = kernel::local_array<int>(ctx, 0, static_cast<std::size_t>(radix));
    const int bs = ctx.local_size(0), lid = ctx.local_id(0);
    for (int d = lid; d < radix; d += bs) hist[d] = 0;
    ctx.barrier();
    const std::int64_t tile = ctx.group_id(0);
    const std::int64_t base = tile * bs * items_per_thread;
    for (int k = 0; k < items_per_thread; ++k) {
      const std::int64_t i = base + static_cast<std::int64_t>(k) * bs + lid;
      if (i < n)
        ctx.atomic_add(&hist[radix_digit(keys[i], shift, mask)], 1, memory_order::relaxed,
                       memory_scope::work_group);
    }
    ctx.barrier();
    for (int d = lid; d < radix; d += bs) counts[d * tiles + tile] = hist[d];
  }
};

// One histogram of every pass's digits: hist[pass * radix + digit] (device atomics).
template <class K>
struct radix_histogram_kernel {
  const K* keys;
  std::int64_t n;
  int items_per_thread;
  int digit_bits;
  int passes;
  unsigned long long* hist;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const int radix = 1 << digit_bits;
    const unsigned mask = static_cast<unsigned>(radix - 1);
    auto local = kernel::local_array<int>(ctx, 0, static_cast<std::size_t>(radix * passes));
    const int bs = ctx.local_size(0), lid = ctx.local_id(0);
    for (int d = lid; d < radix * passes; d += bs) local[d] = 0;
    ctx.barrier();
    const std::int64_t base = ctx.group_id(0) * bs * items_per_thread;
    for (int k = 0; k < items_per_thread; ++k) {
      const std::int64_t i = base + static_cast<std::int64_t>(k) * bs + lid;
      if (i >= n) continue;
      for (int p = 0; p < passes; ++p)
        ctx.atomic_add(&local[p * radix + radix_digit(keys[i], p * digit_bits, mask)], 1,
                       memory_order::relaxed, memory_scope::work_group);
    }
    ctx.barrier();
    for (int d = lid; d < radix * passes; d += bs)
      if (local[d])
        ctx.atomic_add(&hist[d], static_cast<unsigned long long>(local[d]), memory_order::relaxed,
                       memory_scope::device);
  }
};

// One pass: sorts each tile by the digit at `shift` and scatters it. Offsets per (digit, tile)
// from `scanned_counts` (reduce-then-scan) or, when `status` is set, by decoupled look-back from
// `bucket_starts` (onesweep). V = unsigned char with null values: keys only.
template <class K, class V>
struct radix_scatter_kernel {
  const K* keys_in;
  K* keys_out;
  const V* values_in;
  V* values_out;
  std::int64_t n;
  std::int64_t tiles;
  int items_per_thread;
  int shift;
  int digit_bits;
  radix_layout layout;
  const std::int64_t* scanned_counts;  // reduce-then-scan: [digit * tiles + tile]
  const std::int64_t* bucket_starts;   // onesweep: [digit], this pass
  unsigned long long* status;          // onesweep: [tile * radix + digit], zeroed
  unsigned* tile_counter;              // onesweep: dynamic tile ids, zeroed

  static constexpr unsigned long long aggregate_flag = 1ull << 62;
  static constexpr unsigned long long prefix_flag = 2ull << 62;
  static constexpr unsigned long long value_mask = (1ull << 62) - 1;

  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const int radix = 1 << digit_bits;
    const unsigned mask = static_cast<unsigned>(radix - 1);
    const int bs = ctx.local_size(0), lid = ctx.local_id(0);
    const int ipt = items_per_thread;
    const std::size_t tile_n = static_cast<std::size_t>(bs) * ipt;
    const bool has_values = values_in != nullptr;
    auto ka = kernel::local_array<K>(ctx, layout.keys_a, tile_n);
    auto kb = kernel::local_array<K>(ctx, layout.keys_b, tile_n);
    auto va = kernel::local_array<V>(ctx, layout.values_a, has_values ? tile_n : 0);
    auto vb = kernel::local_array<V>(ctx, layout.values_b, has_values ? tile_n : 0);
    auto scratch = kernel::local_array<radix_counts>(
        ctx, layout.scratch, static_cast<std::size_t>(ctx.num_sub_groups() + 1));
    auto starts = kernel::local_array<int>(ctx, layout.starts, static_cast<std::size_t>(radix));
    auto ends = kernel::local_array<int>(ctx, layout.ends, static_cast<std::size_t>(radix));
    auto offs =
        kernel::local_array<std::int64_t>(ctx, layout.offsets, static_cast<std::size_t>(radix));
    auto id = kernel::local_array<std::int64_t>(ctx, layout.tile_id, 1);

    std::int64_t tile = ctx.group_id(0);
    if (status) {
      if (lid == 0)
        id[0] = ctx.atomic_add(tile_counter, 1u, memory_order::relaxed, memory_scope::device);
      ctx.barrier();
      tile = id[0];
    }
    const std::int64_t base = tile * static_cast<std::int64_t>(tile_n);
    const int valid =
        static_cast<int>(n - base < static_cast<std::int64_t>(tile_n) ? n - base : tile_n);
    for (int k = 0; k < ipt; ++k) {
      const int j = k * bs + lid;
      if (j < valid) {
        ka[j] = keys_in[base + j];
        if (has_values) va[j] = values_in[base + j];
      }
    }
    ctx.barrier();

    // Stable splits by 4 bits of the digit at a time (fewer for the digit's last bits): each item
    // counts the sub-digit values of its keys (consecutive ones), a group scan of the counts gives
    // each item where its keys of each value go. Keys past `valid` stay where they are.
    auto* src_k = &ka;
    auto* dst_k = &kb;
    auto* src_v = &va;
    auto* dst_v = &vb;
    for (int b = 0; b < digit_bits; b += 4) {
      const unsigned sub_mask = (1u << (digit_bits - b < 4 ? digit_bits - b : 4)) - 1u;
      auto sub_digit = [&](int i) {
        return (radix_digit((*src_k)[i], shift, mask) >> b) & sub_mask;
      };
      const int first = lid * ipt;
      radix_counts mine{};
      for (int k = 0; k < ipt; ++k)
        if (first + k < valid) mine.add(sub_digit(first + k), 1);
      radix_counts total{};
      radix_counts at =
          group_exclusive_scan(ctx, scratch, mine, radix_counts_plus{}, radix_counts{}, total);
      // Where each value starts in the tile: the totals of the values below it.
      unsigned start = 0;
      for (unsigned v = 0; v <= sub_mask; ++v) {
        const unsigned c = total.get(v);
        at.add(v, start);
        start += c;
      }
      for (int k = 0; k < ipt; ++k) {
        const int i = first + k;
        if (i >= valid) break;
        const unsigned v = sub_digit(i);
        const int dest = static_cast<int>(at.get(v));
        at.add(v, 1);
        (*dst_k)[dest] = (*src_k)[i];
        if (has_values) (*dst_v)[dest] = (*src_v)[i];
      }
      ctx.barrier();
      auto* t = src_k;
      src_k = dst_k;
      dst_k = t;
      auto* tv = src_v;
      src_v = dst_v;
      dst_v = tv;
    }

    // Each digit's range in the sorted tile.
    for (int d = lid; d < radix; d += bs) starts[d] = ends[d] = 0;
    ctx.barrier();
    for (int k = 0; k < ipt; ++k) {
      const int i = k * bs + lid;
      if (i >= valid) continue;
      const unsigned dg = radix_digit((*src_k)[i], shift, mask);
      if (i == 0 || radix_digit((*src_k)[i - 1], shift, mask) != dg) starts[dg] = i;
      if (i == valid - 1 || radix_digit((*src_k)[i + 1], shift, mask) != dg) ends[dg] = i + 1;
    }
    ctx.barrier();

    // The tile's offset in each digit's bucket.
    for (int d = lid; d < radix; d += bs) {
      if (!status) {
        offs[d] = scanned_counts[static_cast<std::int64_t>(d) * tiles + tile];
        continue;
      }
      const unsigned long long count = static_cast<unsigned long long>(ends[d] - starts[d]);
      unsigned long long* mine = &status[tile * radix + d];
      unsigned long long before = 0;
      if (tile == 0) {
        ctx.atomic_store(mine, prefix_flag | count, memory_order::release, memory_scope::device);
      } else {
        ctx.atomic_store(mine, aggregate_flag | count, memory_order::release, memory_scope::device);
        for (std::int64_t j = tile - 1;; --j) {
          unsigned long long s = 0;
          while ((s = ctx.atomic_load(&status[j * radix + d], memory_order::acquire,
                                      memory_scope::device)) == 0) {
          }
          before += s & value_mask;
          if ((s & ~value_mask) == prefix_flag) break;
        }
        ctx.atomic_store(mine, prefix_flag | (before + count), memory_order::release,
                         memory_scope::device);
      }
      offs[d] = bucket_starts[d] + static_cast<std::int64_t>(before);
    }
    ctx.barrier();

    for (int k = 0; k < ipt; ++k) {
      const int i = k * bs + lid;
      if (i >= valid) continue;
      const unsigned dg = radix_digit((*src_k)[i], shift, mask);
      const std::int64_t pos = offs[dg] + (i - starts[dg]);
      keys_out[pos] = (*src_k)[i];
      if (has_values) values_out[pos] = (*src_v)[i];
    }
  }
};

}  // namespace ak::gpu::kernels
