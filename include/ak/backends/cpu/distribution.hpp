// Pieces shared by the cpu backend's distribution sorts (radix_sort.hpp, comparison_sort.hpp):
// both count per chunk, scatter chunks from their own offsets, then sort runs of buckets on
// the workers.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "ak/backends/cpu/parallel.hpp"
#include "ak/backends/cpu/prefetch.hpp"

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

// Whether pred(a[i - 1], a[i]) holds for every i in [1, n), found by the workers in chunks of
// blocks. Every chunk stops at the first block where it fails, and its first block is short, so
// data for which it fails early (shuffled data, for the orders presorted asks about) costs a few
// dozen elements a chunk: little beside sorting a short segment.
template <class T, class Pred>
bool all_neighbours(const T* a, std::int64_t n, std::int64_t grain, const Pred& pred) {
  constexpr std::int64_t block = 1024;  // elements between looks at the other chunks' findings
  constexpr std::int64_t first_block = 32;
  const chunks c = plan_chunks(n, std::max<std::int64_t>(grain, block), num_threads(), block);
  std::atomic<bool> failed{false};
  parallel_tasks(c.count, [&](std::int64_t k) {
    const std::int64_t e = c.end(k);
    std::int64_t len = first_block;
    for (std::int64_t b = std::max<std::int64_t>(c.begin(k), 1); b < e; b += len, len = block) {
      if (failed.load(std::memory_order_relaxed)) return;
      const T* const p = a;
      if (e - b > len)
        fetch_block(p + b + len, static_cast<std::size_t>(std::min(block, e - b - len)));
      unsigned holds = 1;  // an integer: the block's loop vectorises
      for (std::int64_t i = b, be = std::min(e, b + len); i < be; ++i)
        holds &= pred(p[i - 1], p[i]) ? 1u : 0u;
      if (holds == 0) {
        failed.store(true, std::memory_order_relaxed);
        return;
      }
    }
  });
  return !failed.load();
}

// Sorts data[0, n) (and `along`, an array moved with it, when given) stably and returns true when
// that takes no more than looking at neighbours: data in order (by `less`) stays; data in strictly
// descending order is reversed, and so is data in descending order with ties when `ties_identical`
// says elements that compare equal are identical (integers alone). Otherwise returns false, having
// written nothing. Shuffled data costs a few blocks of each chunk (all_neighbours), data in order
// one read.
template <class T, class Less, class Along = std::nullptr_t>
bool presorted(T* data, std::int64_t n, std::int64_t grain, const Less& less,
               bool ties_identical = false, Along along = nullptr) {
  if (all_neighbours(data, n, grain, [&](const T& x, const T& y) { return !less(y, x); }))
    return true;
  const bool descending =
      ties_identical
          ? all_neighbours(data, n, grain, [&](const T& x, const T& y) { return !less(x, y); })
          : all_neighbours(data, n, grain, [&](const T& x, const T& y) { return less(y, x); });
  if (!descending) return false;
  parallel_reverse(data, n, grain);
  if constexpr (!std::is_same_v<Along, std::nullptr_t>) parallel_reverse(along, n, grain);
  return true;
}

}  // namespace ak::cpu
