// The keyed and segmented family and merge against loops and the std algorithms: reduce_by_key
// and accumulate_by_key (inclusive, exclusive, with and without init) against a loop over runs
// of ak::isequal keys, for every key dtype, runs of every length and the data patterns (NaN and
// -0.0/+0.0 keys included); reduce and accumulate over ak::offsets on every segment layout (one
// segment, all empty, all of length 1, one huge and many tiny, random); merge and merge_by_key
// against std::merge (stable: a's elements first on ties, checked through the values), ascending
// and descending, with a key function; custom types, equalities and non-commutative operators;
// strided inputs; per-call tunings; and the errors, raised before any result exists.
#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>

#include "test_support.hpp"

namespace akt {
namespace {

AKT_TAG(cross_group_sync, "Keyed/*.ByKeyEveryRunLength");
AKT_TAG(cross_group_sync, "Segmented.EveryLayout");
AKT_TAG(cross_group_sync, "Merge/*.SortedInputs");

// Runs of equal values of every length from 1 to `longest` (keys for the by-key calls).
template <class T>
buf<T> make_key_runs(i64 n, i64 longest, rng& r) {
  buf<T> out(n);
  for (i64 i = 0; i < n;) {
    const T x = random_value<T>(r, values::full);
    const i64 len = std::min(n - i, r.between(1, longest));
    for (i64 k = 0; k < len; ++k) out[i + k] = x;
    i += len;
  }
  return out;
}

// Where each run of eq-equal consecutive keys starts.
template <class K, class Eq>
std::vector<i64> run_starts(const buf<K>& k, Eq eq) {
  std::vector<i64> s;
  for (i64 i = 0; i < k.size(); ++i)
    if (i == 0 || !eq(k[i - 1], k[i])) s.push_back(i);
  return s;
}

// The reference scan of values in the segments that begin at `starts` (sorted, starting at 0).
template <class R, class V, class Op>
buf<R> ref_segmented_scan(const buf<V>& v, const std::vector<i64>& starts, Op op,
                          std::optional<R> init, bool inclusive) {
  buf<R> out(v.size());
  std::size_t s = 0;
  R acc{};
  bool open = false;
  for (i64 i = 0; i < v.size(); ++i) {
    if (s < starts.size() && starts[s] == i) {
      ++s;
      open = false;
    }
    const R x = static_cast<R>(v[i]);
    if (!inclusive) out[i] = open ? static_cast<R>(op(*init, acc)) : *init;
    acc = open ? static_cast<R>(op(acc, x)) : x;
    open = true;
    if (inclusive) out[i] = init ? static_cast<R>(op(*init, acc)) : acc;
  }
  return out;
}

// The reference reduction of each segment [starts[s], ends[s]).
template <class R, class V, class Op>
buf<R> ref_segment_sums(const buf<V>& v, const std::vector<i64>& starts,
                        const std::vector<i64>& ends, Op op, std::optional<R> init) {
  buf<R> out(static_cast<i64>(starts.size()));
  for (std::size_t s = 0; s < starts.size(); ++s) {
    std::optional<R> acc;
    for (i64 i = starts[s]; i < ends[s]; ++i)
      acc = acc ? static_cast<R>(op(*acc, static_cast<R>(v[i]))) : static_cast<R>(v[i]);
    out[static_cast<i64>(s)] = !acc ? *init : init ? static_cast<R>(op(*init, *acc)) : *acc;
  }
  return out;
}

template <class T>
class Keyed : public typed_test<T> {};
TYPED_TEST_SUITE(Keyed, all_types, dtype_names);

// Keys of every dtype in runs of every length and in the data patterns; int32 values summed
// (exact), values of the key's own type by ak::maximum_op (exact in any association).
TYPED_TEST(Keyed, ByKeyEveryRunLength) {
  using K = TypeParam;
  AKT_RANDOM(r);
  std::vector<std::pair<std::string, buf<K>>> cases;
  for (i64 n : pick<std::vector<i64>>({0, 1, 2, 7, 257, 4097, 65537, 1000003},
                                      {0, 1, 2, 7, 257, 4097, 10007}))
    for (i64 longest : {1, 3, 300})
      cases.emplace_back("runs up to " + std::to_string(longest) + ", n = " + std::to_string(n),
                         make_key_runs<K>(n, longest, r));
  for (pattern p : {pattern::equal, pattern::few, pattern::special, pattern::sorted})
    cases.emplace_back(std::string("pattern ") + name_of(p),
                       make_data<K>(pick<i64>(100003, 4099), p, r));
  for (const auto& [what, keys] : cases) {
    SCOPED_TRACE(what);
    const i64 n = keys.size();
    const std::vector<i64> starts = run_starts(keys, ak::isequal{});
    std::vector<i64> ends(starts.begin() + (starts.empty() ? 0 : 1), starts.end());
    ends.push_back(n);
    const buf<std::int32_t> v = make_data<std::int32_t>(n, pattern::random, r, values::small);
    buf<K> heads(static_cast<i64>(starts.size()));
    for (std::size_t s = 0; s < starts.size(); ++s) heads[static_cast<i64>(s)] = keys[starts[s]];

    auto [rk, rv] = ak::reduce_by_key(keys.view(), v.view(), ak::plus{});
    EXPECT_TRUE(same_bits_elements(to_buf(rk), heads)) << "reduce_by_key keys";
    EXPECT_TRUE(same_elements(
        rv, ref_segment_sums<std::int32_t>(v, starts, ends, ak::plus{}, std::nullopt)))
        << "reduce_by_key";
    // Into int64 with an init: op(init, run).
    auto [rk2, rv2] = ak::reduce_by_key(keys.view(), v.view(), ak::plus{},
                                        ak::segment_options<std::int64_t>{.init = 1000});
    EXPECT_TRUE(same_elements(
        rv2, ref_segment_sums<std::int64_t>(v, starts, ends, ak::plus{}, std::int64_t{1000})))
        << "reduce_by_key with init";
    for (bool inclusive : {true, false}) {
      SCOPED_TRACE(inclusive ? "inclusive" : "exclusive");
      EXPECT_TRUE(same_elements(
          ak::accumulate_by_key(keys.view(), v.view(), ak::plus{}, {.inclusive = inclusive}),
          ref_segmented_scan<std::int32_t>(v, starts, ak::plus{}, std::int32_t{0}, inclusive)))
          << "accumulate_by_key";
      EXPECT_TRUE(same_elements(
          ak::accumulate_by_key(keys.view(), v.view(), ak::plus{},
                                {.init = std::int32_t{-5}, .inclusive = inclusive}),
          ref_segmented_scan<std::int32_t>(v, starts, ak::plus{}, std::int32_t{-5}, inclusive)))
          << "accumulate_by_key with init";
    }
    // The keys' own type as values, by maximum (bool, NaN and signed zeros included).
    auto [mk, mv] = ak::reduce_by_key(keys.view(), keys.view(), ak::maximum_op{});
    EXPECT_TRUE(same_bits_elements(
        to_buf(mv), ref_segment_sums<K>(keys, starts, ends, ak::maximum_op{}, std::nullopt)))
        << "reduce_by_key maximum";
    EXPECT_TRUE(same_bits_elements(
        to_buf(ak::accumulate_by_key(keys.view(), keys.view(), ak::maximum_op{})),
        ref_segmented_scan<K>(keys, starts, ak::maximum_op{}, std::nullopt, true)))
        << "accumulate_by_key maximum";
  }
}

// Keys that differ only in bits ak::isequal ignores or sees: NaNs of both signs form one run;
// -0.0 and +0.0 two. The first key of each run is kept, bit for bit.
template <class T>
class KeyedFloat : public typed_test<T> {};
TYPED_TEST_SUITE(KeyedFloat, float_types, dtype_names);

TYPED_TEST(KeyedFloat, NaNAndSignedZeroKeys) {
  using T = TypeParam;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const std::vector<T> k{nan, -nan, T(-0.0), T(0.0), T(0.0), T(1), -nan};
  const buf<T> keys(k.data(), 7);
  const std::vector<std::int64_t> v{1, 2, 4, 8, 16, 32, 64};
  const buf<std::int64_t> values(v.data(), 7);
  auto [rk, rv] = ak::reduce_by_key(keys.view(), values.view(), ak::plus{});
  const buf<T> got = to_buf(rk);
  ASSERT_EQ(got.size(), 5);
  EXPECT_TRUE(same_bits(got[0], nan));
  EXPECT_TRUE(same_bits(got[1], T(-0.0)));
  EXPECT_TRUE(same_bits(got[2], T(0.0)));
  EXPECT_TRUE(same_bits(got[4], -nan));
  const std::vector<std::int64_t> want{3, 4, 24, 32, 64};
  EXPECT_TRUE(same_elements(rv, buf<std::int64_t>(want.data(), 5)));
}

// Float values of signed zeros and NaN summed and multiplied over runs: the cpu half starts a run's
// fold from -0.0 (plus) or 1 (multiplies) where no init is given, which must give the bits of a
// fold from the run's first element (-0.0 alone stays -0.0).
TYPED_TEST(KeyedFloat, SignedZeroAndNaNValues) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const T special[] = {T(-0.0), T(0.0), std::numeric_limits<T>::quiet_NaN(), T(1.5), T(-2)};
  for (i64 n : {1, 7, 4097, 100003}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const buf<std::int32_t> keys = make_key_runs<std::int32_t>(n, 4, r);
    buf<T> v(n);
    for (i64 i = 0; i < n; ++i) v[i] = special[r.index(r.between(0, 1) ? 2 : 5)];
    const std::vector<i64> starts = run_starts(keys, ak::isequal{});
    std::vector<i64> ends(starts.begin() + 1, starts.end());
    ends.push_back(n);
    auto check = [&](auto op, const char* name) {
      SCOPED_TRACE(name);
      auto [rk, rv] = ak::reduce_by_key(keys.view(), v.view(), op);
      EXPECT_TRUE(
          same_bits_elements(to_buf(rv), ref_segment_sums<T>(v, starts, ends, op, std::nullopt)))
          << "reduce_by_key";
      EXPECT_TRUE(same_bits_elements(to_buf(ak::accumulate_by_key(keys.view(), v.view(), op)),
                                     ref_segmented_scan<T>(v, starts, op, std::nullopt, true)))
          << "accumulate_by_key";
    };
    check(ak::plus{}, "plus");
    check(ak::multiplies{}, "multiplies");
  }
}

// A custom equality (keys in buckets of 4) and non-commutative operators on a custom type: the
// first and the last value of each run, and 2x2 integer matrix products in element order.
struct mat2 {
  std::int64_t a, b, c, d;
};
struct mat_mul {
  AK_KERNEL_FN mat2 operator()(const mat2& x, const mat2& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
            x.c * y.b + x.d * y.d};
  }
};
struct same_bucket {
  AK_KERNEL_FN bool operator()(std::int32_t x, std::int32_t y) const { return x / 4 == y / 4; }
};
struct keep_first {
  AK_KERNEL_FN std::int32_t operator()(std::int32_t x, std::int32_t) const { return x; }
};

