// LSD radix sort on the cpu backend: numeric keys in ak's order (DESIGN.md section 6), with an
// optional payload (sort_by_key, sortperm). Stable.
//
// Keys become unsigned integers whose order is ak's (ak::ordered_key, ak/core/operators.hpp);
// `rev` complements the key. The transform is applied on the fly, so the data keeps its bits.
//
// Small runs take LSD passes in cache; data larger than the cache takes one MSD pass first (see
// radix_sort below), and so does a run whose keys differ in many more bits than it has keys.
// Passes scatter contiguous chunks in order, which keeps the sort stable.
// Integer keys alone (no values) that differ in at most 16 bits, all of them or those of a large
// bucket, are counted and written from the counts (counting_sort): equal integer keys are equal
// bits. Keys already in order are left as they are, and keys in descending order reversed.
// Numbers alone (no values, each element its own key) in in-cache runs of at least the rules'
// vector_run keys are sorted by the vector code instead of LSD passes (vector_sort_run): their
// equal keys are equal bits, so any sort is the stable one.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "ak/backends/cpu/distribution.hpp"
#include "ak/backends/cpu/parallel.hpp"
#include "ak/backends/cpu/prefetch.hpp"
#include "ak/backends/cpu/vector_sort.hpp"
#include "ak/core/operators.hpp"

namespace ak::cpu {

namespace radix_detail {

// The loops below take what they use by value (a plan too: a copy of their own): a store through a
// key or count pointer could alias the variables they reach by reference (a closure's captures,
// a plan passed by reference), and the compiler would reload them per element.

// A digit: `bits` bits of the (transformed) key from bit `shift` above the plan's `low` up.
struct digit {
  int shift;
  int bits;
};

// hist[bucket] += the number of keys of src[begin, end) in each bucket of digit d.
template <class K, class P>
void count_digit(const K* src, std::int64_t begin, std::int64_t end, digit d, const P& p,
                 std::int64_t* hist) {
  using U = typename P::bits_type;
  const U mask = static_cast<U>((U(1) << d.bits) - 1);
  const int shift = d.shift + p.low;
  const P own = p;
  for (std::int64_t i = begin; i < end; ++i) {
    fetch_ahead(src + i);
    ++hist[(own(src[i]) >> shift) & mask];
  }
}

// Moves src[begin, end) (and its values) to dst[offset[bucket]++]. Plain stores: on the machines
// measured so far (docs/benchmarks/README.md), staging each bucket's keys in write-combining
// lines was twice as slow as letting the store buffers scatter.
template <class K, class VV, class P, class Offset>
void scatter_digit(const K* src, K* dst, const VV* vsrc, VV* vdst, std::int64_t begin,
                   std::int64_t end, digit d, const P& p, Offset* offset) {
  using U = typename P::bits_type;
  const U mask = static_cast<U>((U(1) << d.bits) - 1);
  const int shift = d.shift + p.low;
  const P own = p;
  for (std::int64_t i = begin; i < end; ++i) {
    fetch_ahead(src + i);
    if constexpr (!std::is_same_v<VV, std::nullptr_t>) fetch_ahead(vsrc + i);
    const K k = src[i];
    const Offset to = offset[(own(k) >> shift) & mask]++;
    dst[to] = k;
    if constexpr (!std::is_same_v<VV, std::nullptr_t>) vdst[to] = vsrc[i];
  }
}

// The key of an element that is its own key.
struct own_key {
  template <class T>
  const T& operator()(const T& x) const noexcept {
    return x;
  }
};

// Whether KeyOf makes each element its own key.
template <class KeyOf>
inline constexpr bool own_key_v = std::is_same_v<KeyOf, own_key> || std::is_same_v<KeyOf, identity>;

// What one radix sort call needs to know: where an element's key comes from, the key order,
// and the shape of the passes. p(x) is x's key as an unsigned integer in sort order. Its `low`
// bits are the same for every key of the call (integers that are multiples of 2^low, floats with
// integer values): no pass looks at them, and the bit positions of the passes (digits, the bits
// a run differs in) count from bit `low` up. (Shifting them off each key instead made uniform
// int64 keys sort 15% slower: one more step before every scatter's store.)
template <class Key, class KeyOf>
struct radix_plan {
  using key_type = Key;
  using bits_type = ordered_key_t<Key>;
  using key_of_type = KeyOf;
  bits_type flip;              // ~0 for `rev`
  int digit_bits;              // widest digit of an in-cache pass
  std::int64_t bucket_bytes;   // a run at most this large is sorted in cache
  std::int64_t element_bytes;  // element + value
  int msd_passes;              // an in-cache run needing more LSD passes takes an MSD step
  int msd_run;                 // the keys per bucket of such a step
  std::int64_t vector_run;     // in-cache runs of this many keys or more: the vector sort (0: no)
  KeyOf key_of;
  int low = 0;  // the low key bits that no pass looks at
  template <class T>
  bits_type operator()(const T& x) const {
    return static_cast<bits_type>(ordered_key(static_cast<Key>(key_of(x))) ^ flip);
  }
};

// Stable insertion sort by key, for runs too short for a pass.
template <class K, class VV, class P>
void insertion_sort(K* a, VV* va, std::int64_t n, const P& p) {
  for (std::int64_t i = 1; i < n; ++i) {
    const K k = a[i];
    const auto key = p(k);
    VV v{};
    if constexpr (!std::is_same_v<VV, std::nullptr_t>) v = va[i];
    std::int64_t j = i;
    for (; j > 0 && key < p(a[j - 1]); --j) {
      a[j] = a[j - 1];
      if constexpr (!std::is_same_v<VV, std::nullptr_t>) va[j] = va[j - 1];
    }
    a[j] = k;
    if constexpr (!std::is_same_v<VV, std::nullptr_t>) va[j] = v;
  }
}

// The keys an MSD step aims to leave in each bucket: a sixteenth of a worker's cache, so that a
// bucket and its scratch stay in L1/L2 while its passes run.
template <class P>
std::int64_t bucket_target(const P& p) {
  return std::max<std::int64_t>(1, p.bucket_bytes / 16 / p.element_bytes);
}

// The width of the most significant digit of a run too large for the cache (on one worker):
// enough buckets for bucket_target keys each, at most one bit less than an in-cache digit
// (wider scatters thrash the TLB), at most `bits`.
template <class P>
int top_digit_bits(std::int64_t n, int bits, const P& p) {
  const std::int64_t want = (n + bucket_target(p) - 1) / bucket_target(p);
  const int width = static_cast<int>(
      std::bit_width(static_cast<std::uint64_t>(std::max<std::int64_t>(want - 1, 1))));
  return std::clamp(width, 1, std::min(bits, std::max(1, p.digit_bits - 1)));
}

// The widest digit of an in-cache LSD pass over a run of n keys: digit_bits, and no wider than
// the run needs (a pass of 2^width counters over fewer keys costs more than it sorts).
template <class P>
int lsd_width_cap(std::int64_t n, const P& p) {
  const int run_bits = static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n)));
  return std::min(p.digit_bits, std::max(4, run_bits));
}

