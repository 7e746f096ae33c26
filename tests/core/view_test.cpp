#include "ak/core/view.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ak/core/error.hpp"
#include "error_message.hpp"
#include "test_memory.hpp"

namespace {

using ak::test::contains;
using ak::test::error_message;

using ak::shape;
using ak::strides;
using ak::view;

// A row-major (4, 5, 6) block whose element (i, j, k) holds 100 i + 10 j + k, so that every
// element says where it came from.
class Block : public ::testing::Test {
 protected:
  Block() : values(4 * 5 * 6) {
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 5; ++j)
        for (int k = 0; k < 6; ++k)
          values[static_cast<std::size_t>((i * 5 + j) * 6 + k)] = code(i, j, k);
  }
  static int code(std::int64_t i, std::int64_t j, std::int64_t k) {
    return static_cast<int>(100 * i + 10 * j + k);
  }
  view<int> block() { return view<int>(values.data(), shape{4, 5, 6}); }

  // Checks v(i, j, k) == expected(i, j, k) for every element of a 3-d view.
  template <class V, class F>
  static void expect_elements(const V& v, F expected) {
    ASSERT_EQ(v.rank(), 3u);
    for (std::int64_t i = 0; i < v.shape()[0]; ++i)
      for (std::int64_t j = 0; j < v.shape()[1]; ++j)
        for (std::int64_t k = 0; k < v.shape()[2]; ++k)
          ASSERT_EQ(v(i, j, k), expected(i, j, k)) << "at (" << i << ", " << j << ", " << k << ")";
  }

  std::vector<int> values;
};

TEST_F(Block, RowMajorAccess) {
  const view<int> v = block();
  EXPECT_EQ(v.rank(), 3u);
  EXPECT_EQ(v.size(), 120);
  EXPECT_EQ(v.shape(), (shape{4, 5, 6}));
  EXPECT_EQ(v.strides(), (strides{30, 6, 1}));
  EXPECT_EQ(v.data(), values.data());
  EXPECT_EQ(&v.memory(), &ak::host_memory());
  EXPECT_EQ(v.device_name(), "cpu:0");
  EXPECT_TRUE(v.is_contiguous());
  expect_elements(v, [](auto i, auto j, auto k) { return code(i, j, k); });
  v(1, 2, 3) = -1;
  EXPECT_EQ(values[(1 * 5 + 2) * 6 + 3], -1);
  EXPECT_EQ(v.at(3, 4, 5), code(3, 4, 5));
}

TEST(View, DefaultIsEmpty) {
  const view<double> v;
  EXPECT_EQ(v.rank(), 1u);
  EXPECT_EQ(v.size(), 0);
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.data(), nullptr);
  EXPECT_TRUE(v.is_contiguous());
}

TEST(View, RankZeroHasOneElement) {
  double x = 2.5;
  const view<double> v(&x, shape{});
  EXPECT_EQ(v.rank(), 0u);
  EXPECT_EQ(v.size(), 1);
  EXPECT_EQ(v(), 2.5);
  EXPECT_EQ(v.at(), 2.5);
  EXPECT_TRUE(v.is_contiguous());
}

TEST(View, RankEight) {
  std::vector<int> values(256);
  std::iota(values.begin(), values.end(), 0);
  const view<int> v(values.data(), shape{2, 2, 2, 2, 2, 2, 2, 2});
  EXPECT_EQ(v(1, 0, 1, 0, 1, 0, 1, 1), 0b10101011);
  EXPECT_EQ(v.at(1, 1, 1, 1, 1, 1, 1, 1), 255);
  EXPECT_EQ(v.transpose()(1, 1, 0, 1, 0, 1, 0, 1), 0b10101011);
}

TEST(View, FromHostRanges) {
  std::vector<int> vec{1, 2, 3};
  const view<int> a = vec;
  EXPECT_EQ(a.shape(), shape{3});
  EXPECT_EQ(a.data(), vec.data());
  const view<const int> b = std::as_const(vec);
  EXPECT_EQ(b(2), 3);
  std::array<float, 4> arr{1, 2, 3, 4};
  const view<float> c = arr;
  EXPECT_EQ(c.size(), 4);
  const view<float> d = std::span<float>(arr).subspan(1);
  EXPECT_EQ(d(0), 2.0f);
  // Deduced element types.
  view e(vec);
  static_assert(std::is_same_v<decltype(e), view<int>>);
  view f(std::as_const(vec));
  static_assert(std::is_same_v<decltype(f), view<const int>>);
  // A temporary vector would dangle; a const vector cannot give mutable elements.
  static_assert(!std::is_constructible_v<view<int>, std::vector<int>&&>);
  static_assert(!std::is_constructible_v<view<int>, const std::vector<int>&>);
  static_assert(!std::is_constructible_v<view<int>, std::vector<long>&>);
}

