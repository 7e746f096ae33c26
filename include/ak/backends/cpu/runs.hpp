// The keyed family's passes over runs on the cpu backend: reduce_runs (reduce_by_key) and
// accumulate_runs (accumulate_by_key and the scans over offsets), where a run starts where
// head(i) holds (head(0) always does), and reduce_segments (the reductions over offsets), whose
// segments are given by their offsets. The first two go over chained tiles (chain_tiles) in one
// pass, the tile in cache between its two looks; all three fold each run or segment in element
// order with op, from init where there is one (op(op(init, v0), v1) ...), and the tiles are fixed
// by the tuning, so the bits do not depend on the number of threads. The loops carry the
// running value without a branch on the head flag (select_value), which random run lengths would
// mispredict, read the heads as bits (for_flag_blocks in select.hpp: the cpu half's run heads of
// numbers come from the vector loops) and fold each block of them as four lanes at once
// (fold_words_lanes), as one running value would be a chain of select and op through every
// element (1e7 elements in runs of 1 to 7, 2 threads, medians of 15 calls in a harness, 2-core
// Xeon VM, 2026-12-06: accumulate_by_key int64 10.4-11.5 ms -> 8.6-8.7, float64 12.4-12.8 ->
// 9.0-9.6; reduce_by_key int64 13.1 -> 11.8-12.1, float64 14.4 -> 13.4-13.7).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "ak/backends/cpu/parallel.hpp"
#include "ak/backends/cpu/select.hpp"
#include "ak/core/operators.hpp"

namespace ak::cpu {

// h ? x : y without a branch for numbers (their bits masked): g++ 12 makes the ternary on a
// loop's running value a branch, mispredicted at random run heads (reduce_runs's loop: 2.4 ns per
// int64 element with it, 1.1 with this; 2026-12-05, 2-core AMD EPYC VM). float and double where
// SSE2 is (x86-64) are masked in vector registers: masked as integers they went to general
// registers and back on every element, on the chain from one running value to the next
// (accumulate_by_key of 1e7 float64, 2 threads: 27 ms -> 23 ms, half of it page faults; 2-core
// Xeon VM, 2026-12-06). Other types: the ternary.
template <class T>
T select_value(bool h, const T& x, const T& y) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    const U m = static_cast<U>(U{0} - static_cast<U>(h));
    return static_cast<T>((static_cast<U>(x) & m) | (static_cast<U>(y) & static_cast<U>(~m)));
#if defined(__SSE2__)
  } else if constexpr (std::is_same_v<T, double>) {
    const __m128d m = _mm_castsi128_pd(_mm_set1_epi64x(-static_cast<long long>(h)));
    return _mm_cvtsd_f64(
        _mm_or_pd(_mm_and_pd(m, _mm_set1_pd(x)), _mm_andnot_pd(m, _mm_set1_pd(y))));
  } else if constexpr (std::is_same_v<T, float>) {
    const __m128 m = _mm_castsi128_ps(_mm_set1_epi32(-static_cast<int>(h)));
    return _mm_cvtss_f32(
        _mm_or_ps(_mm_and_ps(m, _mm_set1_ps(x)), _mm_andnot_ps(m, _mm_set1_ps(y))));
#endif
  } else if constexpr (std::is_floating_point_v<T> && (sizeof(T) == 4 || sizeof(T) == 8)) {
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    return std::bit_cast<T>(select_value<U>(h, std::bit_cast<U>(x), std::bit_cast<U>(y)));
  } else {
    return h ? x : y;
  }
}

// The end of tile k of n elements in tiles of `tile`.
inline std::int64_t tile_end(std::int64_t n, std::int64_t tile, std::int64_t k) {
  return std::min(n, (k + 1) * tile);
}

