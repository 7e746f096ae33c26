// The GPU algorithms (include/ak/gpu) on sim, against std reference results, on every profile
// under several shuffle seeds: sizes around tile edges, non-commutative operators, in-place
// scans, both scan algorithms and the capability rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "affine.hpp"
#include "ak/core/sanitizers.hpp"
#include "ak/gpu/algorithms.hpp"
#include "sim_test_support.hpp"

namespace {

using ak::gpu::device_buffer;

using GpuAlgorithms = ak_sim_test::sim_test;

using ak_sim_test::affine;  // a non-commutative operator (affine.hpp)
using ak_sim_test::compose;
using ak_sim_test::identity;

std::vector<affine> affine_input(std::int64_t n) {
  std::vector<affine> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[i] = {static_cast<std::uint32_t>(2 * i + 3), static_cast<std::uint32_t>(i * 7 + 1)};
  return v;
}

std::vector<std::int64_t> int_input(std::int64_t n) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[i] = (i * 2654435761) % 2001 - 1000;
  return v;
}

const std::int64_t sizes[] = {0, 1, 31, 256, 257, 4099, 40000};

TEST_P(GpuAlgorithms, Foreachindex) {
  for (std::int64_t n : sizes) {
#if defined(AK_TSAN)
    // Under ThreadSanitizer, which checks every switch between sim's fibers, 40000 work-items
    // took 20 s of each profile's 21 (CI's TSan step, 2026-12-05); 4099 spans several groups.
    if (n > 4099) continue;
#endif
    device_buffer<std::int64_t> out(dev(), std::max<std::int64_t>(n, 1));
    std::int64_t* p = out.data();
    ak::gpu::foreachindex(dev(), n, [p](std::int64_t i) { p[i] = 3 * i + 1; });
    auto h = out.to_host();
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(h[i], 3 * i + 1) << "n " << n;
  }
}

TEST_P(GpuAlgorithms, MapWithTuningOverride) {
  const std::int64_t n = 5000;
  std::vector<float> in(n);
  for (std::int64_t i = 0; i < n; ++i) in[i] = static_cast<float>(i) * 0.25f;
  device_buffer<float> din(dev(), std::span<const float>(in));
  device_buffer<double> dout(dev(), n);
  ak::gpu::map(dev(), din.data(), dout.data(), n, [](float x) { return 2.0 * x; },
               {.block_size = 64, .items_per_thread = 3});
  auto h = dout.to_host();
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(h[i], 2.0 * in[i]);
}

TEST_P(GpuAlgorithms, ReduceSumMinMax) {
  for (std::int64_t n : sizes) {
    auto in = int_input(n);
    device_buffer<std::int64_t> d(dev(), std::span<const std::int64_t>(in));
    const auto plus = [](std::int64_t a, std::int64_t b) { return a + b; };
    EXPECT_EQ(ak::gpu::reduce(dev(), d.data(), n, plus, std::int64_t{0}),
              std::accumulate(in.begin(), in.end(), std::int64_t{0}))
        << "n " << n;
    const auto mn = ak::gpu::reduce(
        dev(), d.data(), n, [](std::int64_t a, std::int64_t b) { return std::min(a, b); },
        INT64_MAX);
    EXPECT_EQ(mn, n ? *std::min_element(in.begin(), in.end()) : INT64_MAX) << "n " << n;
  }
}

TEST_P(GpuAlgorithms, ReduceKeepsElementOrder) {
  for (std::int64_t n : {std::int64_t{1000}, std::int64_t{30000}}) {
    auto in = affine_input(n);
    device_buffer<affine> d(dev(), std::span<const affine>(in));
    affine expect = identity;
    for (const auto& x : in) expect = compose{}(expect, x);
    // Small blocks and a low switch-over, so that many groups and both launches take part.
    EXPECT_EQ(ak::gpu::reduce(dev(), d.data(), n, compose{}, identity,
                              {.block_size = 64, .items_per_thread = 2, .switch_below = 100}),
              expect)
        << "n " << n;
    EXPECT_EQ(ak::gpu::reduce(dev(), d.data(), n, compose{}, identity), expect) << "n " << n;
  }
}

// The width the reduction's loads take: the tuning's, at most 16 bytes, halved until aligned and
// (for a non-commutative operator) until it divides items_per_thread; 1 for custom types.
TEST_P(GpuAlgorithms, ReduceVectorWidthChoice) {
  using ak::gpu::detail::vector_width_for;
  using ak::gpu::kernels::load_element;
  device_buffer<std::int32_t> d(dev(), 8);
  device_buffer<double> d64(dev(), 8);
  device_buffer<std::int8_t> d8(dev(), 8);
  EXPECT_EQ(vector_width_for(load_element<std::int32_t>{d.data()}, 4, 0), 4);
  EXPECT_EQ(vector_width_for(load_element<std::int32_t>{d.data()}, 2, 0), 2);
  EXPECT_EQ(vector_width_for(load_element<std::int32_t>{d.data() + 1}, 4, 0), 1);
  EXPECT_EQ(vector_width_for(load_element<std::int32_t>{d.data() + 2}, 4, 0), 2);
  EXPECT_EQ(vector_width_for(load_element<std::int32_t>{d.data()}, 4, 3), 1);
  EXPECT_EQ(vector_width_for(load_element<std::int32_t>{d.data()}, 4, 6), 2);
  EXPECT_EQ(vector_width_for(load_element<double>{d64.data()}, 4, 0), 2);
  EXPECT_EQ(vector_width_for(load_element<std::int8_t>{d8.data()}, 4, 0), 4);
  EXPECT_EQ(vector_width_for(load_element<affine>{nullptr}, 4, 0), 1);
}

