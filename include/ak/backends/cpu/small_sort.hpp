// Many short rows of numbers sorted at once: a sorting network run across a batch of rows, one
// row per lane, so that each compare-exchange is a min and a max over the batch (code the
// compiler vectorises) instead of a branch per comparison. The segmented sorts use it for the
// slices of an n-d array along a short dimension (ak::sort(m, {.dim = 1}) of a matrix with rows
// of up to 16 elements).
//
// The network is Batcher's odd-even merge sort for 16 inputs, with the comparators that touch an
// input past the row's length dropped (those inputs stand for +infinity, which no comparator
// moves). Elements are compared as integers whose order is ak's (for floats, the bits with the
// magnitude flipped when negative: -0.0 before +0.0); a row with a NaN, which ak orders after
// every number and keeps in input order among the other NaNs, is sorted by insertion instead.
// Equal keys are then equal bit patterns, so the network's instability cannot be seen: the
// result is the stable sort's.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "ak/backends/cpu/comparison_sort.hpp"

namespace ak::cpu {

namespace small_sort_detail {

inline constexpr int max_length = 16;
inline constexpr int lanes = 8;  // rows per batch

// Batcher's odd-even merge sort network for max_length inputs, as (i, j) pairs with i < j.
inline const std::vector<std::pair<int, int>>& batcher_network() {
  static const std::vector<std::pair<int, int>> network = [] {
    std::vector<std::pair<int, int>> out;
    const int n = max_length;
    for (int p = 1; p < n; p *= 2)
      for (int k = p; k >= 1; k /= 2)
        for (int j = k % p; j + k < n; j += 2 * k)
          for (int i = 0; i < k && i + j + k < n; ++i)
            if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) out.emplace_back(i + j, i + j + k);
    return out;
  }();
  return network;
}

// The comparators of a row of `length` elements.
inline const std::vector<std::pair<int, int>>& network_for(int length) {
  static const std::array<std::vector<std::pair<int, int>>, max_length + 1> networks = [] {
    std::array<std::vector<std::pair<int, int>>, max_length + 1> out;
    for (int len = 0; len <= max_length; ++len)
      for (const auto& [i, j] : batcher_network())
        if (j < len) out[static_cast<std::size_t>(len)].emplace_back(i, j);
    return out;
  }();
  return networks[static_cast<std::size_t>(length)];
}

// The integer a number is compared as (ak's order, NaN aside), and back.
template <class T>
using int_key_t =
    std::conditional_t<std::is_floating_point_v<T>,
                       std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>, T>;

// Floats: the bits, with the magnitude flipped where the sign is set (so larger magnitudes of
// negative numbers come first). The same map takes keys back to bits.
template <class K>
K flip_negative(K b) {
  constexpr K magnitude = static_cast<K>(~(std::make_unsigned_t<K>(1) << (sizeof(K) * 8 - 1)));
  return b ^ ((b >> (sizeof(K) * 8 - 1)) & magnitude);
}

template <class T>
int_key_t<T> to_int_key(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    int_key_t<T> b;
    std::memcpy(&b, &x, sizeof(T));
    return flip_negative(b);
  } else {
    return x;
  }
}
template <class T>
T from_int_key(int_key_t<T> k) {
  if constexpr (std::is_floating_point_v<T>) {
    const int_key_t<T> b = flip_negative(k);
    T x;
    std::memcpy(&x, &b, sizeof(T));
    return x;
  } else {
    return k;
  }
}

template <class T>
bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<T>)
    return x != x;
  else
    return false;
}

// The compare-exchange of one comparator across the batch's lanes (rows a and b of the batch
// never overlap: restrict lets the compiler vectorise without checking).
template <class K>
void compare_exchange(K* __restrict a, K* __restrict b) {
  for (int w = 0; w < lanes; ++w) {
    const K lo = a[w] < b[w] ? a[w] : b[w];
    const K hi = a[w] < b[w] ? b[w] : a[w];
    a[w] = lo;
    b[w] = hi;
  }
}

}  // namespace small_sort_detail

// Whether sort_rows_small sorts rows of T of this length.
template <class T>
inline constexpr bool small_sortable_v = (std::is_integral_v<T> && !std::is_same_v<T, bool>) ||
                                         std::is_same_v<T, float> || std::is_same_v<T, double>;
inline bool small_sort_length(std::int64_t length) {
  return length >= 2 && length <= small_sort_detail::max_length;
}

// Sorts each of `rows` rows of `length` elements (2 <= length <= 16) at p, row-major, in ak's
// order (descending when rev), as the stable sort would.
template <class T, class Less>
void sort_rows_small(T* p, std::int64_t rows, int length, bool rev, const Less& less) {
  using namespace small_sort_detail;
  using K = int_key_t<T>;
  static_assert(small_sortable_v<T>);
  const std::vector<std::pair<int, int>>& network = network_for(length);
  std::int64_t r = 0;
  alignas(64) K v[max_length][lanes];
  for (; r + lanes <= rows; r += lanes) {
    T* const batch = p + r * length;
    bool nan = false;
    for (int w = 0; w < lanes; ++w)
      for (int i = 0; i < length; ++i) {
        const T x = batch[w * length + i];
        nan = nan || is_nan(x);
        v[i][w] = to_int_key(x);
      }
    if (nan) {
      for (int w = 0; w < lanes; ++w)
        insertion_sort(batch + w * length, batch + (w + 1) * length, less);
      continue;
    }
    for (const auto& [i, j] : network) compare_exchange(v[i], v[j]);
    for (int w = 0; w < lanes; ++w) {
      T* const out = batch + w * length;
      if (rev)
        for (int i = 0; i < length; ++i) out[length - 1 - i] = from_int_key<T>(v[i][w]);
      else
        for (int i = 0; i < length; ++i) out[i] = from_int_key<T>(v[i][w]);
    }
  }
  for (T* row = p + r * length; r < rows; ++r, row += length)
    insertion_sort(row, row + length, less);
}

}  // namespace ak::cpu
