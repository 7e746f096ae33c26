// searchsortedfirst and searchsortedlast against std::lower_bound and std::upper_bound (0-based;
// last is upper_bound - 1), ascending and with rev, with a custom by and lt, for every dtype,
// n-d and non-contiguous queries, and strided or reversed sorted arrays.
#include "test_support.hpp"

namespace akt {
namespace {

template <class T, class Less>
buf<i64> lower(const buf<T>& sorted, const buf<T>& queries, const Less& less) {
  buf<i64> out(queries.size());
  for (i64 j = 0; j < queries.size(); ++j)
    out[j] = std::lower_bound(sorted.begin(), sorted.end(), queries[j], less) - sorted.begin();
  return out;
}
template <class T, class Less>
buf<i64> upper_minus_one(const buf<T>& sorted, const buf<T>& queries, const Less& less) {
  buf<i64> out(queries.size());
  for (i64 j = 0; j < queries.size(); ++j)
    out[j] = std::upper_bound(sorted.begin(), sorted.end(), queries[j], less) - sorted.begin() - 1;
  return out;
}

// Queries: values from the array (hits, including the ends), random values and the special
// values (NaN, +-0.0, +-Inf, min, max).
template <class T>
buf<T> make_queries(const buf<T>& sorted, i64 count, rng& r) {
  buf<T> q(count);
  const auto special = special_values<T>();
  for (auto& x : q) {
    const double u = r.unit();
    if (u < 0.4 && sorted.size() > 0)
      x = sorted[r.between(0, sorted.size() - 1)];
    else if (u < 0.5)
      x = special[r.index(special.size())];
    else
      x = random_value<T>(r, values::full);
  }
  return q;
}

template <class T>
class Search : public typed_test<T> {};
TYPED_TEST_SUITE(Search, all_types, dtype_names);

AKT_TAG(cross_group_sync, "Search/*.EverySizeBothDirections");
TYPED_TEST(Search, EverySizeBothDirections) {
  using T = TypeParam;
  AKT_RANDOM(r);
  std::vector<i64> sizes = small_sizes;
  sizes.insert(sizes.end(), {16385, on_gpu_style() ? big_size : 65537});
  for (i64 n : sizes)
    for (bool rev : {false, true})
      for (pattern p : {pattern::random, pattern::few, pattern::special, pattern::equal}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", pattern " + name_of(p) + (rev ? ", rev" : ""));
        const auto less = [rev](const T& a, const T& b) {
          return rev ? ak::isless{}(b, a) : ak::isless{}(a, b);
        };
        buf<T> sorted = make_data<T>(n, p, r);
        std::sort(sorted.begin(), sorted.end(), less);
        const i64 count = n < 300 ? 300 : r.chance(0.5) ? 4097 : 8193;
        const buf<T> q = make_queries(sorted, count, r);
        const ak::search_options<> o{.rev = rev};
        EXPECT_TRUE(same_elements(ak::searchsortedfirst(sorted.view(), q.view(), o),
                                  lower(sorted, q, less)))
            << "first";
        EXPECT_TRUE(same_elements(ak::searchsortedlast(sorted.view(), q.view(), o),
                                  upper_minus_one(sorted, q, less)))
            << "last";
      }
}

// Queries keep their shape (2-d, transposed); the sorted array may be a strided view, or a
// reversed view of an ascending array searched with rev.
TYPED_TEST(Search, ViewsAndShapes) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (i64 n : {i64{0}, i64{1}, i64{31}, i64{4097}}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    buf<T> parent = make_data<T>(2 * n, pattern::random, r);
    std::sort(parent.begin(), parent.end(), ak::isless{});
    const ak::view<const T> every_other = parent.view().slice(0, 0, 2 * n, 2);
    const ak::view<const T> descending = parent.view().slice(0, 0, 2 * n, -1);
    const buf<T> ev = gather(every_other), de = gather(descending);
    const buf<T> qflat = make_queries(parent, 6 * 70, r);
    const ak::view<const T> q2 = qflat.view().reshape(ak::shape{6, 70});
    const ak::view<const T> qt = q2.transpose();
    const auto asc = [](const T& a, const T& b) { return ak::isless{}(a, b); };
    const auto desc = [](const T& a, const T& b) { return ak::isless{}(b, a); };
    for (const ak::view<const T>& q : {q2, qt}) {
      const buf<T> qg = gather(q);
      const ak::array<i64> f = ak::searchsortedfirst(every_other, q);
      EXPECT_EQ(f.shape(), q.shape());
      EXPECT_TRUE(same_elements(f, lower(ev, qg, asc)))
          << "strided sorted, shape " << q.shape().to_string();
      const ak::array<i64> l =
          ak::searchsortedlast(descending, q, ak::search_options<>{.rev = true});
      EXPECT_EQ(l.shape(), q.shape());
      EXPECT_TRUE(same_elements(l, upper_minus_one(de, qg, desc)))
          << "reversed sorted, shape " << q.shape().to_string();
    }
    // A rank-0 query gives a rank-0 result.
    const T q0 = qflat.size() > 0 ? qflat[0] : T(0);
    const ak::array<T> one(ak::shape{}, q0, target_memory());
    const ak::array<i64> f0 = ak::searchsortedfirst(every_other, one);
    EXPECT_EQ(f0.shape(), ak::shape{});
    EXPECT_EQ(to_buf(f0)[0], lower(ev, buf<T>(&q0, 1), asc)[0]);
  }
}

