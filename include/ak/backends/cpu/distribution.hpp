// Pieces shared by the cpu backend's distribution sorts (radix_sort.hpp, comparison_sort.hpp):
// both count per chunk, scatter chunks from their own offsets, then sort runs of buckets on
// the workers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ak/backends/cpu/parallel.hpp"

namespace ak::cpu {

// Turns per-chunk counts hist[chunk][bucket] into each chunk's first destination per bucket
// (bucket-major, chunks in order: that is what keeps a scatter stable). Returns whether one
// bucket holds all n elements, so that the scatter would move nothing.
inline bool exclusive_offsets(std::int64_t* hist, std::size_t chunk_count, std::size_t buckets,
                              std::int64_t n) {
  std::int64_t running = 0;
  bool one_bucket = false;
  for (std::size_t b = 0; b < buckets; ++b) {
    const std::int64_t before = running;
    for (std::size_t c = 0; c < chunk_count; ++c) {
      const std::int64_t count = hist[c * buckets + b];
      hist[c * buckets + b] = running;
      running += count;
    }
    if (running - before == n) one_bucket = true;
  }
  return one_bucket;
}

// Runs of consecutive buckets of about n / tasks elements each: task t takes buckets
// [first[t], first[t + 1]). start[b] is bucket b's first element; start.back() is n.
inline std::vector<std::size_t> bucket_runs(const std::vector<std::int64_t>& start,
                                            std::int64_t tasks) {
  const std::size_t buckets = start.size() - 1;
  const std::int64_t n = start.back();
  std::vector<std::size_t> first(static_cast<std::size_t>(tasks) + 1, buckets);
  std::size_t b = 0;
  for (std::int64_t t = 0; t < tasks; ++t) {
    first[static_cast<std::size_t>(t)] = b;
    while (b < buckets && start[b] < n * (t + 1) / tasks) ++b;
  }
  return first;
}

// to[0, n) = from[0, n), on the workers.
template <class T>
void parallel_copy(const T* from, std::int64_t n, T* to, std::int64_t grain) {
  const chunks c = plan_chunks(n, grain, num_threads(), 16);
  parallel_tasks(c.count, [&](std::int64_t k) {
    std::copy(from + c.begin(k), from + c.end(k), to + c.begin(k));
  });
}

}  // namespace ak::cpu
