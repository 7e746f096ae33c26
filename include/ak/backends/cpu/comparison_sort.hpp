// Comparison sorts on the cpu backend, for any strict weak order `less`; both stable:
//  - merge_sort: each chunk is sorted by insertion-sorted runs merged bottom-up between the data
//    and one scratch buffer of n elements; then chunks are merged pairwise, each merge cut into
//    tasks by merge-path co-ranks so every worker takes part in every round.
//  - sample_sort: distribution steps by splitters from a sample, classified without branches,
//    down to insertion-sorted runs (see sample_sort below); equal splitters get buckets of their
//    own, so runs of equal keys need no sorting.
//  - sample_sort with stable = false: the same distribution steps, but runs of up to
//    unstable_leaf_size elements are sorted by unstable_leaf_sort (branch-free sorting networks
//    and merges) instead of being split further: small steps cost more per element than large
//    ones, and insertion sort mispredicts a branch per element.
// Both use exactly one scratch buffer of n elements (peak memory: input + one copy).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "ak/backends/cpu/distribution.hpp"
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

// ---- unstable leaf ----------------------------------------------------------------------------

// x, y = min, max (unstable). The selects are of addresses, which compilers turn into
// conditional moves for any T, so a random order costs no mispredicted branches.
template <class T, class Less>
inline void compare_exchange(T& x, T& y, const Less& less) {
  const bool swap = less(y, x);
  T lo = *(swap ? &y : &x);
  T hi = *(swap ? &x : &y);
  x = std::move(lo);
  y = std::move(hi);
}

// One step of a branch-free merge: takes the smaller head (a's on ties).
template <class T, class Less>
inline void merge_step(const T*& a, const T*& b, T*& out, const Less& less) {
  const bool take_b = less(*b, *a);
  *out++ = *(take_b ? b : a);
  a += !take_b;
  b += take_b;
}

template <class T, class Less>
void merge_branchless(const T* a, const T* ae, const T* b, const T* be, T* out, const Less& less) {
  while (a != ae && b != be) merge_step(a, b, out, less);
  out = std::copy(a, ae, out);
  std::copy(b, be, out);
}

// Sorts a[0, n) with b[0, n) as scratch, unstable; returns a or b, whichever holds the result.
// Groups of 4 by a sorting network, then bottom-up merges, two at a time so that the latency of
// one merge's compare-select-advance chain hides behind the other's.
template <class T, class Less>
T* unstable_leaf_sort(T* a, T* b, std::int64_t n, const Less& less) {
  std::int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    compare_exchange(a[i], a[i + 1], less);
    compare_exchange(a[i + 2], a[i + 3], less);
    compare_exchange(a[i], a[i + 2], less);
    compare_exchange(a[i + 1], a[i + 3], less);
    compare_exchange(a[i + 1], a[i + 2], less);
  }
  insertion_sort(a + i, a + n, less);
  for (std::int64_t w = 4; w < n; w *= 2) {
    std::int64_t j = 0;
    for (; j + 4 * w <= n; j += 4 * w) {
      const T* a1 = a + j;
      const T* b1 = a1 + w;
      const T* a2 = b1 + w;
      const T* b2 = a2 + w;
      const T* const ae1 = b1;
      const T* const be1 = a2;
      const T* const ae2 = b2;
      const T* const be2 = b2 + w;
      T* o1 = b + j;
      T* o2 = o1 + 2 * w;
      while (a1 != ae1 && b1 != be1 && a2 != ae2 && b2 != be2) {
        merge_step(a1, b1, o1, less);
        merge_step(a2, b2, o2, less);
      }
      merge_branchless(a1, ae1, b1, be1, o1, less);
      merge_branchless(a2, ae2, b2, be2, o2, less);
    }
    for (; j < n; j += 2 * w) {
      const std::int64_t mid = std::min(n, j + w), end = std::min(n, j + 2 * w);
      merge_branchless(a + j, a + mid, a + mid, a + end, b + j, less);
    }
    std::swap(a, b);
  }
  return a;
}

// ---- sample sort ------------------------------------------------------------------------------

namespace sample_detail {

// Runs this short or shorter are insertion sorted (stable) or unstable_leaf_sorted (unstable).
inline constexpr std::int64_t leaf_size = 32;
inline constexpr std::int64_t unstable_leaf_size = 256;
// Steps deeper than this (a sample that keeps failing to split a run) give way to merge sort.
inline constexpr std::size_t max_depth = 24;
// Elements classified together: their searches interleave, so the latency of one step of one
// search hides behind the others.
inline constexpr int batch = 16;

// The splitters of one distribution step, in an implicit search tree (node j's children are 2j
// and 2j + 1; tree[0] is unused), so that an element's bucket is log2(k) steps without branches:
// j = 2j + !(x < tree[j]). Bucket b holds the elements x with splitter[b-1] <= x < splitter[b].
// When the sample has equal splitters (many equal keys), elements equal to splitter[b-1] get a
// bucket of their own, 2b - 1, which needs no sorting; the others go to 2b.
template <class T, class Less>
struct classifier {
  const Less& less;
  int log_k = 0;
  std::size_t k = 0;
  bool equal_buckets = false;
  std::vector<T> tree;
  std::vector<T> splitters;