TEST(View, ConstConversion) {
  std::vector<int> vec{1, 2, 3};
  const view<int> a = vec;
  const view<const int> b = a;
  EXPECT_EQ(b.data(), a.data());
  EXPECT_EQ(b.shape(), a.shape());
  static_assert(std::is_convertible_v<view<int>, view<const int>>);
  static_assert(!std::is_convertible_v<view<const int>, view<int>>);
}

TEST_F(Block, ExplicitStrides) {
  // Every other j, every third k, through strides given by hand.
  const view<int> v(values.data(), shape{4, 3, 2}, strides{30, 12, 3});
  EXPECT_FALSE(v.is_contiguous());
  expect_elements(v, [](auto i, auto j, auto k) { return code(i, 2 * j, 3 * k); });
}

TEST_F(Block, NegativeStrides) {
  // Start at the last element and walk backwards in every dimension.
  const view<int> v(values.data() + 119, shape{4, 5, 6}, strides{-30, -6, -1});
  EXPECT_FALSE(v.is_contiguous());
  expect_elements(v, [](auto i, auto j, auto k) { return code(3 - i, 4 - j, 5 - k); });
}

TEST_F(Block, ZeroStrideBroadcasts) {
  const view<int> v(values.data(), shape{4, 3, 6}, strides{30, 0, 1});
  expect_elements(v, [](auto i, auto, auto k) { return code(i, 0, k); });
}

TEST(View, StridesErrors) {
  int x = 0;
  std::string message = error_message([&] { view<int>(&x, shape{2, 3}, strides{1}); });
  EXPECT_TRUE(contains(message, "argument 'strides'")) << message;
  EXPECT_TRUE(contains(message, "expected 2 strides")) << message;
  EXPECT_TRUE(contains(message, "got 1 strides (1)")) << message;
  const std::int64_t huge = std::numeric_limits<std::int64_t>::max() / 2;
  EXPECT_NO_THROW(view<int>(&x, shape{3}, strides{huge}));  // offset 2 * huge still fits
  message = error_message([&] { view<int>(&x, shape{4}, strides{huge}); });
  EXPECT_TRUE(contains(message, "argument 'strides'")) << message;
  EXPECT_TRUE(contains(message, std::to_string(huge))) << message;
  // Offsets of two dimensions that fit alone but not together.
  EXPECT_NO_THROW(view<int>(&x, (shape{2, 2}), (strides{huge, huge + 1})));
  EXPECT_THROW(view<int>(&x, (shape{2, 2}), (strides{huge, huge + 2})), ak::argument_error);
  EXPECT_THROW(view<int>(&x, (shape{2, 2}), (strides{-huge, -huge - 2})), ak::argument_error);
  // Empty views are held to it too: their strides are still multiplied when sliced.
  EXPECT_THROW(view<int>(&x, (shape{0, 4}), (strides{1, huge})), ak::argument_error);
  EXPECT_NO_THROW(
      view<int>(&x, (shape{1, 1}), (strides{std::numeric_limits<std::int64_t>::min(), 5})));
}

TEST_F(Block, SlicePositiveStep) {
  const view<int> v = block().slice(1, 1, 5, 2);
  EXPECT_EQ(v.shape(), (shape{4, 2, 6}));
  EXPECT_EQ(v.strides(), (strides{30, 12, 1}));
  expect_elements(v, [](auto i, auto j, auto k) { return code(i, 1 + 2 * j, k); });
  // A step past the end leaves one element; uneven lengths round up.
  EXPECT_EQ(block().slice(2, 1, 6, 10).shape(), (shape{4, 5, 1}));
  EXPECT_EQ(block().slice(2, 0, 5, 2).shape(), (shape{4, 5, 3}));
}

TEST_F(Block, SliceNegativeStep) {
  // Like Python's a[:, 1:5][:, ::-2]: j = 4, 2.
  const view<int> v = block().slice(1, 1, 5, -2);
  EXPECT_EQ(v.shape(), (shape{4, 2, 6}));
  expect_elements(v, [](auto i, auto j, auto k) { return code(i, 4 - 2 * j, k); });
  const view<int> reversed = block().slice(2, 0, 6, -1);
  EXPECT_FALSE(reversed.is_contiguous());
  expect_elements(reversed, [](auto i, auto j, auto k) { return code(i, j, 5 - k); });
  // Slicing a reversed view composes.
  const view<int> twice = reversed.slice(2, 1, 4, -1).slice(0, 0, 4, -3);
  EXPECT_EQ(twice.shape(), (shape{2, 5, 3}));
  expect_elements(twice, [](auto i, auto j, auto k) { return code(3 - 3 * i, j, 2 + k); });
}

