// accumulate (scan) on the cpu backend.
//
// 1-d: a single-pass chained scan (chain_tiles, parallel.hpp). Each tile is reduced (in four
// segments), its inclusive prefix published after the previous tile's, and then scanned with that
// carry while it is still in cache. Memory traffic is that of a copy (one read from memory, one
// write), where a reduce-then-scan over the whole array reads the input twice. Partial results
// combine in element order: op need only be associative.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "ak/backends/cpu/parallel.hpp"
#include "ak/backends/cpu/reduce.hpp"
#include "ak/core/operators.hpp"

namespace ak::cpu {

// Scans one contiguous run: out[i] = carry op x[0] op ... op x[i] (inclusive) or the same up to
// x[i-1] (exclusive, out[0] = carry). carry may be empty for an inclusive scan (no init).
// in and out may be the same memory. Returns the run's last inclusive value.
template <class T, class R, class Op>
std::optional<R> scan_run(const T* in, R* out, std::int64_t stride_in, std::int64_t stride_out,
                          std::int64_t len, const Op& op, std::optional<R> carry, bool inclusive) {
  std::int64_t i = 0;
  if (len <= 0) return carry;
  if (inclusive) {
    R acc = carry ? static_cast<R>(op(*carry, static_cast<R>(in[0]))) : static_cast<R>(in[0]);
    out[0] = acc;
    if (stride_in == 1 && stride_out == 1) {
      for (i = 1; i < len; ++i) out[i] = acc = static_cast<R>(op(acc, static_cast<R>(in[i])));
    } else {
      for (i = 1; i < len; ++i)
        out[i * stride_out] = acc = static_cast<R>(op(acc, static_cast<R>(in[i * stride_in])));
    }
    return acc;
  }
  R acc = *carry;  // exclusive scans always have a carry (init or the neutral element)
  for (i = 0; i < len; ++i) {
    const R x = static_cast<R>(in[i * stride_in]);
    out[i * stride_out] = acc;
    acc = static_cast<R>(op(acc, x));
  }
  return acc;
}

// op over in[0, len): standard operators on several accumulators (reduce_row), so that the
// reduction is bound by memory rather than by the latency of op.
// Not inlined: inlined into a caller's loop (split_tile's, or a test's), g++ 12 at -O3 vectorised
// its int8 sums into wrong values (an int8 sum of 250 elements off by 70; -O2, clang, and the same
// code called out of line were right). One call per segment costs nothing.
template <class T, class R, class Op>
[[gnu::noinline]] std::optional<R> reduce_run(const T* in, std::int64_t len, const Op& op) {
  std::optional<R> acc;
  reduce_row(in, 1, len, identity{}, op, neutral_element<R, Op>(), acc);
  return acc;
}

// A tile cut for scanning: an optional head element (an inclusive scan with no carry starts at the
// first element, which is its own prefix), then `count` segments of `seg` elements (the last one
// runs to the tile's end) with their aggregates. The aggregates are read once, before the carry is
// known; the scan then starts each segment from the carry plus the aggregates before it, so that
// `count` independent chains of op hide its latency.
template <class R>
struct tile_split {
  static constexpr int max_ways = 4;
  std::int64_t head = 0;
  std::int64_t seg = 0;
  int count = 0;
  R part[max_ways];
};

template <class T, class R, class Op>
tile_split<R> split_tile(const T* in, std::int64_t len, const Op& op, bool has_carry) {
  tile_split<R> t;
  t.head = has_carry || len == 0 ? 0 : 1;
  const std::int64_t rest = len - t.head;
  if (rest <= 0) return t;
  t.seg = rest / t.max_ways;
  t.count = t.seg < 64 ? 1 : t.max_ways;  // short tiles: one chain
  if (t.count == 1) t.seg = rest;
  for (int s = 0; s < t.count; ++s) {
    const std::int64_t b = t.head + s * t.seg, e = s + 1 < t.count ? b + t.seg : len;
    t.part[s] = *reduce_run<T, R>(in + b, e - b, op);
  }
  return t;
}

// carry op (the tile's elements), from the split: empty only for an empty tile with no carry.
template <class T, class R, class Op>
std::optional<R> tile_prefix(const T* in, const tile_split<R>& t, const Op& op,
                             std::optional<R> carry) {
  if (t.head) carry = static_cast<R>(in[0]);
  for (int s = 0; s < t.count; ++s)
    carry = carry ? static_cast<R>(op(*carry, t.part[s])) : t.part[s];
  return carry;
}

// Scans a split tile with a carry: same contract as scan_run, the segments scanned together, one
// element of each per step.
template <class T, class R, class Op>
void scan_tile(const T* in, R* out, std::int64_t len, const Op& op, std::optional<R> carry,
               bool inclusive, const tile_split<R>& t) {
  if (len <= 0) return;
  if (t.head) {
    out[0] = static_cast<R>(in[0]);
    carry = out[0];
    ++in;
    ++out;
    --len;
  }
  if (t.count < tile_split<R>::max_ways) {
    scan_run(in, out, 1, 1, len, op, carry, inclusive);
    return;
  }
  const std::int64_t seg = t.seg;
  R c[tile_split<R>::max_ways];
  c[0] = *carry;
  for (int s = 1; s < t.count; ++s) c[s] = static_cast<R>(op(c[s - 1], t.part[s - 1]));
  const T* p0 = in;
  const T* p1 = in + seg;
  const T* p2 = in + 2 * seg;
  const T* p3 = in + 3 * seg;
  R* q0 = out;
  R* q1 = out + seg;
  R* q2 = out + 2 * seg;
  R* q3 = out + 3 * seg;
  if (inclusive) {
    for (std::int64_t i = 0; i < seg; ++i) {
      const R x0 = static_cast<R>(p0[i]), x1 = static_cast<R>(p1[i]), x2 = static_cast<R>(p2[i]),
              x3 = static_cast<R>(p3[i]);
      q0[i] = c[0] = static_cast<R>(op(c[0], x0));
      q1[i] = c[1] = static_cast<R>(op(c[1], x1));
      q2[i] = c[2] = static_cast<R>(op(c[2], x2));
      q3[i] = c[3] = static_cast<R>(op(c[3], x3));
    }
  } else {
    for (std::int64_t i = 0; i < seg; ++i) {
      const R x0 = static_cast<R>(p0[i]), x1 = static_cast<R>(p1[i]), x2 = static_cast<R>(p2[i]),
              x3 = static_cast<R>(p3[i]);
      q0[i] = c[0];
      q1[i] = c[1];
      q2[i] = c[2];
      q3[i] = c[3];
      c[0] = static_cast<R>(op(c[0], x0));
      c[1] = static_cast<R>(op(c[1], x1));
      c[2] = static_cast<R>(op(c[2], x2));
      c[3] = static_cast<R>(op(c[3], x3));
    }
  }
  // The last segment continues past 4 * seg to the end of the tile.
  scan_run(in + 4 * seg, out + 4 * seg, 1, 1, len - 4 * seg, op, std::optional<R>(c[3]), inclusive);
}

// Bytes of tile state a 1-d scan of n elements needs (caller-provided temp storage).
template <class R>
std::size_t scan_state_bytes(std::int64_t n, std::int64_t tile) {
  return chain_state_bytes<R, tile_split<R>>(tile_count(n, tile));
}

// 1-d scan of n contiguous elements; in may equal out. `init` is the carry into the first tile.
// state_memory: scan_state_bytes<R>(n, tile) bytes for the tile states, or null to allocate.
// Tile by tile (chain_tiles): the carry into the next tile is the carry combined with the tile's
// segment aggregates (tile_prefix), the same rounding on any number of workers.
template <class T, class R, class Op>
void scan_1d(const T* in, R* out, std::int64_t n, const Op& op, const std::optional<R>& init,
             bool inclusive, std::int64_t tile, void* state_memory = nullptr,
             std::int64_t workers = num_threads()) {
  auto base = [&](std::int64_t k) { return k * tile; };
  auto len = [&](std::int64_t k) { return std::min(tile, n - k * tile); };
  chain_tiles<R>(
      tile_count(n, tile), workers, init,
      [&](std::int64_t k) {
        return split_tile<T, R>(in + base(k), len(k), op, k > 0 || init.has_value());
      },
      [&](std::int64_t k, const std::optional<R>& carry, const tile_split<R>& t) {
        return tile_prefix(in + base(k), t, op, carry);
      },
      [&](std::int64_t k, const std::optional<R>& carry, const tile_split<R>& t) {
        scan_tile(in + base(k), out + base(k), len(k), op, carry, inclusive, t);
      },
      state_memory);
}

// Scan along the middle dimension of a row-major (outer, len, inner) block; in may equal out.
template <class T, class R, class Op>
void scan_middle(const T* in, R* out, std::int64_t outer, std::int64_t len, std::int64_t inner,
                 const Op& op, const std::optional<R>& init, bool inclusive, std::int64_t tile,
                 std::int64_t block_elements, void* state_memory = nullptr) {
  if (outer == 0 || len == 0 || inner == 0) return;
  if (inner == 1) {
    if (outer < 2 * num_threads() && len >= 2 * tile) {
      for (std::int64_t o = 0; o < outer; ++o)
        scan_1d(in + o * len, out + o * len, len, op, init, inclusive, tile, state_memory);
      return;
    }
    const chunks c =
        plan_chunks(outer, std::max<std::int64_t>(1, tile / len), balanced_task_limit());
    parallel_tasks(c.count, [&](std::int64_t k) {
      for (std::int64_t o = c.begin(k); o < c.end(k); ++o)
        scan_1d(in + o * len, out + o * len, len, op, init, inclusive, tile, nullptr, 1);
    });
    return;
  }
  // Vertical scan: a vector of `block` running values walks down the scanned dimension.
  const std::int64_t want = std::max<std::int64_t>(1, (num_threads() + outer - 1) / outer);
  std::int64_t block = std::min(block_elements, (inner + want - 1) / want);
  block = std::max<std::int64_t>(16, block);
  const std::int64_t blocks = (inner + block - 1) / block;
  parallel_tasks(outer * blocks, [&](std::int64_t task) {
    const std::int64_t o = task / blocks, c0 = (task % blocks) * block;
    const std::int64_t w = std::min(block, inner - c0);
    const T* src = in + o * len * inner + c0;
    R* dst = out + o * len * inner + c0;
    // The running values; without init the first row seeds them (inclusive scans only).
    // Not std::vector: vector<bool> has no data().
    const std::unique_ptr<R[]> acc(new R[static_cast<std::size_t>(w)]);
    R* a = acc.get();
    std::int64_t r = 0;
    if (init) {
      std::fill(a, a + w, *init);
    } else {
      for (std::int64_t j = 0; j < w; ++j) dst[j] = a[j] = static_cast<R>(src[j]);
      r = 1;
    }
    for (; r < len; ++r) {
      const T* x = src + r * inner;
      R* y = dst + r * inner;
      if (inclusive) {
        for (std::int64_t j = 0; j < w; ++j)
          y[j] = a[j] = static_cast<R>(op(a[j], static_cast<R>(x[j])));
      } else {
        for (std::int64_t j = 0; j < w; ++j) {
          const R v = static_cast<R>(x[j]);
          y[j] = a[j];
          a[j] = static_cast<R>(op(a[j], v));
        }
      }
    }
  });
}

}  // namespace ak::cpu
