// The kernels of the GPU radix sort (ak/gpu/radix_sort.hpp), in the kernel language only. Keys
// sort by ordered_key (ak's order); `digit_bits` at most 8.
//
// Every pass sorts each tile (block * items_per_thread keys, with their values) by the pass's
// digit in local memory, stably: each sub-group ranks its keys by sub_group_match_any into counts
// per (digit, sub-group), one group scan of those counts places them (onesweep's ranking), and
// the sorted tile is scattered to each digit's bucket at the tile's offset there. The
// offsets come either from a scan of a digit-major count matrix (reduce-then-scan: runs everywhere)
// or, onesweep-style, from one histogram of every pass's digits and a decoupled look-back over the
// tiles' per-digit counts. Keys that fit one tile take every pass in one kernel (radix_tile: the
// ranking and placing that every tile kernel shares).
#pragma once

#include <cstdint>

#include "ak/core/operators.hpp"
#include "ak/gpu/group/scan.hpp"
#include "ak/gpu/kernels/foreach.hpp"
#include "ak/kernel/kernel.hpp"

namespace ak::gpu::kernels {

using kernel::memory_order;
using kernel::memory_scope;

// The digit of bits [shift, shift + log2(mask + 1)) of k's ordered key, XORed with `flip`: 0 for
// an ascending sort, `mask` for a descending one (the digit of the complemented key, so that the
// stable ascending sort by it is the stable descending sort of the keys, ties in input order).
template <class K>
AK_KERNEL_INLINE unsigned radix_digit(const K& k, int shift, unsigned mask, unsigned flip) {
  return static_cast<unsigned>((ordered_key(k) >> shift) & mask) ^ flip;
}

// radix_digit's flip for a digit of `mask` bits: mask when descending, else 0.
AK_KERNEL_INLINE unsigned radix_flip(unsigned mask, bool descending) {
  return descending ? mask : 0u;
}

// Tiles hold at most this many keys: a key's rank within its tile is kept in 15 bits of a 16-bit
// slot, whose top bit (radix_led) marks a key led by another lane of its row (the slot then
// holds that lane, bits 6 to 11, and the peers below this one, bits 0 to 5).
inline constexpr std::int64_t radix_tile_most = 32767;
inline constexpr unsigned radix_led = 0x8000u;

// Where each array of a radix tile kernel lives in local memory.
struct radix_layout {
  std::size_t keys_a, keys_b, values_a, values_b, counters, ranks, scratch, starts, offsets,
      tile_id, bytes;

