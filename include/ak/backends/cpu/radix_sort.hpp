// LSD radix sort on the cpu backend: numeric keys in ak's order (DESIGN.md section 6), with an
// optional payload (sort_by_key, sortperm). Stable.
//
// Keys become unsigned integers whose order is ak's: signed integers flip their sign bit; floats
// flip every bit when negative and the sign bit otherwise (so -0.0 < +0.0) and every NaN maps to
// the largest key (NaN last, all NaNs equal); `rev` complements the key. The transform is applied
// on the fly, so the data keeps its bits.
//
// One read pass counts every digit's histogram; a digit whose values are all equal is skipped.
// Each remaining pass counts its digit per chunk and scatters; chunks are contiguous so the
// scatter of chunk c for bucket b lands right after that of chunk c-1, which keeps the sort
// stable.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
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

// Sorts keys[0, n) (and values alongside, when V is not void) using key_tmp/value_tmp, each of n
// elements, as the other buffer. digit_bits in [1, 16]; grain: elements per task at least.
template <class K, class V = void>
void radix_sort(K* keys, K* key_tmp, std::conditional_t<std::is_void_v<V>, std::nullptr_t, V*> values,
                std::conditional_t<std::is_void_v<V>, std::nullptr_t, V*> value_tmp, std::int64_t n,
                int digit_bits, bool rev, std::int64_t grain) {
  constexpr bool has_values = !std::is_void_v<V>;
  using U = radix_key_t<K>;
  if (n <= 1) return;
  const int total_bits = radix_key_bits_v<K>;
  const int digits = (total_bits + digit_bits - 1) / digit_bits;
  const std::size_t buckets = std::size_t{1} << digit_bits;
  const U mask = static_cast<U>(buckets - 1);
  const U flip = rev ? static_cast<U>(~U(0)) : U(0);
  auto key_of = [flip](K x) { return static_cast<U>(radix_key(x) ^ flip); };

  const chunks c = plan_chunks(n, grain, num_threads(), 16);
  const std::size_t nc = static_cast<std::size_t>(c.count);
  // Histograms of every digit, per chunk: [chunk][digit][bucket].
  std::vector<std::int64_t> hist(nc * static_cast<std::size_t>(digits) * buckets, 0);
  auto h = [&](std::size_t chunk, int d) {
    return hist.data() + (chunk * static_cast<std::size_t>(digits) + static_cast<std::size_t>(d)) * buckets;
  };
  parallel_tasks(c.count, [&](std::int64_t k) {
    const std::size_t ck = static_cast<std::size_t>(k);
    for (std::int64_t i = c.begin(k); i < c.end(k); ++i) {
      const U key = key_of(keys[i]);
      for (int d = 0; d < digits; ++d) ++h(ck, d)[(key >> (d * digit_bits)) & mask];
    }
  });
  // A digit all of whose keys share one value moves nothing: skip it.
  std::vector<int> passes;
  for (int d = 0; d < digits; ++d) {
    bool single = false;
    for (std::size_t b = 0; b < buckets && !single; ++b) {
      std::int64_t sum = 0;
      for (std::size_t ck = 0; ck < nc; ++ck) sum += h(ck, d)[b];
      if (sum == n) single = true;
      if (sum != 0) break;
    }
    if (!single) passes.push_back(d);
  }

  K* src = keys;
  K* dst = key_tmp;
  auto vsrc = values;
  auto vdst = value_tmp;
  std::vector<std::int64_t> offsets(nc * buckets);
  bool first = true;
  for (int d : passes) {
    const int shift = d * digit_bits;
    // After the first pass elements have moved between chunks: count this digit again.
    if (!first) {
      parallel_tasks(c.count, [&](std::int64_t k) {
        std::int64_t* hk = h(static_cast<std::size_t>(k), d);
        std::fill(hk, hk + buckets, 0);
        for (std::int64_t i = c.begin(k); i < c.end(k); ++i) ++hk[(key_of(src[i]) >> shift) & mask];
      });
    }
    first = false;
    std::int64_t running = 0;
    for (std::size_t b = 0; b < buckets; ++b)
      for (std::size_t ck = 0; ck < nc; ++ck) {
        offsets[ck * buckets + b] = running;
        running += h(ck, d)[b];
      }
    parallel_tasks(c.count, [&](std::int64_t k) {
      std::int64_t* off = offsets.data() + static_cast<std::size_t>(k) * buckets;
      for (std::int64_t i = c.begin(k); i < c.end(k); ++i) {
        const std::int64_t to = off[(key_of(src[i]) >> shift) & mask]++;
        dst[to] = src[i];
        if constexpr (has_values) vdst[to] = vsrc[i];
      }
    });
    std::swap(src, dst);
    if constexpr (has_values) std::swap(vsrc, vdst);
  }
  if (src != keys) {
    parallel_tasks(c.count, [&](std::int64_t k) {
      std::memcpy(keys + c.begin(k), src + c.begin(k), static_cast<std::size_t>(c.end(k) - c.begin(k)) * sizeof(K));
      if constexpr (has_values)
        std::memcpy(values + c.begin(k), vsrc + c.begin(k),
                    static_cast<std::size_t>(c.end(k) - c.begin(k)) * sizeof(V));
    });
  }
}

}  // namespace ak::cpu
