#include "ak/core/shape.hpp"

#include <gtest/gtest.h>

#include <concepts>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "ak/core/error.hpp"
#include "error_message.hpp"

namespace {

using ak::test::contains;
using ak::test::error_message;

using ak::shape;
using ak::strides;

TEST(Shape, RankZeroHasOneElement) {
  const shape s;
  EXPECT_EQ(s.rank(), 0u);
  EXPECT_EQ(s.size(), 1);
  EXPECT_EQ(s.to_string(), "()");
  EXPECT_EQ(s, shape{});
}

TEST(Shape, RanksOneToEight) {
  for (std::size_t rank = 1; rank <= ak::max_rank; ++rank) {
    std::vector<std::int64_t> extents;
    std::int64_t expected_size = 1;
    for (std::size_t d = 0; d < rank; ++d) {
      extents.push_back(static_cast<std::int64_t>(d) + 2);
      expected_size *= static_cast<std::int64_t>(d) + 2;
    }
    const shape s(extents);
    EXPECT_EQ(s.rank(), rank);
    EXPECT_EQ(s.size(), expected_size);
    for (std::size_t d = 0; d < rank; ++d) EXPECT_EQ(s[d], extents[d]);
    EXPECT_EQ(std::vector<std::int64_t>(s.begin(), s.end()), extents);
  }
}

TEST(Shape, InitializerListAndToString) {
  const shape s{3, 4, 5};
  EXPECT_EQ(s.rank(), 3u);
  EXPECT_EQ(s.size(), 60);
  EXPECT_EQ(s.to_string(), "(3, 4, 5)");
  EXPECT_EQ(shape{7}.to_string(), "(7)");
  std::ostringstream out;
  out << s << ' ' << strides{-1, 0};
  EXPECT_EQ(out.str(), "(3, 4, 5) (-1, 0)");
}

TEST(Shape, ZeroExtentMeansNoElements) {
  EXPECT_EQ((shape{3, 0, 5}.size()), 0);
  EXPECT_EQ(shape{0}.size(), 0);
}

TEST(Shape, Equality) {
  EXPECT_EQ((shape{2, 3}), (shape{2, 3}));
  EXPECT_NE((shape{2, 3}), (shape{3, 2}));
  EXPECT_NE((shape{2, 3}), (shape{2, 3, 1}));
  EXPECT_NE(shape{}, shape{1});
  // Shapes and strides are different things, even with the same numbers.
  static_assert(!std::equality_comparable_with<shape, strides>);
}

TEST(Shape, RankNineIsAnError) {
  const std::string message = error_message([] { shape{1, 2, 3, 4, 5, 6, 7, 8, 9}; });
  EXPECT_NE(message.find("ak::shape"), std::string::npos) << message;
  EXPECT_NE(message.find("argument 'extents'"), std::string::npos) << message;
  EXPECT_NE(message.find("rank <= 8"), std::string::npos) << message;
  EXPECT_NE(message.find("got rank 9"), std::string::npos) << message;
}

TEST(Shape, NegativeExtentIsAnError) {
  const std::string message = error_message([] { shape{3, -2, 4}; });
  EXPECT_EQ(message, "ak::shape: argument 'extents[1]': expected an extent >= 0, got -2");
}

TEST(Shape, OverflowIsAnError) {
  const std::int64_t big = std::int64_t{1} << 32;
  const std::string message = error_message([&] { shape{big, big}; });
  EXPECT_NE(message.find("argument 'extents'"), std::string::npos) << message;
  EXPECT_NE(message.find("fits in int64"), std::string::npos) << message;
  EXPECT_NE(message.find("got (4294967296, 4294967296)"), std::string::npos) << message;
  // Zeros count as ones, so that strides and offsets of empty arrays cannot overflow either.
  EXPECT_THROW((shape{0, big, big}), ak::argument_error);
  // The largest sizes still fit.
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ((shape{max}.size()), max);
  EXPECT_EQ((shape{std::int64_t{1} << 62, 1, 0}.size()), 0);
  EXPECT_THROW((shape{std::int64_t{1} << 62, 2}), ak::argument_error);
}

TEST(Shape, FromSpan) {
  const std::vector<std::int64_t> extents{2, 5};
  EXPECT_EQ(shape(extents), (shape{2, 5}));
  const std::vector<std::int64_t> too_many(9, 1);
  EXPECT_THROW(shape{too_many}, ak::argument_error);
}

TEST(Strides, AnyValuesUpToMaxRank) {
  const strides st{-3, 0, 7};
  EXPECT_EQ(st.rank(), 3u);
  EXPECT_EQ(st[0], -3);
  EXPECT_EQ(st[1], 0);
  EXPECT_EQ(st[2], 7);
  EXPECT_EQ(st.to_string(), "(-3, 0, 7)");
  const std::string message = error_message([] { strides{1, 1, 1, 1, 1, 1, 1, 1, 1}; });
  EXPECT_NE(message.find("ak::strides: argument 'strides'"), std::string::npos) << message;
  EXPECT_NE(message.find("got rank 9"), std::string::npos) << message;
}

TEST(Strides, RowMajor) {
  EXPECT_EQ(ak::row_major_strides(shape{2, 3, 4}), (strides{12, 4, 1}));
  EXPECT_EQ(ak::row_major_strides(shape{5}), strides{1});
  EXPECT_EQ(ak::row_major_strides(shape{}), strides{});
  // Zero extents count as one: strides stay meaningful and cannot overflow.
  EXPECT_EQ(ak::row_major_strides(shape{2, 0, 3}), (strides{3, 3, 1}));
  const std::int64_t big = std::int64_t{1} << 31;
  EXPECT_EQ(ak::row_major_strides(shape{0, big, big}), (strides{big * big, big, 1}));
}

}  // namespace