  static constexpr AK_KERNEL_FN std::size_t up(std::size_t x, std::size_t a) {
    return (x + a - 1) / a * a;
  }
  static constexpr AK_KERNEL_FN radix_layout make(std::size_t tile, std::size_t key_bytes,
                                                  std::size_t value_bytes, std::size_t radix,
                                                  std::size_t sub_groups) {
    radix_layout l{};
    std::size_t at = 0;
    auto place = [&](std::size_t& field, std::size_t bytes) {
      field = at;
      at = up(at + bytes, 16);
    };
    place(l.keys_a, tile * key_bytes);
    place(l.keys_b, tile * key_bytes);
    place(l.values_a, tile * value_bytes);
    place(l.values_b, tile * value_bytes);
    place(l.counters, sub_groups * radix * sizeof(std::uint16_t));
    place(l.ranks, tile * sizeof(std::uint16_t));
    place(l.scratch, (sub_groups + 1) * sizeof(int));
    place(l.starts, (radix + 1) * sizeof(int));
    place(l.offsets, radix * sizeof(std::int64_t));
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
  bool descending;
  std::int64_t* counts;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const int radix = 1 << digit_bits;
    const unsigned mask = static_cast<unsigned>(radix - 1), flip = radix_flip(mask, descending);
    auto hist = kernel::local_array<int>(ctx, 0, static_cast<std::size_t>(radix));
    const int bs = ctx.local_size(0), lid = ctx.local_id(0);
    for (int d = lid; d < radix; d += bs) hist[d] = 0;
    ctx.barrier();
    const std::int64_t tile = ctx.group_id(0);
    const std::int64_t base = tile * bs * items_per_thread;
    for (int k = 0; k < items_per_thread; ++k) {
      const std::int64_t i = base + static_cast<std::int64_t>(k) * bs + lid;
      if (i < n)
        ctx.atomic_add(&hist[radix_digit(keys[i], shift, mask, flip)], 1, memory_order::relaxed,
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
  bool descending;
  unsigned long long* hist;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const int radix = 1 << digit_bits;
    const unsigned mask = static_cast<unsigned>(radix - 1), flip = radix_flip(mask, descending);
    auto local = kernel::local_array<int>(ctx, 0, static_cast<std::size_t>(radix * passes));
    const int bs = ctx.local_size(0), lid = ctx.local_id(0);
    for (int d = lid; d < radix * passes; d += bs) local[d] = 0;
    ctx.barrier();
    const std::int64_t base = ctx.group_id(0) * bs * items_per_thread;
    for (int k = 0; k < items_per_thread; ++k) {
      const std::int64_t i = base + static_cast<std::int64_t>(k) * bs + lid;
      if (i >= n) continue;
      for (int p = 0; p < passes; ++p)
        ctx.atomic_add(&local[p * radix + radix_digit(keys[i], p * digit_bits, mask, flip)], 1,
                       memory_order::relaxed, memory_scope::work_group);
    }
    ctx.barrier();
    for (int d = lid; d < radix * passes; d += bs)
      if (local[d])
        ctx.atomic_add(&hist[d], static_cast<unsigned long long>(local[d]), memory_order::relaxed,
                       memory_scope::device);
  }
};

// A tile of keys (and values) in local memory, where radix_layout puts it, with what ranking it
// by one digit takes. Every work-item of the group holds the same one; the arrays are views.
template <class KA, class VA, class U16A, class U32A, class IntA>
struct radix_tile {
  KA ka, kb;             // the keys, twice: sorted from one into the other
  VA va, vb;             // the values likewise (empty for keys alone)
  U16A counters;         // 16-bit counts per (sub-group, digit), then where each starts
  U32A pairs;            // the same counters, two to a 32-bit word (for the atomics)
  U16A ranks;            // each key's rank among its sub-group's keys of its digit
  IntA scratch, starts;  // the group scan's; where each digit starts in the sorted tile
  int ipt;               // keys per work-item: the tile holds block * ipt
  int radix;             // 1 << digit bits
  unsigned mask, flip;   // radix - 1; radix_digit's flip (mask for a descending sort, or 0)
  bool has_values;

  // Ranks keys[0, valid) by the digit at `shift` (onesweep's ranking, by match): sub-group g
  // ranks the tile's keys [g * w * ipt, (g + 1) * w * ipt), ipt rows of w consecutive keys in
  // turn. The lanes of a row holding the same digit find each other (sub_group_match_any, one
  // sub-group operation per row); the lowest of them adds their number to the sub-group's counter
  // of the digit (an atomic: the next row's leader of that digit may be another lane, and reaches
  // its add only after this row's match) and keeps the old count, its own rank, in its slot of
  // `ranks`; each other lane keeps which lane led it and how many peers are below it, and reads
  // the leader's slot in `place`. So each key gets its rank among the sub-group's keys of its
  // digit, in tile order. Keys past `valid` match as digit `radix` and are not counted. Then the
  // counters, digit-major ((digit, sub-group) in order), are scanned exclusively: where each
  // sub-group's keys of each digit start in the sorted tile (item t scans the columns of digits
  // [t * per, (t + 1) * per), and a group scan of those sums adds the digits before); starts[d]
  // is digit d's start, starts[radix] the tile's key count. Ends with a barrier.
  template <class Ctx, class Keys>
  AK_KERNEL_FN void rank(Ctx& ctx, const Keys& keys, int valid, int shift) const {
    const int bs = ctx.local_size(0), lid = ctx.local_id(0);
    const int nsg = ctx.num_sub_groups(), w = ctx.sub_group_size();
    const int sg = ctx.sub_group_id(), lane = ctx.sub_group_lane();
    // radix is even, so digit d of a sub-group is the half d % 2 of its word, and no count
    // carries into the other half (a sub-group counts at most w * ipt keys).
    for (int c = lid; c < nsg * radix / 2; c += bs) pairs[c] = 0u;
    ctx.barrier();
    const std::uint64_t below = (std::uint64_t{1} << lane) - 1;
    for (int k = 0; k < ipt; ++k) {
      const int j = (sg * ipt + k) * w + lane;
      const bool in = j < valid;
      const unsigned dg =
          in ? radix_digit(keys[j], shift, mask, flip) : static_cast<unsigned>(radix);
      const std::uint64_t peers = ctx.sub_group_match_any(dg);
      const int first = kernel::lowest_bit(peers);
      if (!in) continue;
      if (lane == first) {
        const unsigned half = 16 * (dg & 1u);
        const unsigned before =
            ctx.atomic_add(&pairs[(sg * radix + static_cast<int>(dg)) / 2],
                           static_cast<unsigned>(kernel::popcount(peers)) << half,
                           memory_order::relaxed, memory_scope::work_group);
        ranks[j] = static_cast<std::uint16_t>(before >> half);
      } else
        ranks[j] =
            static_cast<std::uint16_t>(radix_led | first << 6 | kernel::popcount(peers & below));
    }
    ctx.barrier();

    const int per = (radix + bs - 1) / bs;
    const int d0 = lid * per < radix ? lid * per : radix;
    const int d1 = d0 + per < radix ? d0 + per : radix;
    int sum = 0;
    for (int d = d0; d < d1; ++d)
      for (int g = 0; g < nsg; ++g) {
        const int c = counters[g * radix + d];
        counters[g * radix + d] = static_cast<std::uint16_t>(sum);
        sum += c;
      }
    int tile_total = 0;
    const int prior = group_exclusive_scan(ctx, scratch, sum, sum_op{}, 0, tile_total);
    for (int d = d0; d < d1; ++d)
      for (int g = 0; g < nsg; ++g)
        counters[g * radix + d] = static_cast<std::uint16_t>(counters[g * radix + d] + prior);
    for (int d = d0; d < d1; ++d) starts[d] = counters[d];
    if (lid == 0) starts[radix] = tile_total;
    ctx.barrier();
  }

  // Writes keys[0, valid) (and values) ranked by `rank` to their places in the tile sorted by
  // the digit, stably: to_keys (to_values). No barrier at the end.
  template <class Ctx, class Keys, class Values>
  AK_KERNEL_FN void place(Ctx& ctx, const Keys& keys, const Values& values, const Keys& to_keys,
                          const Values& to_values, int valid, int shift) const {
    const int w = ctx.sub_group_size(), sg = ctx.sub_group_id(), lane = ctx.sub_group_lane();
    for (int k = 0; k < ipt; ++k) {
      const int j = (sg * ipt + k) * w + lane;
      if (j >= valid) continue;
      const unsigned r = ranks[j];
      const int rank = r & radix_led ? ranks[j - lane + (r >> 6 & 63u)] + (r & 63u) : r;
      const int pos =
          counters[sg * radix + static_cast<int>(radix_digit(keys[j], shift, mask, flip))] + rank;
      to_keys[pos] = keys[j];
      if (has_values) to_values[pos] = values[j];
    }
  }
};

// The radix tile of a group, in local memory at `layout`'s places, for tiles of block * ipt keys
// ranked by digits of `digit_bits` bits.
template <class K, class V, class Ctx>
AK_KERNEL_FN auto radix_tile_of(Ctx& ctx, const radix_layout& layout, int ipt, int digit_bits,
                                bool descending, bool has_values) {
  const int radix = 1 << digit_bits;
  const auto mask = static_cast<unsigned>(radix - 1);
  const std::size_t tile_n = static_cast<std::size_t>(ctx.local_size(0)) * ipt;
  const auto counter_count =
      static_cast<std::size_t>(ctx.num_sub_groups()) * static_cast<std::size_t>(radix);
  const std::size_t value_n = has_values ? tile_n : 0;
  auto ka = kernel::local_array<K>(ctx, layout.keys_a, tile_n);
  auto va = kernel::local_array<V>(ctx, layout.values_a, value_n);
  auto counters = kernel::local_array<std::uint16_t>(ctx, layout.counters, counter_count);
  auto pairs = kernel::local_array<unsigned>(ctx, layout.counters, counter_count / 2);
  auto scratch = kernel::local_array<int>(ctx, layout.scratch,
                                          static_cast<std::size_t>(ctx.num_sub_groups() + 1));
  return radix_tile<decltype(ka), decltype(va), decltype(counters), decltype(pairs),
                    decltype(scratch)>{
      ka,
      kernel::local_array<K>(ctx, layout.keys_b, tile_n),
      va,
      kernel::local_array<V>(ctx, layout.values_b, value_n),
      counters,
      pairs,
      kernel::local_array<std::uint16_t>(ctx, layout.ranks, tile_n),
      scratch,
      kernel::local_array<int>(ctx, layout.starts, static_cast<std::size_t>(radix) + 1),
      ipt,
      radix,
      mask,
      radix_flip(mask, descending),
      has_values};
}

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
  bool descending;
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
    const bool has_values = values_in != nullptr;
    const auto t =
        radix_tile_of<K, V>(ctx, layout, items_per_thread, digit_bits, descending, has_values);
    const int radix = t.radix, bs = ctx.local_size(0), lid = ctx.local_id(0), ipt = t.ipt;
    const std::size_t tile_n = static_cast<std::size_t>(bs) * ipt;
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
        t.ka[j] = keys_in[base + j];
        if (has_values) t.va[j] = values_in[base + j];
      }
    }
    ctx.barrier();
    t.rank(ctx, t.ka, valid, shift);

