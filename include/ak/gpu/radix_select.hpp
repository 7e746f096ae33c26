// Radix selection on GPU-style devices: the key of the k-th smallest element in ak's order, found
// digit by digit from the top (8 bits a pass), each pass a histogram (ak/gpu/histogram.hpp) of
// the next digit of the keys that share the digits found so far. What partialsort takes its
// threshold from on these devices (CUB's DeviceTopK selects the same way).
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "ak/core/operators.hpp"
#include "ak/gpu/histogram.hpp"

namespace ak::gpu::detail {

// The bin of x: the digit of its ordered key (complemented when rev) at `shift`, for keys whose
// bits in `known` are `prefix`; -1 for the others.
template <class T>
struct select_digit_bin {
  using U = ordered_key_t<T>;
  U prefix;
  U known;
  int shift;
  U digit_mask;
  bool rev;
  AK_KERNEL_FN std::int64_t operator()(T x) const {
    U u = ordered_key(x);
    if (rev) u = static_cast<U>(~u);
    if (static_cast<U>(u & known) != prefix) return -1;
    return static_cast<std::int64_t>((u >> shift) & digit_mask);
  }
};

// A key u such that the elements of in[0, n) whose ordered keys (complemented when rev) are at
// most u number at least k (1 <= k <= n): the k-th smallest key itself, or, once the keys up to
// the end of the k-th one's bucket number at most `enough`, the largest key of that bucket (fewer
// passes; as many elements). With a resolved select tuning (block_size), on a device check_call
// has accepted.
template <class T>
ordered_key_t<T> radix_select_key(const ak::device& dev, const select_tuning& t, const T* in,
                                  std::int64_t n, std::int64_t k, bool rev, std::int64_t enough) {
  using U = ordered_key_t<T>;
  constexpr int bits = 8 * static_cast<int>(sizeof(U));
  U prefix = 0, known = 0;
  std::int64_t rank = k - 1, below = 0;  // rank among the keys with the prefix; keys before them
  device_buffer<std::int64_t> counts(dev, 256);
  std::vector<std::int64_t> c(256);
  for (int done = 0; done < bits;) {
    const int d = bits - done < 8 ? bits - done : 8, shift = bits - done - d;
    const auto mask = static_cast<U>((1u << d) - 1);
    histogram_run(dev, t, in, n, select_digit_bin<T>{prefix, known, shift, mask, rev},
                  std::int64_t{1} << d, counts.data());
    dev.memory().copy_to_host(c.data(), counts.data(),
                              sizeof(std::int64_t) * (std::size_t{1} << d));
    std::size_t j = 0;
    while (rank >= c[j]) {
      rank -= c[j];
      below += c[j];
      ++j;
    }
    prefix = static_cast<U>(prefix | static_cast<U>(static_cast<U>(j) << shift));
    known = static_cast<U>(known | static_cast<U>(mask << shift));
    done += d;
    if (below + c[j] <= enough) {
      U last = static_cast<U>(prefix | static_cast<U>(~known));
      if constexpr (std::is_floating_point_v<T>) {
        // A last key above +inf's is a NaN's bits, which would be taken for NaN (every element
        // not after it); the keys up to it are those up to +inf's (NaNs all have the largest).
        constexpr U inf = ordered_key(std::numeric_limits<T>::infinity());
        if (!rev && last > inf && last != static_cast<U>(~U{0})) last = inf;
      }
      return last;
    }
  }
  return prefix;
}

}  // namespace ak::gpu::detail