  std::vector<T> sample;

  explicit classifier(const Less& lt) : less(lt) {}
  // Splitters of 2^log_buckets buckets for a[0, n), from a sample of `samples` elements at
  // pseudo-random positions (the same input gives the same buckets). The vectors are reused
  // from step to step.
  void choose(const T* a, std::int64_t n, int log_buckets, std::int64_t samples) {
    log_k = log_buckets;
    k = std::size_t{1} << log_buckets;
    equal_buckets = false;
    samples = std::clamp<std::int64_t>(samples, static_cast<std::int64_t>(k), n);
    sample.clear();
    std::uint64_t state = 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(n);
    for (std::int64_t s = 0; s < samples; ++s) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      sample.push_back(a[static_cast<std::int64_t>((state >> 17) % static_cast<std::uint64_t>(n))]);
    }
    std::sort(sample.begin(), sample.end(), less);
    splitters.clear();
    for (std::size_t j = 1; j < k; ++j)
      splitters.push_back(sample[static_cast<std::size_t>(static_cast<std::int64_t>(j) * samples / static_cast<std::int64_t>(k))]);
    for (std::size_t j = 1; j + 1 < k; ++j)
      if (!less(splitters[j - 1], splitters[j])) equal_buckets = true;
    tree.resize(k, splitters[0]);
    std::size_t next = 0;
    fill(1, next);
  }
  // In-order walk of the tree: node j takes the next splitter after its left subtree.
  void fill(std::size_t j, std::size_t& next) {
    if (j >= k) return;
    fill(2 * j, next);
    tree[j] = splitters[next++];
    fill(2 * j + 1, next);
  }
  std::size_t buckets() const { return equal_buckets ? 2 * k - 1 : k; }
  bool is_equal_bucket(std::size_t b) const { return equal_buckets && b % 2 == 1; }

  // out[i] = the bucket of x[i], for i in [0, count).
  // The depth of the tree is a template argument, so that the steps unroll.
  template <class Bucket>
  void classify(const T* x, std::int64_t count, Bucket* out) const {
    switch (log_k) {
      case 1: return classify_levels<1>(x, count, out);
      case 2: return classify_levels<2>(x, count, out);
      case 3: return classify_levels<3>(x, count, out);
      case 4: return classify_levels<4>(x, count, out);
      case 5: return classify_levels<5>(x, count, out);
      case 6: return classify_levels<6>(x, count, out);
      case 7: return classify_levels<7>(x, count, out);
      default: return classify_levels<8>(x, count, out);
    }
  }
  template <int Levels, class Bucket>
  void classify_levels(const T* x, std::int64_t count, Bucket* out) const {
    std::int64_t i = 0;
    for (; i + batch <= count; i += batch) classify_batch<Levels, batch>(x + i, out + i);
    for (; i < count; ++i) classify_batch<Levels, 1>(x + i, out + i);
  }
  template <int Levels, int M, class Bucket>
#if defined(__GNUC__) && !defined(__clang__)
  // g++ 12's loop vectorizer turns the interleaved searches into wrong buckets at -O3 (found by
  // the sort tests; clang and g++ -O2 are right), so it is kept away from them.
  __attribute__((optimize("no-tree-loop-vectorize")))
#endif
  void classify_batch(const T* x, Bucket* out) const {
    std::size_t j[M];
    for (int e = 0; e < M; ++e) j[e] = 1;
    for (int l = 0; l < Levels; ++l)
      for (int e = 0; e < M; ++e) j[e] = 2 * j[e] + static_cast<std::size_t>(!less(x[e], tree[j[e]]));
    for (int e = 0; e < M; ++e) {
      std::size_t b = j[e] - k;
      if (equal_buckets) b = 2 * b - static_cast<std::size_t>(b > 0 && !less(splitters[b - 1], x[e]));
      out[e] = static_cast<Bucket>(b);
    }
  }
  // counts[bucket] += the elements of x[0, n) in it.
  void count(const T* x, std::int64_t n, std::int64_t* counts) const {
    std::uint32_t b[batch];
    for (std::int64_t i = 0; i < n; i += batch) {
      const std::int64_t m = std::min<std::int64_t>(batch, n - i);
      classify(x + i, m, b);
      for (std::int64_t e = 0; e < m; ++e) ++counts[b[e]];
    }
  }
  // Moves x[0, n) to out[offset[bucket]++], in order (stable).
  void scatter(const T* x, std::int64_t n, T* out, std::int64_t* offset) const {
    std::uint32_t b[batch];
    for (std::int64_t i = 0; i < n; i += batch) {
      const std::int64_t m = std::min<std::int64_t>(batch, n - i);
      classify(x + i, m, b);
      for (std::int64_t e = 0; e < m; ++e) out[offset[b[e]]++] = x[i + e];
    }
  }
};

