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

#include <cstdint>
#include <optional>
#include <vector>

#include "ak/backends/cpu/parallel.hpp"

namespace ak::cpu {

// The selected indices in [b, e).
template <class Flag>
std::int64_t select_count_range(std::int64_t b, std::int64_t e, const Flag& flag) {
  std::int64_t c = 0;
  for (std::int64_t i = b; i < e; ++i) c += flag(i) ? 1 : 0;
  return c;
}

// write(i, rank, flag(i)) for i in [b, e), the first rank being r.
template <class Flag, class Write>
void select_write_range(std::int64_t b, std::int64_t e, std::int64_t r, const Flag& flag,
                        const Write& write) {
  for (std::int64_t i = b; i < e; ++i) {
    const bool s = flag(i);
    write(i, r, s);
    r += s ? 1 : 0;
  }
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
template <class Flag, class Write>
void select_store_range(std::int64_t b, std::int64_t e, std::int64_t r, std::int64_t end,
                        const Flag& flag, const Write& write) {
  if ((end - r) * 32 < e - b) {
    constexpr std::int64_t block = 64;
    for (std::int64_t i = b; i < e && r < end; i += block) {
      const std::int64_t be = std::min(e, i + block);
      if (select_count_range(i, be, flag) == 0) continue;
      for (std::int64_t j = i; j < be; ++j)
        if (flag(j)) write.store(j, r++);
    }
    return;
  }
  for (std::int64_t i = b; i < e && r < end; ++i) {
    write.store(i, r);
    r += flag(i) ? 1 : 0;
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
