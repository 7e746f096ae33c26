// The random inputs of the ak command's measurements (`ak bench`, `ak tune`): a hash of the
// element's index, so that any thread fills any part and every run sees the same data.
#pragma once

#include <cstdint>
#include <type_traits>

namespace ak::tool {

inline std::uint64_t hash64(std::uint64_t x) noexcept {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Sort keys: integers over their whole range; floats uniform in [-1, 1), exact multiples of
// 2^-23 (2^-52), never -0.0 nor NaN, so that every library's order is the same.
template <class T>
T random_key(std::uint64_t h) noexcept {
  if constexpr (std::is_same_v<T, float>)
    return static_cast<float>(static_cast<std::int32_t>(h >> 40) - (1 << 23)) * 0x1p-23f;
  else if constexpr (std::is_same_v<T, double>)
    return static_cast<double>(static_cast<std::int64_t>(h >> 11) - (std::int64_t{1} << 52)) *
           0x1p-52;
  else
    return static_cast<T>(h);
}

}  // namespace ak::tool