// Whether a run of n keys that fits the cache, sorted by `bits` bits, takes an MSD step before
// its LSD passes: when LSD would need more than msd_passes passes (the sort hook's
// radix_msd_passes, 3 by default). Keys that differ in more bits than a run has keys (int64 and
// float64 buckets) are then split by their top digit into runs of a few keys, which are sorted
// by insertion, instead of passing over every bit.
template <class P>
bool msd_in_cache(std::int64_t n, int bits, const P& p) {
  return bits > p.msd_passes * lsd_width_cap(n, p);
}

// The top digit of such a step: runs of about msd_run keys (radix_msd_run, 8 by default), at
// most digit_bits wide.
template <class P>
int msd_in_cache_bits(std::int64_t n, int bits, const P& p) {
  const int width = static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n / p.msd_run)));
  return std::clamp(width, 1, std::min(bits, p.digit_bits));
}

// Counters of the in-cache passes, kept by a worker across the runs it sorts: 32-bit while the
// run allows (half the cache footprint of the histograms).
struct radix_counters {
  std::vector<std::uint32_t> narrow;
  std::vector<std::int64_t> wide;
};

// LSD passes over the key bits below `bits` of a[0, n), on this thread: passes of equal width, as
// few as digit_bits allows and no wider than the run needs. One read counts every pass's digit;
// a pass whose digit is the same for every key is skipped. Returns a or b, whichever holds the
// result.
template <class K, class VV, class P, class Count>
K* lsd_in_cache(K* a, K* b, VV* va, VV* vb, std::int64_t n, int bits, const P& p,
                std::vector<Count>& hist) {
  using U = typename P::bits_type;
  const int width_cap = lsd_width_cap(n, p);
  const int passes = (bits + width_cap - 1) / width_cap;
  const int width = (bits + passes - 1) / passes;
  const std::size_t buckets = std::size_t{1} << width;
  hist.assign(static_cast<std::size_t>(passes) * buckets, 0);
  {
    const U mask = static_cast<U>(buckets - 1);
    Count* const h = hist.data();
    const K* const src = a;
    const P own = p;
    const int low = p.low;
    for (std::int64_t i = 0; i < n; ++i) {
      const U key = own(src[i]);
      for (int q = 0; q < passes; ++q)
        ++h[static_cast<std::size_t>(q) * buckets + ((key >> (q * width + low)) & mask)];
    }
  }
  for (int q = 0; q < passes; ++q) {
    Count* const offset = hist.data() + static_cast<std::size_t>(q) * buckets;
    Count running = 0;
    bool moves = true;
    for (std::size_t bk = 0; bk < buckets; ++bk) {
      const Count count = offset[bk];
      if (count == static_cast<Count>(n)) moves = false;
      offset[bk] = running;
      running += count;
    }
    if (!moves) continue;
    // The last digit may reach above `bits`: those bits are the same for every key of the run.
    scatter_digit(a, b, va, vb, 0, n, digit{q * width, width}, p, offset);
    std::swap(a, b);
    std::swap(va, vb);
  }
  return a;
}

