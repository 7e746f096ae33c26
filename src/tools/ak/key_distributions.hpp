// The input distributions of `ak bench --dist`: those of the ips4o paper (Axtmann, Witt,
// Ferizovic and Sanders, "Engineering In-place (Shared-memory) Sorting Algorithms"), written
// here from their descriptions. Element i of n is a function of i (and of a hash of i), so any
// thread fills any part and every run sees the same data; almost_sorted's swaps are one
// sequential pass after.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include "random_inputs.hpp"

namespace ak::tool {

enum class key_dist {
  uniform,         // random keys over the type's range (floats in [-1, 1)): random_key
  exponential,     // 2^e + a random number below 2^e, e uniform in [0, log2 n)
  almost_sorted,   // 0, 1, ..., n - 1 with sqrt(n) random pairs of neighbours swapped
  root_dup,        // i mod floor(sqrt(n))
  two_dup,         // (i^2 + n / 2) mod n
  eight_dup,       // (i^8 + n / 2) mod n
  zipf,            // ranks 1 .. 2^20 drawn with probability proportional to 1 / rank
  sorted,          // 0, 1, ..., n - 1
  reverse_sorted,  // n - 1, ..., 1, 0
  ones,            // every key 1
};

inline constexpr std::array<std::string_view, 10> key_dist_names{
    "uniform",   "exponential", "almost_sorted", "root_dup",       "two_dup",
    "eight_dup", "zipf",        "sorted",        "reverse_sorted", "ones"};

inline std::string_view name_of(key_dist d) {
  return key_dist_names[static_cast<std::size_t>(d)];
}

inline std::optional<key_dist> parse_key_dist(std::string_view s) {
  for (std::size_t k = 0; k < key_dist_names.size(); ++k)
    if (key_dist_names[k] == s) return static_cast<key_dist>(k);
  return std::nullopt;
}

namespace dist_detail {

// a * b mod m without overflow (m < 2^63).
__extension__ using wide = unsigned __int128;
inline std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b, std::uint64_t m) {
  return static_cast<std::uint64_t>(static_cast<wide>(a) * b % m);
}

// The distribution's integer for element i of n (h: a hash of i).
inline std::uint64_t count_of(key_dist d, std::uint64_t i, std::uint64_t n, std::uint64_t h) {
  switch (d) {
    case key_dist::exponential: {
      const int top = std::max(1, static_cast<int>(std::bit_width(n)) - 1);
      const int e = static_cast<int>(((h >> 32) * static_cast<std::uint64_t>(top)) >> 32);
      const std::uint64_t below = std::uint64_t{1} << e;
      return below + (h & (below - 1));
    }
    case key_dist::almost_sorted:
    case key_dist::sorted:
      return i;
    case key_dist::root_dup:
      return i % std::max<std::uint64_t>(
                     1, static_cast<std::uint64_t>(std::sqrt(static_cast<double>(n))));
    case key_dist::two_dup:
      return (mul_mod(i, i, n) + n / 2) % n;
    case key_dist::eight_dup: {
      const std::uint64_t i2 = mul_mod(i, i, n), i4 = mul_mod(i2, i2, n);
      return (mul_mod(i4, i4, n) + n / 2) % n;
    }
    case key_dist::zipf: {
      const double u = static_cast<double>(h >> 11) * 0x1p-53;  // [0, 1)
      return static_cast<std::uint64_t>(std::exp2(20.0 * u));   // density 1 / rank on [1, 2^20)
    }
    case key_dist::reverse_sorted:
      return n - 1 - i;
    case key_dist::ones:
    case key_dist::uniform:
      return 1;
  }
  return 1;
}

}  // namespace dist_detail

// Element i of n keys of distribution d, as T (integers wrap to the type's width; floats take the
// integer's value: no NaN, no -0.0). h: a hash of i and the seed.
template <class T>
T dist_key(key_dist d, std::int64_t i, std::int64_t n, std::uint64_t h) {
  if (d == key_dist::uniform) return random_key<T>(h);
  const std::uint64_t m =
      dist_detail::count_of(d, static_cast<std::uint64_t>(i),
                            static_cast<std::uint64_t>(std::max<std::int64_t>(n, 1)), h);
  if constexpr (std::is_same_v<T, bool>)
    return (m & 1) != 0;
  else
    return static_cast<T>(m);
}

// almost_sorted's swaps: sqrt(n) pairs of neighbours at positions drawn from the seed, in order.
template <class T>
void swap_neighbours(T* p, std::int64_t n, std::uint64_t seed) {
  if (n < 2) return;
  const auto swaps = static_cast<std::int64_t>(std::sqrt(static_cast<double>(n)));
  for (std::int64_t k = 0; k < swaps; ++k) {
    const auto j = static_cast<std::int64_t>(hash64(seed ^ ~static_cast<std::uint64_t>(k)) %
                                             static_cast<std::uint64_t>(n - 1));
    std::swap(p[j], p[j + 1]);
  }
}

}  // namespace ak::tool
