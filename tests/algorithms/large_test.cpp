// Lengths past 2^31 (DESIGN.md section 6: sizes and indices are 64-bit; every algorithm works
// at lengths past 2^31): reduce, count, accumulate, select, histogram, sort, the keyed and
// segmented reductions, scans and sorts, partialsort and merge on an int8 array of 2^31 + 17
// elements on cpu (about 6.4 GB at the peak: the array and two more of its size, in the sort
// along dim 0, which packs the columns and has its scratch), and the GPU algorithms that take one
// pass on sim:0 (LargeOnSim). CTest label `large`.
#include "test_support.hpp"

namespace akt {
namespace {

// n random bytes into p, filled in parallel on the cpu: each block of 2^20 from its own xorshift
// stream. The last one is 77, so that the elements past 2^31 must count.
void fill_random(std::int8_t* p, i64 n, std::uint64_t salt) {
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
  p[n - 1] = 77;
}

// The reference, sequentially: the histogram, the exact total, the lowest and highest value.
struct int8_facts {
  std::array<i64, 256> hist{};
  i64 total = 0;
  int lowest = 127, highest = -128;
  explicit int8_facts(const std::int8_t* p, i64 n) {
    for (i64 i = 0; i < n; ++i) {
      ++hist[static_cast<std::uint8_t>(p[i])];
      total += p[i];
    }
    for (int v = -128; v < 128; ++v)
      if (count(v) > 0) {
        lowest = std::min(lowest, v);
        highest = std::max(highest, v);
      }
  }
  i64 count(int v) const { return hist[static_cast<std::uint8_t>(v)]; }
  // Where v starts in the sorted array.
  i64 first_of(int v) const {
    i64 at = 0;
    for (int u = -128; u < v; ++u) at += count(u);
    return at;
  }
};

TEST(Large, Int8PastTwoToThe31) {
  AKT_RANDOM(r);
  const i64 n = (i64{1} << 31) + 17;
  ak::array<std::int8_t> a(ak::shape{n});
  std::int8_t* p = a.data();
  fill_random(p, n, r.bits());
  const int8_facts ref(p, n);
  const auto& hist = ref.hist;
  const i64 total = ref.total;
  const int lowest = ref.lowest, highest = ref.highest;
  // (hist[77] below is the count of 77: 77 is its own index as a uint8.)

  // Reductions: int8 sums wrap; an int64 init gives the exact total.
  EXPECT_EQ(ak::sum(a),
            static_cast<std::int8_t>(static_cast<std::uint8_t>(static_cast<std::uint64_t>(total))));
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

  // Selection and counting: the 77s (the last element among them) found, copied and counted;
  // the histogram of 256 even bins over [-128, 127] is the value histogram; findmin; a stable
  // partition in place (a second array of the same size inside the call).
  {
    const ak::array<i64> at = ak::findall(a, [](std::int8_t x) { return x == 77; });
    ASSERT_EQ(at.size(), hist[77]);
    i64 bad = -1;
    for (i64 k = 0; k < at.size() && bad < 0; ++k)
      if (p[at.data()[k]] != 77 || (k > 0 && at.data()[k] <= at.data()[k - 1])) bad = k;
    EXPECT_EQ(bad, -1) << "findall's index " << bad << " is wrong";
    EXPECT_EQ(at.data()[at.size() - 1], n - 1);
    EXPECT_EQ(ak::copy_if(a, [](std::int8_t x) { return x == 77; }).size(), hist[77]);
    const ak::array<i64> h = ak::histogram(a, ak::even_bins<std::int8_t>{-128, 127, 256});
    for (int v = -128; v < 128; ++v)
      ASSERT_EQ(h.data()[v + 128], ref.count(v)) << "histogram bin of " << v;
    EXPECT_EQ(ak::findmin(a).value, lowest);
    i64 negative = 0;
    for (int v = -128; v < 0; ++v) negative += ref.count(v);
    EXPECT_EQ(ak::partition_inplace(a, [](std::int8_t x) { return x < 0; }), negative);
    i64 misplaced = -1;
    for (i64 i = 0; i < n && misplaced < 0; ++i)
      if ((p[i] < 0) != (i < negative)) misplaced = i;
    EXPECT_EQ(misplaced, -1) << "partition_inplace: element " << misplaced << " on the wrong side";
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
    EXPECT_EQ(first.data()[j], ref.first_of(queries[j])) << "query " << int{queries[j]};
  }
  // Runs of the sorted array: one per value that occurs, as long as its count.
  auto [values, lengths] = ak::run_length_encode(a);
  i64 distinct = 0;
  for (int v = -128; v < 128; ++v) distinct += ref.count(v) > 0 ? 1 : 0;
  ASSERT_EQ(values.size(), distinct);
  for (i64 k = 0; k < values.size(); ++k)
    EXPECT_EQ(lengths.data()[k], ref.count(values.data()[k])) << "run of " << int{values.data()[k]};

  // Keyed and segmented: over the runs of the sorted array, each value's sum (value x count, in
  // int64) by reduce_by_key and by reduce over offsets (one segment per value, empty ones
  // included); the running sums in int8 (wrapping) by accumulate_by_key, checked at each run's
  // end.
  {
    auto [keys, sums] = ak::reduce_by_key(a, a, ak::plus{}, ak::segment_options<i64>{});
    ASSERT_EQ(keys.size(), distinct);
    for (i64 k = 0; k < keys.size(); ++k)
      EXPECT_EQ(sums.data()[k], keys.data()[k] * ref.count(keys.data()[k]))
          << "reduce_by_key of " << int{keys.data()[k]};
    std::vector<i64> offsets{0};
    for (int v = -128; v < 128; ++v) offsets.push_back(offsets.back() + ref.count(v));
    const ak::array<i64> seg =
        ak::reduce(a, ak::plus{}, ak::offsets{offsets}, ak::segment_options<i64>{.init = 0});
    for (int v = -128; v < 128; ++v)
      ASSERT_EQ(seg.data()[v + 128], v * ref.count(v)) << "segment of " << v;
    const ak::array<std::int8_t> running = ak::accumulate_by_key(a, a, ak::plus{});
    for (int v = -128; v < 128; ++v) {
      if (ref.count(v) == 0) continue;
      ASSERT_EQ(running.data()[ref.first_of(v) + ref.count(v) - 1],
                static_cast<std::int8_t>(v * ref.count(v)))
          << "accumulate_by_key at the end of the run of " << v;
    }
  }
  // The 100 smallest; and the two halves of the sorted array merged back into it (2^31 + 17
  // outputs, the split past 2^30 into each half).
  EXPECT_EQ(ak::partialsort(a, 100).to_vector(), std::vector<std::int8_t>(p, p + 100));
  {
    const ak::array<std::int8_t> m =
        ak::merge(a.view().slice(0, 0, n / 2), a.view().slice(0, n / 2, n));
    ASSERT_EQ(m.size(), n);
    EXPECT_EQ(std::memcmp(m.data(), p, static_cast<std::size_t>(n)), 0)
        << "merge of the sorted halves differs from the sorted array";
  }
  // Segmented sorts: the sorted array's two segments (and an empty one between them) sorted
  // descending over offsets, each of about 2^30 elements or more; then its first 2 * m elements
  // as a 2 x m matrix sorted along dim 0 (m = 2^30 + 8 columns of 2: segment starts past 2^31)
  // and along dim 1 (two rows of m).
  {
    const i64 third = n / 3;
    ak::sort_inplace(a, ak::offsets{std::vector<i64>{0, third, third, n}}, {.rev = true});
    i64 bad = -1;
    for (i64 i = 1; i < n && bad < 0; ++i)
      if (i != third && p[i] > p[i - 1]) bad = i;
    EXPECT_EQ(bad, -1) << "a segment sorted over offsets is not descending at " << bad;
    EXPECT_EQ(p[third - 1], lowest);
    EXPECT_EQ(p[third], highest);
    EXPECT_LE(p[0], p[n - 1]) << "an element left its segment";
    const i64 m = (n - 1) / 2;
    const ak::view<std::int8_t> matrix = a.view().slice(0, 0, 2 * m).reshape(ak::shape{2, m});
    ak::sort_inplace(matrix, {.dim = 0});
    bad = -1;
    for (i64 j = 0; j < m && bad < 0; ++j)
      if (p[j] > p[m + j]) bad = j;
    EXPECT_EQ(bad, -1) << "column " << bad << " is not sorted";
    ak::sort_inplace(matrix, {.dim = 1});
    bad = -1;
    for (i64 i = 1; i < 2 * m && bad < 0; ++i)
      if (i != m && p[i] < p[i - 1]) bad = i;
    EXPECT_EQ(bad, -1) << "a row is not sorted at " << bad;
    std::array<i64, 256> now{};
    for (i64 i = 0; i < n; ++i) ++now[static_cast<std::uint8_t>(p[i])];
    EXPECT_EQ(now, hist) << "the segmented sorts changed the multiset of values";
  }
}

// The same length on sim:0, through the public functions, whose GPU kernels index with 64-bit
// ids: reductions, count, any, map and searchsorted. Scans and sorts past 2^31 are not run on
// sim: each work-item is a fiber there, and they would take tens of minutes on 2 cores. About
// 6.4 GB at the peak (a host buffer and two arrays on the device).
TEST(LargeOnSim, Int8PastTwoToThe31) {
  AKT_RANDOM(r);
  const ak::device sim("sim:0");
  const i64 n = (i64{1} << 31) + 17;
  std::vector<std::int8_t> host(static_cast<std::size_t>(n));
  fill_random(host.data(), n, r.bits());
  const int8_facts ref(host.data(), n);
  ak::array<std::int8_t> a(ak::shape{n}, sim.memory());
  a.copy_from(host);

  EXPECT_EQ(ak::reduce(a, ak::plus{}, ak::reduce_options<std::int64_t>{.init = 0}), ref.total);
  EXPECT_EQ(ak::minimum(a), ref.lowest);
  EXPECT_EQ(ak::maximum(a), ref.highest);
  EXPECT_EQ(ak::count(a, [](std::int8_t x) { return x == 77; }), ref.count(77));
  EXPECT_TRUE(ak::any(a, [](std::int8_t x) { return x == 77; }));

  // map: 64 elements per work-item, so that the 2^31 elements take 2^17 groups, not 2^21.
  {
    ak::scoped_tuning fewer_groups(ak::map_hook{}, {.items_per_thread = 64});
    const auto m =
        ak::map([](std::int8_t x) { return static_cast<std::int8_t>(x == 77 ? 1 : 0); }, a);
    ASSERT_EQ(m.size(), n);
    EXPECT_EQ(ak::reduce(m, ak::plus{}, ak::reduce_options<std::int64_t>{.init = 0}),
              ref.count(77));
    // The last elements, past 2^31, one by one.
    const i64 tail = 4096;
    std::vector<std::int8_t> got(static_cast<std::size_t>(tail));
    sim.memory().copy_to_host(got.data(), m.data() + (n - tail), static_cast<std::size_t>(tail));
    i64 bad = -1;
    for (i64 i = 0; i < tail && bad < 0; ++i)
      if (got[i] != (host[n - tail + i] == 77 ? 1 : 0)) bad = n - tail + i;
    EXPECT_EQ(bad, -1) << "map differs first at " << bad;
  }

  // searchsorted in the sorted array (made on the host from the histogram): where each value
  // starts, and past the end for a value above every element.
  i64 at = 0;
  for (int v = -128; v < 128; ++v) {
    std::fill(host.begin() + at, host.begin() + at + ref.count(v), static_cast<std::int8_t>(v));
    at += ref.count(v);
  }
  a.copy_from(host);
  const std::vector<std::int8_t> queries{-128, -1, 0, 1, 77, 127};
  const ak::array<std::int8_t> q(queries, sim.memory());
  const std::vector<i64> first = ak::searchsortedfirst(a, q).to_vector();
  const std::vector<i64> last = ak::searchsortedlast(a, q).to_vector();
  for (std::size_t j = 0; j < queries.size(); ++j) {
    EXPECT_EQ(first[j], ref.first_of(queries[j])) << "query " << int{queries[j]};
    EXPECT_EQ(last[j], ref.first_of(queries[j]) + ref.count(queries[j]) - 1)
        << "query " << int{queries[j]};
  }
}

}  // namespace
}  // namespace akt