template <class K, class VV, class P>
K* sort_bits(K* a, K* b, VV* va, VV* vb, std::int64_t n, int bits, const P& p,
             radix_counters& hist);

// LSD passes of 8-bit digits over the key bits below `bits` of a[0, n), counting on the stack:
// allocates nothing. The way on for a run whose own passes found no memory for their counters
// (they take it before their first write, so the run is still whole in a), once the data have
// begun to move and giving up would lose them. Returns a or b, whichever holds the result.
template <class K, class VV, class P>
K* lsd_without_memory(K* a, K* b, VV* va, VV* vb, std::int64_t n, int bits, const P& p) {
  for (int shift = 0; shift < bits; shift += 8) {
    const digit d{shift, std::min(8, bits - shift)};
    const std::size_t buckets = std::size_t{1} << d.bits;
    std::int64_t offset[256] = {};
    count_digit(a, 0, n, d, p, offset);
    if (exclusive_offsets(offset, 1, buckets, n)) continue;  // one digit value: nothing moves
    scatter_digit(a, b, va, vb, 0, n, d, p, offset);
    std::swap(a, b);
    std::swap(va, vb);
  }
  return a;
}

// Sorts each bucket [start[i], start[i + 1]) of b (and vb), i in [first, last), by the key
// bits below bits_of(i), leaving the results in a (and va). Buckets longer than `longest` are
// left alone (the caller sorts them).
template <class K, class VV, class P, class BitsOf>
void sort_buckets_into(K* a, K* b, VV* va, VV* vb, const std::int64_t* start, std::size_t first,
                       std::size_t last, std::int64_t longest, const BitsOf& bits_of, const P& p,
                       radix_counters& hist) {
  for (std::size_t i = first; i < last; ++i) {
    const std::int64_t s = start[i], len = start[i + 1] - s;
    if (len == 0 || len > longest) continue;
    VV* vbs = nullptr;
    VV* vas = nullptr;
    if constexpr (!std::is_same_v<VV, std::nullptr_t>) {
      vbs = vb + s;
      vas = va + s;
    }
    // The earlier buckets are already in a: out of memory here, this bucket goes on without.
    K* sorted;
    try {
      sorted = sort_bits(b + s, a + s, vbs, vas, len, bits_of(i), p, hist);
    } catch (const std::bad_alloc&) {
      sorted = lsd_without_memory(b + s, a + s, vbs, vas, len, bits_of(i), p);
    }
    if (sorted == b + s) {
      std::copy(b + s, b + s + len, a + s);
      if constexpr (!std::is_same_v<VV, std::nullptr_t>) std::copy(vbs, vbs + len, vas);
    }
  }
}

// The type the vector sort sorts keys of type K as: an integer of 2, 4 or 8 bytes as the
// fixed-width integer of its size and signedness (the same bits), a float as its ordered key;
// void for the others.
template <class K>
using vector_key_t = std::conditional_t<
    std::is_floating_point_v<K> && has_ordered_key_v<K>, ordered_key_t<K>,
    std::conditional_t<std::is_integral_v<K> && !std::is_same_v<K, bool> && sizeof(K) >= 2 &&
                           sizeof(K) <= 8,
                       std::conditional_t<std::is_signed_v<K>, std::make_signed_t<ordered_key_t<K>>,
                                          ordered_key_t<K>>,
                       void>>;

// Whether keys alone of type K, each its own key (KeyOf), can go to the vector sort.
template <class K, class VV, class KeyOf>
inline constexpr bool vector_leaf_v = (std::is_same_v<VV, std::nullptr_t> && own_key_v<KeyOf> &&
                                       vector_sortable_v<vector_key_t<K>>);

