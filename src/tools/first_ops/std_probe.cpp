// The baseline of `ak first-ops`: the same eight operations on the same inputs as ak_probe.cpp,
// written the way a user of the std algorithms would, with std::execution::par (libstdc++ runs
// them on oneTBB). Each operation makes its result, as ak's do. Same output and exit status.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <execution>
#include <functional>
#include <numeric>

#include "first_ops_protocol.hpp"

namespace fo = ak::first_ops;

namespace {

bool near(double got, double want) {
  return std::abs(got - want) <= 1e-4 * std::max(1.0, std::abs(want));
}

int check(const char* op, bool ok) {
  if (!ok) std::fprintf(stderr, "ak_first_ops_std: %s gave a wrong result\n", op);
  return ok ? 0 : 1;
}

int run() {
  using fo::cols, fo::e, fo::n, fo::rows;
  constexpr auto par = std::execution::par;
  const auto x = fo::make_floats(n, 1), y = fo::make_floats(n, 2);
  const auto m = fo::make_floats(rows * cols, 3);
  const auto a4 = fo::make_floats(e * e * e * e, 4), b4 = fo::make_floats(e * e, 5);
  const auto idx = fo::make_indices(n, n);
  // The row numbers and the 4-d array's positions: the std algorithms loop over sequences.
  std::vector<std::int64_t> row_ids(static_cast<std::size_t>(rows));
  std::iota(row_ids.begin(), row_ids.end(), 0);
  std::vector<std::int64_t> positions(a4.size());
  std::iota(positions.begin(), positions.end(), 0);

  std::vector<float> r_broadcast, r_gather, r_dims, r_scan, r_sort, r_broadcast4;
  float r_sum = 0;
  bool r_any = true;
  const std::array<std::function<void()>, 8> ops = {
      [&] {
        r_broadcast.assign(x.size(), 0.0f);
        std::transform(par, x.begin(), x.end(), y.begin(), r_broadcast.begin(), std::plus<>{});
      },
      [&] {
        r_gather.assign(idx.size(), 0.0f);
        std::transform(par, idx.begin(), idx.end(), r_gather.begin(),
                       [&](std::int64_t i) { return x[static_cast<std::size_t>(i)]; });
      },
      [&] { r_sum = std::reduce(par, x.begin(), x.end(), 0.0f); },
      [&] {
        r_dims.assign(static_cast<std::size_t>(rows), 0.0f);
        std::transform(par, row_ids.begin(), row_ids.end(), r_dims.begin(), [&](std::int64_t r) {
          const float* row = m.data() + r * cols;
          return std::reduce(row, row + cols, 0.0f);
        });
      },
      [&] {
        r_scan.assign(x.size(), 0.0f);
        std::inclusive_scan(par, x.begin(), x.end(), r_scan.begin());
      },
      [&] {
        r_sort = x;
        std::sort(par, r_sort.begin(), r_sort.end());
      },
      [&] { r_any = std::any_of(par, x.begin(), x.end(), [](float v) { return v > 2.0f; }); },
      [&] {
        r_broadcast4.assign(a4.size(), 0.0f);
        std::transform(par, positions.begin(), positions.end(), r_broadcast4.begin(),
                       [&](std::int64_t i) {
                         const std::int64_t i0 = i / (e * e * e), i2 = (i / e) % e;
                         return a4[static_cast<std::size_t>(i)] +
                                b4[static_cast<std::size_t>(i0 * e + i2)];
                       });
      },
  };
  std::array<fo::op_time, 8> t{};
  for (std::size_t i = 0; i < ops.size(); ++i) t[i].first_s = fo::time_once(ops[i]);
  for (std::size_t i = 0; i < ops.size(); ++i) t[i].warm_s = fo::time_warm(ops[i]);

  // The same checks as the ak probe's, after all timing.
  int bad = 0;
  bool ok = true;
  for (std::size_t i = 0; ok && i < x.size(); ++i) ok = r_broadcast[i] == x[i] + y[i];
  bad += check("broadcast", ok);
  ok = true;
  for (std::size_t i = 0; ok && i < idx.size(); ++i)
    ok = r_gather[i] == x[static_cast<std::size_t>(idx[i])];
  bad += check("gather", ok);
  double total = 0;
  for (float v : x) total += v;
  bad += check("sum", near(r_sum, total));
  ok = true;
  for (std::int64_t r = 0; ok && r < rows; ++r) {
    double s = 0;
    for (std::int64_t c = 0; c < cols; ++c) s += m[static_cast<std::size_t>(r * cols + c)];
    ok = near(r_dims[static_cast<std::size_t>(r)], s);
  }
  bad += check("sum_dims", ok);
  ok = true;
  double s = 0;
  for (std::size_t i = 0; ok && i < x.size(); ++i) ok = near(r_scan[i], s += x[i]);
  bad += check("accumulate", ok);
  bad += check("sort", std::is_sorted(r_sort.begin(), r_sort.end()) && r_sort.size() == x.size());
  bad += check("any", !r_any);
  ok = r_broadcast4.size() == a4.size();
  for (std::int64_t i = 0; ok && i < e * e * e * e; ++i) {
    const std::int64_t i0 = i / (e * e * e), i2 = (i / e) % e;
    ok = r_broadcast4[static_cast<std::size_t>(i)] ==
         a4[static_cast<std::size_t>(i)] + b4[static_cast<std::size_t>(i0 * e + i2)];
  }
  bad += check("broadcast_4d", ok);
  if (bad) return 1;
  std::printf("device cpu\n");
  for (std::size_t i = 0; i < ops.size(); ++i) fo::print_op(fo::op_names[i], t[i]);
  return 0;
}

}  // namespace

int main() { return run(); }