// A run's running values: first(x) at its first element x (op(init, x) with an init, else x, as
// R) and next(h, a, x) at every later element (h: x starts a run; a: the value before x). Where
// there is a start s, init or op's exact neutral element (exact_neutral_element in
// ak/core/operators.hpp), next is op(h ? s : a, x): one op per element and a short chain from one
// element's value to the next (an integer sum's loop: an and and an add, not an add and the three
// steps of select_value between two results).
template <class R, class Op>
struct run_values {
  static constexpr bool exact_neutral = [] {
    if constexpr (std::is_arithmetic_v<R>)
      return exact_neutral_element<R, Op>().has_value();
    else
      return false;
  }();

  Op op;
  std::optional<R> init;
  std::optional<R> start;

  run_values(const Op& o, const std::optional<R>& i) : op(o), init(i), start(i) {
    if constexpr (exact_neutral)
      if (!start) start = exact_neutral_element<R, Op>();
  }
  template <class V>
  R first(const V& x) const {
    return init ? static_cast<R>(op(*init, static_cast<R>(x))) : static_cast<R>(x);
  }
  template <class V>
  R next(bool h, const R& a, const V& x) const {
    if (exact_neutral || start)
      return static_cast<R>(op(select_value(h, *start, a), static_cast<R>(x)));
    return select_value(h, first(x), static_cast<R>(op(a, static_cast<R>(x))));
  }
};

// reduce_by_key's running state: the current run's rank and fold.
template <class R>
struct run_fold {
  std::int64_t rank;
  R value;
};

// reduce_by_key's pass: keys_out[r] = the first key of run r and values_out[r] = its fold. Each
// tile counts its heads (as select_chained; its keys then in cache), takes the runs begun before
// it from the previous tile, stores the keys at the tile's heads at their ranks and folds its
// runs, storing every element's running value at its run's rank (the run's last element stores
// last; with the key in the lanes' state too, their registers spilled). A run that goes on past its
// tile leaves its partial value there; each later tile's elements before its first head (its
// lead) are folded into it afterwards, tile by tile in order. The outputs need room for n runs;
// returns the number of runs.
template <class R, class K, class V, class Head, class Op>
std::int64_t reduce_runs(std::int64_t n, const K* keys, const V* values, const Head& head,
                         const Op& op, const std::optional<R>& init, K* keys_out, R* values_out,
                         std::int64_t tile) {
  if (n == 0) return 0;
  const std::int64_t tiles = tile_count(n, tile);
  const run_values<R, Op> rv(op, init);
  // Per tile: its lead's fold (none where the tile starts a run), and the runs begun before it.
  std::vector<std::optional<R>> lead(static_cast<std::size_t>(tiles));
  std::vector<std::int64_t> before_tile(static_cast<std::size_t>(tiles));
  using carry = std::optional<std::int64_t>;
  const std::int64_t runs = *chain_tiles<std::int64_t>(
      tiles, num_threads(), std::int64_t{0},
      [&](std::int64_t k) { return select_count_range(k * tile, tile_end(n, tile, k), head); },
      [](std::int64_t, const carry& before, std::int64_t c) { return *before + c; },
      [&](std::int64_t k, const carry& before, std::int64_t) {
        const std::int64_t e = tile_end(n, tile, k);
        std::int64_t i = k * tile;
        before_tile[static_cast<std::size_t>(k)] = *before;
        if (!head(i)) {
          R a = static_cast<R>(values[i]);
          for (++i; i < e && !head(i); ++i) a = static_cast<R>(op(a, static_cast<R>(values[i])));
          lead[static_cast<std::size_t>(k)] = a;
        }
        if (i == e) return;
        run_fold<R> f{*before, rv.first(values[i])};
        keys_out[f.rank] = keys[i];
        values_out[f.rank] = f.value;
        const auto step = [=](run_fold<R>& g, std::int64_t j, bool h) {
          g.value = rv.next(h, g.value, values[j]);
          g.rank += h ? 1 : 0;
          values_out[g.rank] = g.value;
        };
        const auto enter = [](run_fold<R> g, std::int64_t heads) {
          g.rank += heads;
          return g;
        };
        for_flag_blocks(
            i + 1, e, head, [&](std::int64_t p, std::int64_t pe, const std::uint64_t* words, auto) {
              std::int64_t r = f.rank;  // the block's heads' keys, then the fold
              for (std::int64_t w = 0; p + 64 * w < pe; ++w)
                for_set_bits(words[w], [&](int j) { keys_out[++r] = keys[p + 64 * w + j]; });
              f = fold_words_lanes(p, pe, words, f, step, enter);
            });
      });
  for (std::size_t k = 1; k < lead.size(); ++k)
    if (lead[k]) {
      R& partial = values_out[before_tile[k] - 1];
      partial = static_cast<R>(op(partial, *lead[k]));
    }
  return runs;
}