// Sorts a[0, n) in ak's order (p's flip: descending) with the vector code, using b as scratch;
// returns a. Integers are sorted as they are. Floats become their ordered keys, except NaNs: they
// all share the largest key, keep their bits and their order (stable), and go to b meanwhile;
// they end last (first with `rev`, the order of the flipped keys).
template <class K, class P>
K* vector_sort_run(K* a, K* b, std::int64_t n, const P& p) {
  if constexpr (std::is_integral_v<K>) {
    vector_sort(reinterpret_cast<vector_key_t<K>*>(a), n, p.flip != 0);  // the same bits
  } else {
    // a's numbers become their keys in place (bit_cast: a holds K objects throughout; the sort,
    // out of line, reads and writes them as keys), then numbers again.
    using U = typename P::bits_type;
    std::int64_t m = 0, nans = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const K x = a[i];
      if (x != x)
        b[nans++] = x;
      else
        a[m++] = std::bit_cast<K>(p(x));
    }
    vector_sort(reinterpret_cast<U*>(a), m, false);
    for (std::int64_t i = 0; i < m; ++i)
      a[i] = from_ordered_key<K>(static_cast<U>(std::bit_cast<U>(a[i]) ^ p.flip));
    if (nans > 0) {
      if (p.flip != 0) {
        std::copy_backward(a, a + m, a + n);
        std::copy(b, b + nans, a);
      } else {
        std::copy(b, b + nans, a + m);
      }
    }
  }
  return a;
}

// Sorts a[0, n) (and va) stably by the key bits below `bits` on this thread, with b (and vb) as
// scratch; returns a or b, whichever holds the result. A run that fits the cache goes through
// LSD passes of at most digit_bits bits (a pass whose digit is the same for every key is
// skipped); a larger one, or one whose keys would need four LSD passes or more, takes an MSD
// pass first and sorts its buckets in turn.
template <class K, class VV, class P>
K* sort_bits(K* a, K* b, VV* va, VV* vb, std::int64_t n, int bits, const P& p,
             radix_counters& hist) {
  if (bits <= 0) return a;
  if (n <= 32) {
    insertion_sort(a, va, n, p);
    return a;
  }
  const bool beyond_cache = n * p.element_bytes > p.bucket_bytes && bits > p.digit_bits;
  if constexpr (vector_leaf_v<K, VV, typename P::key_of_type>) {
    if (p.vector_run > 0 && n >= p.vector_run && n * p.element_bytes <= p.bucket_bytes)
      return vector_sort_run(a, b, n, p);
  }
  if (beyond_cache || msd_in_cache(n, bits, p)) {
    const int width = beyond_cache ? top_digit_bits(n, bits, p) : msd_in_cache_bits(n, bits, p);
    const digit d{bits - width, width};
    const std::size_t buckets = std::size_t{1} << width;
    std::vector<std::int64_t> start(buckets + 1, 0);
    count_digit(a, 0, n, d, p, start.data());
    if (exclusive_offsets(start.data(), 1, buckets, n))
      return sort_bits(a, b, va, vb, n, d.shift, p, hist);
    start[buckets] = n;
    std::vector<std::int64_t> offset(start.begin(), start.end() - 1);
    scatter_digit(a, b, va, vb, 0, n, d, p, offset.data());
    sort_buckets_into(
        a, b, va, vb, start.data(), 0, buckets, n, [&](std::size_t) { return d.shift; }, p, hist);
    return a;
  }
  if (n <= std::int64_t{0xffffffff}) return lsd_in_cache(a, b, va, vb, n, bits, p, hist.narrow);
  return lsd_in_cache(a, b, va, vb, n, bits, p, hist.wide);
}

// Whether keys of type K (values VV) are integers alone, each its own key: then equal keys are
// equal elements, bit for bit.
template <class K, class VV, class P>
inline constexpr bool equal_keys_identical_v = (std::is_same_v<VV, std::nullptr_t> &&
                                                std::is_integral_v<K> &&
                                                std::is_same_v<typename P::key_type, K> &&
                                                own_key_v<typename P::key_of_type>);

// Whether n such keys that differ in `bits` bits are sorted by counting them: at most 16 bits,
// and keys enough to fill the counts.
inline bool counting_pays(std::int64_t n, int bits) {
  return bits <= 16 && (std::int64_t{1} << bits) <= 4 * n;
}