TEST_F(Block, EmptySlices) {
  const view<int> v = block().slice(0, 2, 2);
  EXPECT_EQ(v.shape(), (shape{0, 5, 6}));
  EXPECT_TRUE(v.empty());
  EXPECT_TRUE(v.is_contiguous());
  EXPECT_EQ(block().slice(2, 6, 6, -1).shape(), (shape{4, 5, 0}));
  // Slices of an empty view stay empty and in bounds.
  EXPECT_EQ(v.slice(1, 1, 5, -3).shape(), (shape{0, 2, 6}));
}

TEST_F(Block, ContiguityOfSlices) {
  EXPECT_TRUE(block().slice(0, 1, 3).is_contiguous());
  EXPECT_FALSE(block().slice(1, 1, 3).is_contiguous());
  EXPECT_FALSE(block().slice(2, 0, 5).is_contiguous());
  EXPECT_FALSE(block().slice(0, 0, 4, 2).is_contiguous());
  // Dimensions of extent 1 do not matter, whatever their stride.
  EXPECT_TRUE(block().slice(0, 2, 3).is_contiguous());
  EXPECT_TRUE(block().slice(0, 2, 3).slice(1, 3, 4).is_contiguous());
  EXPECT_TRUE(block().slice(0, 0, 1, -1).is_contiguous());
  EXPECT_TRUE((view<int>(values.data(), shape{4, 1, 6}, strides{6, 1000, 1}).is_contiguous()));
}

TEST_F(Block, SliceErrors) {
  std::string message = error_message([&] { block().slice(3, 0, 1); });
  EXPECT_EQ(message, "ak::view::slice: argument 'dim': expected 0 <= dim < 3 (the rank), got 3");
  message = error_message([&] { block().slice(-1, 0, 1); });
  EXPECT_TRUE(contains(message, "argument 'dim'") && contains(message, "got -1")) << message;
  message = error_message([&] { block().slice(1, -1, 2); });
  EXPECT_EQ(message, "ak::view::slice: argument 'begin': expected 0 <= begin <= 5, got -1");
  message = error_message([&] { block().slice(1, 3, 2); });
  EXPECT_EQ(message, "ak::view::slice: argument 'end': expected 3 <= end <= 5, got 2");
  message = error_message([&] { block().slice(1, 0, 6); });
  EXPECT_TRUE(contains(message, "argument 'end'") && contains(message, "got 6")) << message;
  message = error_message([&] { block().slice(1, 0, 5, 0); });
  EXPECT_EQ(message, "ak::view::slice: argument 'step': expected a nonzero step, got 0");
  // The most negative step is one element, not an overflow.
  EXPECT_EQ(block().slice(1, 0, 5, std::numeric_limits<std::int64_t>::min()).shape(),
            (shape{4, 1, 6}));
  double x = 0;
  message = error_message([&] { view<double>(&x, shape{}).slice(0, 0, 1); });
  EXPECT_TRUE(contains(message, "argument 'dim'") && contains(message, "rank 0")) << message;
}

TEST_F(Block, Index) {
  const view<int> plane = block().index(1, 3);
  EXPECT_EQ(plane.shape(), (shape{4, 6}));
  EXPECT_EQ(plane.strides(), (strides{30, 1}));
  for (std::int64_t i = 0; i < 4; ++i)
    for (std::int64_t k = 0; k < 6; ++k) EXPECT_EQ(plane(i, k), code(i, 3, k));
  const view<int> line = plane.index(0, 2);
  EXPECT_EQ(line.shape(), shape{6});
  EXPECT_EQ(line(5), code(2, 3, 5));
  const view<int> point = line.index(0, 4);
  EXPECT_EQ(point.rank(), 0u);
  EXPECT_EQ(point(), code(2, 3, 4));
  // Through a reversed view.
  EXPECT_EQ(block().slice(0, 0, 4, -1).index(0, 0)(1, 1), code(3, 1, 1));

  std::string message = error_message([&] { block().index(0, 4); });
  EXPECT_EQ(message, "ak::view::index: argument 'i': expected 0 <= i < 4, got 4");
  message = error_message([&] { block().index(5, 0); });
  EXPECT_TRUE(contains(message, "argument 'dim'") && contains(message, "got 5")) << message;
}

