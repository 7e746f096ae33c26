// Custom types, operators and lambdas on a CUDA device: sorting particles by a comparator of
// your own, reducing them with an operator of your own, mapping a __host__ __device__ lambda, then
// counting them per energy with reduce_by_key, merging sorted arrays, sorting the rows of a matrix
// and taking the ten largest.
// Each result is checked against the std algorithms on the host. Without a CUDA device (or
// driver) it says so and exits 0.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "ak/ak.hpp"

struct particle {
  float energy;
  int id;
};

// Higher energy first; equal energies keep their order (ak's sorts are stable).
struct by_energy_desc {
  AK_KERNEL_FN bool operator()(const particle& a, const particle& b) const {
    return b.energy < a.energy;
  }
};

// (total energy, highest id) of two partial results: associative, with neutral {0, -1}.
struct total_and_last {
  AK_KERNEL_FN particle operator()(const particle& a, const particle& b) const {
    return particle{a.energy + b.energy, a.id < b.id ? b.id : a.id};
  }
};

int main() {
  ak::device gpu;
  try {
    gpu = ak::device("cuda:0");
  } catch (const ak::error& e) {
    std::printf("no CUDA device: %s\n", e.what());
    return 0;
  }
  std::printf("running on %s (%s)\n", gpu.name().c_str(), gpu.info().description.c_str());

  const int n = 1 << 20;
  std::mt19937 rng(42);
  // Small integer energies: every partial sum is exact in float, whatever the order of the sum.
  std::uniform_int_distribution<int> energy(0, 15);
  std::vector<particle> host(n);
  for (int i = 0; i < n; ++i) host[i] = {static_cast<float>(energy(rng)), i};

  ak::array<particle> p(host, gpu);  // copies to the device
  ak::sort_inplace(p, ak::sort_options<ak::identity, by_energy_desc>{.lt = by_energy_desc{}});
  std::vector<particle> want = host;
  std::stable_sort(want.begin(), want.end(), by_energy_desc{});
  const std::vector<particle> got = p.to_vector();
  bool ok = std::equal(
      got.begin(), got.end(), want.begin(),
      [](const particle& a, const particle& b) { return a.energy == b.energy && a.id == b.id; });

  const particle total =
      ak::reduce(p, total_and_last{}, ak::reduce_options<particle>{.neutral = particle{0.0f, -1}});
  double sum = 0;
  for (const auto& x : host) sum += x.energy;
  ok = ok && total.energy == static_cast<float>(sum) && total.id == n - 1;

  ak::array<float> e(ak::shape{n}, gpu);
  ak::map_into(
      e, [] __host__ __device__(const particle& x) { return x.energy * 0.5f; }, p);
  const std::vector<float> halves = e.to_vector();
  for (int i = 0; i < n && ok; ++i) ok = halves[i] == want[i].energy * 0.5f;

  // How many particles have each energy: the runs of equal (halved) energies, counted by
  // reduce_by_key; and the halves merged with themselves, in descending order.
  const ak::array<int> ones(std::vector<int>(n, 1), gpu);
  const auto [levels, counts] = ak::reduce_by_key(e, ones, ak::plus{});
  const std::vector<float> lv = levels.to_vector();
  const std::vector<int> cv = counts.to_vector();
  for (std::size_t r = 0, at = 0; r < lv.size() && ok; at += cv[r], ++r)
    ok = at + cv[r] <= static_cast<std::size_t>(n) && halves[at] == lv[r] &&
         std::count(halves.begin(), halves.end(), lv[r]) == cv[r];
  const std::vector<float> merged = ak::merge(e, e, {.rev = true}).to_vector();
  std::vector<float> want_merged(2 * static_cast<std::size_t>(n));
  std::merge(halves.begin(), halves.end(), halves.begin(), halves.end(), want_merged.begin(),
             [](float a, float b) { return b < a; });
  ok = ok && merged == want_merged;
  // Each row of the particles as a 1024 x 1024 matrix sorted on its own, by the same order.
  ak::array<particle> rows(host, gpu);
  ak::sort_inplace(rows.view().reshape(ak::shape{1024, 1024}),
                   ak::sort_options<ak::identity, by_energy_desc>{.dim = 1});
  const std::vector<particle> sorted_rows = rows.to_vector();
  std::vector<particle> want_rows = host;
  for (int row = 0; row < n; row += 1024)
    std::stable_sort(want_rows.begin() + row, want_rows.begin() + row + 1024, by_energy_desc{});
  ok = ok && std::equal(sorted_rows.begin(), sorted_rows.end(), want_rows.begin(),
                        [](const particle& a, const particle& b) { return a.id == b.id; });
  // The ten largest halves, largest first.
  const std::vector<float> top = ak::partialsort(e, 10, {.rev = true}).to_vector();
  ok = ok && top.size() == 10 && std::equal(top.begin(), top.end(), halves.begin());

  std::printf("sorted %d particles by energy (highest %.0f, id %d), total energy %.0f: %s\n", n,
              got[0].energy, got[0].id, total.energy, ok ? "matches std" : "MISMATCH");
  return ok ? 0 : 1;
}
