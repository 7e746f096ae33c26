// Comparison sorts on the cpu backend, for any strict weak order `less`; both stable (ak::sort's
// .stable = false takes them too: sample sort's former unstable leaves were slower than its
// stable ones, docs/benchmarks/README.md):
//  - merge_sort: each chunk is sorted by insertion-sorted runs merged bottom-up between the data
//    and one scratch buffer of n elements; then chunks are merged pairwise, each merge cut into
//    tasks by merge-path co-ranks so every worker takes part in every round.
//  - sample_sort: distribution steps by splitters from a sample, classified without branches,
//    down to runs of at most sample_rules::leaf_size elements sorted by rank_sort_into
//    (branch-free) or insertion sort (see sample_sort below); equal splitters get buckets of their
//    own, so runs of equal keys need no sorting.
// Both use one scratch buffer of n elements (peak memory: input + one copy), and sample_sort's
// parallel step buffers of at most n / 16 elements more (or one per bucket and chunk, for tiny
// chunks).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

#include "ak/backends/cpu/distribution.hpp"
#include "ak/backends/cpu/parallel.hpp"
#include "ak/kernel/merge_path.hpp"

namespace ak::cpu {

// Stable insertion sort of [first, last) (random-access iterators). It never reads outside the
// range, whatever `less` answers.
template <class It, class Less>
void insertion_sort(It first, It last, const Less& less) {
  for (It i = first + (first != last); i < last; ++i) {
    typename std::iterator_traits<It>::value_type x = std::move(*i);
    It j = i;
    for (; j > first && less(x, *(j - 1)); --j) *j = std::move(*(j - 1));
    *j = std::move(x);
  }
}

// Stable merge of [a, a+na) and [b, b+nb) into out.
template <class T, class Less>
void merge_into(const T* a, std::int64_t na, const T* b, std::int64_t nb, T* out,
                const Less& less) {
  const T* ae = a + na;
  const T* be = b + nb;
  while (a != ae && b != be) *out++ = less(*b, *a) ? *b++ : *a++;
  out = std::copy(a, ae, out);
  std::copy(b, be, out);
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
  for (std::int64_t i = 0; i < n; i += run)
    insertion_sort(data + i, data + std::min(n, i + run), less);
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
  std::int64_t block = run;         // data and scratch of a block fill half the cache
  while (block * 2 * 2 * static_cast<std::int64_t>(sizeof(T)) <= cache_bytes / 2) block *= 2;
  if (n <= 1 || presorted(data, n, grain, less)) return;
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
    // Every pair of runs is cut into pieces of about n / tasks outputs. The cuts (how much of
    // each piece comes from the first run) are found before the merges and made monotone: with
    // a comparator that is not a strict weak order the searches can disagree, and pieces that
    // overlap would lose elements. For a strict weak order the clamp changes nothing.
    const std::int64_t pairs = (n + 2 * width - 1) / (2 * width);
    const std::int64_t per_pair = std::max<std::int64_t>(1, balanced_task_limit() / pairs);
    std::vector<std::int64_t> cut(static_cast<std::size_t>(pairs * (per_pair + 1)));
    auto pair_at = [&](std::int64_t p) {
      const std::int64_t i = p * 2 * width;
      const std::int64_t mid = std::min(n, i + width), end = std::min(n, i + 2 * width);
      return std::array<std::int64_t, 3>{i, mid - i, end - mid};  // start, na, nb
    };
    for (std::int64_t p = 0; p < pairs; ++p) {
      const auto [i, na, nb] = pair_at(p);
      std::int64_t* const c = cut.data() + p * (per_pair + 1);
      c[0] = 0;
      for (std::int64_t piece = 1; piece <= per_pair; ++piece) {
        const std::int64_t d = (na + nb) * piece / per_pair,
                           d_prev = (na + nb) * (piece - 1) / per_pair;
        c[piece] = std::clamp(kernel::merge_corank(src + i, na, src + i + na, nb, d, less),
                              c[piece - 1], c[piece - 1] + (d - d_prev));
      }
    }
    parallel_tasks(pairs * per_pair, [&](std::int64_t task) {
      const std::int64_t p = task / per_pair, piece = task % per_pair;
      const auto [i, na, nb] = pair_at(p);
      const std::int64_t total = na + nb;
      const std::int64_t d0 = total * piece / per_pair, d1 = total * (piece + 1) / per_pair;
      const std::int64_t* const c = cut.data() + p * (per_pair + 1);
      const std::int64_t a0 = c[piece], a1 = c[piece + 1];
      const T* a = src + i;
      merge_into(a + a0, a1 - a0, a + na + (d0 - a0), (d1 - a1) - (d0 - a0), dst + i + d0, less);
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

// ---- sample sort ------------------------------------------------------------------------------

// The sample sort's tunable rules (the sort hook's sample_oversampling and sample_leaf_size):
// samples per bucket in a distribution step, and the longest run sorted as a leaf (at most 64).
struct sample_rules {
  std::int64_t oversampling = 16;
  std::int64_t leaf_size = 32;
};

namespace sample_detail {

// The longest leaf rank_sort_into can take: it marks the places it filled in 64 bits.
inline constexpr std::int64_t max_leaf_size = 64;
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
    // Not std::sort: given a comparator that is not a strict weak order (<= for <, or < with
    // NaNs), its unguarded loops read outside the range. These two never do.
    if (samples <= 64)
      insertion_sort(sample.begin(), sample.end(), less);
    else
      std::stable_sort(sample.begin(), sample.end(), less);
    splitters.clear();
    for (std::size_t j = 1; j < k; ++j)
      splitters.push_back(sample[static_cast<std::size_t>(static_cast<std::int64_t>(j) * samples /
                                                          static_cast<std::int64_t>(k))]);
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

  // out[i] = the bucket of x[i], for i in [0, count): whole batches by a search whose depth is
  // a template argument, so that its steps unroll; the last count % batch elements one by one.
  // (One instantiation per depth: a batch of one or a second bucket type would double them, in
  // every translation unit that sorts with a comparator.)
  void classify(const T* x, std::int64_t count, std::uint16_t* out) const {
    switch (log_k) {
      case 1:
        return classify_levels<1>(x, count, out);
      case 2:
        return classify_levels<2>(x, count, out);
      case 3:
        return classify_levels<3>(x, count, out);
      case 4:
        return classify_levels<4>(x, count, out);
      case 5:
        return classify_levels<5>(x, count, out);
      case 6:
        return classify_levels<6>(x, count, out);
      case 7:
        return classify_levels<7>(x, count, out);
      default:
        return classify_levels<8>(x, count, out);
    }
  }
  template <int Levels>
  void classify_levels(const T* x, std::int64_t count, std::uint16_t* out) const {
    std::int64_t i = 0;
    for (; i + batch <= count; i += batch) classify_batch<Levels>(x + i, out + i);
    // The step below is written out here and in classify_batch on purpose: a shared helper for
    // it made g++ 12 -O3 miscompile the int32 and uint32 sample sorts (2026-12-03, the tests).
    for (; i < count; ++i) {
      std::size_t j = 1;
      for (int l = 0; l < log_k; ++l) j = 2 * j + static_cast<std::size_t>(!less(x[i], tree[j]));
      out[i] = bucket(j, x[i]);
    }
  }
  template <int Levels>
#if defined(__GNUC__) && !defined(__clang__)
  // g++ 12's loop vectorizer turns the interleaved searches into wrong buckets at -O3 (found by
  // the sort tests; clang and g++ -O2 are right), so it is kept away from them.
  __attribute__((optimize("no-tree-loop-vectorize")))
#endif
  void
  classify_batch(const T* x, std::uint16_t* out) const {
    std::size_t j[batch];
    for (int e = 0; e < batch; ++e) j[e] = 1;
    for (int l = 0; l < Levels; ++l)
      for (int e = 0; e < batch; ++e)
        j[e] = 2 * j[e] + static_cast<std::size_t>(!less(x[e], tree[j[e]]));
    for (int e = 0; e < batch; ++e) out[e] = bucket(j[e], x[e]);
  }
  // The bucket of x, which the search ended at leaf j of the tree.
  std::uint16_t bucket(std::size_t j, const T& x) const {
    std::size_t b = j - k;
    if (equal_buckets) b = 2 * b - static_cast<std::size_t>(b > 0 && !less(splitters[b - 1], x));
    return static_cast<std::uint16_t>(b);
  }
  // Classifies x[0, n) once, gathering its elements by bucket in g's buffers (see
  // block_gather); a full buffer, a block, is written back over x from its start, where every
  // element has already been read.
  template <class Gather>
  void gather(T* x, std::int64_t n, Gather& g) const {
    const std::int64_t block = g.block;
    const auto buffer = g.buffer.begin();  // an iterator: a vector<bool> has no data()
    std::int64_t* const fill = g.fill.data();
    T* out = x;
    std::uint16_t b[batch];
    for (std::int64_t i = 0; i < n; i += batch) {
      const std::int64_t m = std::min<std::int64_t>(batch, n - i);
      classify(x + i, m, b);
      for (std::int64_t e = 0; e < m; ++e) {
        const auto slot = buffer + static_cast<std::int64_t>(b[e]) * block;
        slot[fill[b[e]]] = x[i + e];
        if (++fill[b[e]] == block) {
          out = std::copy(slot, slot + block, out);
          g.blocks.push_back(static_cast<std::uint16_t>(b[e]));
          fill[b[e]] = 0;
        }
      }
    }
  }
};

// One chunk of a parallel distribution step that classifies each element once, as ips4o does:
// classifier::gather collects the chunk's elements in a buffer of `block` elements per bucket
// and writes each full buffer back into the chunk, which becomes a sequence of one-bucket blocks
// (their buckets listed in `blocks`, in the order they filled) followed by stale elements whose
// values wait in the buffers. Once every chunk is counted, spill copies the blocks and then the
// buffers to their buckets' places: a bucket's elements keep their order (stable).
template <class T>
struct block_gather {
  std::int64_t block = 1;
  std::vector<T> buffer;              // buckets x block
  std::vector<std::int64_t> fill;     // elements waiting in each bucket's buffer
  std::vector<std::uint16_t> blocks;  // the bucket of each block written back
  block_gather(std::size_t buckets, std::int64_t block_len, std::int64_t n, const T& any)
      : block(block_len),
        buffer(buckets * static_cast<std::size_t>(block_len), any),
        fill(buckets, 0) {
    blocks.reserve(static_cast<std::size_t>(n / block_len));  // gather never reallocates
  }
  // counts[bucket] = the chunk's elements in it.
  void count(std::int64_t* counts) const {
    for (std::size_t g = 0; g < fill.size(); ++g) counts[g] = fill[g];
    for (const std::uint16_t g : blocks) counts[g] += block;
  }
  // Copies the chunk (x as gather left it, then the buffers) to out[offset[bucket]++].
  void spill(const T* x, T* out, std::int64_t* offset) const {
    for (const std::uint16_t g : blocks) {
      std::copy(x, x + block, out + offset[g]);
      offset[g] += block;
      x += block;
    }
    for (std::size_t g = 0; g < fill.size(); ++g) {
      const auto slot = buffer.begin() + static_cast<std::int64_t>(g) * block;
      std::copy(slot, slot + fill[g], out + offset[g]);
      offset[g] += fill[g];
    }
  }
};

// Buckets of about `target` elements at the next level, at most 256.
inline int log_buckets_for(std::int64_t n,
                           std::int64_t target) {  // at most 8: classify's deepest tree
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

// Sorts a[0, n), n <= 64, stably into b, without branches: an element's place is the number of
// elements before it that are not greater than it and after it that are less. Random runs cost
// insertion sort a mispredicted branch per element, which is more than these n compares per
// element cost for a short run (1.2x faster sample sorts of 39K-element runs of uint32, float64
// and 16-byte structs; docs/benchmarks/README.md). Returns false, b then unspecified, when the
// places are not a permutation (`less` is not a strict weak order, as < is with NaNs), so that
// the caller can fall back to a sort that only moves elements.
template <class T, class Less>
bool rank_sort_into(const T* a, T* b, std::int64_t n, const Less& less) {
  std::uint64_t placed = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t place = 0;
    for (std::int64_t j = 0; j < i; ++j) place += !less(a[i], a[j]);
    for (std::int64_t j = i + 1; j < n; ++j) place += less(a[j], a[i]);
    b[place] = a[i];  // place <= i + (n - 1 - i)
    placed |= std::uint64_t{1} << place;
  }
  return placed == (n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1);
}

// Sorts a[0, n) stably on this thread with b[0, n) as scratch; returns a or b, whichever holds
// the result. Each step distributes a into b by splitters, then sorts the buckets the same way;
// runs of rules.leaf_size elements or fewer are rank sorted (insertion sorted when T is not
// trivially copyable, a hint that comparing may cost more than a mispredicted branch). A run that
// the sample failed to split, depth after depth, is merge sorted.
template <class T, class Less>
T* sample_sort_serial(T* a, T* b, std::int64_t n, const Less& less, const sample_rules& rules,
                      sample_workspace<T, Less>& w, std::size_t depth = 0) {
  const std::int64_t oversampling = rules.oversampling;
  if (n <= rules.leaf_size) {
    if constexpr (std::is_trivially_copyable_v<T>)
      if (rank_sort_into(a, b, n, less)) return b;
    insertion_sort(a, a + n, less);
    return a;
  }
  if (depth > max_depth) {
    merge_sort_serial(a, b, n, 16, std::int64_t{1} << 12, less);
    return a;
  }
  // Deeper steps sort short runs, where a large sample would cost as much as the run: a
  // sample of about log2(n) / 4 elements per bucket (at most `oversampling`).
  const int log_k = log_buckets_for(n, 8);
  const std::int64_t per_bucket =
      std::clamp<std::int64_t>(std::bit_width(static_cast<std::uint64_t>(n)) / 4, 1, oversampling);
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
      return sample_sort_serial(a, b, n, less, rules, w, depth + 1);
    }
  exclusive_offsets(start.data(), 1, buckets, n);
  start[buckets] = n;
  w.offset.assign(start.begin(), start.end() - 1);
  std::int64_t* const offset = w.offset.data();
  for (std::int64_t i = 0; i < n; ++i) b[offset[bucket_of[i]]++] = a[i];
  for (std::size_t g = 0; g < buckets; ++g) {
    const std::int64_t s = start[g], len = start[g + 1] - s;
    if (len <= 1 || (equal_buckets && g % 2 == 1)) continue;
    if (sample_sort_serial(b + s, a + s, len, less, rules, w, depth + 1) == a + s)
      std::copy(a + s, a + s + len, b + s);
  }
  return b;
}

}  // namespace sample_detail

// Stable parallel sample sort of data[0, n) with tmp[0, n) as scratch: one parallel step that
// distributes the data into 256 buckets by splitters from a sample (each chunk classifies its
// elements once, gathering them in blocks per bucket (block_gather), then copies them to its own
// offsets in tmp, which keeps equal elements in order); then workers sort runs of buckets of
// about equal total size, each by the same steps on one thread, down to leaves (see
// sample_sort_serial). Classifying is branch-free (a search tree of splitters), so random data
// costs no mispredicted branches. A bucket larger than a worker's share is sorted by this
// parallel step again. grain: elements per task at least; cache_bytes: one worker's cache, of
// which the gather buffers take at most a quarter.
template <class T, class Less>
void sample_sort(T* data, T* tmp, std::int64_t n, std::int64_t grain, sample_rules rules,
                 const Less& less, std::int64_t cache_bytes) {
  if (presorted(data, n, grain, less)) return;
  rules.oversampling = std::max<std::int64_t>(1, rules.oversampling);
  rules.leaf_size = std::clamp<std::int64_t>(rules.leaf_size, 1, sample_detail::max_leaf_size);
  const std::int64_t oversampling = rules.oversampling;
  const chunks c = plan_chunks(n, grain, num_threads(), 16);
  if (c.count <= 1) {
    sample_detail::sample_workspace<T, Less> w(less);
    if (sample_detail::sample_sort_serial(data, tmp, n, less, rules, w) != data)
      std::copy(tmp, tmp + n, data);
    return;
  }
  sample_detail::classifier<T, Less> cl(less);
  cl.choose(data, n, 8, oversampling << 8);
  const std::size_t buckets = cl.buckets();
  const std::size_t nc = static_cast<std::size_t>(c.count);
  // Blocks of about a kilobyte (buffers of a quarter of the cache), and small enough that the
  // buffers of all chunks hold at most n / 16 elements (but at least one per bucket). (Classifying
  // once gathered 1.12x faster than classifying to count and again to scatter:
  // docs/benchmarks/README.md.) The buffers are allocated before any chunk is gathered: gathering
  // rewrites data in place.
  const std::int64_t block_len = std::max<std::int64_t>(
      1, std::min<std::int64_t>(cache_bytes / 4 / static_cast<std::int64_t>(buckets * sizeof(T)),
                                c.size / 16 / static_cast<std::int64_t>(buckets)));
  std::vector<sample_detail::block_gather<T>> gathered;
  gathered.reserve(nc);
  for (std::size_t k = 0; k < nc; ++k)
    gathered.emplace_back(
        buckets, block_len,
        c.end(static_cast<std::int64_t>(k)) - c.begin(static_cast<std::int64_t>(k)), data[0]);
  std::vector<std::int64_t> offsets(nc * buckets, 0);
  parallel_tasks(c.count, [&](std::int64_t k) {
    sample_detail::block_gather<T>& g = gathered[static_cast<std::size_t>(k)];
    cl.gather(data + c.begin(k), c.end(k) - c.begin(k), g);
    g.count(offsets.data() + static_cast<std::size_t>(k) * buckets);
  });
  std::vector<std::int64_t> start(buckets + 1, 0);
  for (std::size_t g = 0; g < buckets; ++g) {
    std::int64_t sum = 0;
    for (std::size_t k = 0; k < nc; ++k) sum += offsets[k * buckets + g];
    start[g + 1] = start[g] + sum;
    // Every element equal: gather wrote each block back where it read it, so data is unchanged.
    if (sum == n && cl.is_equal_bucket(g)) return;
  }
  exclusive_offsets(offsets.data(), nc, buckets, n);
  parallel_tasks(c.count, [&](std::int64_t k) {
    const auto from =
        offsets.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(k) * buckets);
    std::vector<std::int64_t> own(from, from + static_cast<std::ptrdiff_t>(buckets));
    gathered[static_cast<std::size_t>(k)].spill(data + c.begin(k), tmp, own.data());
  });
  const std::int64_t tasks =
      std::min<std::int64_t>(balanced_task_limit(), static_cast<std::int64_t>(buckets));
  const std::int64_t longest = std::max<std::int64_t>(n / tasks, 2 * grain);
  for (std::size_t g = 0; g < buckets; ++g) {
    const std::int64_t s = start[g], len = start[g + 1] - s;
    if (len <= longest || cl.is_equal_bucket(g)) continue;
    // The sample failed to split this much: the same step again on a bucket smaller than n.
    if (len < n)
      sample_sort(tmp + s, data + s, len, grain, rules, less, cache_bytes);
    else
      merge_sort(tmp + s, data + s, len, grain, less, std::int64_t{1} << 18);
    parallel_copy(tmp + s, len, data + s, grain);
  }
  const std::vector<std::size_t> first = bucket_runs(start, tasks);
  parallel_tasks(tasks, [&](std::int64_t t) {
    sample_detail::sample_workspace<T, Less> w(less);
    for (std::size_t g = first[static_cast<std::size_t>(t)];
         g < first[static_cast<std::size_t>(t) + 1]; ++g) {
      const std::int64_t s = start[g], len = start[g + 1] - s;
      if (len > longest && !cl.is_equal_bucket(g)) continue;
      if (len > 1 && !cl.is_equal_bucket(g) &&
          sample_detail::sample_sort_serial(tmp + s, data + s, len, less, rules, w) == data + s)
        continue;
      std::copy(tmp + s, tmp + s + len, data + s);
    }
  });
}

}  // namespace ak::cpu
