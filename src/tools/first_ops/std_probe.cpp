// The baseline of `ak first-ops`: the same eight operations on the same inputs as ak_probe.cpp,
// written the way a user of the std algorithms would, with std::execution::par (libstdc++ runs
// them on oneTBB). Each operation makes its result, as ak's do. Same output and exit status.
#include <algorithm>
#include <cstdio>
#include <execution>
#include <functional>
#include <numeric>

#include "first_ops_protocol.hpp"

namespace fo = ak::first_ops;

namespace {

int run() {
  using fo::cols, fo::e, fo::n, fo::rows;
  constexpr auto par = std::execution::par;
  const fo::inputs in;
  const auto &x = in.x, &y = in.y, &m = in.m, &a4 = in.a4, &b4 = in.b4;
  const auto& idx = in.idx;
  // The row numbers and the 4-d array's positions: the std algorithms loop over sequences.
  std::vector<std::int64_t> row_ids(static_cast<std::size_t>(rows));
  std::iota(row_ids.begin(), row_ids.end(), 0);
  std::vector<std::int64_t> positions(a4.size());
  std::iota(positions.begin(), positions.end(), 0);

  fo::results r;
  const std::array<std::function<void()>, 8> ops = {
      [&] {
        r.broadcast.assign(x.size(), 0.0f);
        std::transform(par, x.begin(), x.end(), y.begin(), r.broadcast.begin(), std::plus<>{});
      },
      [&] {
        r.gather.assign(idx.size(), 0.0f);
        std::transform(par, idx.begin(), idx.end(), r.gather.begin(),
                       [&](std::int64_t i) { return x[static_cast<std::size_t>(i)]; });
      },
      [&] { r.sum = std::reduce(par, x.begin(), x.end(), 0.0f); },
      [&] {
        r.sum_dims.assign(static_cast<std::size_t>(rows), 0.0f);
        std::transform(par, row_ids.begin(), row_ids.end(), r.sum_dims.begin(),
                       [&](std::int64_t row) {
                         const float* p = m.data() + row * cols;
                         return std::reduce(p, p + cols, 0.0f);
                       });
      },
      [&] {
        r.accumulate.assign(x.size(), 0.0f);
        std::inclusive_scan(par, x.begin(), x.end(), r.accumulate.begin());
      },
      [&] {
        r.sort = x;
        std::sort(par, r.sort.begin(), r.sort.end());
      },
      [&] { r.any = std::any_of(par, x.begin(), x.end(), [](float v) { return v > 2.0f; }); },
      [&] {
        r.broadcast_4d.assign(a4.size(), 0.0f);
        std::transform(
            par, positions.begin(), positions.end(), r.broadcast_4d.begin(), [&](std::int64_t i) {
              const std::int64_t i0 = i / (e * e * e), i2 = (i / e) % e;
              return a4[static_cast<std::size_t>(i)] + b4[static_cast<std::size_t>(i0 * e + i2)];
            });
      },
  };
  const fo::op_times t = fo::time_ops(ops);

  if (fo::count_wrong_results("ak_first_ops_std", in, r)) return 1;
  fo::print_times("cpu", t);
  return 0;
}

}  // namespace

int main() {
  return run();
}