// Buckets of about `target` elements at the next level, at most 256: 8 for insertion-sorted
// leaves, 64 for unstable ones.
inline int log_buckets_for(std::int64_t n, std::int64_t target) {  // at most 8: classify's deepest tree
  const int w = static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n / target)));
  return std::clamp(w - 1, 1, 8);
}

// What one worker's serial sample sort reuses from step to step and run to run.
template <class T, class Less>
struct sample_workspace {
  classifier<T, Less> c;
  std::vector<std::uint16_t> oracle;              // each element's bucket, in the current step
  std::vector<std::int64_t> offset;               // next destination per bucket
  std::vector<std::vector<std::int64_t>> starts;  // bucket starts, one vector per depth
  explicit sample_workspace(const Less& less) : c(less), starts(max_depth + 2) {}
};

// Sorts a[0, n) on this thread (stably when Stable) with b[0, n) as scratch; returns a or b,
// whichever holds the result. Each step distributes a into b by splitters, then sorts the
// buckets the same way; runs of leaf_size elements or fewer are insertion sorted (Stable), runs
// of unstable_leaf_size or fewer unstable_leaf_sorted (not Stable). A run that the sample failed
// to split, depth after depth, is merge sorted.
template <bool Stable, class T, class Less>
T* sample_sort_serial(T* a, T* b, std::int64_t n, const Less& less, std::int64_t oversampling,
                      sample_workspace<T, Less>& w, std::size_t depth = 0) {
  if constexpr (Stable) {
    if (n <= leaf_size) {
      insertion_sort(a, a + n, less);
      return a;
    }
  } else {
    if (n <= unstable_leaf_size) return unstable_leaf_sort(a, b, n, less);
  }
  if (depth > max_depth) {
    merge_sort_serial(a, b, n, 16, std::int64_t{1} << 12, less);
    return a;
  }
  // Deeper steps sort short runs, where a large sample would cost as much as the run: a
  // sample of about log2(n) / 4 elements per bucket (at most `oversampling`).
  const int log_k = log_buckets_for(n, Stable ? 8 : 64);
  const std::int64_t per_bucket = std::clamp<std::int64_t>(std::bit_width(static_cast<std::uint64_t>(n)) / 4, 1, oversampling);
  classifier<T, Less>& c = w.c;
  c.choose(a, n, log_k, per_bucket << log_k);
  const std::size_t buckets = c.buckets();
  const bool equal_buckets = c.equal_buckets;  // c is reused by the steps below this one
  // Each element's bucket is kept (the run is in cache), so the scatter needs no second search.
  if (w.oracle.size() < static_cast<std::size_t>(n)) w.oracle.resize(static_cast<std::size_t>(n));
  std::uint16_t* const bucket_of = w.oracle.data();
  c.classify(a, n, bucket_of);
  std::vector<std::int64_t>& start = w.starts[depth];
  start.assign(buckets + 1, 0);
  for (std::int64_t i = 0; i < n; ++i) ++start[bucket_of[i]];
  for (std::size_t g = 0; g < buckets; ++g)
    if (start[g] == n) {  // one bucket holds everything
      if (equal_buckets && g % 2 == 1) return a;
      return sample_sort_serial<Stable>(a, b, n, less, oversampling, w, depth + 1);
    }
  exclusive_offsets(start.data(), 1, buckets, n);
  start[buckets] = n;
  w.offset.assign(start.begin(), start.end() - 1);
  std::int64_t* const offset = w.offset.data();
  for (std::int64_t i = 0; i < n; ++i) b[offset[bucket_of[i]]++] = a[i];
  for (std::size_t g = 0; g < buckets; ++g) {
    const std::int64_t s = start[g], len = start[g + 1] - s;
    if (len <= 1 || (equal_buckets && g % 2 == 1)) continue;
    if (sample_sort_serial<Stable>(b + s, a + s, len, less, oversampling, w, depth + 1) == a + s)
      std::copy(a + s, a + s + len, b + s);
  }
  return b;
}

}  // namespace sample_detail

