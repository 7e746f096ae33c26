// LSD radix sort on the cpu backend: numeric keys in ak's order (DESIGN.md section 6), with an
// optional payload (sort_by_key, sortperm). Stable.
//
// Keys become unsigned integers whose order is ak's: signed integers flip their sign bit; floats
// flip every bit when negative and the sign bit otherwise (so -0.0 < +0.0) and every NaN maps to
// the largest key (NaN last, all NaNs equal); `rev` complements the key. The transform is applied
// on the fly, so the data keeps its bits.
//
// One read pass counts every digit's histogram; a digit whose values are all equal is skipped.
// Each remaining pass scatters its chunks (contiguous, so the scatter of chunk c for bucket b
// lands right after that of chunk c-1, which keeps the sort stable) and counts the next digit
// on the way.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "ak/backends/cpu/parallel.hpp"

namespace ak::cpu {

template <class T>
using radix_key_t = std::conditional_t<
    sizeof(T) == 1, std::uint8_t,
    std::conditional_t<sizeof(T) == 2, std::uint16_t,
                       std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

// The key types radix sort orders.
template <class T>
inline constexpr bool radix_sortable_v =
    std::is_arithmetic_v<T> && (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);

template <class T>
inline radix_key_t<T> radix_key(T x) noexcept {
  using U = radix_key_t<T>;
  if constexpr (std::is_same_v<T, bool>) {
    return static_cast<U>(x);
  } else if constexpr (std::is_floating_point_v<T>) {
    constexpr U sign = U(1) << (sizeof(U) * 8 - 1);
    if (x != x) return static_cast<U>(~U(0));
    const U bits = std::bit_cast<U>(x);
    return (bits & sign) ? static_cast<U>(~bits) : static_cast<U>(bits | sign);
  } else if constexpr (std::is_signed_v<T>) {
    constexpr U sign = U(1) << (sizeof(U) * 8 - 1);
    return static_cast<U>(static_cast<U>(x) ^ sign);
  } else {
    return static_cast<U>(x);
  }
}

// Bits of the key that can differ: bool keys have one.
template <class T>
inline constexpr int radix_key_bits_v = std::is_same_v<T, bool> ? 1 : int(sizeof(T) * 8);

namespace radix_detail {

// The loops below take everything by value: inside a closure, a store through a key or count
// pointer could alias the captured variables, and the compiler would reload them per element.

// Adds the histograms of every digit of keys[begin, end) to hist[digit][bucket].
template <class K>
void count_all_digits(const K* keys, std::int64_t begin, std::int64_t end, int digits,
                      int digit_bits, radix_key_t<K> flip, std::int64_t* hist) {
  using U = radix_key_t<K>;
  const U mask = static_cast<U>((U(1) << digit_bits) - 1);
  const std::size_t buckets = std::size_t{1} << digit_bits;
  for (std::int64_t i = begin; i < end; ++i) {
    const U key = static_cast<U>(radix_key(keys[i]) ^ flip);
    for (int d = 0; d < digits; ++d)
      ++hist[static_cast<std::size_t>(d) * buckets + ((key >> (d * digit_bits)) & mask)];
  }
}

// Where one task's scatter writes and what it counts for the next pass.
template <class K, class V>
struct scatter_job {
  const K* src;
  K* dst;
  const V* vsrc;
  V* vdst;
  std::int64_t begin, end;     // the task's source range
  int shift;                   // this pass's digit
  int next_shift;              // the next pass's digit, when counting it
  radix_key_t<K> mask, flip;
  std::size_t buckets;
  std::int64_t* offset;        // [bucket]: next destination position
  std::int64_t chunk_size;     // the tasks' chunking, to find a destination's task next pass
  std::int64_t* next_count;    // [destination chunk][bucket] for the next digit
  // Per-task working memory: staging lines, their positions, current destination chunk.
  K* staging;
  V* value_staging;
  std::int64_t* flushed;
  std::int64_t* chunk_of;
  std::int64_t* chunk_limit;
};

// Moves keys (and values) [begin, end) to their buckets.
//
// Stores go through per-bucket write-combining buffers of one cache line of keys (staging
// memory of buckets * 64 bytes, which stays in L1/L2): a bucket's keys are written out a whole
// line at a time, when the destination reaches a line boundary, instead of one scattered store
// per key. A task writes only the positions it owns, so lines shared with a neighbouring bucket
// or task are written in parts.
//
// With CountNext, the histogram of the next pass's digit is counted per destination chunk on the
// way (each bucket's destinations only increase, so its current chunk is tracked with one
// compare), which saves the next pass a read of the whole array.
template <bool CountNext, class K, class V>
void scatter(const scatter_job<K, V>& job) {
  constexpr bool has_values = !std::is_same_v<V, std::nullptr_t>;
  constexpr std::int64_t line = 64 / sizeof(K) > 0 ? 64 / sizeof(K) : 1;
  const K* const src = job.src;
  K* const dst = job.dst;
  const V* const vsrc = job.vsrc;
  V* const vdst = job.vdst;
  const int shift = job.shift, next_shift = job.next_shift;
  const radix_key_t<K> mask = job.mask, flip = job.flip;
  const std::size_t buckets = job.buckets;
  std::int64_t* const offset = job.offset;
  std::int64_t* const flushed = job.flushed;
  std::int64_t* const chunk_of = job.chunk_of;
  std::int64_t* const chunk_limit = job.chunk_limit;
  std::int64_t* const next_count = job.next_count;
  K* const staging = job.staging;
  V* const value_staging = job.value_staging;
  // Slot of destination index i within its cache line.
  const std::int64_t skew =
      static_cast<std::int64_t>((reinterpret_cast<std::uintptr_t>(dst) % 64) / sizeof(K));
  for (std::size_t b = 0; b < buckets; ++b) {
    flushed[b] = offset[b];
    if constexpr (CountNext) {
      chunk_of[b] = offset[b] / job.chunk_size;
      chunk_limit[b] = (chunk_of[b] + 1) * job.chunk_size;
    }
  }
  for (std::int64_t i = job.begin; i < job.end; ++i) {
    const K k = src[i];
    const radix_key_t<K> key = static_cast<radix_key_t<K>>(radix_key(k) ^ flip);
    const std::size_t b = static_cast<std::size_t>((key >> shift) & mask);
    const std::int64_t to = offset[b]++;
    if constexpr (CountNext) {
      if (to >= chunk_limit[b]) {
        const std::int64_t c = to / job.chunk_size;
        chunk_of[b] = c;
        chunk_limit[b] = (c + 1) * job.chunk_size;
      }
      ++next_count[static_cast<std::size_t>(chunk_of[b]) * buckets + ((key >> next_shift) & mask)];
    }
    const std::int64_t slot = (to + skew) & (line - 1);
    K* buf = staging + b * line;
    buf[slot] = k;
    if constexpr (has_values) value_staging[b * line + static_cast<std::size_t>(slot)] = vsrc[i];
    if (slot == line - 1) {
      const std::int64_t from = flushed[b];
      const std::int64_t first = slot - (to - from);
      if (first == 0) {
        K* out = dst + (to - (line - 1));
        for (std::int64_t j = 0; j < line; ++j) out[j] = buf[j];
      } else {
        for (std::int64_t j = first; j < line; ++j) dst[from + (j - first)] = buf[j];
      }
      if constexpr (has_values)
        for (std::int64_t j = first; j < line; ++j)
          vdst[from + (j - first)] = value_staging[b * line + static_cast<std::size_t>(j)];
      flushed[b] = to + 1;
    }
  }
  // What is left in each buffer: the positions [flushed, offset) of a last, partial line.
  for (std::size_t b = 0; b < buckets; ++b) {
    for (std::int64_t to = flushed[b]; to < offset[b]; ++to) {
      const std::size_t slot = static_cast<std::size_t>((to + skew) & (line - 1));
      dst[to] = staging[b * line + slot];
      if constexpr (has_values) vdst[to] = value_staging[b * line + slot];
    }
  }
}


// The digits that must be sorted: a digit all of whose n keys share one value moves nothing.
// hist: [chunk][digit][bucket] for `chunk_count` chunks.
inline std::vector<int> digits_to_sort(const std::int64_t* hist, std::size_t chunk_count, int digits,
                                       std::size_t buckets, std::int64_t n) {
  std::vector<int> passes;
  const std::size_t per_chunk = static_cast<std::size_t>(digits) * buckets;
  for (int d = 0; d < digits; ++d) {
    bool single = false;
    for (std::size_t b = 0; b < buckets; ++b) {
      std::int64_t sum = 0;
      for (std::size_t ck = 0; ck < chunk_count; ++ck)
        sum += hist[ck * per_chunk + static_cast<std::size_t>(d) * buckets + b];
      if (sum == 0) continue;
      single = sum == n;
      break;
    }
    if (!single) passes.push_back(d);
  }
  return passes;
}

// Working memory of one task's scatter: write-combining lines and per-bucket state. A task that
// sorts many buckets one after another keeps one and reuses it.
template <class K, class VV>
struct scatter_memory {
  std::unique_ptr<K[]> staging;  // not std::vector: K may be bool
  std::unique_ptr<VV[]> value_staging;
  std::unique_ptr<std::int64_t[]> state;
  std::size_t buckets = 0;
  void reserve(std::size_t count) {
    if (buckets >= count) return;
    const std::size_t line = std::max<std::size_t>(1, 64 / sizeof(K));
    staging.reset(new K[count * line]);
    value_staging.reset(new VV[std::is_same_v<VV, std::nullptr_t> ? 1 : count * line]);
    state.reset(new std::int64_t[3 * count]);
    buckets = count;
  }
};

// LSD passes over the digits `passes` (in order), between a (the input) and b, chunked by c;
// hist holds the per-chunk histograms of every digit of the input. Returns whether the result
// ended in b.
// `memory`, when given, is the working memory of a single-chunk sort.
template <class K, class VV>
bool lsd_passes(K* a, K* b, VV* va, VV* vb, const chunks& c, const std::vector<int>& passes,
                const std::int64_t* hist, int digits, int digit_bits, radix_key_t<K> flip,
                scatter_memory<K, VV>* memory = nullptr) {
  using U = radix_key_t<K>;
  const std::size_t buckets = std::size_t{1} << digit_bits;
  const U mask = static_cast<U>(buckets - 1);
  const std::size_t nc = static_cast<std::size_t>(c.count);
  const std::size_t per_chunk = static_cast<std::size_t>(digits) * buckets;
  K* src = a;
  K* dst = b;
  VV* vsrc = va;
  VV* vdst = vb;
  std::vector<std::int64_t> offsets(nc * buckets);
  // counts[k][bucket]: this pass's digit in chunk k. The first pass has it from the histogram;
  // every scatter counts the next pass's digit per destination chunk, one table per task.
  std::vector<std::int64_t> counts(nc * buckets);
  std::vector<std::int64_t> next_counts(nc * nc * buckets);
  if (!passes.empty())
    for (std::size_t ck = 0; ck < nc; ++ck)
      std::copy_n(hist + ck * per_chunk + static_cast<std::size_t>(passes[0]) * buckets, buckets,
                  counts.data() + ck * buckets);
  for (std::size_t p = 0; p < passes.size(); ++p) {
    const bool count_next = p + 1 < passes.size();
    std::int64_t running = 0;
    for (std::size_t bk = 0; bk < buckets; ++bk)
      for (std::size_t ck = 0; ck < nc; ++ck) {
        offsets[ck * buckets + bk] = running;
        running += counts[ck * buckets + bk];
      }
    std::fill(next_counts.begin(), next_counts.end(), 0);
    parallel_tasks(c.count, [&](std::int64_t k) {
      const std::size_t kk = static_cast<std::size_t>(k);
      scatter_memory<K, VV> own;
      scatter_memory<K, VV>& m = (memory != nullptr && c.count == 1) ? *memory : own;
      m.reserve(buckets);
      std::int64_t* state = m.state.get();
      const scatter_job<K, VV> job{src, dst, vsrc, vdst, c.begin(k), c.end(k),
                                   passes[p] * digit_bits,
                                   count_next ? passes[p + 1] * digit_bits : 0, mask, flip,
                                   buckets, offsets.data() + kk * buckets, c.size,
                                   next_counts.data() + kk * nc * buckets, m.staging.get(),
                                   m.value_staging.get(), state, state + buckets,
                                   state + 2 * buckets};
      if (count_next) scatter<true>(job);
      else scatter<false>(job);
    });
    // The next pass's per-chunk counts: the sum of what every task counted for that chunk.
    std::fill(counts.begin(), counts.end(), 0);
    for (std::size_t k = 0; k < nc; ++k)
      for (std::size_t i = 0; i < nc * buckets; ++i) counts[i] += next_counts[k * nc * buckets + i];
    std::swap(src, dst);
    std::swap(vsrc, vdst);
  }
  return src == b;
}

// Sorts the run a[0, n) by the digits below `below` (LSD, one task), leaving the result in b.
template <class K, class VV>
void sort_bucket_into(K* a, K* b, VV* va, VV* vb, std::int64_t n, int below, int digit_bits,
                      radix_key_t<K> flip, scatter_memory<K, VV>& memory) {
  using U = radix_key_t<K>;
  constexpr bool has_values = !std::is_same_v<VV, std::nullptr_t>;
  if (n <= 48) {
    // Few keys: a stable insertion sort by key.
    for (std::int64_t i = 1; i < n; ++i) {
      const K k = a[i];
      const U key = static_cast<U>(radix_key(k) ^ flip);
      VV v{};
      if constexpr (has_values) v = va[i];
      std::int64_t j = i;
      for (; j > 0 && key < static_cast<U>(radix_key(a[j - 1]) ^ flip); --j) {
        a[j] = a[j - 1];
        if constexpr (has_values) va[j] = va[j - 1];
      }
      a[j] = k;
      if constexpr (has_values) va[j] = v;
    }
    std::copy(a, a + n, b);
    if constexpr (has_values) std::copy(va, va + n, vb);
    return;
  }
  const std::size_t buckets = std::size_t{1} << digit_bits;
  std::vector<std::int64_t> hist(static_cast<std::size_t>(below) * buckets, 0);
  count_all_digits(a, 0, n, below, digit_bits, flip, hist.data());
  const std::vector<int> passes = digits_to_sort(hist.data(), 1, below, buckets, n);
  const chunks one{n, 1, n};
  if (lsd_passes(a, b, va, vb, one, passes, hist.data(), below, digit_bits, flip, &memory)) return;
  std::copy(a, a + n, b);
  if constexpr (has_values) std::copy(va, va + n, vb);
}

}  // namespace radix_detail

// Sorts keys[0, n) (and values alongside, when V is not void) using key_tmp/value_tmp, each of n
// elements, as the other buffer. digit_bits in [1, 16]; grain: elements per task at least.
//
// Data larger than `cache_bytes` with three or more digits to sort goes through one parallel
// pass on its most significant digit first; then each bucket (cache-sized for spread-out keys)
// is sorted on its own by the lower digits, in cache, so the array crosses memory about twice
// rather than once per digit.
template <class K, class V = void>
void radix_sort(K* keys, K* key_tmp, std::conditional_t<std::is_void_v<V>, std::nullptr_t, V*> values,
                std::conditional_t<std::is_void_v<V>, std::nullptr_t, V*> value_tmp, std::int64_t n,
                int digit_bits, bool rev, std::int64_t grain, std::int64_t cache_bytes) {
  using VV = std::conditional_t<std::is_void_v<V>, std::nullptr_t, V>;
  using U = radix_key_t<K>;
  if (n <= 1) return;
  const int total_bits = radix_key_bits_v<K>;
  digit_bits = std::min(digit_bits, total_bits);
  const int digits = (total_bits + digit_bits - 1) / digit_bits;
  const std::size_t buckets = std::size_t{1} << digit_bits;
  const U flip = rev ? static_cast<U>(~U(0)) : U(0);

  const chunks c = plan_chunks(n, grain, num_threads(), 16);
  const std::size_t nc = static_cast<std::size_t>(c.count);
  const std::size_t per_chunk = static_cast<std::size_t>(digits) * buckets;
  // Histograms of every digit, per chunk: [chunk][digit][bucket].
  std::vector<std::int64_t> hist(nc * per_chunk, 0);
  parallel_tasks(c.count, [&](std::int64_t k) {
    radix_detail::count_all_digits(keys, c.begin(k), c.end(k), digits, digit_bits, flip,
                                   hist.data() + static_cast<std::size_t>(k) * per_chunk);
  });
  std::vector<int> passes = radix_detail::digits_to_sort(hist.data(), nc, digits, buckets, n);
  const std::int64_t bytes = n * static_cast<std::int64_t>(sizeof(K) + (std::is_void_v<V> ? 0 : sizeof(VV)));

  if (passes.size() >= 3 && bytes > cache_bytes) {
    const int top = passes.back();
    radix_detail::lsd_passes<K, VV>(keys, key_tmp, values, value_tmp, c, {top}, hist.data(), digits,
                                    digit_bits, flip);
    // Bucket b of the top digit is [start[b], start[b + 1]) of key_tmp.
    std::vector<std::int64_t> start(buckets + 1, 0);
    for (std::size_t b = 0; b < buckets; ++b) {
      std::int64_t sum = 0;
      for (std::size_t ck = 0; ck < nc; ++ck)
        sum += hist[ck * per_chunk + static_cast<std::size_t>(top) * buckets + b];
      start[b + 1] = start[b] + sum;
    }
    // Tasks take runs of buckets of about n / tasks keys each, and reuse their working memory.
    const std::int64_t tasks = std::min<std::int64_t>(balanced_task_limit(), static_cast<std::int64_t>(buckets));
    std::vector<std::size_t> first_bucket(static_cast<std::size_t>(tasks) + 1, buckets);
    for (std::int64_t t = 0, b = 0; t < tasks; ++t) {
      first_bucket[static_cast<std::size_t>(t)] = static_cast<std::size_t>(b);
      while (b < static_cast<std::int64_t>(buckets) && start[static_cast<std::size_t>(b)] < n * (t + 1) / tasks) ++b;
    }
    parallel_tasks(tasks, [&](std::int64_t t) {
      radix_detail::scatter_memory<K, VV> memory;
      for (std::size_t b = first_bucket[static_cast<std::size_t>(t)]; b < first_bucket[static_cast<std::size_t>(t) + 1]; ++b) {
        const std::int64_t s = start[b];
        const std::int64_t len = start[b + 1] - s;
        if (len == 0) continue;
        VV* va = nullptr;
        VV* vb = nullptr;
        if constexpr (!std::is_void_v<V>) {
          va = value_tmp + s;
          vb = values + s;
        }
        radix_detail::sort_bucket_into<K, VV>(key_tmp + s, keys + s, va, vb, len, top, digit_bits,
                                              flip, memory);
      }
    });
    return;
  }

  if (!radix_detail::lsd_passes<K, VV>(keys, key_tmp, values, value_tmp, c, passes, hist.data(),
                                       digits, digit_bits, flip))
    return;
  parallel_tasks(c.count, [&](std::int64_t k) {
    const std::size_t count = static_cast<std::size_t>(c.end(k) - c.begin(k));
    std::memcpy(keys + c.begin(k), key_tmp + c.begin(k), count * sizeof(K));
    if constexpr (!std::is_void_v<V>)
      std::memcpy(values + c.begin(k), value_tmp + c.begin(k), count * sizeof(V));
  });
}

}  // namespace ak::cpu