TEST(KeyedCustom, EqualitiesAndNonCommutativeOperators) {
  AKT_RANDOM(r);
  for (i64 n : pick<std::vector<i64>>({0, 1, 300, 65537, 200003}, {0, 1, 300, 10007})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    buf<std::int32_t> keys(n), v(n);
    std::int32_t k = 0;
    for (i64 i = 0; i < n; ++i) {
      if (r.chance(0.1)) k = static_cast<std::int32_t>(r.between(0, 40));
      keys[i] = k;
      v[i] = static_cast<std::int32_t>(i);
    }
    const std::vector<i64> starts = run_starts(keys, same_bucket{});
    std::vector<i64> ends(starts.begin() + (starts.empty() ? 0 : 1), starts.end());
    ends.push_back(n);
    auto [rk, rv] = ak::reduce_by_key(keys.view(), v.view(), keep_first{}, same_bucket{});
    EXPECT_EQ(rk.size(), static_cast<i64>(starts.size()));
    EXPECT_TRUE(same_elements(
        rv, ref_segment_sums<std::int32_t>(v, starts, ends, keep_first{}, std::nullopt)));
    EXPECT_TRUE(same_elements(
        ak::accumulate_by_key(keys.view(), v.view(), keep_first{}, same_bucket{}),
        ref_segmented_scan<std::int32_t>(v, starts, keep_first{}, std::nullopt, true)));
    // Matrix products of unit-determinant matrices (entries stay small enough for int64 in runs
    // of up to ~40 elements: elements are shears [[1, x], [0, 1]] and swaps).
    buf<mat2> m(n);
    for (i64 i = 0; i < n; ++i)
      m[i] = r.chance(0.5) ? mat2{1, r.between(-1, 1), 0, 1} : mat2{0, 1, 1, 0};
    const buf<mat2> got =
        to_buf(ak::accumulate_by_key(keys.view(), m.view(), mat_mul{}, same_bucket{}));
    const buf<mat2> want = ref_segmented_scan<mat2>(m, starts, mat_mul{}, std::nullopt, true);
    ASSERT_EQ(got.size(), n);
    for (i64 i = 0; i < n; ++i)
      ASSERT_TRUE(got[i].a == want[i].a && got[i].b == want[i].b && got[i].c == want[i].c &&
                  got[i].d == want[i].d)
          << "element " << i;
  }
}