// Writes src[0, n) sorted to dst (src itself allowed), for n >= 1 keys of an
// equal_keys_identical_v type that differ in the `bits` <= 16 bits of p(x) above p.low: equal
// keys are equal bits, so the sorted data is written from the counts alone, one read and one
// write of the data (a counting sort) instead of radix passes.
template <class K, class P>
void counting_sort(const K* src, K* dst, std::int64_t n, int bits, const P& p, std::int64_t grain) {
  using U = typename P::bits_type;
  const U first = p(src[0]);
  const std::size_t values = std::size_t{1} << bits;
  const chunks c = plan_chunks(n, grain, num_threads(), 16);
  const std::size_t nc = static_cast<std::size_t>(c.count);
  std::vector<std::int64_t> counts(nc * values, 0);
  parallel_tasks(c.count, [&](std::int64_t k) {
    count_digit(src, c.begin(k), c.end(k), digit{0, bits}, p,
                counts.data() + static_cast<std::size_t>(k) * values);
  });
  std::vector<std::int64_t> start(values + 1, 0);  // where each key value's run begins
  for (std::size_t v = 0; v < values; ++v) {
    std::int64_t count = 0;
    for (std::size_t k = 0; k < nc; ++k) count += counts[k * values + v];
    start[v + 1] = start[v] + count;
  }
  // The bits every key shares (those of `first` outside the counted ones).
  const U fixed = static_cast<U>(first & ~static_cast<U>(static_cast<U>(values - 1) << p.low));
  // Each task writes its chunk of the output: the runs of the key values that cover it.
  parallel_tasks(c.count, [&](std::int64_t k) {
    const std::int64_t e = c.end(k);
    std::size_t v = static_cast<std::size_t>(
        std::upper_bound(start.begin(), start.end(), c.begin(k)) - start.begin() - 1);
    for (std::int64_t i = c.begin(k); i < e; ++v) {
      const std::int64_t run_end = std::min(e, start[v + 1]);
      if (run_end <= i) continue;
      std::fill(dst + i, dst + run_end,
                from_ordered_key<K>(
                    static_cast<U>((fixed | static_cast<U>(static_cast<U>(v) << p.low)) ^ p.flip)));
      i = run_end;
    }
  });
}

