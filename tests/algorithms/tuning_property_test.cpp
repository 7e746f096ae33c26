// Every valid tuning gives the same answer: random values for every field of every hook, drawn
// within the schema's ranges (ak::tuning_hooks()) and the device's limits, applied as scoped
// overrides, and every algorithm value each family accepts; the results must equal those of the
// default tuning bit for bit (integers, sorts, searches, loops) or, for float sums, agree within
// the rounding that docs/algorithms.md allows a change of tiling. Runs on the device under test
// (cpu and each sim profile), seeded, and prints how many (hook, field, value) draws it made.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace akt {
namespace {

// A value for one field: uniform over small ranges, log-uniform over wide ones (grains up to
// 2^40), a power of two where the schema asks for one (or 0 where 0 means "automatic").
i64 draw_value(rng& r, const ak::tuning_field_schema& f, i64 hi) {
  const i64 lo = f.min;
  hi = std::max(lo, std::min(hi, f.max));
  if (f.power_of_two) {
    if (lo == 0 && r.chance(0.2)) return 0;
    const i64 a =
        static_cast<i64>(std::bit_width(static_cast<std::uint64_t>(std::max<i64>(lo, 1)))) - 1;
    const i64 b = static_cast<i64>(std::bit_width(static_cast<std::uint64_t>(hi))) - 1;
    i64 v = i64{1} << r.between(a, b);
    return v < std::max<i64>(lo, 1) ? v << 1 : v;
  }
  if (hi - lo <= 64) return r.between(lo, hi);
  // Log-uniform: an exponent, then a value below the next power of two.
  const i64 b = static_cast<i64>(std::bit_width(static_cast<std::uint64_t>(hi - lo)));
  const i64 top = std::min<i64>(hi - lo, (i64{1} << r.between(0, b)) - 1);
  return lo + r.between(0, top);
}

// The device's limits on a field, beyond the schema's range (docs/tuning.md, "Device limits": a
// value past them is an ak::capability_error before any data is touched, tested in
// errors_test.cpp); none on the cpu.
i64 device_limit(const std::string& field, const ak::device& dev) {
  const ak::device_info& i = dev.info();
  if (i.kind == ak::device_kind::cpu) return std::numeric_limits<i64>::max();
  if (field == "block_size") return i.max_group_size;
  // A merge tile of 8-byte keys fits in local memory; the tests below sort 4-byte keys.
  if (field == "merge_tile_size") return i.local_memory_bytes / 8;
  // The GPU radix tiles rank digits of at most 8 bits.
  if (field == "radix_digit_bits") return 8;
  return std::numeric_limits<i64>::max();
}

i64 draw_field(rng& r, const ak::tuning_field_schema& f, const ak::device& dev) {
  // A GPU scan runs on the device's own sub-groups: 0 (the native width) or that width.
  if (f.name == "sub_group_width" && dev.info().kind != ak::device_kind::cpu)
    return r.chance(0.5) ? 0 : dev.info().sub_group_width;
  return draw_value(r, f, device_limit(f.name, dev));
}

// One drawn value of every field of hook H (as the scoped override of this round).
template <class Hook>
typename Hook::type draw(rng& r, const ak::device& dev, int& draws, std::string& what) {
  using T = typename Hook::type;
  std::array<i64, ak::field_count_v<T>> slots;
  slots.fill(ak::unset);
  for (const ak::tuning_hook_schema& h : ak::tuning_hooks()) {
    if (h.name != Hook::name) continue;
    EXPECT_EQ(h.fields.size(), slots.size()) << h.name;
    for (std::size_t f = 0; f < h.fields.size() && f < slots.size(); ++f) {
      if (r.chance(0.25)) continue;  // some fields left to the lower layers
      slots[f] = draw_field(r, h.fields[f], dev);
      what += " " + h.name + "." + h.fields[f].name + "=" + std::to_string(slots[f]);
      ++draws;
    }
  }
  return std::bit_cast<T>(slots);
}

// The answers of one round of calls, all of them exact except `float_sum`.
struct answers {
  std::vector<std::int32_t> sorted, sorted_rev, merge_sorted, radix_sorted, sample_sorted;
  std::vector<std::int64_t> perm, perm_merge;
  std::vector<std::int32_t> by_key_values;
  std::vector<float> float_sorted;
  std::vector<std::int32_t> scan, scan_exclusive, scan_rts, scan_dl, scan_dim;
  std::vector<std::int32_t> sums_dim0, sums_dim1;  // |sums| < 2^31: |v| <= 1000, n <= 100003
  std::vector<std::int64_t> first, last;
  std::int32_t sum = 0;
  std::int64_t count = 0;
  std::int32_t minimum = 0, maximum = 0;
  bool any = false, all = false;
  std::vector<std::int32_t> mapped;
  std::vector<std::int64_t> found;  // the selection family
  std::vector<std::int32_t> selected, partitioned, uniques, run_values;
  std::vector<std::int64_t> run_lengths;
  std::int64_t partition_count = 0;
  double float_sum = 0;
};

struct data {
  std::vector<std::int32_t> v;     // n values, few distinct ones among them
  std::vector<float> f;            // n floats with -0.0, +0.0, NaN and infinities among them
  std::vector<std::int32_t> keys;  // for sort_by_key: few distinct keys
  std::vector<std::int32_t> queries;
  i64 rows = 0, cols = 0;  // v as a rows x cols matrix, for the calls along dims
};

data make_data(rng& r, i64 n) {
  data d;
  d.v.resize(static_cast<std::size_t>(n));
  d.f.resize(d.v.size());
  d.keys.resize(d.v.size());
  const i64 spread = r.chance(0.3) ? 4 : 1000;
  for (std::size_t i = 0; i < d.v.size(); ++i) {
    d.v[i] = static_cast<std::int32_t>(r.between(-spread, spread));
    d.keys[i] = static_cast<std::int32_t>(r.between(0, 5));
    const i64 k = r.between(0, 40);
    d.f[i] = k == 0   ? -0.0f
             : k == 1 ? 0.0f
             : k == 2 ? std::numeric_limits<float>::quiet_NaN()
             : k == 3 ? -std::numeric_limits<float>::infinity()
                      : static_cast<float>(r.between(-100000, 100000)) / 64.0f;
  }
  d.queries.resize(50);
  for (auto& q : d.queries) q = static_cast<std::int32_t>(r.between(-spread - 2, spread + 2));
  // The largest divisor of n up to 64 as the column count: a matrix of every element.
  d.cols = 1;
  for (i64 c = 64; c >= 1; --c)
    if (n % c == 0) {
      d.cols = c;
      break;
    }
  d.rows = n / d.cols;
  return d;
}

answers run_all(const data& d, const ak::device& dev) {
  answers a;
  const ak::array<std::int32_t> v(d.v, dev);
  const ak::array<float> f(d.f, dev);
  a.sorted = ak::sort(v).to_vector();
  a.sorted_rev = ak::sort(v, {.rev = true}).to_vector();
  a.merge_sorted = ak::sort(v, {.alg = ak::merge_sort{}}).to_vector();
  a.radix_sorted = ak::sort(v, {.alg = ak::radix_sort{}}).to_vector();
  // Sample sort is a cpu algorithm (stable there); GPU-style devices reject it by name.
  if (dev.info().kind == ak::device_kind::cpu)
    a.sample_sorted = ak::sort(v, {.alg = ak::sample_sort{}}).to_vector();
  a.perm = ak::sortperm(v).to_vector();
  a.perm_merge = ak::sortperm(v, {.alg = ak::merge_sort{}}).to_vector();
  {
    ak::array<std::int32_t> keys(d.keys, dev);
    ak::array<std::int32_t> values(d.v, dev);
    ak::sort_by_key(keys.view(), values.view());
    a.by_key_values = values.to_vector();
  }
  a.float_sorted = ak::sort(f).to_vector();
  a.scan = ak::cumsum(v).to_vector();
  a.scan_exclusive = ak::accumulate(v, ak::plus{}, {.inclusive = false}).to_vector();
  a.scan_rts =
      ak::accumulate(v, ak::plus{}, {.tuning = {.algorithm = ak::scan_algorithm::reduce_then_scan}})
          .to_vector();
  if (dev.caps().device_scope_fence && dev.caps().forward_progress)
    a.scan_dl = ak::accumulate(v, ak::plus{},
                               {.tuning = {.algorithm = ak::scan_algorithm::decoupled_lookback}})
                    .to_vector();
  const ak::array<std::int32_t> m(d.v, ak::shape{d.rows, d.cols}, dev);
  a.scan_dim = ak::accumulate(m, ak::plus{}, {.dim = 1}).to_vector();
  a.sums_dim0 = ak::sum(m, ak::dims{0}).to_vector();
  a.sums_dim1 = ak::sum(m, ak::dims{1}).to_vector();
  a.sum = ak::sum(v);
  if (!d.v.empty()) {
    a.minimum = ak::minimum(v);
    a.maximum = ak::maximum(v);
  }
  a.count = ak::count(v);
  a.any = ak::any(v, [](std::int32_t x) { return x > 900; });
  a.all = ak::all(v, [](std::int32_t x) { return x > -990; });
  const ak::array<std::int32_t> s(a.sorted, dev);
  const ak::array<std::int32_t> q(d.queries, dev);
  a.first = ak::searchsortedfirst(s, q).to_vector();
  a.last = ak::searchsortedlast(s, q).to_vector();
  a.mapped = ak::map([](std::int32_t x) { return x * 3 - 1; }, v.view()).to_vector();
  const auto positive = [](std::int32_t x) { return x > 0; };
  a.found = ak::findall(v, positive).to_vector();
  a.selected = ak::copy_if(v, positive).to_vector();
  auto [parts, count] = ak::partition(v, positive);
  a.partitioned = parts.to_vector();
  a.partition_count = count;
  a.uniques = ak::unique(v).to_vector();
  auto [values, lengths] = ak::run_length_encode(v);
  a.run_values = values.to_vector();
  a.run_lengths = lengths.to_vector();
  a.float_sum = static_cast<double>(ak::sum(f));
  return a;
}

// What differs between two rounds' answers ("" if nothing); float sums within `tolerance`.
std::string differences(const answers& x, const answers& y, double tolerance) {
  std::string out;
  auto same = [&](const char* name, const auto& a, const auto& b) {
    if (a != b) out += std::string(" ") + name;
  };
  same("sort", x.sorted, y.sorted);
  same("sort(rev)", x.sorted_rev, y.sorted_rev);
  same("merge_sort", x.merge_sorted, y.merge_sorted);
  same("radix_sort", x.radix_sorted, y.radix_sorted);
  same("sample_sort", x.sample_sorted, y.sample_sorted);
  same("sortperm", x.perm, y.perm);
  same("sortperm(merge_sort)", x.perm_merge, y.perm_merge);
  same("sort_by_key", x.by_key_values, y.by_key_values);
  // Floats by their bits: NaN, -0.0 and +0.0 each have their place in ak's order.
  std::vector<std::uint32_t> xb(x.float_sorted.size()), yb(y.float_sorted.size());
  for (std::size_t i = 0; i < xb.size(); ++i)
    xb[i] = std::bit_cast<std::uint32_t>(x.float_sorted[i]);
  for (std::size_t i = 0; i < yb.size(); ++i)
    yb[i] = std::bit_cast<std::uint32_t>(y.float_sorted[i]);
  same("sort(float32)", xb, yb);
  same("cumsum", x.scan, y.scan);
  same("accumulate(exclusive)", x.scan_exclusive, y.scan_exclusive);
  same("accumulate(reduce_then_scan)", x.scan_rts, y.scan_rts);
  same("accumulate(decoupled_lookback)", x.scan_dl, y.scan_dl);
  same("accumulate(dim 1)", x.scan_dim, y.scan_dim);
  same("sum(dims 0)", x.sums_dim0, y.sums_dim0);
  same("sum(dims 1)", x.sums_dim1, y.sums_dim1);
  same("sum", x.sum, y.sum);
  same("minimum", x.minimum, y.minimum);
  same("maximum", x.maximum, y.maximum);
  same("count", x.count, y.count);
  same("any", x.any, y.any);
  same("all", x.all, y.all);
  same("searchsortedfirst", x.first, y.first);
  same("searchsortedlast", x.last, y.last);
  same("map", x.mapped, y.mapped);
  same("findall", x.found, y.found);
  same("copy_if", x.selected, y.selected);
  same("partition", x.partitioned, y.partitioned);
  same("partition(count)", x.partition_count, y.partition_count);
  same("unique", x.uniques, y.uniques);
  same("run_length_encode(values)", x.run_values, y.run_values);
  same("run_length_encode(lengths)", x.run_lengths, y.run_lengths);
  const bool both_nan = std::isnan(x.float_sum) && std::isnan(y.float_sum);
  if (x.float_sum != y.float_sum && !both_nan &&
      !(std::abs(x.float_sum - y.float_sum) <= tolerance))
    out += " sum(float32) " + std::to_string(x.float_sum) + " vs " + std::to_string(y.float_sum);
  return out;
}

TEST(EveryValidTuning, GivesTheDefaultTuningsAnswer) {
  AKT_RANDOM(r);
  const ak::device& dev = target();
  const int rounds = pick(24, 6);
  const i64 sizes[] = {0, 1, 2, 63, 257, 1000, 4099, 20000, 100003};
  const int size_count = on_gpu_style() ? 7 : 9;  // up to 4099 on sim, where work-items are fibers
  int draws = 0;
  for (int round = 0; round < rounds; ++round) {
    const i64 n = sizes[r.index(static_cast<std::size_t>(size_count))];
    const data d = make_data(r, n);
    const answers want = run_all(d, dev);
    // Rounding: a float32 sum's error is at most about n ulps of the sum of magnitudes, in any
    // order of combination; two orders differ by at most twice that.
    double magnitude = 0;
    bool nan = false;
    for (float x : d.f)
      if (std::isfinite(x))
        magnitude += std::abs(static_cast<double>(x));
      else
        nan = true;
    const double tolerance =
        nan ? std::numeric_limits<double>::infinity()
            : 2.0 * static_cast<double>(n + 1) * std::numeric_limits<float>::epsilon() * magnitude;
    std::string what;
    const ak::reduce_tuning rt = draw<ak::reduce_hook>(r, dev, draws, what);
    const ak::scan_tuning st = draw<ak::scan_hook>(r, dev, draws, what);
    const ak::sort_tuning so = draw<ak::sort_hook>(r, dev, draws, what);
    const ak::map_tuning mt = draw<ak::map_hook>(r, dev, draws, what);
    const ak::search_tuning se = draw<ak::search_hook>(r, dev, draws, what);
    const ak::select_tuning sl = draw<ak::select_hook>(r, dev, draws, what);
    SCOPED_TRACE("round " + std::to_string(round) + ", n = " + std::to_string(n) + ":" + what);
    answers got;
    try {
      ak::scoped_tuning o1(ak::reduce_hook{}, rt), o2(ak::scan_hook{}, st), o3(ak::sort_hook{}, so),
          o4(ak::map_hook{}, mt), o5(ak::search_hook{}, se), o6(ak::select_hook{}, sl);
      got = run_all(d, dev);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "a valid tuning failed: " << e.what();
      continue;
    }
    const std::string diff = differences(want, got, tolerance);
    EXPECT_TRUE(diff.empty()) << "results that differ from the default tuning's:" << diff;
    // And the default tuning's own answers against std, so that both cannot be wrong alike.
    std::vector<std::int32_t> ref = d.v;
    std::stable_sort(ref.begin(), ref.end());
    EXPECT_EQ(want.sorted, ref);
    std::vector<std::int32_t> scan(d.v.size());
    std::inclusive_scan(d.v.begin(), d.v.end(), scan.begin());
    EXPECT_EQ(want.scan, scan);
    EXPECT_EQ(want.sum, std::accumulate(d.v.begin(), d.v.end(), std::int32_t{0}));
    std::vector<std::int32_t> sel;
    std::copy_if(d.v.begin(), d.v.end(), std::back_inserter(sel),
                 [](std::int32_t x) { return x > 0; });
    EXPECT_EQ(want.selected, sel);
    std::vector<std::int32_t> uniq = d.v;
    uniq.erase(std::unique(uniq.begin(), uniq.end()), uniq.end());
    EXPECT_EQ(want.uniques, uniq);
  }
  std::printf("EveryValidTuning on %s: %d rounds, %d (hook, field, value) draws\n",
              dev.name().c_str(), rounds, draws);
  EXPECT_GT(draws, rounds * 10);
}

}  // namespace
}  // namespace akt