// Segment layouts for reduce and accumulate over offsets.
std::vector<i64> layout_offsets(const std::string& layout, i64 n, rng& r) {
  std::vector<i64> o{0};
  if (layout == "one") {
    o.push_back(n);
  } else if (layout == "all empty") {
    for (int s = 0; s < 5; ++s) o.push_back(0);
    o.push_back(n);  // n == 0 here
  } else if (layout == "length 1") {
    for (i64 i = 1; i <= n; ++i) o.push_back(i);
  } else if (layout == "huge and tiny") {
    o.push_back(n / 2);
    for (i64 i = n / 2; i < n;) {
      i = std::min(n, i + r.between(0, 3));
      o.push_back(i);
    }
    if (o.back() != n) o.push_back(n);
  } else {  // random, empty segments included
    for (i64 i = 0; i < n;) {
      i = std::min(n, i + (r.chance(0.2) ? 0 : r.between(1, 2000)));
      o.push_back(i);
    }
    if (o.back() != n) o.push_back(n);
  }
  return o;
}

TEST(Segmented, EveryLayout) {
  AKT_RANDOM(r);
  for (const std::string layout : {"one", "all empty", "length 1", "huge and tiny", "random"})
    for (i64 n : pick<std::vector<i64>>({0, 1, 2, 257, 65537, 1000003}, {0, 1, 2, 257, 10007})) {
      if (layout == "all empty" && n != 0) continue;
      SCOPED_TRACE(layout + ", n = " + std::to_string(n));
      const std::vector<i64> o = layout_offsets(layout, n, r);
      const buf<i64> offs(o.data(), static_cast<i64>(o.size()));
      const buf<std::int16_t> v = make_data<std::int16_t>(n, pattern::random, r, values::small);
      const std::vector<i64> starts(o.begin(), o.end() - 1), ends(o.begin() + 1, o.end());
      EXPECT_TRUE(same_elements(
          ak::reduce(v.view(), ak::plus{}, ak::offsets{offs.view()}),
          ref_segment_sums<std::int16_t>(v, starts, ends, ak::plus{}, std::int16_t{0})));
      EXPECT_TRUE(same_elements(
          ak::reduce(v.view(), ak::plus{}, ak::offsets{offs.view()},
                     ak::segment_options<std::int64_t>{.init = 7}),
          ref_segment_sums<std::int64_t>(v, starts, ends, ak::plus{}, std::int64_t{7})));
      // Heads of the nonempty segments, for the scan's reference.
      std::vector<i64> heads;
      for (std::size_t s = 0; s + 1 < o.size(); ++s)
        if (o[s] < o[s + 1]) heads.push_back(o[s]);
      for (bool inclusive : {true, false})
        EXPECT_TRUE(same_elements(
            ak::accumulate(v.view(), ak::plus{}, ak::offsets{offs.view()},
                           {.inclusive = inclusive}),
            ref_segmented_scan<std::int16_t>(v, heads, ak::plus{}, std::int16_t{0}, inclusive)))
            << (inclusive ? "inclusive" : "exclusive");
    }
}