// Sorts a[0, n) (and va) stably by the key bits below `bits` on all workers, with b (and vb) as
// scratch, leaving the result in a.
//
// One parallel MSD pass: chunks count the top bits (prefixes: one bit more than a digit, a
// float's 5), consecutive prefixes are
// grouped into buckets of about a sixteenth of a worker's cache (a prefix holding more is a
// bucket of its own), and chunks scatter into b by bucket. Grouping by counts rather than
// cutting at a fixed digit keeps skewed keys balanced (floats, whose exponents cluster, put
// most keys under a few prefixes of a narrow digit). Workers then sort runs of buckets of about
// equal total size, each on its own, by the bits in which its prefixes differ and the bits
// below. A bucket larger than a worker's share (a single prefix holding that many keys) is
// sorted by this parallel step again, or by counting when its keys are few distinct integers.
template <class K, class VV, class P>
void parallel_sort_bits(K* a, K* b, VV* va, VV* vb, std::int64_t n, int bits, const P& p,
                        std::int64_t grain) {
  constexpr bool has_values = !std::is_same_v<VV, std::nullptr_t>;
  const chunks c = plan_chunks(n, grain, num_threads(), 16);
  auto copy_back = [&](K* to, const K* from, VV* vto, const VV* vfrom, std::int64_t len) {
    parallel_copy(from, len, to, grain);
    if constexpr (has_values) parallel_copy(vfrom, len, vto, grain);
  };
  if (bits <= 0) return;  // every key is the same
  if constexpr (equal_keys_identical_v<K, VV, P>) {
    // Narrow keys (int8, int16, a small range) with enough elements to fill the counts.
    if (counting_pays(n, bits)) {
      counting_sort(a, a, n, bits, p, grain);
      return;
    }
  }
  // Keys whose differing bits fit one digit (int8, int16 with values, a small range) take the
  // parallel step: its prefix then covers the whole key, a parallel counting sort.
  if (c.count <= 1 || n * p.element_bytes <= p.bucket_bytes) {
    radix_counters hist;
    if (sort_bits(a, b, va, vb, n, bits, p, hist) != a) copy_back(a, b, va, vb, n);
    return;
  }
  const std::size_t nc = static_cast<std::size_t>(c.count);
  // A prefix is one bit wider than a digit, and a float's 4 bits more: its top bits are its sign
  // and exponent, under which most keys crowd (uniform float64 keys sorted 25% faster with them).
  constexpr int float_bits = std::is_floating_point_v<typename P::key_type> ? 4 : 0;
  const int prefix_bits = std::min(bits, p.digit_bits + 1 + float_bits);
  const digit d{bits - prefix_bits, prefix_bits};
  const std::size_t prefixes = std::size_t{1} << d.bits;
  std::vector<std::int64_t> counts(nc * prefixes, 0);
  parallel_tasks(c.count, [&](std::int64_t k) {
    count_digit(a, c.begin(k), c.end(k), d, p,
                counts.data() + static_cast<std::size_t>(k) * prefixes);
  });
  // Buckets. A bucket never leaves an aligned block of prefixes so wide that sorting it would
  // take one more in-cache pass than a single prefix does. When no block holds much more than a
  // bucket should (`target` keys, a sixteenth of a worker's cache), the blocks are the buckets:
  // a plain digit. Otherwise (skewed keys) buckets are runs of consecutive prefixes within a
  // block, closed once they hold `target` keys, and a prefix that holds that many alone is a
  // bucket of its own; so a bucket of more than 2 * target keys has a single prefix, and sorting
  // it needs fewer bits than this step had.
  const std::int64_t target = bucket_target(p);
  const int passes_below = (d.shift + p.digit_bits - 1) / p.digit_bits;
  const int block_bits = std::min(d.bits, passes_below * p.digit_bits - d.shift);
  const std::size_t block = std::size_t{1} << block_bits;
  std::vector<std::int64_t> total(prefixes, 0);
  for (std::size_t k = 0; k < nc; ++k)
    for (std::size_t q = 0; q < prefixes; ++q) total[q] += counts[k * prefixes + q];
  bool flat = true;
  for (std::size_t q0 = 0; q0 < prefixes && flat; q0 += block) {
    std::int64_t held = 0;
    for (std::size_t q = q0; q < q0 + block; ++q) held += total[q];
    flat = held <= 2 * target;
  }
  std::vector<std::uint32_t> bucket_of(prefixes);
  std::vector<std::int64_t> start{0};
  std::vector<std::size_t> low, high;  // the lowest and highest prefix that occurs, per bucket
  {
    std::int64_t held = 0;
    std::size_t lo = 0, hi = 0;
    auto close = [&] {
      start.push_back(start.back() + held);
      low.push_back(lo);
      high.push_back(hi);
      held = 0;
    };
    for (std::size_t q = 0; q < prefixes; ++q) {
      const std::int64_t here = total[q];
      if (flat ? q % block == 0 && q > 0 : (here >= target || q % block == 0) && held > 0) close();
      if (here > 0) {
        if (held == 0) lo = q;
        hi = q;
        held += here;
      }
      bucket_of[q] = static_cast<std::uint32_t>(start.size() - 1);
      if (!flat && held >= target) close();
    }
    if (flat || held > 0) close();
  }
  const std::size_t buckets = start.size() - 1;
  // Empty prefixes after the last bucket closed belong to no bucket: give them the last one.
  for (std::uint32_t& g : bucket_of) g = std::min(g, static_cast<std::uint32_t>(buckets - 1));
  // The bits a bucket sorts by: those below the prefix, and those in which its prefixes differ.
  auto bucket_bits = [&](std::size_t g) {
    return d.shift + static_cast<int>(std::bit_width(static_cast<std::uint64_t>(low[g] ^ high[g])));
  };
  if (start[1] == n) {  // a single prefix holds every key (a larger bucket has one prefix)
    parallel_sort_bits(a, b, va, vb, n, bucket_bits(0), p, grain);
    return;
  }
  // Each chunk's first destination per bucket; then the scatter.
  std::vector<std::int64_t> offsets(nc * buckets, 0);
  for (std::size_t q = 0; q < prefixes; ++q)
    for (std::size_t k = 0; k < nc; ++k)
      offsets[k * buckets + bucket_of[q]] += counts[k * prefixes + q];
  exclusive_offsets(offsets.data(), nc, buckets, n);
  // Workers take runs of buckets of about n / tasks keys each: planned before the scatter, the
  // first write to b, so that running out of memory for the plan leaves the keys where they were.
  const std::int64_t tasks =
      std::min<std::int64_t>(balanced_task_limit(), static_cast<std::int64_t>(buckets));
  const std::int64_t longest = std::max<std::int64_t>(n / tasks, target);
  const std::vector<std::size_t> first_bucket = bucket_runs(start, tasks);
  parallel_tasks(c.count, [&](std::int64_t k) {
    using U = typename P::bits_type;
    const auto from =
        offsets.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(k) * buckets);
    std::vector<std::int64_t> own(from, from + static_cast<std::ptrdiff_t>(buckets));
    std::int64_t* const offset = own.data();
    const std::uint32_t* const bucket = bucket_of.data();
    const K* const src = a;
    K* const dst = b;
    const U mask = static_cast<U>(prefixes - 1);
    const int shift = d.shift + p.low;
    const P own_plan = p;
    if (flat) {  // a plain digit: no lookup in the scatter's chain of dependent loads
      scatter_digit(a, b, va, vb, c.begin(k), c.end(k),
                    digit{d.shift + block_bits, d.bits - block_bits}, p, offset);
      return;
    }
    for (std::int64_t i = c.begin(k), e = c.end(k); i < e; ++i) {
      fetch_ahead(src + i);
      if constexpr (has_values) fetch_ahead(va + i);
      const K key = src[i];
      const std::int64_t to = offset[bucket[(own_plan(key) >> shift) & mask]]++;
      dst[to] = key;
      if constexpr (has_values) vb[to] = va[i];
    }
  });
  for (std::size_t g = 0; g < buckets; ++g) {
    const std::int64_t s = start[g], len = start[g + 1] - s;
    if (len <= longest) continue;
    VV* vas = nullptr;
    VV* vbs = nullptr;
    if constexpr (has_values) {
      vas = va + s;
      vbs = vb + s;
    }
    // The keys are in b now: out of memory for this bucket's own parallel step, it goes on
    // without (its step, or its counting sort, takes its memory before it writes).
    bool in_a = false;
    try {
      if constexpr (equal_keys_identical_v<K, VV, P>) {
        // Few distinct keys (the smallest of exponentially distributed ones): counted in b,
        // written to a.
        if (counting_pays(len, bucket_bits(g))) {
          counting_sort(b + s, a + s, len, bucket_bits(g), p, grain);
          continue;
        }
      }
      parallel_sort_bits(b + s, a + s, vbs, vas, len, bucket_bits(g), p, grain);
    } catch (const std::bad_alloc&) {
      in_a = lsd_without_memory(b + s, a + s, vbs, vas, len, bucket_bits(g), p) == a + s;
    }
    if (!in_a) copy_back(a + s, b + s, vas, vbs, len);
  }
  parallel_tasks(tasks, [&](std::int64_t t) {
    radix_counters hist;
    sort_buckets_into(a, b, va, vb, start.data(), first_bucket[static_cast<std::size_t>(t)],
                      first_bucket[static_cast<std::size_t>(t) + 1], longest, bucket_bits, p, hist);
  });
}

}  // namespace radix_detail