    // Onesweep: the tile's count of each digit is published as soon as it is known, before the
    // tile is sorted in local memory, so that the tiles after this one can add it while this one
    // sorts; its inclusive prefix follows once its own look-back ends. Tile 0's counts are its
    // prefixes. (Each digit's status is written and later looked back for by the same work-item.)
    if (status)
      for (int d = lid; d < radix; d += bs)
        ctx.atomic_store(&status[tile * radix + d],
                         (tile == 0 ? prefix_flag : aggregate_flag) |
                             static_cast<unsigned long long>(t.starts[d + 1] - t.starts[d]),
                         memory_order::release, memory_scope::device);

    t.place(ctx, t.ka, t.va, t.kb, t.vb, valid, shift);

    // The tile's offset in each digit's bucket (no barrier before: this reads `starts` alone, and
    // the one below orders the local sort's writes before the scatter's reads).
    for (int d = lid; d < radix; d += bs) {
      if (!status) {
        offs[d] = scanned_counts[static_cast<std::int64_t>(d) * tiles + tile];
        continue;
      }
      unsigned long long before = 0;
      if (tile > 0) {
        for (std::int64_t j = tile - 1;; --j) {
          unsigned long long s = 0;
          while ((s = ctx.atomic_load(&status[j * radix + d], memory_order::acquire,
                                      memory_scope::device)) == 0) {
          }
          before += s & value_mask;
          if ((s & ~value_mask) == prefix_flag) break;
        }
        const auto count = static_cast<unsigned long long>(t.starts[d + 1] - t.starts[d]);
        ctx.atomic_store(&status[tile * radix + d], prefix_flag | (before + count),
                         memory_order::release, memory_scope::device);
      }
      offs[d] = bucket_starts[d] + static_cast<std::int64_t>(before);
    }
    ctx.barrier();