// Strided and reversed inputs are read in order; per-call scan tunings (every tile size on cpu,
// both GPU scan algorithms) give the same results.
TEST(KeyedViews, StridedInputsAndTunings) {
  AKT_RANDOM(r);
  const i64 n = pick<i64>(100003, 5003);
  for (layout l : {layout::strided, layout::reversed}) {
    SCOPED_TRACE(name_of(l));
    laid_out<std::int8_t> k = make_layout_with<std::int8_t>(
        {n}, l, [&] { return static_cast<std::int8_t>(r.between(0, 1)); });
    laid_out<std::int32_t> v = make_layout<std::int32_t>({n}, l, r, values::small);
    const buf<std::int8_t> kf = gather(k.view);
    const buf<std::int32_t> vf = gather(v.view);
    const std::vector<i64> starts = run_starts(kf, ak::isequal{});
    const buf<std::int32_t> want =
        ref_segmented_scan<std::int32_t>(vf, starts, ak::plus{}, std::nullopt, true);
    const ak::view<const std::int8_t> kv(k.view);
    const ak::view<const std::int32_t> vv(v.view);
    EXPECT_TRUE(same_elements(ak::accumulate_by_key(kv, vv, ak::plus{}), want));
    for (i64 grain : {1, 7, 4096})
      for (ak::scan_algorithm alg :
           {ak::scan_algorithm::reduce_then_scan, ak::scan_algorithm::decoupled_lookback}) {
        if (on_gpu_style() && alg == ak::scan_algorithm::decoupled_lookback &&
            !target().caps().forward_progress)
          continue;
        SCOPED_TRACE("grain " + std::to_string(grain));
        EXPECT_TRUE(same_elements(ak::accumulate_by_key(kv, vv, ak::plus{},
                                                        {.tuning = {.block_size = 64,
                                                                    .items_per_thread = 3,
                                                                    .algorithm = alg,
                                                                    .cpu_grain = grain}}),
                                  want));
      }
  }
}

// reduce_by_key and accumulate_by_key over tiles of every size (the cpu's tiles; GPU-style
// devices take the scan's tuning): runs longer than several tiles, whose partial values and the
// later tiles' leading elements are folded in order, under a non-commutative operator (affine
// maps mod 2^32, the first applied first), and an init that each run starts from once.
struct affine32 {
  std::uint32_t a, b;
};
struct then_apply {
  AK_KERNEL_FN affine32 operator()(affine32 f, affine32 g) const {
    return {g.a * f.a, g.a * f.b + g.b};
  }
};

