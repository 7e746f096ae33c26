// A program built before `ak tune` runs: sorts 5000 uint16 keys with ak::sort and checks them.
// ak_cli_tests runs it with AK_LOG=tuning to see what an autotune cache written later changes.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "ak/algorithms/sort.hpp"

int main() {
  std::vector<std::uint16_t> v(5000);
  std::uint32_t x = 12345;
  for (auto& e : v) {
    x = x * 1103515245u + 12345u;
    e = static_cast<std::uint16_t>(x >> 16);
  }
  std::vector<std::uint16_t> want = v;
  std::sort(want.begin(), want.end());
  const bool ok = ak::sort(v).to_vector() == want;
  std::puts(ok ? "sorted" : "NOT SORTED");
  return ok ? 0 : 1;
}