// reduce.vector_width: each width of the menu on arrays that start aligned and one element past
// that (where the width is halved until the loads are aligned), with a commutative operator
// (striped vector loads), a non-commutative one (vectors within each item's items_per_thread
// consecutive elements; 3 admits none), and through mapreduce's conversion of narrow inputs.
TEST_P(GpuAlgorithms, ReduceVectorWidths) {
  const std::int64_t most = 40001;
  std::vector<std::int32_t> in(static_cast<std::size_t>(most) + 1);
  std::vector<std::int8_t> narrow(in.size());
  std::vector<double> wide(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    in[i] = static_cast<std::int32_t>((i * 2654435761u) % 2001) - 1000;
    narrow[i] = static_cast<std::int8_t>(in[i] % 128);
    wide[i] = in[i];
  }
  device_buffer<std::int32_t> d(dev(), std::span<const std::int32_t>(in));
  device_buffer<std::int8_t> d8(dev(), std::span<const std::int8_t>(narrow));
  device_buffer<double> d64(dev(), std::span<const double>(wide));
  const auto plus = [](std::int64_t a, std::int64_t b) { return a + b; };  // not marked commutative
  for (std::int64_t vw : {1, 2, 4}) {
    for (std::int64_t n : {0, 1, 3, 5, 255, 1027, 4099, 40000}) {
      for (std::int64_t off : {0, 1}) {
        const auto b = in.begin() + off;
        const std::int64_t expect = std::accumulate(b, b + n, std::int64_t{0});
        const std::string at = "n " + std::to_string(n) + " offset " + std::to_string(off) +
                               " vector_width " + std::to_string(vw);
        const ak::reduce_tuning t{.block_size = 64, .vector_width = vw, .switch_below = 100};
        EXPECT_EQ(ak::gpu::reduce(dev(), d.data() + off, n, ak::plus{}, std::int32_t{0}, t), expect)
            << at;
        EXPECT_EQ(ak::gpu::reduce(dev(), d64.data() + off, n, ak::plus{}, 0.0, t),
                  static_cast<double>(expect))
            << at;
        for (std::int64_t ipt : {3, 4, 8}) {
          ak::reduce_tuning keep_order = t;
          keep_order.items_per_thread = ipt;
          EXPECT_EQ(ak::gpu::mapreduce(
                        dev(), d.data() + off, n, [](std::int32_t x) { return std::int64_t{x}; },
                        plus, std::int64_t{0}, keep_order),
                    expect)
              << at << " items_per_thread " << ipt;
        }
        std::int64_t squares = 0;
        for (std::int64_t i = off; i < off + n; ++i) squares += std::int64_t{narrow[i]} * narrow[i];
        EXPECT_EQ(ak::gpu::mapreduce(
                      dev(), d8.data() + off, n,
                      [](std::int8_t x) { return std::int64_t{x} * std::int64_t{x}; }, ak::plus{},
                      std::int64_t{0}, t),
                  squares)
            << at;
      }
    }
  }
}

TEST_P(GpuAlgorithms, MapreduceSumOfSquares) {
  const std::int64_t n = 12345;
  std::vector<std::int32_t> in(n);
  for (std::int64_t i = 0; i < n; ++i) in[i] = static_cast<std::int32_t>(i % 100 - 50);
  device_buffer<std::int32_t> d(dev(), std::span<const std::int32_t>(in));
  std::int64_t expect = 0;
  for (auto x : in) expect += std::int64_t{x} * x;
  EXPECT_EQ(ak::gpu::mapreduce(
                dev(), d.data(), n, [](std::int32_t x) { return std::int64_t{x} * x; },
                [](std::int64_t a, std::int64_t b) { return a + b; }, std::int64_t{0}),
            expect);
}

TEST_P(GpuAlgorithms, ReduceFloatMatchesWithinRounding) {
  const std::int64_t n = 20000;
  std::vector<float> in(n);
  for (std::int64_t i = 0; i < n; ++i) in[i] = 1.0f / static_cast<float>(1 + i % 97);
  device_buffer<float> d(dev(), std::span<const float>(in));
  double expect = 0;
  for (float x : in) expect += x;
  const float got = ak::gpu::reduce(
      dev(), d.data(), n, [](float a, float b) { return a + b; }, 0.0f);
  EXPECT_NEAR(got, expect, 1e-4 * expect);
  // The same bits on every run: the order of combination depends on the tuning, not the seed.
  EXPECT_EQ(got, ak::gpu::reduce(
                     dev(), d.data(), n, [](float a, float b) { return a + b; }, 0.0f));
}

