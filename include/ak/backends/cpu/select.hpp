// Stable selection on the cpu backend: what findall, copy_if, partition, unique and
// run_length_encode are made of. A selection calls write(i, rank, flag(i)) for every index i in
// [0, n), `rank` being the number of selected indices before i.
//
// Two forms. select_chained, one pass (chain_tiles): each tile of indices counts its selected
// ones (reading its elements into cache), takes the count before it from the previous tile and
// writes while the tile is still in cache; the outputs need room for every index (n), since the
// total is known only at the end. select_count then select_write, two passes over chunks: the
// first counts each chunk, a sequential exclusive scan of the few counts gives each chunk's first
// rank, and the second writes; the total is known between the passes, so the caller can allocate
// an output of exactly that size (or check a destination's) before anything is written. Either
// way flags are evaluated twice per index: they must be pure.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "ak/backends/cpu/parallel.hpp"

namespace ak::cpu {

// f(0), f(1), ..., f(n - 1), unrolled.
template <int n, class F>
void unrolled(const F& f) {
  [&]<int... u>(std::integer_sequence<int, u...>) {
    (f(u), ...);
  }
  (std::make_integer_sequence<int, n>{});
}

// f(j) for each set bit j of word, the lowest first.
template <class F>
void for_set_bits(std::uint64_t word, const F& f) {
  for (; word != 0; word &= word - 1) f(std::countr_zero(word));
}

// A flag may give its values for a range as bits: flag.bits(b, e, words) sets bit j of words[w]
// to flag(b + 64 w + j) (the bits past e to 0) and returns how many are set, as a vector loop
// computes them (the cpu halves give run heads and nonzero elements such flags). The loops below
// then read the bits.
template <class Flag>
concept flag_with_bits = requires(const Flag& f, std::int64_t i, std::uint64_t* words) {
  { f.bits(i, i, words) } -> std::convertible_to<std::int64_t>;
};

// The bits of [b, e) as flag.bits gives them, from flag(i) one at a time.
template <class Flag>
std::int64_t bits_one_by_one(const Flag& flag, std::int64_t b, std::int64_t e,
                             std::uint64_t* words) {
  std::fill(words, words + (e - b + 63) / 64, std::uint64_t{0});
  std::int64_t set = 0;
  for (std::int64_t j = b; j < e; ++j) {
    const bool f = flag(j);
    words[(j - b) / 64] |= std::uint64_t{f} << ((j - b) % 64);
    set += f ? 1 : 0;
  }
  return set;
}

// visit(i, be, words, set) for the flags of [b, e) in blocks [i, be) of 64 words (set: how many
// bits are), and visit(base, word, count) for each word of 64 indices from b (count: the indices
// of the word, 64 but in the last one). A flag without bits gives them one flag(i) at a time.
template <class Flag, class Visit>
void for_flag_blocks(std::int64_t b, std::int64_t e, const Flag& flag, const Visit& visit) {
  constexpr std::int64_t block = 64 * 64;
  std::uint64_t words[block / 64];
  for (std::int64_t i = b; i < e; i += block) {
    const std::int64_t be = std::min(e, i + block);
    if constexpr (flag_with_bits<Flag>)
      visit(i, be, words, flag.bits(i, be, words));
    else
      visit(i, be, words, bits_one_by_one(flag, i, be, words));
  }
}
template <class Flag, class Visit>
void for_flag_words(std::int64_t b, std::int64_t e, const Flag& flag, const Visit& visit) {
  for_flag_blocks(b, e, flag,
                  [&](std::int64_t i, std::int64_t be, const std::uint64_t* words, auto) {
                    for (std::int64_t w = 0; i + 64 * w < be; ++w)
                      visit(i + 64 * w, words[w], std::min<std::int64_t>(64, be - i - 64 * w));
                  });
}

// The last index in [b, e) whose flag is set, or b - 1 where none is: from the end, a block of
// bits at a time where the flag has them. (accumulate_by_key's tiles look for their last run
// head: in long runs, where a tile has none, a flag at a time from the end had cost more than
// the whole second look at the tile.)
template <class Flag>
std::int64_t last_flag(std::int64_t b, std::int64_t e, const Flag& flag) {
  if constexpr (flag_with_bits<Flag>) {
    constexpr std::int64_t block = 64 * 64;
    std::uint64_t words[block / 64];
    for (std::int64_t be = e; be > b; be -= block) {
      const std::int64_t i = std::max(b, be - block);
      if (flag.bits(i, be, words) == 0) continue;
      for (std::int64_t w = (be - i - 1) / 64; w >= 0; --w)
        if (words[w] != 0) return i + 64 * w + 63 - std::countl_zero(words[w]);
    }
  } else {
    for (std::int64_t j = e - 1; j >= b; --j)
      if (flag(j)) return j;
  }
  return b - 1;
}

// The selected indices in [b, e).
template <class Flag>
std::int64_t select_count_range(std::int64_t b, std::int64_t e, const Flag& flag) {
  std::int64_t c = 0;
  if constexpr (flag_with_bits<Flag>) {
    for_flag_blocks(b, e, flag, [&](auto, auto, auto, std::int64_t set) { c += set; });
  } else {
    for (std::int64_t i = b; i < e; ++i) c += flag(i) ? 1 : 0;
  }
  return c;
}

// A loop over flags with a state: step(state, i, flag(i)) for i in [b, e) in order; returns the
// state. fold_words reads the flags from bits (bit j of words[w] is the flag of b + 64 w + j);
// fold_flags from the flag's bits where it has them, else from flag(i). The loops that write as
// they go (the selection's writes, the runs' and segments' folds in runs.hpp) are written with
// them. Per word of bits, the step and the state are copied into locals, whose addresses no store
// can hold, so that they stay in registers: captured by reference they were reloaded from memory
// on every element, the stores possibly aliasing them (`perf annotate`, 2026-12-06).
template <class State, class Step>
State fold_words(std::int64_t b, std::int64_t e, const std::uint64_t* words, State state,
                 const Step& step) {
  for (std::int64_t i = b; i < e; ++words) {
    const Step s = step;
    State st = state;
    std::uint64_t word = *words;
    const std::int64_t we = std::min(e, i + 64);
    if (word == 0) {  // no flag set: the step with `false` known, its select folded away
      for (; i < we; ++i) s(st, i, false);
    } else {
      for (; i < we; ++i, word >>= 1) s(st, i, (word & 1) != 0);
    }
    state = st;
  }
  return state;
}

// As many copies of x as the sequence has indices: an array of `lanes` states, however many.
template <class T, std::size_t... i>
std::array<T, sizeof...(i)> copies(const T& x, std::index_sequence<i...>) {
  return {((void)i, x)...};
}

// fold_words as four lanes at once, for a step whose latency bounds it (a running value's select
// and op: one chain through every index). [b, e) is cut into four lanes of a whole number of
// words (and a rest, folded after them); the lanes are folded in lockstep, independent chains,
// lane l from enter(state, c), c being the flags set before it. A lane's indices before its first
// set flag (its lead) are folded there from a state of no use, and again afterwards, lane by lane
// in order, from the previous lane's state: the result is the one fold_words gives where a step
// at a set flag depends on its state only through what enter sets (an output's place, a rank),
// and the lead's steps store only where their second fold stores again.
template <class State, class Step, class Enter>
State fold_words_lanes(std::int64_t b, std::int64_t e, const std::uint64_t* words, State state,
                       const Step& step, const Enter& enter) {
  constexpr int lanes = 4;
  const std::int64_t lane_words = (e - b) / lanes / 64, len = 64 * lane_words;
  if (lane_words > 0) {
    std::array<State, lanes> lane = copies(state, std::make_index_sequence<lanes>{});
    std::int64_t c = 0;
    for (int l = 1; l < lanes; ++l) {
      for (std::int64_t w = (l - 1) * lane_words; w < l * lane_words; ++w)
        c += std::popcount(words[w]);
      lane[l] = enter(state, c);
    }
    for (std::int64_t w = 0; w < lane_words; ++w) {
      const Step s = step;
      std::array<State, lanes> st = lane;
      std::array<std::uint64_t, lanes> word;
      unrolled<lanes>([&](int l) { word[l] = words[l * lane_words + w]; });
      const std::int64_t i = b + 64 * w;
      for (int j = 0; j < 64; ++j)
        unrolled<lanes>([&](int l) { s(st[l], i + l * len + j, ((word[l] >> j) & 1) != 0); });
      lane = st;
    }
    for (int l = 1; l < lanes; ++l) {  // the leads again, in order
      const std::int64_t w0 = l * lane_words;
      std::int64_t w = w0;
      while (w < w0 + lane_words && words[w] == 0) ++w;
      const std::int64_t lead_end =
          w < w0 + lane_words ? b + 64 * w + std::countr_zero(words[w]) : b + 64 * w;
      const State refolded = fold_words(b + 64 * w0, lead_end, words + w0, lane[l - 1], step);
      if (w == w0 + lane_words) lane[l] = refolded;  // no flag set in the lane
    }
    state = lane[lanes - 1];
  }
  return fold_words(b + lanes * len, e, words + lanes * lane_words, state, step);
}
template <class Flag, class State, class Step>
State fold_flags(std::int64_t b, std::int64_t e, const Flag& flag, State state, const Step& step) {
  if constexpr (flag_with_bits<Flag>) {
    for_flag_blocks(b, e, flag,
                    [&](std::int64_t i, std::int64_t be, const std::uint64_t* words, auto) {
                      state = fold_words(i, be, words, state, step);
                    });
  } else {
    for (std::int64_t i = b; i < e; ++i) step(state, i, flag(i));
  }
  return state;
}

// fold_flags for a step whose latency bounds it: the flags' bits folded in lanes
// (fold_words_lanes, with its enter and its conditions on the step). A block without a set flag
// (inside a long run) is folded as one chain: its lanes would all be leads, folded twice.
template <class Flag, class State, class Step, class Enter>
State fold_flags_lanes(std::int64_t b, std::int64_t e, const Flag& flag, State state,
                       const Step& step, const Enter& enter) {
  for_flag_blocks(b, e, flag,
                  [&](std::int64_t i, std::int64_t be, const std::uint64_t* words, auto set) {
                    state = set == 0 ? fold_words(i, be, words, state, step)
                                     : fold_words_lanes(i, be, words, state, step, enter);
                  });
  return state;
}

// write(i, rank, flag(i)) for i in [b, e), the first rank being r.
template <class Flag, class Write>
void select_write_range(std::int64_t b, std::int64_t e, std::int64_t r, const Flag& flag,
                        const Write& write) {
  fold_flags(b, e, flag, r, [write](std::int64_t& k, std::int64_t i, bool s) {
    write(i, k, s);
    k += s ? 1 : 0;
  });
}

// The same for a tile whose count is known (ranks r to end - 1), for writers with store(i, r):
// every index up to the tile's last selected one stores at the current rank without a branch
// on its flag (an unselected index's store is overwritten by the next selected one, which the
// condition r < end guarantees within the tile), so that the flags' pattern costs no
// mispredicted branches.
// A tile with few selected indices (under one in 32) counts its flags in blocks of 64 instead,
// the loop the count pass runs, and looks for them only in blocks that have some: partialsort's
// selection of about 140 elements in 1e7 float32 spent a quarter of its time storing every index
// up to each tile's last selected one, and as long again with a branch on each flag (2026-12-06).
// A flag with bits does the same per word of 64: the set bits one by one where under a quarter
// are set, else every index, eight at a time (a harness of select_chained on 1e7 indices, 2
// threads, 2026-12-06: a random half of bool flags 2.9 ms with flag(i), 2.2 with bits; 1/16 of
// them 2.6 and 1.1; unique of float64 in runs of four 14 to 17 and 5.2 to 6.2).
template <class Flag, class Write>
void select_store_range(std::int64_t b, std::int64_t e, std::int64_t r, std::int64_t end,
                        const Flag& flag, const Write& write) {
  if constexpr (flag_with_bits<Flag>) {
    for_flag_words(b, e, flag, [&](std::int64_t base, std::uint64_t word, std::int64_t count) {
      // Copies whose address no store can hold, so that they stay in registers.
      const Write w = write;
      const std::int64_t stop = end;
      std::int64_t k = r;
      const std::int64_t set = std::popcount(word);
      if (4 * set < count) {
        for_set_bits(word, [&](int j) { w.store(base + j, k++); });
      } else if (count == 64 && k + set < stop) {
        // A selected index after the word overwrites rank k + set: no test of k.
        for (std::int64_t i = base; i < base + 64; i += 8, word >>= 8)
          unrolled<8>([&](int u) {
            w.store(i + u, k);
            k += static_cast<std::int64_t>((word >> u) & 1);
          });
      } else {
        for (std::int64_t i = base; i < base + count && k < stop; ++i, word >>= 1) {
          w.store(i, k);
          k += static_cast<std::int64_t>(word & 1);
        }
      }
      r = k;
    });
  } else if ((end - r) * 32 < e - b) {
    constexpr std::int64_t block = 64;
    for (std::int64_t i = b; i < e && r < end; i += block) {
      const std::int64_t be = std::min(e, i + block);
      if (select_count_range(i, be, flag) == 0) continue;
      for (std::int64_t j = i; j < be; ++j)
        if (flag(j)) write.store(j, r++);
    }
  } else {
    for (std::int64_t i = b; i < e && r < end; ++i) {
      write.store(i, r);
      r += flag(i) ? 1 : 0;
    }
  }
}

// One pass in tiles of `tile` indices; returns the selected count.
template <class Flag, class Write>
std::int64_t select_chained(std::int64_t n, const Flag& flag, const Write& write,
                            std::int64_t tile) {
  auto end = [&](std::int64_t k) { return std::min(n, (k + 1) * tile); };
  using carry = std::optional<std::int64_t>;
  return *chain_tiles<std::int64_t>(
      tile_count(n, tile), num_threads(), std::int64_t{0},
      [&](std::int64_t k) { return select_count_range(k * tile, end(k), flag); },
      [](std::int64_t, const carry& before, std::int64_t c) { return *before + c; },
      [&](std::int64_t k, const carry& before, std::int64_t c) {
        if constexpr (requires { write.store(std::int64_t{0}, std::int64_t{0}); })
          select_store_range(k * tile, end(k), *before, *before + c, flag, write);
        else
          select_write_range(k * tile, end(k), *before, flag, write);
      });
}

struct select_plan {
  chunks parts;
  std::vector<std::int64_t> first;  // first[k]: the selected indices before chunk k
  std::int64_t total = 0;
};

// Counts flag(i) over [0, n) in chunks of at least `grain` indices.
template <class Flag>
select_plan select_count(std::int64_t n, const Flag& flag, std::int64_t grain) {
  select_plan p;
  p.parts = plan_chunks(n, grain, balanced_task_limit());
  p.first.assign(static_cast<std::size_t>(p.parts.count) + 1, 0);
  parallel_tasks(p.parts.count, [&](std::int64_t k) {
    p.first[static_cast<std::size_t>(k) + 1] =
        select_count_range(p.parts.begin(k), p.parts.end(k), flag);
  });
  for (std::size_t k = 1; k < p.first.size(); ++k) p.first[k] += p.first[k - 1];
  p.total = p.first.back();
  return p;
}

// write(i, rank, flag(i)) for every i in [0, n), chunk by chunk in parallel.
template <class Flag, class Write>
void select_write(const select_plan& p, const Flag& flag, const Write& write) {
  parallel_tasks(p.parts.count, [&](std::int64_t k) {
    select_write_range(p.parts.begin(k), p.parts.end(k), p.first[static_cast<std::size_t>(k)], flag,
                       write);
  });
}

}  // namespace ak::cpu
