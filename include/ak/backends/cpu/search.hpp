// searchsortedfirst/last of many queries on the cpu backend.
//
// Each search is branch-free (the half that holds the answer is picked with a conditional move,
// not a branch: random queries would mispredict half of the branches), and a task runs `lanes`
// searches in step, so that their loads, which miss the caches on large arrays, overlap instead
// of waiting one for another.
#pragma once

#include <algorithm>
#include <cstdint>

#include "ak/backends/cpu/parallel.hpp"

namespace ak::cpu {

// For each query q[j], j in [0, m): with last == false the first index i of sorted[0, n) (elements
// `stride` apart, in the order `less`) with !less(sorted[i], q[j]), n when there is none; with
// last == true the last index i with !less(q[j], sorted[i]), -1 when there is none.
template <class T, class Less>
void search_sorted(const T* sorted, std::int64_t stride, std::int64_t n, const T* q, std::int64_t m,
                   bool last, const Less& less, std::int64_t* out, std::int64_t grain) {
  constexpr std::int64_t lanes = 8;
  // Whether the answer lies past index i (the predicate is still false there).
  auto before = [&](const T& x, std::int64_t i) {
    const T& s = sorted[i * stride];
    return last ? !less(x, s) : less(s, x);
  };
  // Searches queries [b, b + count), count <= lanes, in step.
  auto search = [&](std::int64_t b, std::int64_t count) {
    std::int64_t lo[lanes] = {};
    // Invariant: the answer of each lane is in [lo, lo + len].
    for (std::int64_t len = n; len > 1;) {
      const std::int64_t half = len / 2;
      for (std::int64_t j = 0; j < count; ++j)
        lo[j] += before(q[b + j], lo[j] + half - 1) ? half : 0;
      len -= half;
    }
    for (std::int64_t j = 0; j < count; ++j) {
      const std::int64_t i = n == 0 ? 0 : lo[j] + (before(q[b + j], lo[j]) ? 1 : 0);
      out[b + j] = last ? i - 1 : i;
    }
  };
  const chunks c = plan_chunks(m, grain, balanced_task_limit());
  parallel_tasks(c.count, [&](std::int64_t k) {
    for (std::int64_t b = c.begin(k); b < c.end(k); b += lanes)
      search(b, std::min(lanes, c.end(k) - b));
  });
}

}  // namespace ak::cpu
