// The GPU sort, search and elementwise algorithms (include/ak/gpu) on sim, against std, on every
// profile under several shuffle seeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "ak/gpu/gpu.hpp"
#include "sim_test_support.hpp"

namespace {

using ak::gpu::device_buffer;
using GpuSortSearch = ak_sim_test::sim_test;

const std::int64_t sizes[] = {0, 1, 2, 33, 1000, 4097, 20000};

std::vector<std::int32_t> keys_with_duplicates(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::int32_t> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<std::int32_t>(rng() % 97) - 48;
  return v;
}

// ak's order of floats: -Inf < ... < -0.0 < +0.0 < ... < +Inf < NaN.
bool ak_less(double a, double b) {
  if (std::isnan(a)) return false;
  if (std::isnan(b)) return true;
  if (a == 0 && b == 0) return std::signbit(a) && !std::signbit(b);
  return a < b;
}

std::vector<double> awkward_doubles(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const double specials[] = {std::numeric_limits<double>::quiet_NaN(),
                             -0.0,
                             0.0,
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             1e-300,
                             -1e300};
  std::vector<double> v(static_cast<std::size_t>(n));
  for (auto& x : v)
    x = rng() % 5 == 0 ? specials[rng() % 7] : static_cast<double>(rng() % 2000) / 7.0 - 100.0;
  return v;
}

// Bitwise equality, so that NaN == NaN and -0.0 != +0.0.
bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

TEST_P(GpuSortSearch, ReverseAndReverseCopy) {
  for (std::int64_t n : sizes) {
    std::vector<std::int64_t> v(n);
    std::iota(v.begin(), v.end(), 5);
    device_buffer<std::int64_t> d(dev(), std::span<const std::int64_t>(v)), out(dev(), n);
    ak::gpu::reverse_copy(dev(), d.data(), out.data(), n);
    ak::gpu::reverse(dev(), d.data(), n);
    std::reverse(v.begin(), v.end());
    ASSERT_EQ(d.to_host(), v) << "n " << n;
    ASSERT_EQ(out.to_host(), v) << "n " << n;
  }
}

TEST_P(GpuSortSearch, GatherCountAnyAll) {
  const std::int64_t n = 3001;
  std::vector<std::int32_t> src = keys_with_duplicates(n, 3);
  std::vector<std::int64_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  std::shuffle(idx.begin(), idx.end(), std::mt19937_64(4));
  device_buffer<std::int32_t> dsrc(dev(), std::span<const std::int32_t>(src)), out(dev(), n);
  device_buffer<std::int64_t> didx(dev(), std::span<const std::int64_t>(idx));
  ak::gpu::gather(dev(), dsrc.data(), didx.data(), out.data(), n);
  auto h = out.to_host();
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(h[i], src[idx[i]]);
  auto negative = [](std::int32_t x) { return x < 0; };
  EXPECT_EQ(ak::gpu::count(dev(), dsrc.data(), n, negative),
            std::count_if(src.begin(), src.end(), negative));
  EXPECT_TRUE(ak::gpu::any(dev(), dsrc.data(), n, [](std::int32_t x) { return x == 48; }));
  EXPECT_FALSE(ak::gpu::any(dev(), dsrc.data(), n, [](std::int32_t x) { return x > 48; }));
  EXPECT_TRUE(ak::gpu::all(dev(), dsrc.data(), n, [](std::int32_t x) { return x >= -48; }));
  EXPECT_FALSE(ak::gpu::all(dev(), dsrc.data(), n, negative));
  EXPECT_TRUE(ak::gpu::all(dev(), dsrc.data(), 0, negative));
}

TEST_P(GpuSortSearch, MergeSortIntegers) {
  for (std::int64_t n : sizes) {
    auto v = keys_with_duplicates(n, static_cast<std::uint64_t>(n) + GetParam().seed);
    device_buffer<std::int32_t> d(dev(), std::span<const std::int32_t>(v));
    ak::gpu::merge_sort(dev(), d.data(), n);
    std::sort(v.begin(), v.end());
    ASSERT_EQ(d.to_host(), v) << "n " << n;
  }
}

TEST_P(GpuSortSearch, MergeSortFloatsInAkOrder) {
  for (std::int64_t n : {std::int64_t{100}, std::int64_t{5000}}) {
    auto v = awkward_doubles(n, 11);
    device_buffer<double> d(dev(), std::span<const double>(v));
    // Small runs and blocks: many merge passes.
    ak::gpu::merge_sort(dev(), d.data(), n, ak::isless{},
                        {.block_size = 32, .merge_tile_size = 64});
    std::stable_sort(v.begin(), v.end(), ak_less);
    ASSERT_TRUE(same_bits(d.to_host(), v)) << "n " << n;
  }
}

TEST_P(GpuSortSearch, MergeSortByKeyIsStableWithACustomComparator) {
  const std::int64_t n = 7000;
  auto keys = keys_with_duplicates(n, 5);
  std::vector<std::int64_t> values(n);
  std::iota(values.begin(), values.end(), 0);
  device_buffer<std::int32_t> dk(dev(), std::span<const std::int32_t>(keys));
  device_buffer<std::int64_t> dv(dev(), std::span<const std::int64_t>(values));
  auto descending = [](std::int32_t a, std::int32_t b) { return a > b; };
  ak::gpu::merge_sort_by_key(dev(), dk.data(), dv.data(), n, descending);
  std::vector<std::int64_t> expect(values);
  std::stable_sort(expect.begin(), expect.end(),
                   [&](std::int64_t a, std::int64_t b) { return keys[a] > keys[b]; });
  ASSERT_EQ(dv.to_host(), expect);
  auto hk = dk.to_host();
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(hk[i], keys[expect[i]]);
}

TEST_P(GpuSortSearch, Sortperm) {
  for (std::int64_t n : sizes) {
    auto keys = awkward_doubles(n, 17);
    device_buffer<double> dk(dev(), std::span<const double>(keys));
    device_buffer<std::int64_t> perm(dev(), n);
    ak::gpu::sortperm(dev(), dk.data(), perm.data(), n);
    std::vector<std::int64_t> expect(n);
    std::iota(expect.begin(), expect.end(), 0);
    std::stable_sort(expect.begin(), expect.end(),
                     [&](std::int64_t a, std::int64_t b) { return ak_less(keys[a], keys[b]); });
    ASSERT_EQ(perm.to_host(), expect) << "n " << n;
    ASSERT_TRUE(same_bits(dk.to_host(), keys)) << "sortperm changed its keys";
  }
}

TEST_P(GpuSortSearch, SearchsortedFirstAndLast) {
  auto sorted = awkward_doubles(3000, 23);
  std::stable_sort(sorted.begin(), sorted.end(), ak_less);
  auto queries = awkward_doubles(1500, 29);
  const std::int64_t m = static_cast<std::int64_t>(sorted.size());
  const std::int64_t nq = static_cast<std::int64_t>(queries.size());
  device_buffer<double> ds(dev(), std::span<const double>(sorted)),
      dq(dev(), std::span<const double>(queries));
  device_buffer<std::int64_t> first(dev(), nq), last(dev(), nq);
  ak::gpu::searchsortedfirst(dev(), ds.data(), m, dq.data(), first.data(), nq);
  ak::gpu::searchsortedlast(dev(), ds.data(), m, dq.data(), last.data(), nq);
  auto hf = first.to_host(), hl = last.to_host();
  for (std::int64_t q = 0; q < nq; ++q) {
    const auto lo = std::lower_bound(sorted.begin(), sorted.end(), queries[q], ak_less);
    const auto hi = std::upper_bound(sorted.begin(), sorted.end(), queries[q], ak_less);
    ASSERT_EQ(hf[q], lo - sorted.begin()) << "query " << queries[q];
    ASSERT_EQ(hl[q], (hi - sorted.begin()) - 1) << "query " << queries[q];
  }
  // Past both ends.
  const double probes[] = {-std::numeric_limits<double>::infinity()};
  device_buffer<double> dp(dev(), std::span<const double>(probes));
  device_buffer<std::int64_t> r(dev(), 1);
  std::vector<double> empty_sorted;
  ak::gpu::searchsortedlast(dev(), ds.data(), 0, dp.data(), r.data(), 1);
  EXPECT_EQ(r.to_host()[0], -1);
  ak::gpu::searchsortedfirst(dev(), ds.data(), 0, dp.data(), r.data(), 1);
  EXPECT_EQ(r.to_host()[0], 0);
}

TEST_P(GpuSortSearch, RadixSortIntegersAtSeveralDigitWidths) {
  for (std::int64_t bits : {8, 4, 3}) {
    for (std::int64_t n :
         {std::int64_t{1}, std::int64_t{2}, std::int64_t{1000}, std::int64_t{9001}}) {
      auto v = keys_with_duplicates(n, static_cast<std::uint64_t>(n * bits));
      for (std::int64_t i = 0; i < n; i += 7)
        v[i] = i % 2 ? INT32_MIN : static_cast<std::int32_t>(INT32_MAX - i);
      device_buffer<std::int32_t> d(dev(), std::span<const std::int32_t>(v));
      ak::gpu::radix_sort(dev(), d.data(), n, {.radix_digit_bits = bits});
      std::sort(v.begin(), v.end());
      ASSERT_EQ(d.to_host(), v) << "n " << n << " digit bits " << bits;
    }
  }
}

// sort.radix_items_per_thread: tiles of 1 to 16 keys per work-item (16 is halved on profiles
// whose local memory cannot hold the tile), keys with values, against a stable sort of the pairs.
TEST_P(GpuSortSearch, RadixSortTileShapes) {
  for (std::int64_t ipt : {1, 2, 8, 16}) {
    for (std::int64_t n : {std::int64_t{2}, std::int64_t{1000}, std::int64_t{9001}}) {
      auto keys = keys_with_duplicates(n, static_cast<std::uint64_t>(n + ipt));
      std::vector<std::int64_t> values(static_cast<std::size_t>(n));
      std::iota(values.begin(), values.end(), 0);
      device_buffer<std::int32_t> dk(dev(), std::span<const std::int32_t>(keys));
      device_buffer<std::int64_t> dv(dev(), std::span<const std::int64_t>(values));
      ak::gpu::radix_sort_by_key(dev(), dk.data(), dv.data(), n,
                                 {.block_size = 64, .radix_items_per_thread = ipt});
      std::stable_sort(values.begin(), values.end(),
                       [&](std::int64_t a, std::int64_t b) { return keys[a] < keys[b]; });
      std::vector<std::int32_t> sorted_keys(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) sorted_keys[i] = keys[values[i]];
      ASSERT_EQ(dk.to_host(), sorted_keys) << "n " << n << " keys per item " << ipt;
      ASSERT_EQ(dv.to_host(), values) << "n " << n << " keys per item " << ipt;
    }
  }
}

TEST_P(GpuSortSearch, RadixSortSmallAndWideKeys) {
  std::mt19937_64 rng(31);
  std::vector<std::uint8_t> small(3000);
  for (auto& x : small) x = static_cast<std::uint8_t>(rng());
  device_buffer<std::uint8_t> ds(dev(), std::span<const std::uint8_t>(small));
  ak::gpu::radix_sort(dev(), ds.data(), static_cast<std::int64_t>(small.size()));
  std::sort(small.begin(), small.end());
  EXPECT_EQ(ds.to_host(), small);
  std::vector<std::uint64_t> wide(5000);
  for (auto& x : wide) x = rng();
  device_buffer<std::uint64_t> dw(dev(), std::span<const std::uint64_t>(wide));
  ak::gpu::radix_sort(dev(), dw.data(), static_cast<std::int64_t>(wide.size()));
  std::sort(wide.begin(), wide.end());
  EXPECT_EQ(dw.to_host(), wide);
}

TEST_P(GpuSortSearch, RadixSortFloatsInAkOrder) {
  auto v = awkward_doubles(6000, 37);
  device_buffer<double> d(dev(), std::span<const double>(v));
  ak::gpu::radix_sort(dev(), d.data(), static_cast<std::int64_t>(v.size()));
  std::stable_sort(v.begin(), v.end(), ak_less);
  auto h = d.to_host();
  // NaNs compare equal but may differ in payload: compare the order, and the bits of non-NaNs.
  ASSERT_EQ(h.size(), v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (std::isnan(v[i])) {
      ASSERT_TRUE(std::isnan(h[i])) << i;
    } else {
      ASSERT_EQ(std::memcmp(&h[i], &v[i], sizeof(double)), 0)
          << i << ": " << h[i] << " vs " << v[i];
    }
  }
}

TEST_P(GpuSortSearch, RadixSortByKeyIsStable) {
  const std::int64_t n = 8000;
  auto keys = keys_with_duplicates(n, 41);
  std::vector<std::int64_t> values(n);
  std::iota(values.begin(), values.end(), 0);
  device_buffer<std::int32_t> dk(dev(), std::span<const std::int32_t>(keys));
  device_buffer<std::int64_t> dv(dev(), std::span<const std::int64_t>(values));
  ak::gpu::radix_sort_by_key(dev(), dk.data(), dv.data(), n, {.radix_digit_bits = 5});
  std::vector<std::int64_t> expect(values);
  std::stable_sort(expect.begin(), expect.end(),
                   [&](std::int64_t a, std::int64_t b) { return keys[a] < keys[b]; });
  ASSERT_EQ(dv.to_host(), expect);
}

TEST_P(GpuSortSearch, SortResolvesItsAlgorithm) {
  auto v = awkward_doubles(2000, 43);
  device_buffer<double> d(dev(), std::span<const double>(v));
  ak::gpu::sort(dev(), d.data(), static_cast<std::int64_t>(v.size()));
  ak::gpu::sort(dev(), d.data(), static_cast<std::int64_t>(v.size()), ak::merge_sort{});
  ak::gpu::sort(dev(), d.data(), static_cast<std::int64_t>(v.size()),
                ak::radix_sort{.radix_digit_bits = 6});
  std::stable_sort(v.begin(), v.end(), ak_less);
  auto h = d.to_host();
  for (std::size_t i = 0; i < v.size(); ++i)
    ASSERT_TRUE(std::isnan(v[i]) ? std::isnan(h[i]) : std::memcmp(&h[i], &v[i], 8) == 0) << i;
  EXPECT_THROW(ak::gpu::sort(dev(), d.data(), 10, ak::sample_sort{}), ak::capability_error);
  EXPECT_THROW(ak::gpu::radix_sort(dev(), d.data(), 10, {.radix_digit_bits = 11}),
               ak::capability_error);
}

INSTANTIATE_TEST_SUITE_P(Profiles, GpuSortSearch, testing::ValuesIn(ak_sim_test::all_params()),
                         ak_sim_test::param_name);

}  // namespace
