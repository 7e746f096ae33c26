// The ak side of `ak first-ops`: in a fresh process, on one device (argv[1], default "cpu"), the
// first call of each of the eight operations in order, then each again warm; then a check of every
// result against a plain serial loop, so that no wrong result is ever timed. Prints one
// `first_op` line per operation (first_ops_protocol.hpp); exit status 1 on a wrong result, 2 on an
// ak error.
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include "ak/ak.hpp"
#include "first_ops_protocol.hpp"

namespace fo = ak::first_ops;

namespace {

bool near(double got, double want) {
  return std::abs(got - want) <= 1e-4 * std::max(1.0, std::abs(want));
}

int check(const char* op, bool ok) {
  if (!ok) std::fprintf(stderr, "ak_first_ops_probe: %s gave a wrong result\n", op);
  return ok ? 0 : 1;
}

int run(const std::string& device_name) {
  using fo::cols, fo::e, fo::n, fo::rows;
  const ak::device dev(device_name);
  const auto& mem = dev.memory();
  const auto hx = fo::make_floats(n, 1), hy = fo::make_floats(n, 2);
  const auto hm = fo::make_floats(rows * cols, 3);
  const auto ha = fo::make_floats(e * e * e * e, 4), hb = fo::make_floats(e * e, 5);
  const auto hidx = fo::make_indices(n, n);
  const ak::array<float> x(hx, ak::shape{n}, mem), y(hy, ak::shape{n}, mem);
  const ak::array<float> m(hm, ak::shape{rows, cols}, mem);
  const ak::array<float> a4(ha, ak::shape{e, e, e, e}, mem), b4(hb, ak::shape{e, 1, e, 1}, mem);
  const ak::array<std::int64_t> idx(hidx, ak::shape{n}, mem);

  ak::array<float> r_broadcast, r_gather, r_dims, r_scan, r_sort, r_broadcast4;
  float r_sum = 0;
  bool r_any = true;
  const std::array<std::function<void()>, 8> ops = {
      [&] { r_broadcast = ak::broadcast(ak::plus{}, x, y); },
      [&] { r_gather = ak::take(x, idx); },
      [&] { r_sum = ak::sum(x); },
      [&] { r_dims = ak::sum(m, ak::dims{1}); },
      [&] { r_scan = ak::accumulate(x, ak::plus{}); },
      [&] { r_sort = ak::sort(x); },
      [&] { r_any = ak::any(x, [](float v) { return v > 2.0f; }); },
      [&] { r_broadcast4 = ak::broadcast(ak::plus{}, a4, b4); },
  };
  std::array<fo::op_time, 8> t{};
  for (std::size_t i = 0; i < ops.size(); ++i) t[i].first_s = fo::time_once(ops[i]);
  for (std::size_t i = 0; i < ops.size(); ++i) t[i].warm_s = fo::time_warm(ops[i]);

  // The checks, on the host, after all timing.
  int bad = 0;
  {
    auto got = r_broadcast.to_vector();
    bool ok = got.size() == hx.size();
    for (std::size_t i = 0; ok && i < got.size(); ++i) ok = got[i] == hx[i] + hy[i];
    bad += check("broadcast", ok);
  }
  {
    auto got = r_gather.to_vector();
    bool ok = got.size() == hidx.size();
    for (std::size_t i = 0; ok && i < got.size(); ++i)
      ok = got[i] == hx[static_cast<std::size_t>(hidx[i])];
    bad += check("gather", ok);
  }
  double total = 0;
  for (float v : hx) total += v;
  bad += check("sum", near(r_sum, total));
  {
    auto got = r_dims.to_vector();
    bool ok = got.size() == static_cast<std::size_t>(rows);
    for (std::int64_t r = 0; ok && r < rows; ++r) {
      double s = 0;
      for (std::int64_t c = 0; c < cols; ++c) s += hm[static_cast<std::size_t>(r * cols + c)];
      ok = near(got[static_cast<std::size_t>(r)], s);
    }
    bad += check("sum_dims", ok);
  }
  {
    auto got = r_scan.to_vector();
    bool ok = got.size() == hx.size();
    double s = 0;
    for (std::size_t i = 0; ok && i < got.size(); ++i) ok = near(got[i], s += hx[i]);
    bad += check("accumulate", ok);
  }
  {
    auto got = r_sort.to_vector();
    auto want = hx;
    std::sort(want.begin(), want.end());
    bad += check("sort", got == want);
  }
  bad += check("any", !r_any);
  {
    auto got = r_broadcast4.to_vector();
    bool ok = got.size() == ha.size();
    for (std::int64_t i = 0; ok && i < e * e * e * e; ++i) {
      const std::int64_t i0 = i / (e * e * e), i2 = (i / e) % e;
      ok = got[static_cast<std::size_t>(i)] ==
           ha[static_cast<std::size_t>(i)] + hb[static_cast<std::size_t>(i0 * e + i2)];
    }
    bad += check("broadcast_4d", ok);
  }
  if (bad) return 1;
  std::printf("device %s\n", dev.name().c_str());
  for (std::size_t i = 0; i < ops.size(); ++i) fo::print_op(fo::op_names[i], t[i]);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc > 1 ? argv[1] : "cpu");
  } catch (const ak::error& err) {
    std::fprintf(stderr, "ak_first_ops_probe: %s\n", err.what());
    return 2;
  }
}
