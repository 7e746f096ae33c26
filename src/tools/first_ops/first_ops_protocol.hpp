// What `ak first-ops` and its probe programs share: the eight operations, in the order they run,
// the sizes of their small inputs, the timing of one operation (its first call, then the median of
// warm calls), and the line each probe prints per operation:
//   first_op <op> <first seconds> <warm seconds>
// The probes (ak_first_ops_probe: ak; ak_first_ops_std: the std algorithms with
// std::execution::par) each run in a fresh process that `ak first-ops` starts and times.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string_view>
#include <vector>

namespace ak::first_ops {

// The order is the one AcceleratedKernels.jl measured: broadcast, getindex, sum, sum along dims,
// accumulate, sort, any, 4-d broadcast.
inline constexpr std::array<std::string_view, 8> op_names = {
    "broadcast", "gather", "sum", "sum_dims", "accumulate", "sort", "any", "broadcast_4d"};

// Small inputs: 1-d ops on n floats; sum along dims on a rows x cols matrix (along the contiguous
// dimension); the 4-d broadcast adds an e x 1 x e x 1 array to an e x e x e x e one.
inline constexpr std::int64_t n = 10'000;
inline constexpr std::int64_t rows = 100, cols = 100;
inline constexpr std::int64_t e = 10;
inline constexpr int warm_calls = 5;

// The inputs, the same in every probe: floats in [0, 1) from a fixed LCG; indices in [0, n).
inline std::vector<float> make_floats(std::int64_t count, std::uint64_t seed) {
  std::vector<float> v(static_cast<std::size_t>(count));
  for (auto& x : v) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<float>(seed >> 40) / 16777216.0f;
  }
  return v;
}
inline std::vector<std::int64_t> make_indices(std::int64_t count, std::int64_t bound) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(count));
  std::uint64_t seed = 99;
  for (auto& x : v) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<std::int64_t>((seed >> 33) % static_cast<std::uint64_t>(bound));
  }
  return v;
}

// The inputs of the eight operations, on the host.
struct inputs {
  std::vector<float> x = make_floats(n, 1), y = make_floats(n, 2);  // broadcast, sum, scan, ...
  std::vector<float> m = make_floats(rows * cols, 3);               // sum along dims
  std::vector<float> a4 = make_floats(e * e * e * e, 4), b4 = make_floats(e * e, 5);
  std::vector<std::int64_t> idx = make_indices(n, n);  // gather
};

// The results of the eight operations, copied to the host.
struct results {
  std::vector<float> broadcast, gather, sum_dims, accumulate, sort, broadcast_4d;
  float sum = 0;
  bool any = true;
};

// Checks every result against a plain serial loop (sums within a relative 1e-4); prints what is
// wrong, prefixed by the program's name, and returns how many are.
inline int count_wrong_results(const char* program, const inputs& in, const results& r) {
  auto near = [](double got, double want) {
    return std::abs(got - want) <= 1e-4 * std::max(1.0, std::abs(want));
  };
  auto at = [](const auto& v, std::int64_t i) { return v[static_cast<std::size_t>(i)]; };
  int wrong = 0;
  auto check = [&](const char* op, bool ok) {
    if (!ok) std::fprintf(stderr, "%s: %s gave a wrong result\n", program, op);
    wrong += !ok;
  };
  bool ok = r.broadcast.size() == in.x.size();
  for (std::int64_t i = 0; ok && i < n; ++i) ok = at(r.broadcast, i) == at(in.x, i) + at(in.y, i);
  check("broadcast", ok);
  ok = r.gather.size() == in.idx.size();
  for (std::int64_t i = 0; ok && i < n; ++i) ok = at(r.gather, i) == at(in.x, at(in.idx, i));
  check("gather", ok);
  double total = 0;
  for (float v : in.x) total += v;
  check("sum", near(r.sum, total));
  ok = r.sum_dims.size() == static_cast<std::size_t>(rows);
  for (std::int64_t row = 0; ok && row < rows; ++row) {
    double s = 0;
    for (std::int64_t c = 0; c < cols; ++c) s += at(in.m, row * cols + c);
    ok = near(at(r.sum_dims, row), s);
  }
  check("sum_dims", ok);
  ok = r.accumulate.size() == in.x.size();
  double prefix = 0;
  for (std::int64_t i = 0; ok && i < n; ++i) ok = near(at(r.accumulate, i), prefix += at(in.x, i));
  check("accumulate", ok);
  std::vector<float> sorted = in.x;
  std::sort(sorted.begin(), sorted.end());
  check("sort", r.sort == sorted);
  check("any", !r.any);
  ok = r.broadcast_4d.size() == in.a4.size();
  for (std::int64_t i = 0; ok && i < e * e * e * e; ++i)
    ok = at(r.broadcast_4d, i) == at(in.a4, i) + at(in.b4, i / (e * e * e) * e + (i / e) % e);
  check("broadcast_4d", ok);
  return wrong;
}

struct op_time {
  double first_s = 0;
  double warm_s = 0;
};

// Runs `f` once (its first call in this process), to be followed by `warm` later.
template <class F>
double time_once(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The median of warm_calls calls.
template <class F>
double time_warm(F&& f) {
  std::array<double, warm_calls> t{};
  for (auto& x : t) x = time_once(f);
  std::nth_element(t.begin(), t.begin() + warm_calls / 2, t.end());
  return t[warm_calls / 2];
}

using op_times = std::array<op_time, op_names.size()>;

// The first call of each operation, in order, then each again warm: what every probe measures.
template <class Ops>
op_times time_ops(const Ops& ops) {
  static_assert(std::tuple_size_v<Ops> == op_names.size(), "one callable per operation");
  op_times t{};
  for (std::size_t i = 0; i < ops.size(); ++i) t[i].first_s = time_once(ops[i]);
  for (std::size_t i = 0; i < ops.size(); ++i) t[i].warm_s = time_warm(ops[i]);
  return t;
}

// What a probe prints once its results are checked: the device, then a line per operation.
inline void print_times(std::string_view device, const op_times& t) {
  std::printf("device %.*s\n", static_cast<int>(device.size()), device.data());
  for (std::size_t i = 0; i < t.size(); ++i)
    std::printf("first_op %.*s %.9f %.9f\n", static_cast<int>(op_names[i].size()),
                op_names[i].data(), t[i].first_s, t[i].warm_s);
}

}  // namespace ak::first_ops