TEST(KeyedTiles, ReduceByKeyRunsAcrossTiles) {
  AKT_RANDOM(r);
  const i64 n = pick<i64>(20011, 3001);
  const buf<std::int32_t> keys = make_key_runs<std::int32_t>(n, 300, r);
  const std::vector<i64> starts = run_starts(keys, ak::isequal{});
  std::vector<i64> ends(starts.begin() + 1, starts.end());
  ends.push_back(n);
  buf<affine32> f(n);
  for (i64 i = 0; i < n; ++i)
    f[i] = {static_cast<std::uint32_t>(r.bits()) | 1u, static_cast<std::uint32_t>(r.bits())};
  const buf<std::int32_t> v = make_data<std::int32_t>(n, pattern::random, r, values::small);
  buf<affine32> want(static_cast<i64>(starts.size()));  // each run's maps, the first first
  for (std::size_t s = 0; s < starts.size(); ++s) {
    affine32 acc = f[starts[s]];
    for (i64 i = starts[s] + 1; i < ends[s]; ++i) acc = then_apply{}(acc, f[i]);
    want[static_cast<i64>(s)] = acc;
  }
  const buf<std::int64_t> want_init =
      ref_segment_sums<std::int64_t>(v, starts, ends, ak::plus{}, std::int64_t{1000});
  for (i64 grain : {1, 7, 64, 4096, 1 << 20}) {
    SCOPED_TRACE("cpu_grain " + std::to_string(grain));
    auto [rk, rv] = ak::reduce_by_key(
        keys.view(), f.view(), then_apply{},
        ak::segment_options<affine32>{
            .tuning = {.block_size = 64, .items_per_thread = 3, .cpu_grain = grain}});
    buf<std::int32_t> heads(static_cast<i64>(starts.size()));
    for (std::size_t s = 0; s < starts.size(); ++s) heads[static_cast<i64>(s)] = keys[starts[s]];
    EXPECT_TRUE(same_elements(rk, heads));
    const buf<affine32> got = to_buf(rv);
    ASSERT_EQ(got.size(), want.size());
    for (i64 s = 0; s < got.size(); ++s)
      ASSERT_TRUE(got[s].a == want[s].a && got[s].b == want[s].b) << "run " << s;
    auto [ik, iv] = ak::reduce_by_key(
        keys.view(), v.view(), ak::plus{},
        ak::segment_options<std::int64_t>{.init = 1000, .tuning = {.cpu_grain = grain}});
    EXPECT_TRUE(same_elements(iv, want_init));
    // Each element's running map, inclusive and exclusive (from the identity map).
    for (bool inclusive : {true, false}) {
      SCOPED_TRACE(inclusive ? "inclusive" : "exclusive");
      const buf<affine32> scan = to_buf(ak::accumulate_by_key(
          keys.view(), f.view(), then_apply{},
          ak::segment_options<affine32>{
              .init = inclusive ? std::nullopt : std::optional<affine32>(affine32{1, 0}),
              .inclusive = inclusive,
              .tuning = {.block_size = 64, .items_per_thread = 3, .cpu_grain = grain}}));
      ASSERT_EQ(scan.size(), n);
      affine32 acc{1, 0};
      for (i64 i = 0; i < n; ++i) {
        if (i == 0 || keys[i] != keys[i - 1]) acc = affine32{1, 0};
        const affine32 before = acc;
        acc = then_apply{}(acc, f[i]);
        const affine32 want_i = inclusive ? acc : before;
        ASSERT_TRUE(scan[i].a == want_i.a && scan[i].b == want_i.b) << "element " << i;
      }
    }
    EXPECT_TRUE(same_elements(
        ak::accumulate_by_key(
            keys.view(), v.view(), ak::plus{},
            {.init = std::int32_t{-5}, .inclusive = false, .tuning = {.cpu_grain = grain}}),
        ref_segmented_scan<std::int32_t>(v, starts, ak::plus{}, std::int32_t{-5}, false)));
  }
}

