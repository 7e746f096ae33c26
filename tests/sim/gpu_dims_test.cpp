// GPU reductions and scans along dimensions (include/ak/gpu/dims.hpp) on sim, against naive
// references, on every profile under several shuffle seeds: both strategies of each, strided
// (transposed) inputs, in place, and a non-commutative operator.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "affine.hpp"
#include "ak/gpu/gpu.hpp"
#include "sim_test_support.hpp"

namespace {

using ak::gpu::device_buffer;
using GpuDims = ak_sim_test::sim_test;

using ak_sim_test::affine;  // a non-commutative operator (affine.hpp)
using ak_sim_test::compose;
using ak_sim_test::identity;

std::vector<affine> affine_data(std::int64_t n) {
  std::vector<affine> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[i] = {static_cast<std::uint32_t>(2 * i + 1), static_cast<std::uint32_t>(i % 13)};
  return v;
}

std::int64_t product(const std::vector<std::int64_t>& s) {
  std::int64_t p = 1;
  for (auto e : s) p *= e;
  return p;
}

// Reference: reduce a row-major array over `dims`, in row-major order of the reduced indices.
std::vector<affine> reference_reduce(const std::vector<affine>& in,
                                     const std::vector<std::int64_t>& shape,
                                     const std::vector<std::int64_t>& dims) {
  const std::size_t rank = shape.size();
  std::vector<bool> red(rank, false);
  for (auto d : dims) red[static_cast<std::size_t>(d)] = true;
  std::vector<std::int64_t> kept_shape;
  for (std::size_t d = 0; d < rank; ++d)
    if (!red[d]) kept_shape.push_back(shape[d]);
  std::vector<affine> out(static_cast<std::size_t>(product(kept_shape)), identity);
  // Row-major traversal visits, for every output, its reduced elements in row-major order.
  std::vector<std::int64_t> idx(rank, 0);
  for (std::int64_t lin = 0; lin < product(shape); ++lin) {
    std::int64_t o = 0;
    for (std::size_t d = 0; d < rank; ++d)
      if (!red[d]) o = o * shape[d] + idx[d];
    out[o] = compose{}(out[o], in[lin]);
    for (std::size_t d = rank; d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

TEST_P(GpuDims, ReduceDimsBothStrategies) {
  struct reduction_case {
    std::vector<std::int64_t> shape, dims;
  };
  const reduction_case cases[] = {
      {{5, 7, 300}, {2}},      {{5, 7, 300}, {0}}, {{5, 7, 300}, {0, 2}}, {{5, 7, 300}, {1}},
      {{5, 7, 30}, {0, 1, 2}}, {{2000, 3}, {1}},   {{3, 5000}, {1}},      {{3000, 2}, {0}}};
  for (const auto& c : cases) {
    const auto in = affine_data(product(c.shape));
    const auto expect = reference_reduce(in, c.shape, c.dims);
    device_buffer<affine> din(dev(), std::span<const affine>(in));
    device_buffer<affine> dout(dev(), static_cast<std::int64_t>(expect.size()));
    ak::gpu::reduce_dims(dev(), din.data(), c.shape, {}, c.dims, dout.data(), compose{}, identity);
    ASSERT_EQ(dout.to_host(), expect)
        << "shape " << c.shape.size() << "-d, first dim " << c.dims.front();
  }
}

TEST_P(GpuDims, ReduceDimsOfATransposedView) {
  // A 40 x 300 row-major array seen as its 300 x 40 transpose (strides {1, 300}).
  const std::int64_t r = 40, c = 300;
  std::vector<std::int64_t> in(r * c);
  for (std::int64_t i = 0; i < r * c; ++i) in[i] = i % 101;
  device_buffer<std::int64_t> din(dev(), std::span<const std::int64_t>(in)), dout(dev(), c);
  ak::gpu::reduce_dims(
      dev(), din.data(), {c, r}, {1, c}, {1}, dout.data(),
      [](std::int64_t a, std::int64_t b) { return a + b; }, std::int64_t{0});
  auto h = dout.to_host();
  for (std::int64_t j = 0; j < c; ++j) {
    std::int64_t s = 0;
    for (std::int64_t i = 0; i < r; ++i) s += in[i * c + j];
    ASSERT_EQ(h[j], s) << "column " << j;
  }
}

TEST_P(GpuDims, AccumulateDimBothStrategiesInPlace) {
  struct scan_case {
    std::vector<std::int64_t> shape;
    std::int64_t dim;
    bool inclusive;
  };
  const scan_case cases[] = {{{3, 5000}, 1, true},
                             {{4000, 7}, 1, true},
                             {{6, 50, 40}, 1, false},
                             {{6, 50, 40}, 0, true},
                             {{2, 3000}, 1, false}};
  for (const auto& c : cases) {
    const std::int64_t n = product(c.shape);
    const auto in = affine_data(n);
    // Reference along c.dim.
    std::vector<affine> expect(in);
    std::int64_t inner = 1;
    for (std::size_t d = static_cast<std::size_t>(c.dim) + 1; d < c.shape.size(); ++d)
      inner *= c.shape[d];
    const std::int64_t len = c.shape[static_cast<std::size_t>(c.dim)];
    for (std::int64_t outer = 0; outer < n / (len * inner); ++outer)
      for (std::int64_t k = 0; k < inner; ++k) {
        affine acc = identity;
        for (std::int64_t i = 0; i < len; ++i) {
          const std::int64_t at = (outer * len + i) * inner + k;
          if (c.inclusive) {
            acc = compose{}(acc, in[at]);
            expect[at] = acc;
          } else {
            expect[at] = acc;
            acc = compose{}(acc, in[at]);
          }
        }
      }
    device_buffer<affine> d(dev(), std::span<const affine>(in));
    ak::gpu::accumulate_dim(dev(), d.data(), d.data(), c.shape, c.dim, compose{}, identity,
                            c.inclusive);
    ASSERT_EQ(d.to_host(), expect) << "dim " << c.dim << " of a " << c.shape.size() << "-d array";
  }
}

TEST_P(GpuDims, BadDimensionsAreArgumentErrors) {
  std::int64_t x = 0;
  const auto plus = [](std::int64_t a, std::int64_t b) { return a + b; };
  EXPECT_THROW(ak::gpu::reduce_dims(dev(), &x, {1, 1}, {}, {2}, &x, plus, std::int64_t{0}),
               ak::argument_error);
  EXPECT_THROW(ak::gpu::reduce_dims(dev(), &x, {1, 1}, {}, {0, 0}, &x, plus, std::int64_t{0}),
               ak::argument_error);
  EXPECT_THROW(ak::gpu::accumulate_dim(dev(), &x, &x, {1}, 1, plus, std::int64_t{0}),
               ak::argument_error);
  EXPECT_THROW(ak::gpu::reduce_dims(dev(), &x, std::vector<std::int64_t>(9, 1), {}, {0}, &x, plus,
                                    std::int64_t{0}),
               ak::argument_error);
}

TEST_P(GpuDims, BroadcastWithZeroStrides) {
  // out[i][j][k] = a[i][k] * 1000 + b[j]: a broadcast along dim 1, b along dims 0 and 2.
  const std::int64_t ni = 7, nj = 33, nk = 40;
  std::vector<std::int32_t> a(ni * nk), b(nj);
  for (std::int64_t i = 0; i < ni * nk; ++i) a[i] = static_cast<std::int32_t>(i);
  for (std::int64_t j = 0; j < nj; ++j) b[j] = static_cast<std::int32_t>(j * 3);
  device_buffer<std::int32_t> da(dev(), std::span<const std::int32_t>(a)),
      db(dev(), std::span<const std::int32_t>(b));
  device_buffer<std::int64_t> out(dev(), ni * nj * nk);
  ak::gpu::broadcast(dev(), {ni, nj, nk}, da.data(), {nk, 0, 1}, db.data(), {0, 1, 0}, out.data(),
                     [](std::int32_t x, std::int32_t y) { return std::int64_t{x} * 1000 + y; });
  auto h = out.to_host();
  for (std::int64_t i = 0; i < ni; ++i)
    for (std::int64_t j = 0; j < nj; ++j)
      for (std::int64_t k = 0; k < nk; ++k)
        ASSERT_EQ(h[(i * nj + j) * nk + k], a[i * nk + k] * std::int64_t{1000} + b[j]);
}

INSTANTIATE_TEST_SUITE_P(Profiles, GpuDims, testing::ValuesIn(ak_sim_test::all_params()),
                         ak_sim_test::param_name);

}  // namespace