// The key radix sort orders elements of type T by, when key_of gives it.
template <class T, class KeyOf>
using radix_key_of_t = std::remove_cvref_t<std::invoke_result_t<const KeyOf&, const T&>>;

// The in-cache rules (the sort hook's radix_msd_passes, radix_msd_run and radix_vector_run): a
// run that fits a worker's cache takes an MSD step first when LSD would need more than
// msd_passes passes, with a top digit that leaves about msd_run keys per bucket; numbers alone
// in runs of at least vector_run keys (0: none) go to the vector sort instead.
struct radix_rules {
  int msd_passes = 3;
  int msd_run = 8;
  std::int64_t vector_run = 0;
};

// Sorts keys[0, n) (and values alongside, when V is not void) using key_tmp/value_tmp, each of n
// elements, as the other buffer; elements are ordered by key_of(element), a number (the element
// itself by default: a struct sorted by one of its fields moves whole). digit_bits in [1, 16] is
// the widest digit of a pass; grain: elements per task at least; cache_bytes: the workers'
// caches together; rules: the in-cache MSD rule.
//
// Keys found in order (presorted: one read at most, a few blocks per chunk for shuffled keys)
// are left as they are, and keys in descending order are reversed. Bits above the
// highest one in which two keys differ, and below the lowest, are never looked at (one read pass
// finds them). Data that fits a worker's cache is sorted by LSD passes on one thread; larger data
// takes parallel MSD passes until its buckets fit, so the array crosses memory about twice
// whatever the key width.
template <class K, class V = void, class KeyOf = radix_detail::own_key>
void radix_sort(K* keys, K* key_tmp,
                std::conditional_t<std::is_void_v<V>, std::nullptr_t, V*> values,
                std::conditional_t<std::is_void_v<V>, std::nullptr_t, V*> value_tmp, std::int64_t n,
                int digit_bits, bool rev, std::int64_t grain, std::int64_t cache_bytes,
                const KeyOf& key_of = {}, const radix_rules& rules = {}) {
  using VV = std::conditional_t<std::is_void_v<V>, std::nullptr_t, V>;
  using Key = radix_key_of_t<K, KeyOf>;
  static_assert(has_ordered_key_v<Key>, "radix_sort orders elements by a numeric key");
  using U = ordered_key_t<Key>;
  if (n <= 1) return;
  radix_detail::radix_plan<Key, KeyOf> plan{
      rev ? static_cast<U>(~U(0)) : U(0),
      std::clamp(digit_bits, 1, 16),
      std::max<std::int64_t>(std::int64_t{1} << 12,
                             cache_bytes / std::max<std::int64_t>(1, num_threads()) / 2),
      static_cast<std::int64_t>(sizeof(K) + (std::is_void_v<V> ? 0 : sizeof(VV))),
      std::clamp(rules.msd_passes, 1, 16),
      std::max(rules.msd_run, 1),
      std::max<std::int64_t>(rules.vector_run, 0),
      key_of};
  // Keys already in order cost one read; keys in descending order are reversed.
  if (presorted(
          keys, n, grain, [&](const K& x, const K& y) { return plan(x) < plan(y); },
          radix_detail::equal_keys_identical_v<K, VV, decltype(plan)>, values))
    return;
  // The bits in which some key differs from the first: the passes look at those from the lowest
  // to the highest of them.
  const chunks c = plan_chunks(n, grain, num_threads(), 16);
  std::vector<U> differ(static_cast<std::size_t>(c.count), 0);
  const U first = plan(keys[0]);
  parallel_tasks(c.count, [&](std::int64_t k) {
    U acc = 0;
    const K* const src = keys;
    for (std::int64_t i = c.begin(k), e = c.end(k); i < e; ++i)
      acc |= static_cast<U>(plan(src[i]) ^ first);
    differ[static_cast<std::size_t>(k)] = acc;
  });
  U any = 0;
  for (const U d : differ) any |= d;
  if (any == 0) return;
  plan.low = std::countr_zero(any);
  const int bits = static_cast<int>(std::bit_width(any)) - plan.low;
  radix_detail::parallel_sort_bits<K, VV>(keys, key_tmp, values, value_tmp, n, bits, plan, grain);
}