// Runs longer than the cpu's tiles and its blocks of 4096 flags, so that tiles and blocks hold no
// run head: accumulate_by_key's tiles look for their last head (from the end, a block of bits at a
// time, or a flag at a time under a custom equality) and fold a block without heads as one chain.
// Run lengths at the block's edges and past a tile; float32 values are small integers, whose sums
// (below 2^24) every fold order gives exactly, so that the test holds on GPU-style devices too.
struct plain_equal {
  AK_KERNEL_FN bool operator()(std::int64_t x, std::int64_t y) const { return x == y; }
};
TEST(KeyedTiles, AccumulateByKeyRunsLongerThanTiles) {
  AKT_RANDOM(r);
  std::vector<i64> lengths;
  for (int rep = 0; rep < pick(3, 1); ++rep)
    for (i64 len : {1, 4095, 4096, 4097, 8193, 70001, 2, 12289}) lengths.push_back(len);
  i64 n = 0;
  for (i64 len : lengths) n += len;
  buf<std::int64_t> keys(n);
  buf<float> v(n);
  for (i64 q = 0, i = 0; q < static_cast<i64>(lengths.size()); ++q)
    for (i64 j = 0; j < lengths[static_cast<std::size_t>(q)]; ++j, ++i) {
      keys[i] = 3 * q - 10;
      v[i] = static_cast<float>(r.between(-3, 3));
    }
  const std::vector<i64> starts = run_starts(keys, ak::isequal{});
  ASSERT_EQ(starts.size(), lengths.size());
  // The grains are the cpu's tiles; GPU-style devices take one (their tiles are the scan's).
  for (i64 grain : pick<std::vector<i64>>({7, 4096, 5000, 1 << 16}, {1 << 16})) {
    for (bool inclusive : {true, false}) {
      SCOPED_TRACE("cpu_grain " + std::to_string(grain) +
                   (inclusive ? ", inclusive" : ", exclusive"));
      const buf<float> want = ref_segmented_scan<float>(v, starts, ak::plus{}, 0.0f, inclusive);
      const ak::segment_options<float> o{.inclusive = inclusive, .tuning = {.cpu_grain = grain}};
      EXPECT_TRUE(same_bits_elements(
          to_buf(ak::accumulate_by_key(keys.view(), v.view(), ak::plus{}, o)), want))
          << "the default equality (run heads as bits)";
      EXPECT_TRUE(same_bits_elements(
          to_buf(ak::accumulate_by_key(keys.view(), v.view(), ak::plus{}, plain_equal{}, o)), want))
          << "a custom equality (run heads one at a time)";
    }
  }
}

// The reductions over offsets over tiles of every size (the cpu's tiles, which fold the segments
// that start in them and, afterwards, the parts of segments begun in earlier tiles; GPU-style
// devices take the scan's tuning): segments from empty to several tiles long, under the
// non-commutative operator above from an init that is not its identity, and int16 sums into
// int64 from an init.
TEST(KeyedTiles, ReduceOverOffsetsAcrossTiles) {
  AKT_RANDOM(r);
  const i64 n = pick<i64>(20011, 3001);
  std::vector<i64> o{0};
  while (o.back() < n) {
    const i64 len = r.chance(0.2) ? 0 : r.chance(0.1) ? r.between(1000, 5000) : r.between(1, 70);
    o.push_back(std::min(n, o.back() + len));
  }
  o.insert(o.end(), {n, n});  // empty segments at the end
  const buf<i64> offs(o.data(), static_cast<i64>(o.size()));
  const std::vector<i64> starts(o.begin(), o.end() - 1), ends(o.begin() + 1, o.end());
  buf<affine32> f(n);
  for (i64 i = 0; i < n; ++i)
    f[i] = {static_cast<std::uint32_t>(r.bits()) | 1u, static_cast<std::uint32_t>(r.bits())};
  const affine32 init{3, 5};
  buf<affine32> want(static_cast<i64>(starts.size()));  // init, then each map, the first first
  for (std::size_t s = 0; s < starts.size(); ++s) {
    affine32 acc = init;
    for (i64 i = starts[s]; i < ends[s]; ++i) acc = then_apply{}(acc, f[i]);
    want[static_cast<i64>(s)] = acc;
  }
  const buf<std::int16_t> v = make_data<std::int16_t>(n, pattern::random, r, values::small);
  const buf<std::int64_t> want_sums =
      ref_segment_sums<std::int64_t>(v, starts, ends, ak::plus{}, std::int64_t{1000});
  for (i64 grain : {1, 7, 64, 4096, 1 << 20}) {
    SCOPED_TRACE("cpu_grain " + std::to_string(grain));
    const buf<affine32> got = to_buf(
        ak::reduce(f.view(), then_apply{}, ak::offsets{offs.view()},
                   ak::segment_options<affine32>{
                       .init = init,
                       .tuning = {.block_size = 64, .items_per_thread = 3, .cpu_grain = grain}}));
    ASSERT_EQ(got.size(), want.size());
    for (i64 s = 0; s < got.size(); ++s)
      ASSERT_TRUE(got[s].a == want[s].a && got[s].b == want[s].b) << "segment " << s;
    EXPECT_TRUE(same_elements(
        ak::reduce(v.view(), ak::plus{}, ak::offsets{offs.view()},
                   ak::segment_options<std::int64_t>{.init = 1000, .tuning = {.cpu_grain = grain}}),
        want_sums));
  }
}