    for (int k = 0; k < ipt; ++k) {
      const int i = k * bs + lid;
      if (i >= valid) continue;
      const unsigned dg = radix_digit(t.kb[i], shift, t.mask, t.flip);
      const std::int64_t pos = offs[dg] + (i - t.starts[dg]);
      keys_out[pos] = t.kb[i];
      if (has_values) values_out[pos] = t.vb[i];
    }
  }
};

// The whole sort of keys[0, n) (and values, when not null) where they fit one tile: one group
// loads them, sorts them by each digit place in turn in local memory (each pass ranked and placed
// as the tile passes above do, from one copy of the tile into the other; a pass whose digit is
// the same for every key places nothing), and writes them back in place. One launch instead of a
// histogram and a kernel per pass.
template <class K, class V>
struct radix_single_tile_kernel {
  K* keys;
  V* values;
  int n;
  int items_per_thread;
  int passes;
  int digit_bits;
  bool descending;
  radix_layout layout;

  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const bool has_values = values != nullptr;
    const auto t =
        radix_tile_of<K, V>(ctx, layout, items_per_thread, digit_bits, descending, has_values);
    const int bs = ctx.local_size(0), lid = ctx.local_id(0), ipt = t.ipt;
    for (int k = 0; k < ipt; ++k) {
      const int j = k * bs + lid;
      if (j < n) {
        t.ka[j] = keys[j];
        if (has_values) t.va[j] = values[j];
      }
    }
    ctx.barrier();
    bool in_a = true;  // which copy of the tile holds the keys sorted so far
    for (int p = 0; p < passes; ++p) {
      const int shift = p * digit_bits;
      t.rank(ctx, in_a ? t.ka : t.kb, n, shift);
      // A digit that every key has (the first key's, with a count of n): nothing moves.
      const unsigned d0 = radix_digit(in_a ? t.ka[0] : t.kb[0], shift, t.mask, t.flip);
      if (t.starts[d0 + 1] - t.starts[d0] == n) continue;
      if (in_a)
        t.place(ctx, t.ka, t.va, t.kb, t.vb, n, shift);
      else
        t.place(ctx, t.kb, t.vb, t.ka, t.va, n, shift);
      ctx.barrier();
      in_a = !in_a;
    }
    for (int k = 0; k < ipt; ++k) {
      const int j = k * bs + lid;
      if (j < n) {
        keys[j] = in_a ? t.ka[j] : t.kb[j];
        if (has_values) values[j] = in_a ? t.va[j] : t.vb[j];
      }
    }
  }
};

}  // namespace ak::gpu::kernels