// accumulate_by_key's pass (and the scans over offsets): out[i] = the fold of i's run up to i
// (inclusive), or up to the element before it (exclusive: init for a run's first element, and
// init is required). Each tile first finds its tail: the fold from its last head to its end, or of
// all its elements where it has no head (they go on with the run before it); the carry into a
// tile is then the running value of the run that goes on into it.
template <class R, class V, class Head, class Op>
void accumulate_runs(std::int64_t n, const V* values, const Head& head, const Op& op,
                     const std::optional<R>& init, bool inclusive, R* out, std::int64_t tile) {
  struct tail {
    R value;
    bool has_head;
  };
  const run_values<R, Op> rv(op, init);
  chain_tiles<R>(
      tile_count(n, tile), num_threads(), std::nullopt,
      [&](std::int64_t k) {
        const std::int64_t b = k * tile, e = tile_end(n, tile, k);
        const std::int64_t last = last_flag(b, e, head);
        const bool h = last >= b;
        std::int64_t j = h ? last : b;
        R a = h ? rv.first(values[j]) : static_cast<R>(values[j]);
        for (++j; j < e; ++j) a = static_cast<R>(op(a, static_cast<R>(values[j])));
        return tail{a, h};
      },
      [&](std::int64_t, const std::optional<R>& carry, const tail& t) -> std::optional<R> {
        if (t.has_head) return t.value;
        return static_cast<R>(op(*carry, t.value));
      },
      [&](std::int64_t k, const std::optional<R>& carry, const tail&) {
        const std::int64_t b = k * tile, e = tile_end(n, tile, k);
        const bool starts = head(b);
        const auto same = [](const R& x, std::int64_t) { return x; };  // a lane's start
        R a = starts ? rv.first(values[b]) : static_cast<R>(op(*carry, static_cast<R>(values[b])));
        if (inclusive) {
          out[b] = a;
          fold_flags_lanes(
              b + 1, e, head, a,
              [=](R& x, std::int64_t i, bool h) {
                x = rv.next(h, x, values[i]);
                out[i] = x;
              },
              same);
        } else {
          const R z = *init;
          out[b] = starts ? z : *carry;
          fold_flags_lanes(
              b + 1, e, head, a,
              [=](R& x, std::int64_t i, bool h) {
                out[i] = select_value(h, z, x);
                x = rv.next(h, x, values[i]);
              },
              same);
        }
      });
}

