// The median of a sample, as the ak command reports its timings (`ak bench`, `ak first-ops`).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace ak::tool {

// NaN for an empty sample; the mean of the two middle values for an even count.
inline double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  const std::size_t h = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h), v.end());
  if (v.size() % 2 == 1) return v[h];
  const double hi = v[h];
  return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h)) + hi) / 2;
}

}  // namespace ak::tool
