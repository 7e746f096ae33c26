// Lengths past 2^31 (DESIGN.md section 6: sizes and indices are 64-bit; every algorithm works
// at lengths past 2^31): reduce, count, accumulate and sort an int8 array of 2^31 + 17
// elements. About 4.3 GB at the peak (the array plus one more of its size); CTest label `large`.
#include "test_support.hpp"

namespace akt {
namespace {

TEST(Large, Int8PastTwoToThe31) {
  AKT_RANDOM(r);
  const i64 n = (i64{1} << 31) + 17;
  ak::array<std::int8_t> a(ak::shape{n});
  std::int8_t* p = a.data();
  // Random bytes, filled in parallel: each block of 2^20 from its own xorshift stream.
  const std::uint64_t salt = r.bits();
  const i64 block = i64{1} << 20, blocks = (n + block - 1) / block;
  ak::foreachindex(blocks, [&](i64 b) {
    std::uint64_t s = mix(salt ^ static_cast<std::uint64_t>(b)) | 1u;
    const i64 end = std::min(n, (b + 1) * block);
    for (i64 i = b * block; i < end; i += 8) {
      s ^= s << 13;
      s ^= s >> 7;
      s ^= s << 17;
      for (i64 k = 0; k < 8 && i + k < end; ++k) p[i + k] = static_cast<std::int8_t>(s >> (8 * k));
    }
  });
  // The elements past 2^31 must count: the last one is never 0 here.
  p[n - 1] = 77;

  // The reference, sequentially: the exact total and the histogram.
  std::array<i64, 256> hist{};
  i64 total = 0;
  for (i64 i = 0; i < n; ++i) {
    ++hist[static_cast<std::uint8_t>(p[i])];
    total += p[i];
  }
  int lowest = 127, highest = -128;
  for (int v = -128; v < 128; ++v)
    if (hist[static_cast<std::uint8_t>(v)] > 0) {
      lowest = std::min(lowest, v);
      highest = std::max(highest, v);
    }

  // Reductions: int8 sums wrap; an int64 init gives the exact total.
  EXPECT_EQ(ak::sum(a), static_cast<std::int8_t>(static_cast<std::uint8_t>(static_cast<std::uint64_t>(total))));
  EXPECT_EQ(ak::reduce(a, ak::plus{}, ak::reduce_options<std::int64_t>{.init = 0}), total);
  EXPECT_EQ(ak::minimum(a), lowest);
  EXPECT_EQ(ak::maximum(a), highest);
  EXPECT_EQ(ak::count(a, [](std::int8_t x) { return x == 77; }), hist[77]);
  EXPECT_EQ(ak::count(a), n - hist[0]);
  EXPECT_TRUE(ak::any(a, [](std::int8_t x) { return x == 77; }));

  // cumsum: a second array of 2^31 + 17 elements, checked against the running sum.
  {
    const ak::array<std::int8_t> c = ak::cumsum(a);
    ASSERT_EQ(c.size(), n);
    std::int8_t running = 0;
    i64 bad = -1;
    for (i64 i = 0; i < n; ++i) {
      running = static_cast<std::int8_t>(running + p[i]);
      if (c.data()[i] != running) {
        bad = i;
        break;
      }
    }
    EXPECT_EQ(bad, -1) << "cumsum differs first at " << bad;
  }

  // sort_inplace (the default: radix sort): non-decreasing, the same histogram.
  ak::sort_inplace(a);
  std::array<i64, 256> after{};
  i64 unsorted = -1;
  for (i64 i = 0; i < n; ++i) {
    ++after[static_cast<std::uint8_t>(p[i])];
    if (i > 0 && p[i] < p[i - 1] && unsorted < 0) unsorted = i;
  }
  EXPECT_EQ(unsorted, -1) << "out of order at " << unsorted;
  EXPECT_EQ(after, hist) << "sorting changed the multiset of values";
  // And searching the sorted array: where each value starts.
  const std::vector<std::int8_t> queries{-128, -1, 0, 1, 77, 127};
  const ak::array<i64> first = ak::searchsortedfirst(a, queries);
  for (std::size_t j = 0; j < queries.size(); ++j) {
    i64 want = 0;
    for (int v = -128; v < queries[j]; ++v) want += hist[static_cast<std::uint8_t>(v)];
    EXPECT_EQ(first.data()[j], want) << "query " << int{queries[j]};
  }
}

}  // namespace
}  // namespace akt
