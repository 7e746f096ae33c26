// A user's translation unit with ak: sort, sum, scan and `any` on float vectors. The sort, sum and
// scan call libak's precompiled entry points (nothing of them is instantiated here); `any` with a
// lambda is a header template, instantiated here as a user's own predicate must be.
#include <ak/ak.hpp>
#include <cstdio>
#include <vector>

int main() {
  std::vector<float> v(1 << 20);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 7919) % 1000) - 500;
  const float total = ak::sum(v);
  const ak::array<float> prefix = ak::cumsum(v);
  ak::sort_inplace(v);
  const bool has_big = ak::any(v, [](float x) { return x > 499; });
  std::printf("%g %g %g %d\n", total, prefix.to_vector().back(), v.front(), has_big);
}