// Whether radix_sortperm_packed takes keys of type Key: numbers of at most 4 bytes, so that a
// key and an index below 2^32 fit one 64-bit number. (8-byte keys above their indices in 128-bit
// numbers, sorted the same way with 128-bit vqsort leaves, were no faster: the benchmark notes.)
template <class Key>
inline constexpr bool packable_key_v = has_ordered_key_v<Key> && sizeof(Key) <= 4;

// Sets idx[0, n) to the stable permutation that sorts keys[0, n) (by key_of, `rev` as for
// radix_sort), for keys of at most 4 bytes and n <= 2^32, with idx_tmp (n elements) as scratch;
// keys are only read. Each element becomes one 64-bit number, its transformed key above its
// index, and those numbers alone are sorted (radix_sort; in-cache runs of at least
// rules.vector_run go to the vector sort): the numbers are distinct and order the elements by key
// and equal keys by index, which is the stable order, and 8 bytes move per element instead of a
// key and an 8-byte index.
template <class K, class KeyOf = radix_detail::own_key>
void radix_sortperm_packed(const K* keys, std::int64_t* idx, std::int64_t* idx_tmp, std::int64_t n,
                           int digit_bits, bool rev, std::int64_t grain, std::int64_t cache_bytes,
                           const KeyOf& key_of = {}, const radix_rules& rules = {}) {
  using Key = radix_key_of_t<K, KeyOf>;
  static_assert(packable_key_v<Key>, "radix_sortperm_packed takes keys of at most 4 bytes");
  using U = ordered_key_t<Key>;
  const U flip = rev ? static_cast<U>(~U(0)) : U(0);
  // idx holds int64 objects; the packed numbers are their unsigned variant (may alias).
  auto* const packed = reinterpret_cast<std::uint64_t*>(idx);
  const chunks c = plan_chunks(n, grain, num_threads(), 16);
  parallel_tasks(c.count, [&](std::int64_t k) {
    const K* const src = keys;
    std::uint64_t* const dst = packed;
    for (std::int64_t i = c.begin(k), e = c.end(k); i < e; ++i) {
      const U key = static_cast<U>(ordered_key(static_cast<Key>(key_of(src[i]))) ^ flip);
      dst[i] = std::uint64_t{key} << 32 | static_cast<std::uint64_t>(i);
    }
  });
  radix_sort<std::uint64_t>(packed, reinterpret_cast<std::uint64_t*>(idx_tmp), nullptr, nullptr, n,
                            digit_bits, false, grain, cache_bytes, radix_detail::own_key{}, rules);
  parallel_tasks(c.count, [&](std::int64_t k) {
    std::int64_t* const dst = idx;
    for (std::int64_t i = c.begin(k), e = c.end(k); i < e; ++i)
      dst[i] = static_cast<std::int64_t>(static_cast<std::uint64_t>(dst[i]) & 0xffffffffu);
  });
}

}  // namespace ak::cpu
