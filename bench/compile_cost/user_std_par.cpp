// The same translation unit as user_ak.cpp with the std algorithms and std::execution::par
// (libstdc++ runs them on oneTBB, whose headers come in with <execution>).
#include <algorithm>
#include <cstdio>
#include <execution>
#include <numeric>
#include <vector>

int main() {
  std::vector<float> v(1 << 20);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 7919) % 1000) - 500;
  const float total = std::reduce(std::execution::par, v.begin(), v.end(), 0.0f);
  std::vector<float> prefix(v.size());
  std::inclusive_scan(std::execution::par, v.begin(), v.end(), prefix.begin());
  std::sort(std::execution::par, v.begin(), v.end());
  const bool has_big =
      std::any_of(std::execution::par, v.begin(), v.end(), [](float x) { return x > 499; });
  std::printf("%g %g %g %d\n", total, prefix.back(), v.front(), has_big);
}