// Within one cpu tile each segment is folded in element order, bit for bit, whatever the segment
// lengths: sums of floats of many magnitudes (whose value depends on the order) from an init, over
// segments from empty to longer than the cpu fold's blocks and lanes (4096 and 1024 elements),
// in one tile (cpu_grain past n). GPU-style devices scan (value, head) items, a different grouping.
TEST(KeyedTiles, FloatSegmentsInOneTileFoldInElementOrder) {
  if (on_gpu_style()) GTEST_SKIP() << "the cpu's order; GPU-style devices group the scan's items";
  AKT_RANDOM(r);
  const i64 n = pick<i64>(300007, 30011);
  std::vector<i64> o{0};
  while (o.back() < n) {
    const i64 len = r.chance(0.2)    ? 0
                    : r.chance(0.05) ? r.between(1000, 9000)
                    : r.chance(0.2)  ? r.between(8, 300)
                                     : r.between(1, 7);
    o.push_back(std::min(n, o.back() + len));
  }
  const buf<i64> offs(o.data(), static_cast<i64>(o.size()));
  buf<double> v(n);
  for (i64 i = 0; i < n; ++i)
    v[i] = std::ldexp(r.unit() - 0.5, static_cast<int>(r.between(-30, 30)));
  const double init = 0.1;
  for (i64 grain : {i64{1} << 20, i64{100000}}) {
    SCOPED_TRACE("cpu_grain " + std::to_string(grain));
    const buf<double> got = to_buf(
        ak::reduce(v.view(), ak::plus{}, ak::offsets{offs.view()},
                   ak::segment_options<double>{.init = init, .tuning = {.cpu_grain = grain}}));
    ASSERT_EQ(got.size(), static_cast<i64>(o.size()) - 1);
    for (std::size_t s = 0; s + 1 < o.size(); ++s) {
      if (grain < n && o[s] / grain != std::max(o[s], o[s + 1] - 1) / grain) continue;  // crosses
      double a = init;
      for (i64 i = o[s]; i < o[s + 1]; ++i) a += v[i];
      ASSERT_EQ(std::bit_cast<std::uint64_t>(got[static_cast<i64>(s)]),
                std::bit_cast<std::uint64_t>(a))
          << "segment " << s << " [" << o[s] << ", " << o[s + 1] << ")";
    }
  }
}

// Arguments checked before any result is made.
TEST(KeyedErrors, BadArguments) {
  const buf<std::int32_t> k(10, 1), v(10, 2), short_v(9, 2);
  const std::vector<i64> good{0, 4, 10}, unsorted{0, 6, 4, 10}, bad_first{1, 10}, bad_last{0, 4, 9};
  const buf<i64> g(good.data(), 3), u(unsorted.data(), 4), f(bad_first.data(), 2),
      l(bad_last.data(), 3), none;
  EXPECT_THROW(ak::reduce_by_key(k.view(), short_v.view(), ak::plus{}), ak::argument_error);
  EXPECT_THROW(ak::accumulate_by_key(k.view(), short_v.view(), ak::plus{}), ak::argument_error);
  EXPECT_THROW(ak::reduce_by_key(k.view(), v.view(), ak::plus{}, {.inclusive = false}),
               ak::argument_error);
  // An exclusive scan, and a segmented reduction, of an operator with no known neutral element
  // need an init.
  EXPECT_THROW(ak::accumulate_by_key(k.view(), v.view(), keep_first{}, {.inclusive = false}),
               ak::argument_error);
  EXPECT_THROW(ak::reduce(v.view(), keep_first{}, ak::offsets{g.view()}), ak::argument_error);
  EXPECT_NO_THROW(ak::reduce(v.view(), keep_first{}, ak::offsets{g.view()}, {.init = 0}));
  for (const buf<i64>* o : {&u, &f, &l, &none})
    EXPECT_THROW(ak::reduce(v.view(), ak::plus{}, ak::offsets{o->view()}), ak::argument_error);
  EXPECT_THROW(ak::accumulate(v.view(), ak::plus{}, ak::offsets{u.view()}), ak::argument_error);
  const ak::array<std::int32_t> m(ak::shape{2, 5}, std::int32_t{1}, target_memory());
  EXPECT_THROW(ak::reduce(m, ak::plus{}, ak::offsets{g.view()}), ak::argument_error);
  // merge: 1-d arrays only; values of their keys' shapes.
  EXPECT_THROW(ak::merge(m, m), ak::argument_error);
  EXPECT_THROW(ak::merge_by_key(k.view(), short_v.view(), k.view(), v.view()), ak::argument_error);
}

template <class T>
class Merge : public typed_test<T> {};
TYPED_TEST_SUITE(Merge, all_types, dtype_names);