TEST_F(Block, Reshape) {
  const view<int> flat = block().reshape(shape{120});
  EXPECT_EQ(flat(37), 37 / 30 * 100 + 37 % 30 / 6 * 10 + 37 % 6);
  const view<int> r = block().slice(0, 1, 3).reshape(shape{10, 6});
  EXPECT_EQ(r(9, 5), code(2, 4, 5));
  EXPECT_EQ(block().reshape(shape{2, 60}).reshape(shape{4, 5, 6}).strides(), (strides{30, 6, 1}));

  std::string message = error_message([&] { block().reshape(shape{5, 5}); });
  EXPECT_EQ(message,
            "ak::view::reshape: argument 'shape': expected a shape of 120 elements, as (4, 5, 6), "
            "got (5, 5) with 25 elements");
  message = error_message([&] { block().transpose().reshape(shape{120}); });
  EXPECT_TRUE(contains(message, "argument 'view'")) << message;
  EXPECT_TRUE(contains(message, "contiguous")) << message;
  EXPECT_TRUE(contains(message, "got strides (1, 6, 30) for shape (6, 5, 4)")) << message;
}

TEST_F(Block, PermuteAndTranspose) {
  const view<int> p = block().permute({2, 0, 1});
  EXPECT_EQ(p.shape(), (shape{6, 4, 5}));
  EXPECT_EQ(p.strides(), (strides{1, 30, 6}));
  EXPECT_FALSE(p.is_contiguous());
  expect_elements(p, [](auto i, auto j, auto k) { return code(j, k, i); });
  const view<int> t = block().transpose();
  EXPECT_EQ(t.shape(), (shape{6, 5, 4}));
  expect_elements(t, [](auto i, auto j, auto k) { return code(k, j, i); });
  const view<int> s = block().transpose(0, 2);
  expect_elements(s, [](auto i, auto j, auto k) { return code(k, j, i); });
  EXPECT_TRUE(block().permute({0, 1, 2}).is_contiguous());
  EXPECT_TRUE(block().transpose().transpose().is_contiguous());
  // Moving a dimension of extent 1 keeps a contiguous view contiguous.
  EXPECT_TRUE(block().slice(0, 1, 2).transpose(0, 1).is_contiguous());
  EXPECT_FALSE(block().slice(1, 0, 1).is_contiguous());
}

TEST_F(Block, PermuteErrors) {
  std::string message = error_message([&] { block().permute({0, 1}); });
  EXPECT_EQ(message,
            "ak::view::permute: argument 'dims': expected a permutation of 0..2 (3 distinct "
            "dims), got (0, 1)");
  message = error_message([&] { block().permute({0, 0, 1}); });
  EXPECT_TRUE(contains(message, "argument 'dims'") && contains(message, "got (0, 0, 1)"))
      << message;
  message = error_message([&] { block().permute({0, 3, 1}); });
  EXPECT_TRUE(contains(message, "got (0, 3, 1)")) << message;
  message = error_message([&] { block().permute({-1, 0, 1}); });
  EXPECT_TRUE(contains(message, "got (-1, 0, 1)")) << message;
  message = error_message([&] { block().transpose(0, 3); });
  EXPECT_EQ(message,
            "ak::view::transpose: argument 'dim_b': expected 0 <= dim_b < 3 (the rank), got 3");
}

TEST_F(Block, AtErrors) {
  std::string message = error_message([&] { block().at(1, 2); });
  EXPECT_EQ(message,
            "ak::view::at: argument 'indices': expected 3 indices (one per dimension), got 2");
  message = error_message([&] { block().at(1, 5, 0); });
  EXPECT_EQ(message, "ak::view::at: argument 'indices[1]': expected 0 <= indices[1] < 5, got 5");
  message = error_message([&] { block().at(1, 0, -1); });
  EXPECT_TRUE(contains(message, "indices[2]") && contains(message, "got -1")) << message;

  const ak_test::counting_memory device(false, "fake:3");
  const view<int> on_device(values.data(), shape{120}, device);
  EXPECT_EQ(on_device.device_name(), "fake:3");
  message = error_message([&] { on_device.at(0); });
  EXPECT_EQ(message,
            "ak::view::at: argument 'view': expected memory that the host can access, got memory "
            "of device fake:3");
  // Views of device memory still slice: it is only pointer arithmetic.
  EXPECT_EQ(&on_device.slice(0, 10, 20).memory(), &device);
}

}  // namespace