// Every algorithm the profile can run, explicit and auto, with a small tile so that look-back
// chains are long.
std::vector<ak::scan_alg> scan_algs(bool can_decouple) {
  std::vector<ak::scan_alg> out{ak::auto_alg{}, ak::reduce_then_scan{},
                                ak::reduce_then_scan{.block_size = 32, .items_per_thread = 2}};
  if (can_decouple) {
    out.push_back(ak::decoupled_lookback{});
    out.push_back(ak::decoupled_lookback{.block_size = 32, .items_per_thread = 2});
  }
  return out;
}

TEST_P(GpuAlgorithms, AccumulateInclusiveAndExclusive) {
  for (const auto& alg : scan_algs(!apple())) {
    for (std::int64_t n : sizes) {
      auto in = int_input(n);
      std::vector<std::int64_t> inc(n), exc(n);
      std::int64_t run = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        exc[i] = run;
        run += in[i];
        inc[i] = run;
      }
      device_buffer<std::int64_t> d(dev(), std::span<const std::int64_t>(in)), out(dev(), n);
      const auto plus = [](std::int64_t a, std::int64_t b) { return a + b; };
      ak::gpu::accumulate(dev(), d.data(), out.data(), n, plus, std::int64_t{0}, true, alg);
      ASSERT_EQ(out.to_host(), inc) << "n " << n << " alg " << alg.index();
      ak::gpu::accumulate(dev(), d.data(), out.data(), n, plus, std::int64_t{0}, false, alg);
      ASSERT_EQ(out.to_host(), exc) << "n " << n << " alg " << alg.index();
    }
  }
}

TEST_P(GpuAlgorithms, AccumulateInPlaceKeepsElementOrder) {
  for (const auto& alg : scan_algs(!apple())) {
    const std::int64_t n = 9000;
    auto in = affine_input(n);
    std::vector<affine> expect(n);
    affine run = identity;
    for (std::int64_t i = 0; i < n; ++i) expect[i] = run = compose{}(run, in[i]);
    device_buffer<affine> d(dev(), std::span<const affine>(in));
    ak::gpu::accumulate(dev(), d.data(), d.data(), n, compose{}, identity, true, alg);
    ASSERT_EQ(d.to_host(), expect) << "alg " << alg.index();
  }
}

TEST_P(GpuAlgorithms, DecoupledLookbackFollowsCapabilities) {
  const std::int64_t n = 3000;
  std::vector<std::int32_t> in(n, 1);
  device_buffer<std::int32_t> d(dev(), std::span<const std::int32_t>(in)), out(dev(), n);
  const auto plus = [](std::int32_t a, std::int32_t b) { return a + b; };
  if (apple()) {
    try {
      ak::gpu::accumulate(dev(), d.data(), out.data(), n, plus, 0, true, ak::decoupled_lookback{});
      ADD_FAILURE() << "decoupled look-back ran on " << dev().name();
    } catch (const ak::capability_error& e) {
      EXPECT_NE(std::string(e.what()).find("decoupled_lookback"), std::string::npos) << e.what();
    }
    // auto chooses reduce-then-scan there.
    EXPECT_EQ(ak::resolve(ak::auto_alg{}, dev(), ak::dtype::int32).algorithm,
              ak::scan_algorithm::reduce_then_scan);
  } else {
    ak::gpu::accumulate(dev(), d.data(), out.data(), n, plus, 0, true, ak::decoupled_lookback{});
    EXPECT_EQ(ak::resolve(ak::auto_alg{}, dev(), ak::dtype::int32).algorithm,
              ak::scan_algorithm::decoupled_lookback);
  }
  ak::gpu::accumulate(dev(), d.data(), out.data(), n, plus, 0, true);
  auto h = out.to_host();
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(h[i], i + 1);
}

TEST_P(GpuAlgorithms, BadArguments) {
  EXPECT_THROW(ak::gpu::foreachindex(dev(), -1, [](std::int64_t) {}), ak::argument_error);
  EXPECT_THROW(ak::gpu::foreachindex(ak::device("cpu"), 4, [](std::int64_t) {}),
               ak::argument_error);
  std::int32_t x = 0;
  EXPECT_THROW(ak::gpu::accumulate(
                   dev(), &x, &x, 1, [](int a, int b) { return a + b; }, 0, true,
                   ak::reduce_then_scan{.sub_group_width = 128}),
               ak::capability_error);
}

INSTANTIATE_TEST_SUITE_P(Profiles, GpuAlgorithms, testing::ValuesIn(ak_sim_test::all_params()),
                         ak_sim_test::param_name);

}  // namespace