// Sorted inputs of every pattern and of sizes around the chunk sizes, ascending and descending:
// against std::merge, keys bit for bit, and the values (each element's input position) showing
// that ties take a's elements first.
TYPED_TEST(Merge, SortedInputs) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const std::vector<i64> sizes = pick<std::vector<i64>>(
      {0, 1, 2, 31, 4096, 32767, 32768, 32769, 100003}, {0, 1, 2, 31, 257, 4099});
  for (pattern p : {pattern::random, pattern::few, pattern::special, pattern::equal})
    for (bool rev : {false, true})
      for (i64 na : sizes) {
        const i64 nb = sizes[r.index(sizes.size())];
        SCOPED_TRACE(std::string(name_of(p)) + (rev ? ", rev" : "") + ", sizes " +
                     std::to_string(na) + " and " + std::to_string(nb));
        const auto lt = [rev](const T& x, const T& y) {
          return rev ? ak::isless{}(y, x) : ak::isless{}(x, y);
        };
        buf<T> a = make_data<T>(na, p, r), b = make_data<T>(nb, p, r);
        std::stable_sort(a.begin(), a.end(), lt);
        std::stable_sort(b.begin(), b.end(), lt);
        buf<i64> ia(na), ib(nb);
        std::iota(ia.begin(), ia.end(), i64{0});
        std::iota(ib.begin(), ib.end(), na);
        std::vector<std::pair<T, i64>> pa, pb, want(static_cast<std::size_t>(na + nb));
        for (i64 i = 0; i < na; ++i) pa.emplace_back(a[i], i);
        for (i64 i = 0; i < nb; ++i) pb.emplace_back(b[i], na + i);
        std::merge(pa.begin(), pa.end(), pb.begin(), pb.end(), want.begin(),
                   [&](const auto& x, const auto& y) { return lt(x.first, y.first); });
        buf<T> wk(na + nb);
        buf<i64> wv(na + nb);
        for (i64 i = 0; i < na + nb; ++i) {
          wk[i] = want[static_cast<std::size_t>(i)].first;
          wv[i] = want[static_cast<std::size_t>(i)].second;
        }
        EXPECT_TRUE(same_bits_elements(to_buf(ak::merge(a.view(), b.view(), {.rev = rev})), wk));
        auto [mk, mv] = ak::merge_by_key(a.view(), ia.view(), b.view(), ib.view(), {.rev = rev});
        EXPECT_TRUE(same_bits_elements(to_buf(mk), wk));
        EXPECT_TRUE(same_elements(mv, wv));
      }
}

// A key function, a custom type, strided inputs and per-call chunk sizes.
struct rec {
  std::int32_t key;
  std::int32_t id;
};
struct rec_key {
  AK_KERNEL_FN std::int32_t operator()(const rec& x) const { return x.key; }
};

TEST(MergeCustom, KeyFunctionsStridesAndTunings) {
  AKT_RANDOM(r);
  const i64 na = pick<i64>(70001, 3001), nb = pick<i64>(50003, 2003);
  buf<rec> a(na), b(nb);
  for (i64 i = 0; i < na; ++i)
    a[i] = {static_cast<std::int32_t>(r.between(0, 99)), static_cast<std::int32_t>(i)};
  for (i64 i = 0; i < nb; ++i)
    b[i] = {static_cast<std::int32_t>(r.between(0, 99)), static_cast<std::int32_t>(na + i)};
  const auto by_key = [](const rec& x, const rec& y) { return x.key < y.key; };
  std::stable_sort(a.begin(), a.end(), by_key);
  std::stable_sort(b.begin(), b.end(), by_key);
  std::vector<rec> want(static_cast<std::size_t>(na + nb));
  std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin(), by_key);
  for (i64 grain : {1, 5, 4096, 1 << 20})
    for (i64 ipt : {1, 3, 16}) {
      SCOPED_TRACE("grain " + std::to_string(grain) + ", items " + std::to_string(ipt));
      const buf<rec> got = to_buf(ak::merge(
          a.view(), b.view(),
          ak::merge_options<rec_key>{.tuning = {.items_per_thread = ipt, .cpu_grain = grain}}));
      ASSERT_EQ(got.size(), na + nb);
      for (i64 i = 0; i < na + nb; ++i)
        ASSERT_EQ(got[i].id, want[static_cast<std::size_t>(i)].id) << "element " << i;
    }
  // Strided: every other element of sorted parents.
  buf<std::int32_t> pa(2 * na), pb(2 * nb);
  for (i64 i = 0; i < 2 * na; ++i) pa[i] = static_cast<std::int32_t>(i / 3);
  for (i64 i = 0; i < 2 * nb; ++i) pb[i] = static_cast<std::int32_t>(i / 2);
  const ak::array<std::int32_t> xa = to_array(pa), xb = to_array(pb);
  const ak::view<const std::int32_t> sa =
      ak::view<const std::int32_t>(xa.view()).slice(0, 0, 2 * na, 2);
  const ak::view<const std::int32_t> sb =
      ak::view<const std::int32_t>(xb.view()).slice(0, 0, 2 * nb, 2);
  std::vector<std::int32_t> ea, eb;
  for (i64 i = 0; i < na; ++i) ea.push_back(pa[2 * i]);
  for (i64 i = 0; i < nb; ++i) eb.push_back(pb[2 * i]);
  buf<std::int32_t> wm(na + nb);
  std::merge(ea.begin(), ea.end(), eb.begin(), eb.end(), wm.begin());
  EXPECT_TRUE(same_elements(ak::merge(sa, sb), wm));
}

}  // namespace
}  // namespace akt
