// Comparison sorts on the cpu backend, for any strict weak order `less`:
//  - merge_sort: stable. Each chunk is sorted by insertion-sorted runs merged bottom-up between
//    the data and one scratch buffer of n elements; then chunks are merged pairwise, each merge
//    cut into tasks by merge-path co-ranks so every worker takes part in every round.
//  - sample_sort: not stable. Splitters from a sorted sample cut the data into buckets that are
//    sorted in parallel (std::sort); equal splitters get buckets of their own, so runs of equal
//    keys need no sorting.
// Both use exactly one scratch buffer of n elements (peak memory: input + one copy).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "ak/backends/cpu/parallel.hpp"

namespace ak::cpu {

// Stable insertion sort of [first, last).
template <class T, class Less>
void insertion_sort(T* first, T* last, const Less& less) {
  for (T* i = first + (first != last); i < last; ++i) {
    T x = std::move(*i);
    T* j = i;
    for (; j > first && less(x, *(j - 1)); --j) *j = std::move(*(j - 1));
    *j = std::move(x);
  }
}

// Stable merge of [a, a+na) and [b, b+nb) into out.
template <class T, class Less>
void merge_into(const T* a, std::int64_t na, const T* b, std::int64_t nb, T* out, const Less& less) {
  const T* ae = a + na;
  const T* be = b + nb;
  while (a != ae && b != be) *out++ = less(*b, *a) ? *b++ : *a++;
  out = std::copy(a, ae, out);
  std::copy(b, be, out);
}

// How many of the first `diag` outputs of merging a and b come from a (merge-path co-rank),
// consistent with merge_into's stability (ties from a first).
template <class T, class Less>
std::int64_t merge_path(const T* a, std::int64_t na, const T* b, std::int64_t nb, std::int64_t diag,
                        const Less& less) {
  std::int64_t lo = std::max<std::int64_t>(0, diag - nb), hi = std::min(diag, na);
  while (lo < hi) {
    const std::int64_t i = lo + (hi - lo) / 2;  // i from a, diag - i from b
    if (!less(b[diag - i - 1], a[i])) lo = i + 1;
    else hi = i;
  }
  return lo;
}

// Bottom-up merge passes over [0, n) of src/dst from runs of `width` to runs of at least
// `until` (or n); returns the buffer that holds the result.
template <class T, class Less>
T* merge_passes(T* src, T* dst, std::int64_t n, std::int64_t width, std::int64_t until,
                const Less& less) {
  for (; width < n && width < until; width *= 2) {
    for (std::int64_t i = 0; i < n; i += 2 * width) {
      const std::int64_t mid = std::min(n, i + width), end = std::min(n, i + 2 * width);
      merge_into(src + i, mid - i, src + mid, end - mid, dst + i, less);
    }
    std::swap(src, dst);
  }
  return src;
}

// Sorts data[0, n) sequentially, stable, with tmp[0, n) as scratch; the result is in data.
// Blocks of `block` elements (a power-of-two multiple of `run`, sized to the cache) are sorted
// completely while they are in cache; only the merges above that size stream through memory.
template <class T, class Less>
void merge_sort_serial(T* data, T* tmp, std::int64_t n, std::int64_t run, std::int64_t block,
                       const Less& less) {
  for (std::int64_t i = 0; i < n; i += run) insertion_sort(data + i, data + std::min(n, i + run), less);
  // Every full block takes the same number of passes, so all end in the same buffer; a short
  // last block may end in the other one and is copied over.
  T* in_block = data;
  for (std::int64_t b = 0; b < n; b += block) {
    const std::int64_t len = std::min(block, n - b);
    T* result = merge_passes(data + b, tmp + b, len, run, block, less);
    if (b == 0) in_block = result == data + b ? data : tmp;
    const T* expected = (in_block == data ? data : tmp) + b;
    if (result != expected) std::copy(result, result + len, (in_block == data ? data : tmp) + b);
  }
  T* other = in_block == data ? tmp : data;
  T* result = merge_passes(in_block, other, n, block, n, less);
  if (result != data) std::copy(result, result + n, data);
}

// Stable parallel merge sort of data[0, n) with tmp[0, n) as scratch. grain: elements per task.
// cache_bytes: what one worker's cache holds, for the in-cache blocks of the chunk sorts.
template <class T, class Less>
void merge_sort(T* data, T* tmp, std::int64_t n, std::int64_t grain, const Less& less,
                std::int64_t cache_bytes) {
  constexpr std::int64_t run = 16;  // insertion-sorted run: a few cache lines
  std::int64_t block = run;  // data and scratch of a block fill half the cache
  while (block * 2 * 2 * static_cast<std::int64_t>(sizeof(T)) <= cache_bytes / 2) block *= 2;
  if (n <= 1) return;
  // A power-of-two number of chunks keeps the merge tree balanced.
  std::int64_t count = 1;
  while (count < num_threads() && n / (2 * count) >= grain) count *= 2;
  const std::int64_t size = (n + count - 1) / count;
  parallel_tasks(count, [&](std::int64_t k) {
    const std::int64_t b = std::min(n, k * size), e = std::min(n, (k + 1) * size);
    merge_sort_serial(data + b, tmp + b, e - b, run, block, less);
  });
  T* src = data;
  T* dst = tmp;
  for (std::int64_t width = size; width < n; width *= 2) {
    // Every pair of runs is cut into pieces of about n / tasks outputs.
    const std::int64_t pairs = (n + 2 * width - 1) / (2 * width);
    const std::int64_t per_pair = std::max<std::int64_t>(1, balanced_task_limit() / pairs);
    parallel_tasks(pairs * per_pair, [&](std::int64_t task) {
      const std::int64_t p = task / per_pair, piece = task % per_pair;
      const std::int64_t i = p * 2 * width;
      const std::int64_t mid = std::min(n, i + width), end = std::min(n, i + 2 * width);
      const T* a = src + i;
      const T* b = src + mid;
      const std::int64_t na = mid - i, nb = end - mid, total = na + nb;
      const std::int64_t d0 = total * piece / per_pair, d1 = total * (piece + 1) / per_pair;
      const std::int64_t a0 = merge_path(a, na, b, nb, d0, less);
      const std::int64_t a1 = merge_path(a, na, b, nb, d1, less);
      merge_into(a + a0, a1 - a0, b + (d0 - a0), (d1 - a1) - (d0 - a0), dst + i + d0, less);
    });
    std::swap(src, dst);
  }
  if (src != data) {
    const chunks c = plan_chunks(n, grain, balanced_task_limit());
    parallel_tasks(c.count, [&](std::int64_t k) {
      std::copy(src + c.begin(k), src + c.end(k), data + c.begin(k));
    });
  }
}

// Unstable parallel sample sort of data[0, n) with tmp[0, n) as scratch.
template <class T, class Less>
void sample_sort(T* data, T* tmp, std::int64_t n, std::int64_t grain, std::int64_t oversampling,
                 const Less& less) {
  const std::int64_t want = std::min<std::int64_t>(balanced_task_limit(), n / std::max<std::int64_t>(grain, 1));
  if (want <= 1) {
    std::sort(data, data + n, less);
    return;
  }
  // Splitters: every oversampling-th element of a sorted, evenly spaced sample (deterministic:
  // the same input gives the same buckets).
  const std::int64_t samples = want * oversampling;
  std::vector<T> sample;
  sample.reserve(static_cast<std::size_t>(samples));
  std::uint64_t state = 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(n);
  for (std::int64_t s = 0; s < samples; ++s) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    sample.push_back(data[static_cast<std::int64_t>((state >> 17) % static_cast<std::uint64_t>(n))]);
  }
  std::sort(sample.begin(), sample.end(), less);
  std::vector<T> split;
  for (std::int64_t k = 1; k < want; ++k) split.push_back(sample[static_cast<std::size_t>(k * oversampling)]);
  // Bucket 2j: keys between splitters j-1 and j; bucket 2j+1: keys equal to splitter j.
  const std::int64_t buckets = 2 * static_cast<std::int64_t>(split.size()) + 1;
  auto bucket_of = [&](const T& x) {
    const std::int64_t j = std::upper_bound(split.begin(), split.end(), x, less) - split.begin();
    // x < split[j] and !(x < split[j-1]): x equals split[j-1] when !(split[j-1] < x).
    if (j > 0 && !less(split[static_cast<std::size_t>(j - 1)], x)) return 2 * j - 1;
    return 2 * j;
  };
  const chunks c = plan_chunks(n, grain, balanced_task_limit());
  const std::size_t nb = static_cast<std::size_t>(buckets);
  std::vector<std::int64_t> count(static_cast<std::size_t>(c.count) * nb, 0);
  parallel_tasks(c.count, [&](std::int64_t k) {
    std::int64_t* ck = count.data() + static_cast<std::size_t>(k) * nb;
    for (std::int64_t i = c.begin(k); i < c.end(k); ++i) ++ck[bucket_of(data[i])];
  });
  std::vector<std::int64_t> start(nb + 1, 0);
  std::int64_t running = 0;
  for (std::size_t b = 0; b < nb; ++b) {
    start[b] = running;
    for (std::int64_t k = 0; k < c.count; ++k) {
      std::int64_t& ck = count[static_cast<std::size_t>(k) * nb + b];
      const std::int64_t m = ck;
      ck = running;
      running += m;
    }
  }
  start[nb] = n;
  parallel_tasks(c.count, [&](std::int64_t k) {
    std::int64_t* ck = count.data() + static_cast<std::size_t>(k) * nb;
    for (std::int64_t i = c.begin(k); i < c.end(k); ++i) tmp[ck[bucket_of(data[i])]++] = data[i];
  });
  // Buckets of keys equal to a splitter are already in order; the others are sorted.
  parallel_tasks(buckets, [&](std::int64_t b) {
    const std::int64_t lo = start[static_cast<std::size_t>(b)], hi = start[static_cast<std::size_t>(b) + 1];
    if (b % 2 == 0) std::sort(tmp + lo, tmp + hi, less);
    std::copy(tmp + lo, tmp + hi, data + lo);
  });
}

}  // namespace ak::cpu
