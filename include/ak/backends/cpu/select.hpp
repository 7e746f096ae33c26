// Stable selection on the cpu backend: what findall, copy_if, partition, unique and
// run_length_encode are made of.
//
// Two passes over chunks of the index space: the first counts the selected indices of each chunk
// (flag(i) true), a sequential exclusive scan of the few chunk counts gives each chunk's first
// rank, and the second calls write(i, rank, selected) for every index of each chunk, where `rank`
// is the number of selected indices before i. The total is known between the passes, so the
// caller can allocate an output of exactly that size (and check a destination's) before anything
// is written. Flags are evaluated twice per index: they must be pure.
#pragma once

#include <cstdint>
#include <vector>

#include "ak/backends/cpu/parallel.hpp"

namespace ak::cpu {

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
    std::int64_t c = 0;
    const std::int64_t e = p.parts.end(k);
    for (std::int64_t i = p.parts.begin(k); i < e; ++i) c += flag(i) ? 1 : 0;
    p.first[static_cast<std::size_t>(k) + 1] = c;
  });
  for (std::size_t k = 1; k < p.first.size(); ++k) p.first[k] += p.first[k - 1];
  p.total = p.first.back();
  return p;
}

// write(i, rank, flag(i)) for every i in [0, n), chunk by chunk in parallel.
template <class Flag, class Write>
void select_write(const select_plan& p, const Flag& flag, const Write& write) {
  parallel_tasks(p.parts.count, [&](std::int64_t k) {
    std::int64_t r = p.first[static_cast<std::size_t>(k)];
    const std::int64_t e = p.parts.end(k);
    for (std::int64_t i = p.parts.begin(k); i < e; ++i) {
      const bool s = flag(i);
      write(i, r, s);
      r += s ? 1 : 0;
    }
  });
}

}  // namespace ak::cpu
