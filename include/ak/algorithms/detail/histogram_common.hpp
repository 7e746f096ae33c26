// What the histogram front shares with both halves: the bin of a value, for even bins and for an
// array of edges, written once over plain values and pointers (the GPU half calls them in
// kernels).
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "ak/core/operators.hpp"
#include "ak/kernel/config.hpp"

namespace ak::detail {

// count equal bins over [lower, upper], the last one closed: bin(x) = floor((x - lower) *
// scale), scale = count / (upper - lower), in double for floating-point types; exactly
// floor((x - lower) * count / (upper - lower)) for integers; -1 for x outside and for NaN.
// For floating-point types x, lower and upper are first multiplied by a power of two, `scaling`
// (exact): 1/2 where upper - lower overflows double (bounds of opposite sign near the largest
// double), 2^64 as often as count / (upper - lower) overflows (bounds so close that their
// difference is a subnormal double: count / 2^-1074 is past the largest double), else 1.
template <class T>
struct even_bin {
  T lower;
  T upper;
  std::int64_t count;
  double scale;    // count / (upper * scaling - lower * scaling); integers: count / (exact width)
  double scaling;  // the power of two above
  double origin;   // lower * scaling
  static even_bin make(T lower, T upper, std::int64_t count) {
    constexpr double largest = std::numeric_limits<double>::max();
    const double l = static_cast<double>(lower), u = static_cast<double>(upper);
    const double c = static_cast<double>(count);
    // Integers: count over the exact width (as doubles, bounds near 2^63 may be one number).
    if constexpr (!std::is_floating_point_v<T>)
      return {lower, upper, count, c / static_cast<double>(offset(upper, lower)), 1.0, l};
    double h = u - l <= largest ? 1.0 : 0.5;
    while (!(c / (u * h - l * h) <= largest)) h *= 0x1p64;  // at most twice (count < 2^63)
    return {lower, upper, count, c / (u * h - l * h), h, l * h};
  }
  AK_KERNEL_FN std::int64_t operator()(const T& x) const {
    std::int64_t j = 0;
    if constexpr (std::is_floating_point_v<T>) {
      if (!(x >= lower && x <= upper)) return -1;  // NaN too
      j = static_cast<std::int64_t>((static_cast<double>(x) * scaling - origin) * scale);
    } else {
      if (x < lower || x > upper) return -1;
      // The offset and the width as unsigned numbers (they fit, where x - lower may not), and
      // j the largest with j * width <= off * count: estimated in double, then corrected by
      // exact 128-bit products (no division).
      __extension__ using u128 = unsigned __int128;
      const std::uint64_t off = offset(x, lower), width = offset(upper, lower);
      const u128 target = static_cast<u128>(off) * static_cast<std::uint64_t>(count);
      // The estimate through a signed conversion of off / 2: converting an unsigned 64-bit number
      // branches on its top bit, a coin toss for random keys.
      j = static_cast<std::int64_t>(static_cast<double>(static_cast<std::int64_t>(off >> 1)) *
                                    (2 * scale));
      j = j < 0 ? 0 : j >= count ? count - 1 : j;
      while (j > 0 && static_cast<u128>(static_cast<std::uint64_t>(j)) * width > target) --j;
      while (j + 1 < count &&
             static_cast<u128>(static_cast<std::uint64_t>(j + 1)) * width <= target)
        ++j;
    }
    return j < count ? j : count - 1;
  }
  // For integers: x - from as an unsigned number, exact for x >= from.
  AK_KERNEL_FN static std::uint64_t offset(T x, T from) {
    using U = std::make_unsigned_t<T>;
    return static_cast<U>(static_cast<U>(x) - static_cast<U>(from));
  }
};

// Bins between consecutive edges (m of them, ascending in ak's order): bin j holds
// [edges[j], edges[j + 1]), the last one closed; -1 outside and for NaN.
template <class T>
struct edge_bin {
  const T* edges;
  std::int64_t m;
  AK_KERNEL_FN std::int64_t operator()(const T& x) const {
    if constexpr (std::is_floating_point_v<T>)
      if (x != x) return -1;
    // The first edge greater than x.
    std::int64_t lo = 0, hi = m;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (isless{}(x, edges[mid]))
        hi = mid;
      else
        lo = mid + 1;
    }
    if (lo == 0) return -1;  // below the first edge
    if (lo == m) return isequal{}(x, edges[m - 1]) ? m - 2 : -1;
    return lo - 1;
  }
};

}  // namespace ak::detail