// Per-call grains: every query chunk border.
TYPED_TEST(Search, PerCallGrains) {
  using T = TypeParam;
  AKT_RANDOM(r);
  buf<T> sorted = make_data<T>(1000, pattern::random, r);
  std::sort(sorted.begin(), sorted.end(), ak::isless{});
  const buf<T> q = make_queries(sorted, pick<i64>(100001, 10001), r);
  const auto want = lower(sorted, q, ak::isless{});
  for (i64 grain : {1, 7, 4096, 100000}) {
    SCOPED_TRACE("cpu_grain = " + std::to_string(grain));
    EXPECT_TRUE(
        same_elements(ak::searchsortedfirst(sorted.view(), q.view(),
                                            ak::search_options<>{.tuning = {.cpu_grain = grain}}),
                      want));
  }
}

template <class T>
class SearchCustomOrder : public typed_test<T> {};
TYPED_TEST_SUITE(SearchCustomOrder, numeric_types, dtype_names);

// A custom by (a coarser key: many ties) and a custom lt (descending), with and without rev.
TYPED_TEST(SearchCustomOrder, ByAndLt) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const auto coarse = [](T x) { return static_cast<T>(x / T(3)); };
  const auto greater = [](T a, T b) { return ak::isless{}(b, a); };
  for (i64 n : pick<std::vector<i64>>({0, 1, 2, 127, 4097, 65537}, {0, 1, 2, 127, 4097}))
    for (bool rev : {false, true}) {
      SCOPED_TRACE("n = " + std::to_string(n) + (rev ? ", rev" : ""));
      // by only
      {
        const auto less = [&](const T& a, const T& b) {
          return rev ? ak::isless{}(coarse(b), coarse(a)) : ak::isless{}(coarse(a), coarse(b));
        };
        buf<T> sorted = make_data<T>(n, pattern::random, r);
        std::stable_sort(sorted.begin(), sorted.end(), less);
        const buf<T> q = make_queries(sorted, 2000, r);
        const ak::search_options o{.by = coarse, .rev = rev};
        EXPECT_TRUE(same_elements(ak::searchsortedfirst(sorted.view(), q.view(), o),
                                  lower(sorted, q, less)))
            << "by, first";
        EXPECT_TRUE(same_elements(ak::searchsortedlast(sorted.view(), q.view(), o),
                                  upper_minus_one(sorted, q, less)))
            << "by, last";
      }
      // by and lt
      {
        const auto less = [&](const T& a, const T& b) {
          return rev ? greater(coarse(b), coarse(a)) : greater(coarse(a), coarse(b));
        };
        buf<T> sorted = make_data<T>(n, pattern::few, r);
        std::stable_sort(sorted.begin(), sorted.end(), less);
        const buf<T> q = make_queries(sorted, 2000, r);
        const ak::search_options o{.by = coarse, .lt = greater, .rev = rev};
        EXPECT_TRUE(same_elements(ak::searchsortedfirst(sorted.view(), q.view(), o),
                                  lower(sorted, q, less)))
            << "by and lt, first";
        EXPECT_TRUE(same_elements(ak::searchsortedlast(sorted.view(), q.view(), o),
                                  upper_minus_one(sorted, q, less)))
            << "by and lt, last";
      }
    }
}

// The output of ak::sort is what searchsorted expects (rev included).
TYPED_TEST(Search, AfterAkSort) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (bool rev : {false, true}) {
    const buf<T> data = make_data<T>(pick<i64>(65537, big_size), pattern::random, r);
    const ak::array<T> sorted = ak::sort(data.view(), ak::sort_options<>{.rev = rev});
    const buf<T> q = make_queries(data, 5000, r);
    const auto less = [rev](const T& a, const T& b) {
      return rev ? ak::isless{}(b, a) : ak::isless{}(a, b);
    };
    const ak::search_options<> o{.rev = rev};
    EXPECT_TRUE(
        same_elements(ak::searchsortedfirst(sorted, q.view(), o), lower(to_buf(sorted), q, less)))
        << (rev ? "rev" : "");
    EXPECT_TRUE(same_elements(ak::searchsortedlast(sorted, q.view(), o),
                              upper_minus_one(to_buf(sorted), q, less)))
        << (rev ? "rev" : "");
  }
}

}  // namespace
}  // namespace akt
