// partialsort and partialsortperm against the first k of std::stable_sort (of the elements, and of
// their indices by element): every dtype, k at 0, 1, a few, n / 8 and around it, n - 1 and n, the
// data patterns (NaN and -0.0/+0.0 included, many equal elements, whose indices must come in
// order), ascending and descending, a key function, and the errors.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace akt {
namespace {

// partialsort and partialsortperm of v against the first k of std::stable_sort (descending with
// rev), for each k of ks within [0, n].
template <class T>
void expect_first_k(const buf<T>& v, const std::vector<i64>& ks, bool rev) {
  const i64 n = v.size();
  const auto less = [rev](const T& a, const T& b) {
    return rev ? ak::isless{}(b, a) : ak::isless{}(a, b);
  };
  buf<T> sorted = v;
  std::stable_sort(sorted.begin(), sorted.end(), less);
  buf<i64> perm(n);
  std::iota(perm.begin(), perm.end(), i64{0});
  std::stable_sort(perm.begin(), perm.end(), [&](i64 a, i64 b) { return less(v[a], v[b]); });
  for (i64 k : ks) {
    if (k < 0 || k > n) continue;
    SCOPED_TRACE(std::string(rev ? "rev, " : "") + "n = " + std::to_string(n) +
                 ", k = " + std::to_string(k));
    EXPECT_TRUE(same_bits_elements(to_buf(ak::partialsort(v.view(), k, {.rev = rev})),
                                   buf<T>(sorted.data(), k)));
    EXPECT_TRUE(
        same_elements(ak::partialsortperm(v.view(), k, {.rev = rev}), buf<i64>(perm.data(), k)));
  }
}

template <class T>
class PartialSort : public typed_test<T> {};
TYPED_TEST_SUITE(PartialSort, all_types, dtype_names);

TYPED_TEST(PartialSort, FirstKOfTheStableSort) {
  using T = TypeParam;
  AKT_RANDOM(r);
  // The sample's threshold is taken from 16384 elements on (partial_sort.hpp); on sim, where
  // each work-item is a fiber, fewer sizes and patterns.
  const std::vector<pattern> patterns =
      pick<std::vector<pattern>>({pattern::random, pattern::few, pattern::special, pattern::sorted,
                                  pattern::reversed, pattern::equal},
                                 {pattern::random, pattern::special, pattern::equal});
  for (i64 n : pick<std::vector<i64>>({0, 1, 2, 1000, 16383, 16384, 300007}, {0, 2, 1000, 20011}))
    for (pattern p : patterns)
      for (bool rev : {false, true}) {
        SCOPED_TRACE(name_of(p));
        // On sim, k = n (the whole array sorted, as for any k > n / 8) at 1000 elements only:
        // at 20011 it took half of the body's time there, and the radix selection's path is what
        // that size is for. There k = 1 would take the path of k = 100 (both stop at one sort of
        // at most 2k + 4096 candidates, partial_sort.hpp), which is most of the body's time.
        expect_first_k(make_data<T>(n, p, r),
                       pick<std::vector<i64>>({0, 1, 7, 100, n / 8 - 1, n / 8, n / 8 + 1, n - 1, n},
                                              n < (i64{1} << 14) ? std::vector<i64>{0, 1, 100, n}
                                                                 : std::vector<i64>{0, 100}),
                       rev);
      }
}

// Where the threshold's plain comparison (partial_sort.hpp) and ak's order part: a threshold at
// -0.0 or +0.0 (the general test then), NaNs among the k largest behind a finite threshold (the
// plain test with rev lets them through), and a NaN threshold. On GPU-style devices the threshold
// comes from radix selection: the same cases try its keys at the zeros and among the NaNs (whose
// ordered keys are one), and its stop at a bucket's last key.

template <class T>
class PartialSortFloat : public typed_test<T> {};
TYPED_TEST_SUITE(PartialSortFloat, float_types, dtype_names);

TYPED_TEST(PartialSortFloat, ThresholdsAtZerosAndNaNs) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const i64 n = pick<i64>(300007, 20011);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const auto uniform = [&] { return static_cast<T>(r.between(-1000000, 1000000)) / T(1000); };
  // Each element: NaN (either sign) with chance `nans`, else a zero (either sign) with chance
  // `zeros`, else uniform, made non-negative where `positive`.
  const auto mixture = [&](double nans, double zeros, bool positive) {
    buf<T> v(n);
    for (auto& x : v) {
      if (r.chance(nans))
        x = r.chance(0.5) ? nan : -nan;
      else if (r.chance(zeros))
        x = r.chance(0.5) ? T(0) : -T(0);
      else
        x = positive ? std::fabs(uniform()) : uniform();
    }
    return v;
  };
  struct mix {
    const char* name;
    double nans, zeros;
    bool positive;
  };
  for (const mix& m : {mix{"zeros below the positives", 0.0, 0.3, true},
                       mix{"thirty NaNs", 1e-4, 0.0, false}, mix{"mostly NaN", 0.9, 0.05, false}})
    for (bool rev : {false, true}) {
      SCOPED_TRACE(m.name);
      expect_first_k(mixture(m.nans, m.zeros, m.positive), {1, 100, 1000, n / 8}, rev);
    }
}

// A key function on records; a strided input; the errors.
struct rec {
  std::int32_t key;
  std::int32_t id;
};
struct rec_key {
  AK_KERNEL_FN std::int32_t operator()(const rec& x) const { return x.key; }
};

TEST(PartialSortCustom, KeyFunctionsStridesAndErrors) {
  AKT_RANDOM(r);
  const i64 n = pick<i64>(200003, 20011);
  buf<rec> v(n);
  for (i64 i = 0; i < n; ++i)
    v[i] = {static_cast<std::int32_t>(r.between(-50, 5000)), static_cast<std::int32_t>(i)};
  buf<rec> want = v;
  std::stable_sort(want.begin(), want.end(),
                   [](const rec& a, const rec& b) { return a.key < b.key; });
  for (i64 k : {i64{1}, i64{100}, n / 8 + 1}) {
    const buf<rec> got = to_buf(ak::partialsort(v.view(), k, ak::sort_options<rec_key>{}));
    ASSERT_EQ(got.size(), k);
    for (i64 i = 0; i < k; ++i) ASSERT_EQ(got[i].id, want[i].id) << "k = " << k << ", " << i;
  }
  // Every other element of a parent.
  const buf<std::int64_t> parent = make_data<std::int64_t>(2 * n, pattern::random, r);
  const ak::array<std::int64_t> a = to_array(parent);
  const ak::view<const std::int64_t> strided =
      ak::view<const std::int64_t>(a.view()).slice(0, 0, 2 * n, 2);
  buf<std::int64_t> every_other(n);
  for (i64 i = 0; i < n; ++i) every_other[i] = parent[2 * i];
  std::sort(every_other.begin(), every_other.end());
  EXPECT_TRUE(
      same_elements(ak::partialsort(strided, 50), buf<std::int64_t>(every_other.data(), 50)));
  // k out of range, and a 2-d array.
  EXPECT_THROW(ak::partialsort(v.view(), n + 1, ak::sort_options<rec_key>{}), ak::argument_error);
  EXPECT_THROW(ak::partialsortperm(v.view(), -1, ak::sort_options<rec_key>{}), ak::argument_error);
  const ak::array<std::int32_t> m(ak::shape{2, 5}, std::int32_t{1}, target_memory());
  EXPECT_THROW(ak::partialsort(m, 1), ak::argument_error);
}

}  // namespace
}  // namespace akt