// Parallel sample sort of data[0, n) with tmp[0, n) as scratch, stable when Stable: one parallel step that
// distributes the data into 256 buckets by splitters from a sample (chunks classify and count,
// then scatter from their own offsets, which keeps equal elements in order); then workers sort
// runs of buckets of about equal total size, each by the same steps on one thread, down to
// leaves (see sample_sort_serial). Classifying is branch-free (a search tree of splitters), so random
// data costs no mispredicted branches. A bucket larger than a worker's share is sorted by this
// parallel step again. grain: elements per task at least.
template <bool Stable, class T, class Less>
void sample_sort_parallel(T* data, T* tmp, std::int64_t n, std::int64_t grain,
                          std::int64_t oversampling, const Less& less) {
  oversampling = std::max<std::int64_t>(1, oversampling);
  const chunks c = plan_chunks(n, grain, num_threads(), 16);
  if (c.count <= 1) {
    sample_detail::sample_workspace<T, Less> w(less);
    if (sample_detail::sample_sort_serial<Stable>(data, tmp, n, less, oversampling, w) != data)
      std::copy(tmp, tmp + n, data);
    return;
  }
  sample_detail::classifier<T, Less> cl(less);
  cl.choose(data, n, 8, oversampling << 8);
  const std::size_t buckets = cl.buckets();
  const std::size_t nc = static_cast<std::size_t>(c.count);
  std::vector<std::int64_t> offsets(nc * buckets, 0);
  parallel_tasks(c.count, [&](std::int64_t k) {
    cl.count(data + c.begin(k), c.end(k) - c.begin(k), offsets.data() + static_cast<std::size_t>(k) * buckets);
  });
  std::vector<std::int64_t> start(buckets + 1, 0);
  for (std::size_t g = 0; g < buckets; ++g) {
    std::int64_t sum = 0;
    for (std::size_t k = 0; k < nc; ++k) sum += offsets[k * buckets + g];
    start[g + 1] = start[g] + sum;
    if (sum == n && cl.is_equal_bucket(g)) return;  // every element equal
  }
  exclusive_offsets(offsets.data(), nc, buckets, n);
  parallel_tasks(c.count, [&](std::int64_t k) {
    const auto from = offsets.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(k) * buckets);
    std::vector<std::int64_t> own(from, from + static_cast<std::ptrdiff_t>(buckets));
    cl.scatter(data + c.begin(k), c.end(k) - c.begin(k), tmp, own.data());
  });
  const std::int64_t tasks = std::min<std::int64_t>(balanced_task_limit(), static_cast<std::int64_t>(buckets));
  const std::int64_t longest = std::max<std::int64_t>(n / tasks, 2 * grain);
  for (std::size_t g = 0; g < buckets; ++g) {
    const std::int64_t s = start[g], len = start[g + 1] - s;
    if (len <= longest || cl.is_equal_bucket(g)) continue;
    // The sample failed to split this much: the same step again on a bucket smaller than n.
    if (len < n) sample_sort_parallel<Stable>(tmp + s, data + s, len, grain, oversampling, less);
    else merge_sort(tmp + s, data + s, len, grain, less, std::int64_t{1} << 18);
    parallel_copy(tmp + s, len, data + s, grain);
  }
  const std::vector<std::size_t> first = bucket_runs(start, tasks);
  parallel_tasks(tasks, [&](std::int64_t t) {
    sample_detail::sample_workspace<T, Less> w(less);
    for (std::size_t g = first[static_cast<std::size_t>(t)]; g < first[static_cast<std::size_t>(t) + 1]; ++g) {
      const std::int64_t s = start[g], len = start[g + 1] - s;
      if (len > longest && !cl.is_equal_bucket(g)) continue;
      if (len > 1 && !cl.is_equal_bucket(g) &&
          sample_detail::sample_sort_serial<Stable>(tmp + s, data + s, len, less, oversampling, w) == data + s)
        continue;
      std::copy(tmp + s, tmp + s + len, data + s);
    }
  });
}

// sample_sort_parallel, stable unless `stable` is false (ak::sort's .stable = false). Measured
// on 2 cores beside other builds: the unstable leaves sort a 39K-element bucket of random uint32
// about 1.1x as fast (the 152-element runs below it 1.25x), float64 no faster; the whole sort of
// 1e7 stays at 0.6x to 0.8x of ips4o (docs/benchmarks/README.md).
template <class T, class Less>
void sample_sort(T* data, T* tmp, std::int64_t n, std::int64_t grain, std::int64_t oversampling,
                 const Less& less, bool stable = true) {
  if (stable) sample_sort_parallel<true>(data, tmp, n, grain, oversampling, less);
  else sample_sort_parallel<false>(data, tmp, n, grain, oversampling, less);
}

}  // namespace ak::cpu