// The reductions over offsets: out[s] = the fold of values[o[s], o[s + 1]) from init
// (op(op(init, v0), v1) ...; init alone for an empty segment), for the m segments of the offsets o
// (o[0] = 0, o[m] = n, never decreasing). Each tile folds the segments that start in it as far as
// its end and, where a segment begun before it goes on into it, that segment's elements up to the
// next start (the tile's lead); the leads are folded into their segments afterwards, tile by tile
// in order. A tile finds its first segment by one binary search among the offsets: no flag per
// element, no scan.
// Within a tile the fold carries a running value without a branch at a segment's end (a loop per
// segment mispredicts its exit at random short lengths): per block of 4096 elements, the starts
// of its non-empty segments become bits and their outputs a list (every segment starting there is
// first given init, which the fold overwrites on the non-empty ones), and every element stores the
// running value at its segment's output, the block's four lanes at once (fold_words_lanes: one
// running value would be a chain of select and op through every element), every segment still
// folded in element order. 1e7 elements in segments of 1 to 7, 2 threads, medians of 21 (a
// harness, 2-core Xeon VM, 2026-12-06): int64 17.5 ms with a loop per segment, 10.3-12.4 with one
// running value, 8.1-8.4 with four lanes; float64 16.4-17.0, 15.3-16.1 and 8.9-9.8.
template <class R, class V, class Op>
void reduce_segments(const std::int64_t* o, std::int64_t m, const V* values, std::int64_t n,
                     const Op& op, const R& init, R* out, std::int64_t tile) {
  // The empty segments at the end (starting at n) are in no tile.
  for (std::int64_t s = std::lower_bound(o, o + m, n) - o; s < m; ++s) out[s] = init;
  const std::int64_t tiles = tile_count(n, tile);
  struct lead_fold {
    std::int64_t segment;
    R value;
  };
  std::vector<std::optional<lead_fold>> lead(static_cast<std::size_t>(tiles));
  const run_values<R, Op> rv(op, init);
  const auto fold = [&](R a, std::int64_t i, std::int64_t e) {
    for (; i < e; ++i) a = static_cast<R>(op(a, static_cast<R>(values[i])));
    return a;
  };
  // The running value and the place in the block's list of outputs of its segment.
  struct fold_state {
    R* const* target;
    R value;
  };
  const auto step = [rv, values](fold_state& x, std::int64_t i, bool h) {
    x.value = rv.next(h, x.value, values[i]);
    x.target += h ? 1 : 0;
    **x.target = x.value;
  };
  parallel_for(tiles, 1, [&, o, m, out](std::int64_t k) {
    // o, m and out by value, init in a local: captured by reference, they were reloaded from memory
    // after every store of the loop over a block's segments below, which the stores might alias.
    const R start = init;
    const std::int64_t b = k * tile, e = tile_end(n, tile, k);
    std::int64_t s = std::lower_bound(o, o + m, b) - o;  // the first segment starting at b or later
    const std::int64_t first = s < m ? std::min(o[s], e) : e;  // the tile's first start
    if (s > 0 && first > b)  // segment s - 1 goes on into the tile
      lead[static_cast<std::size_t>(k)] =
          lead_fold{s - 1, fold(static_cast<R>(values[b]), b + 1, first)};
    if (first == e) return;
    constexpr std::int64_t block = 64 * 64;
    std::uint64_t words[block / 64];
    R* targets[block + 1];  // targets[0]: the output of the segment going on into the block
    R unused = rv.first(values[first]);  // the tile's first element starts a segment
    fold_state f{targets, unused};
    targets[0] = &unused;
    for (std::int64_t p = first; p < e; p += block) {
      const std::int64_t pe = std::min(e, p + block);
      targets[0] = *f.target;
      std::fill(words, words + (pe - p + 63) / 64, std::uint64_t{0});
      std::int64_t c = 1;
      // The starts' bits gathered in a register and stored whole (an |= into memory per start had
      // made each start wait for the previous one's store to come back).
      std::int64_t w = 0;
      std::uint64_t word = 0;
      for (; s < m && o[s] < pe; ++s) {
        out[s] = start;
        const bool non_empty = o[s + 1] > o[s];
        const std::int64_t r = o[s] - p;
        word = (r / 64 == w ? word : 0) | std::uint64_t{non_empty} << (r % 64);
        w = r / 64;
        words[w] = word;
        targets[c] = out + s;
        c += non_empty ? 1 : 0;
      }
      f.target = targets;
      f = fold_words_lanes(p, pe, words, f, step, [](fold_state x, std::int64_t before) {
        x.target += before;
        return x;
      });
    }
  });
  for (const std::optional<lead_fold>& l : lead)
    if (l) out[l->segment] = static_cast<R>(op(out[l->segment], l->value));
}

}  // namespace ak::cpu
