// reduce, mapreduce, sum, prod, minimum, maximum over whole arrays, against a sequential fold
// (std::accumulate's order) with the same operator; count, any and all.
//
// Library issue (reported): ak::neutral_element<bool, ak::bit_and> computes ~bool, which g++
// flags with -Wbool-operation, so reducing bools with bit_and does not compile under -Werror.
#pragma GCC diagnostic ignored "-Wbool-operation"

#include <atomic>

#include "test_support.hpp"

namespace akt {
namespace {

// The patterns a size is tested with: every pattern up to 8191 elements; past that random and
// one more pattern that changes with the size.
std::vector<pattern> patterns_for(i64 n, std::size_t k) {
  if (n <= (on_gpu_style() ? 257 : 8191)) return {all_patterns.begin(), all_patterns.end()};
  if (n > 65537) return {pattern::random};
  return {pattern::random, all_patterns[1 + k % (all_patterns.size() - 1)]};
}

// ---- The operators themselves (the references below fold with them) --------------------------

AKT_TAG(cpu_only, "Operators.*");
TEST(Operators, MinMaxAndIslessFollowTheFloatOrder) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(std::signbit(ak::minimum_op{}(-0.0, 0.0)));
  EXPECT_TRUE(std::signbit(ak::minimum_op{}(0.0, -0.0)));
  EXPECT_FALSE(std::signbit(ak::maximum_op{}(-0.0, 0.0)));
  EXPECT_FALSE(std::signbit(ak::maximum_op{}(0.0, -0.0)));
  EXPECT_TRUE(std::isnan(ak::minimum_op{}(nan, 1.0)));
  EXPECT_TRUE(std::isnan(ak::minimum_op{}(1.0, nan)));
  EXPECT_TRUE(std::isnan(ak::maximum_op{}(nan, 1.0)));
  EXPECT_TRUE(std::isnan(ak::maximum_op{}(-inf, nan)));
  // isless: -Inf < -1 < -0.0 < +0.0 < 1 < Inf < NaN, NaNs equal.
  const std::vector<double> order{-inf, -1.0, -0.0, 0.0, 1.0, inf, nan};
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t j = 0; j < order.size(); ++j)
      EXPECT_EQ(ak::isless{}(order[i], order[j]), i < j) << i << " " << j;
  EXPECT_FALSE(ak::isless{}(nan, -nan));
  EXPECT_FALSE(ak::isless{}(-nan, nan));
  AKT_RANDOM(r);
  for (int k = 0; k < 1000; ++k) {
    const auto a = random_value<std::int32_t>(r, values::full),
               b = random_value<std::int32_t>(r, values::full);
    EXPECT_EQ(ak::minimum_op{}(a, b), std::min(a, b));
    EXPECT_EQ(ak::maximum_op{}(a, b), std::max(a, b));
  }
}

// ---- Whole-array reductions, every dtype ------------------------------------------------------

template <class T>
class ReduceWhole : public typed_test<T> {};
TYPED_TEST_SUITE(ReduceWhole, numeric_types, dtype_names);

template <class T>
class ReduceFloat : public typed_test<T> {};
TYPED_TEST_SUITE(ReduceFloat, float_types, dtype_names);

// op over data with and without init, against the fold. Without init the fold starts from the
// operator's neutral element, as std::reduce starts from T() (so a sum of -0.0 alone is +0.0).
template <class T, class Op>
void check_reduce(const buf<T>& data, Op op, std::optional<T> init) {
  const auto v = data.view();
  const std::optional<T> neutral = ak::neutral_element<T, Op>();
  const std::optional<T> want_plain =
      fold<T>(data.data(), data.size(), ak::identity{}, op, neutral);
  EXPECT_TRUE(same_value(ak::reduce(v, op), *want_plain)) << "without init";
  if (init) {
    const T got = ak::reduce(v, op, ak::reduce_options<T>{.init = *init});
    const std::optional<T> r =
        fold<T>(data.data(), data.size(), ak::identity{}, op, std::optional<T>{});
    const T want = r ? static_cast<T>(op(*init, *r)) : *init;
    EXPECT_TRUE(same_value(got, want)) << "with init " << show(*init);
  }
}

AKT_TAG(cross_group_sync, "ReduceWhole/*.SumEverySizeAndPattern");
TYPED_TEST(ReduceWhole, SumEverySizeAndPattern) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const auto sizes = all_sizes();
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const i64 n = sizes[k];
    for (pattern p : patterns_for(n, k)) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", pattern " + name_of(p));
      const buf<T> data = make_data<T>(n, p, r, values::small);
      check_reduce(data, ak::plus{}, std::optional<T>(random_value<T>(r, values::small)));
      // ak::sum is reduce with plus; std::plus<> maps onto it. std::reduce is the reference.
      const T want = std::reduce(data.begin(), data.end(), T(0), ak::plus{});
      EXPECT_TRUE(same_value(ak::sum(data.view()), want));
      EXPECT_TRUE(same_value(ak::reduce(data.view(), std::plus<>{}), want));
    }
  }
}

TYPED_TEST(ReduceWhole, ProdEverySize) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (i64 n : all_sizes()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    buf<T> data = make_data<T>(n, pattern::random, r, values::unit);
    // A few 2s (at most 2^5: fits every type) and, sometimes, a zero.
    for (int k = 0; k < 5 && n > 0; ++k) data[r.between(0, n - 1)] = T(2);
    if (n > 0 && r.chance(0.3)) data[r.between(0, n - 1)] = T(0);
    check_reduce(data, ak::multiplies{}, std::optional<T>(random_value<T>(r, values::unit)));
    const T want = std::reduce(data.begin(), data.end(), T(1), ak::multiplies{});
    EXPECT_TRUE(same_value(ak::prod(data.view()), want));
  }
}

TYPED_TEST(ReduceWhole, MinimumMaximumEverySizeAndPattern) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const auto sizes = all_sizes();
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const i64 n = sizes[k];
    for (pattern p : patterns_for(n, k)) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", pattern " + name_of(p));
      const buf<T> data = make_data<T>(n, p, r);
      check_reduce(data, ak::minimum_op{}, std::optional<T>(random_value<T>(r, values::full)));
      check_reduce(data, ak::maximum_op{}, std::optional<T>(random_value<T>(r, values::full)));
      const auto lo = fold<T>(data.data(), n, ak::identity{}, ak::minimum_op{}, std::optional<T>{});
      const auto hi = fold<T>(data.data(), n, ak::identity{}, ak::maximum_op{}, std::optional<T>{});
      if (n > 0) {
        EXPECT_TRUE(same_value(ak::minimum(data.view()), *lo));
        EXPECT_TRUE(same_value(ak::maximum(data.view()), *hi));
        // Against the std algorithms where there is no NaN (std::min_element knows no NaN order).
        if (std::none_of(data.begin(), data.end(), [](T x) { return x != x; })) {
          EXPECT_TRUE(same_value(ak::minimum(data.view()),
                                 *std::min_element(data.begin(), data.end(), ak::isless{})));
          EXPECT_TRUE(same_value(ak::maximum(data.view()),
                                 *std::max_element(data.begin(), data.end(), ak::isless{})));
        }
      }
    }
  }
}

// The vector loop behind minimum, maximum and findmin's test of a block
// (cpu::extreme_in_order), on every instruction set the machine has: every length from 1 to past
// four of the widest vectors, at three offsets, over every pattern (NaN, -0.0 and +0.0 among the
// special values) and zeros of both signs alone, against the first extreme in ak's order; and
// minimum and maximum through the algorithm on each target: whole, along the rows of 100 of a
// 3 x 100 view, and as a cumulative minimum (whose tiles the scan reduces with them).
AKT_TAG(cpu_only, "ReduceWhole/*.ExtremeOnEveryVectorTarget");
TYPED_TEST(ReduceWhole, ExtremeOnEveryVectorTarget) {
  using T = TypeParam;
  if constexpr (!ak::cpu::vector_loop_type_v<T>) {
    GTEST_SKIP() << "no vector loop for this type";
  } else {
    AKT_RANDOM(r);
    constexpr i64 len = 300;
    std::vector<buf<T>> inputs;
    for (const pattern p : all_patterns) inputs.push_back(make_data<T>(len, p, r));
    if constexpr (is_float_v<T>) {
      buf<T> zeros(len, T(0));
      for (T& x : zeros) x = r.chance(0.5) ? -T(0) : T(0);
      inputs.push_back(zeros);
    }
    for_each_vector_target([&](const std::string& target) {
      i64 wrong = 0;
      for (std::size_t k = 0; k < inputs.size(); ++k) {
        for (i64 b : {0, 1, 3})
          for (i64 n = 1; b + n <= len; ++n)
            for (bool max : {false, true}) {
              const T* p = inputs[k].data() + b;
              bool nan = true;
              const T got = ak::cpu::extreme_in_order(p, n, max, &nan);
              const bool want_nan = std::any_of(p, p + n, [](T x) { return x != x; });
              const T want = max ? *std::max_element(p, p + n, ak::isless{})
                                 : *std::min_element(p, p + n, ak::isless{});
              if ((nan != want_nan || (!want_nan && !same_bits(got, want))) && ++wrong <= 3)
                ADD_FAILURE() << "target " << target << ", input " << k << ", [" << b << ", "
                              << b + n << "), " << (max ? "max" : "min") << ": got " << show(got)
                              << (nan ? " (NaN seen)" : "") << ", want " << show(want)
                              << (want_nan ? " (NaN seen)" : "");
            }
        const buf<T>& v = inputs[k];
        const auto lo =
            fold<T>(v.data(), len, ak::identity{}, ak::minimum_op{}, std::optional<T>{});
        const auto hi =
            fold<T>(v.data(), len, ak::identity{}, ak::maximum_op{}, std::optional<T>{});
        EXPECT_TRUE(same_value(ak::minimum(v.view()), *lo)) << target << ", input " << k;
        EXPECT_TRUE(same_value(ak::maximum(v.view()), *hi)) << target << ", input " << k;
        const ak::view<const T> rows(v.data(), ak::shape{3, len / 3});
        const buf<T> row_lo = to_buf(ak::minimum(rows, ak::dims{1}));
        const buf<T> row_hi = to_buf(ak::maximum(rows, ak::dims{1}));
        for (i64 row = 0; row < 3; ++row) {
          const T* q = v.data() + row * (len / 3);
          EXPECT_TRUE(same_value(row_lo[row], *fold<T>(q, len / 3, ak::identity{}, ak::minimum_op{},
                                                       std::optional<T>{})))
              << target << ", input " << k << ", row " << row;
          EXPECT_TRUE(same_value(row_hi[row], *fold<T>(q, len / 3, ak::identity{}, ak::maximum_op{},
                                                       std::optional<T>{})))
              << target << ", input " << k << ", row " << row;
        }
        const buf<T> running = to_buf(ak::accumulate(v.view(), ak::minimum_op{}));
        i64 wrong_scan = 0;
        for (i64 i = 0; i < len; ++i)
          wrong_scan += same_value(running[i], *fold<T>(v.data(), i + 1, ak::identity{},
                                                        ak::minimum_op{}, std::optional<T>{}))
                            ? 0
                            : 1;
        EXPECT_EQ(wrong_scan, 0) << target << ", input " << k << ": cumulative minimum";
      }
      EXPECT_EQ(wrong, 0) << target;
    });
  }
}

TYPED_TEST(ReduceWhole, EmptyGivesTheNeutralElementOrInit) {
  using T = TypeParam;
  using L = std::numeric_limits<T>;
  const buf<T> none(0);
  EXPECT_TRUE(same_value(ak::sum(none.view()), T(0)));
  EXPECT_TRUE(same_value(ak::prod(none.view()), T(1)));
  if constexpr (is_float_v<T>) {
    EXPECT_TRUE(same_value(ak::minimum(none.view()), L::infinity()));
    EXPECT_TRUE(same_value(ak::maximum(none.view()), -L::infinity()));
  } else {
    EXPECT_TRUE(same_value(ak::minimum(none.view()), L::max()));
    EXPECT_TRUE(same_value(ak::maximum(none.view()), L::lowest()));
  }
  EXPECT_TRUE(same_value(ak::sum(none.view(), ak::reduce_options<T>{.init = T(5)}), T(5)));
  EXPECT_TRUE(same_value(ak::maximum(none.view(), ak::reduce_options<T>{.init = T(3)}), T(3)));
}

// Floats: NaN anywhere makes min, max and sum NaN; min(-0.0, +0.0) is -0.0 wherever they are.
TYPED_TEST(ReduceFloat, NanAndSignedZeros) {
  using T = TypeParam;
  {
    AKT_RANDOM(r);
    const T nan = std::numeric_limits<T>::quiet_NaN();
    for (i64 n : pick<std::vector<i64>>({1, 2, 17, 4097, 65537, 131073}, {1, 2, 17, 4097, 20000})) {
      SCOPED_TRACE("n = " + std::to_string(n));
      buf<T> data = make_data<T>(n, pattern::random, r, values::small);
      for (auto& x : data)
        if (x == 0) x = r.chance(0.5) ? T(0) : -T(0);
      const i64 at = r.between(0, n - 1);
      data[at] = r.chance(0.5) ? nan : -nan;
      EXPECT_TRUE(std::isnan(ak::minimum(data.view())));
      EXPECT_TRUE(std::isnan(ak::maximum(data.view())));
      EXPECT_TRUE(std::isnan(ak::sum(data.view())));
      // Only zeros of both signs: min is -0.0, max +0.0.
      if (n < 2) continue;
      buf<T> zeros(n, T(0));
      zeros[r.between(0, n - 1)] = -T(0);
      EXPECT_TRUE(same_value(ak::minimum(zeros.view()), -T(0)));
      EXPECT_TRUE(same_value(ak::maximum(zeros.view()), T(0)));
      std::fill(zeros.begin(), zeros.end(), -T(0));
      zeros[r.between(0, n - 1)] = T(0);
      EXPECT_TRUE(same_value(ak::minimum(zeros.view()), -T(0)));
      EXPECT_TRUE(same_value(ak::maximum(zeros.view()), T(0)));
    }
  }
}

TYPED_TEST(ReduceWhole, BitwiseAndLogicalOperators) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const auto sizes = all_sizes();
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const i64 n = sizes[k];
    SCOPED_TRACE("n = " + std::to_string(n));
    if constexpr (std::is_integral_v<T>) {
      // Mostly-ones data so that and/or do not saturate at once.
      buf<T> data = make_data<T>(n, pattern::random, r);
      for (auto& x : data)
        x = static_cast<T>(x | static_cast<T>(r.bits()) | static_cast<T>(r.bits()));
      check_reduce(data, ak::bit_and{}, std::optional<T>(random_value<T>(r, values::full)));
      check_reduce(data, ak::bit_or{}, std::optional<T>(random_value<T>(r, values::full)));
      check_reduce(data, ak::bit_xor{}, std::optional<T>(random_value<T>(r, values::full)));
      check_reduce(data, std::bit_xor<T>{}, std::optional<T>{});
    }
    // Logical operators on 0/1 data (where T(true) is neutral), with a rare 0 or 1.
    buf<T> ones(n, T(1)), zeros(n, T(0));
    if (n > 0 && k % 2 == 0) ones[r.between(0, n - 1)] = T(0);
    if (n > 0 && k % 3 == 0) zeros[r.between(0, n - 1)] = T(1);
    check_reduce(ones, ak::logical_and{}, std::optional<T>(T(1)));
    check_reduce(zeros, ak::logical_or{}, std::optional<T>(T(0)));
    check_reduce(ones, std::logical_and<>{}, std::optional<T>{});
  }
}

// Bitwise operators on floats reach the precompiled entry point, which refuses them.
TEST(ReduceWhole, BitwiseOperatorOnFloatsIsAnArgumentError) {
  const std::vector<float> v{1.0f, 2.0f};
  const auto msg = ak::test::error_message([&] { (void)ak::reduce(v, ak::bit_and{}); });
  EXPECT_TRUE(ak::test::contains(msg, "op")) << msg;
}

// init of another type than the elements: the template path, no wrapping in the element type.
TYPED_TEST(ReduceWhole, InitOfAWiderType) {
  using T = TypeParam;
  using W =
      std::conditional_t<is_float_v<T>, double,
                         std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>;
  AKT_SKIP_UNLESS_TYPE_ON_TARGET(W);
  AKT_RANDOM(r);
  for (i64 n : {i64{0}, i64{1}, i64{100}, i64{65537}, big_size}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    // Full-range integers, whose 64-bit sums cannot overflow (int64: small ones, as signed
    // overflow is undefined); integer-valued floats, whose double sums are exact.
    constexpr bool full = std::is_integral_v<T> && !std::is_same_v<T, std::int64_t>;
    const buf<T> data = make_data<T>(n, pattern::random, r, full ? values::full : values::small);
    const W init = static_cast<W>(r.between(0, 100));
    const W got = ak::reduce(data.view(), ak::plus{}, ak::reduce_options<W>{.init = init});
    W want = init;
    for (const T& x : data) want = static_cast<W>(want + static_cast<W>(x));
    EXPECT_EQ(got, want);
  }
}

// The partial results of a sum of arbitrary floats, compared with a tolerance scaled by n.
TYPED_TEST(ReduceFloat, SumOfArbitraryFloatsWithinTolerance) {
  using T = TypeParam;
  {
    AKT_RANDOM(r);
    for (i64 n : pick<std::vector<i64>>({3, 4097, 65537, 131073, big_size}, {3, 4097, big_size})) {
      SCOPED_TRACE("n = " + std::to_string(n));
      buf<T> data(n);
      double mag = 0, want = 0;
      for (auto& x : data) {
        x = static_cast<T>(r.unit() * 2 - 1);
        mag += std::abs(static_cast<double>(x));
        want += static_cast<double>(x);
      }
      const double eps = std::numeric_limits<T>::epsilon();
      EXPECT_NEAR(static_cast<double>(ak::sum(data.view())), want,
                  2 * eps * mag * std::log2(static_cast<double>(n) + 1) + eps * mag);
    }
  }
}

// mapreduce: op over f(x), with f's result type.
TYPED_TEST(ReduceWhole, MapreduceEverySize) {
  using T = TypeParam;
  AKT_RANDOM(r);
  AKT_SKIP_UNLESS_TYPE_ON_TARGET(double);
  const auto square = [](T x) { return static_cast<double>(x) * static_cast<double>(x); };
  const auto is_odd = [](T x) {
    return static_cast<std::int64_t>(static_cast<std::int64_t>(x) % 2 != 0);
  };
  for (i64 n : all_sizes()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const buf<T> data = make_data<T>(n, pattern::random, r, values::small);
    const double want =
        fold<double>(data.data(), n, square, ak::plus{}, std::optional<double>(0.0)).value();
    EXPECT_EQ(ak::mapreduce(data.view(), square, ak::plus{}), want);
    EXPECT_EQ(
        ak::mapreduce(data.view(), square, ak::plus{}, ak::reduce_options<double>{.init = 1.5}),
        want + 1.5);
    const auto odd =
        fold<std::int64_t>(data.data(), n, is_odd, ak::plus{}, std::optional<std::int64_t>(0))
            .value();
    EXPECT_EQ(ak::mapreduce(data.view(), is_odd, ak::plus{}), odd);
    if (n > 0) {
      const double hi =
          fold<double>(data.data(), n, square, ak::maximum_op{}, std::optional<double>{}).value();
      EXPECT_EQ(ak::mapreduce(data.view(), square, ak::maximum_op{}), hi);
    }
  }
}

// Per-call tunings: many small tasks and odd grains move every chunk border.
TYPED_TEST(ReduceWhole, PerCallTuningsMoveChunkBorders) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (i64 n :
       pick<std::vector<i64>>({1, 63, 64, 65, 1000, 4097, 65537}, {1, 63, 64, 65, 1000, 4097})) {
    const buf<T> data = make_data<T>(n, pattern::random, r, values::small);
    const T want = *fold<T>(data.data(), n, ak::identity{}, ak::plus{}, std::optional<T>{});
    for (i64 tasks : {0, 1, 3, 7, 64})
      for (i64 grain : {1, 7, 100, 4096}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", cpu_tasks = " + std::to_string(tasks) +
                     ", cpu_grain = " + std::to_string(grain));
        const ak::reduce_options<T> o{.tuning = {.cpu_tasks = tasks, .cpu_grain = grain}};
        EXPECT_TRUE(same_value(ak::reduce(data.view(), ak::plus{}, o), want));
      }
  }
}

// Non-contiguous views: a slice with step 2, a reversed view, a column of a matrix.
TYPED_TEST(ReduceWhole, NonContiguousViews) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (i64 n : pick<std::vector<i64>>({0, 1, 5, 4097, 131073}, {0, 1, 5, 4097, 20001})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const buf<T> data = make_data<T>(2 * n + 1, pattern::random, r, values::small);
    const ak::view<const T> all = data.view();
    for (const ak::view<const T>& v : {all.slice(0, 0, 2 * n, 2), all.slice(0, 1, 2 * n + 1, -1),
                                       all.slice(0, 1, 2 * n + 1, -2)}) {
      const buf<T> g = gather(v);
      const T want = g.size() == 0 ? T(0)
                                   : *fold<T>(g.data(), g.size(), ak::identity{}, ak::plus{},
                                              std::optional<T>{});
      EXPECT_TRUE(same_value(ak::sum(v), want));
      if (g.size() > 0) {
        EXPECT_TRUE(same_value(ak::maximum(v), *fold<T>(g.data(), g.size(), ak::identity{},
                                                        ak::maximum_op{}, std::optional<T>{})));
      }
    }
    // A 2-d view: every other column of an (n, 3) matrix, transposed.
    const buf<T> m = make_data<T>(3 * n, pattern::random, r, values::small);
    const ak::view<const T> mv = m.view().reshape(ak::shape{n, 3});
    const ak::view<const T> t = mv.slice(1, 0, 3, 2).transpose();
    const buf<T> g = gather(t);
    EXPECT_TRUE(same_value(ak::sum(t), g.size() == 0 ? T(0)
                                                     : *fold<T>(g.data(), g.size(), ak::identity{},
                                                                ak::plus{}, std::optional<T>{})));
  }
}

// A rank-0 array is one element.
TEST(ReduceWhole, RankZero) {
  ak::array<float> a(ak::shape{}, 2.5f, target_memory());
  EXPECT_EQ(ak::sum(a), 2.5f);
  EXPECT_EQ(ak::maximum(a), 2.5f);
  EXPECT_EQ(ak::count(a), 1);
}

// The same bits run to run (fixed thread count and tuning), for arbitrary floats.
TYPED_TEST(ReduceWhole, SameBitsRunToRun) {
  using T = TypeParam;
  AKT_RANDOM(r);
  buf<T> data = make_data<T>(big_size, pattern::random, r, values::small);
  if constexpr (is_float_v<T>)
    for (auto& x : data) x = static_cast<T>(r.unit() * 1000 - 500);
  const T first = ak::sum(data.view());
  for (int k = 0; k < 3; ++k) EXPECT_TRUE(same_bits(ak::sum(data.view()), first)) << "run " << k;
}

// ---- bool -------------------------------------------------------------------------------------

TEST(ReduceBool, LogicalAndBitwiseOperators) {
  AKT_RANDOM(r);
  const auto sizes = all_sizes();
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const i64 n = sizes[k];
    for (pattern p : patterns_for(n, k)) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", pattern " + name_of(p));
      buf<bool> data = make_data<bool>(n, p, r);
      // Mostly true (or mostly false) so that the answer is not settled by the first elements.
      buf<bool> mostly_true(n, true), mostly_false(n, false);
      if (n > 0 && r.chance(0.5)) mostly_true[r.between(0, n - 1)] = false;
      if (n > 0 && r.chance(0.5)) mostly_false[r.between(0, n - 1)] = true;
      for (const buf<bool>* d : {&data, &mostly_true, &mostly_false}) {
        const bool all_true = std::all_of(d->begin(), d->end(), [](bool x) { return x; });
        const bool any_true = std::any_of(d->begin(), d->end(), [](bool x) { return x; });
        const bool parity = std::count(d->begin(), d->end(), true) % 2 == 1;
        EXPECT_EQ(ak::reduce(d->view(), ak::logical_and{}), all_true);
        EXPECT_EQ(ak::reduce(d->view(), ak::logical_or{}), any_true);
        EXPECT_EQ(ak::reduce(d->view(), ak::bit_and{}), all_true);
        EXPECT_EQ(ak::reduce(d->view(), ak::bit_or{}), any_true);
        EXPECT_EQ(ak::reduce(d->view(), ak::bit_xor{}), parity);
        EXPECT_EQ(ak::reduce(d->view(), ak::logical_and{}, ak::reduce_options<bool>{.init = false}),
                  false);
        EXPECT_EQ(ak::reduce(d->view(), ak::logical_or{}, ak::reduce_options<bool>{.init = true}),
                  true);
        EXPECT_EQ(ak::count(d->view()), std::count(d->begin(), d->end(), true));
        EXPECT_EQ(ak::any(d->view()), any_true);
        EXPECT_EQ(ak::all(d->view()), all_true);
      }
    }
  }
}

// ---- count, any, all --------------------------------------------------------------------------

template <class T>
class Predicates : public typed_test<T> {};
TYPED_TEST_SUITE(Predicates, all_types, dtype_names);

TYPED_TEST(Predicates, CountAnyAllEverySizeAndPattern) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const auto sizes = all_sizes();
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const i64 n = sizes[k];
    for (pattern p : patterns_for(n, k)) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", pattern " + name_of(p));
      const buf<T> data = make_data<T>(n, p, r);
      const T pivot = random_value<T>(r, values::full);
      const auto below = [pivot](const T& x) { return ak::isless{}(x, pivot); };
      const auto nonzero = [](const T& x) { return static_cast<bool>(x); };
      EXPECT_EQ(ak::count(data.view()), std::count_if(data.begin(), data.end(), nonzero));
      EXPECT_EQ(ak::count(data.view(), below), std::count_if(data.begin(), data.end(), below));
      EXPECT_EQ(ak::any(data.view()), std::any_of(data.begin(), data.end(), nonzero));
      EXPECT_EQ(ak::all(data.view()), std::all_of(data.begin(), data.end(), nonzero));
      EXPECT_EQ(ak::any(data.view(), below), std::any_of(data.begin(), data.end(), below));
      EXPECT_EQ(ak::all(data.view(), below), std::all_of(data.begin(), data.end(), below));
    }
  }
}

// count on the cpu sums its predicate in 16 byte-wide lanes emptied every 255 rounds: every
// element true (the lanes at their fullest), none, and every other one, at sizes around
// multiples of 16 * 255 = 4080, contiguous and strided (the strided path keeps 64-bit lanes).
TYPED_TEST(Predicates, CountAroundItsLaneCounters) {
  using T = TypeParam;
  AKT_RANDOM(r);
  // The lanes are the cpu's; on sim (each work-item a fiber) the sizes stop at 65281.
  for (i64 n : {i64{15}, i64{16}, i64{17}, i64{4079}, i64{4080}, i64{4081}, i64{8159}, i64{8160},
                i64{8161}, i64{65279}, i64{65280}, i64{65281}, pick<i64>(1044481, 65281)}) {
    buf<T> data(2 * n, T(1));
    for (int fill = 0; fill < 3; ++fill) {
      for (i64 i = 0; i < 2 * n; ++i)
        data[i] = fill == 0 ? T(1) : fill == 1 ? T(0) : static_cast<T>(i % 2 == 0 || r.chance(0.1));
      SCOPED_TRACE("n = " + std::to_string(n) + ", fill " + std::to_string(fill));
      const auto nonzero = [](const T& x) { return static_cast<bool>(x); };
      EXPECT_EQ(ak::count(data.view()), std::count_if(data.begin(), data.end(), nonzero));
      i64 every_other = 0;
      for (i64 i = 0; i < 2 * n; i += 2) every_other += data[i] ? 1 : 0;
      EXPECT_EQ(ak::count(data.view().slice(0, 0, 2 * n, 2)), every_other) << "strided";
    }
  }
}

// A single hit anywhere (first, last, around chunk and block borders) is found; with none, any
// is false and all true. Per-call grains move the chunk borders.
TYPED_TEST(Predicates, SingleHitAtEveryBorder) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (i64 n : pick<std::vector<i64>>({1, 2, 64, 4097, 65537, 131073}, {1, 2, 64, 4097})) {
    std::vector<i64> positions{0, n - 1, n / 2, r.between(0, n - 1)};
    for (i64 b : {63, 64, 65, 511, 512, 4095, 4096, 32767, 32768, 65536})
      if (b < n) positions.push_back(b);
    for (i64 grain : {i64{0}, i64{1}, i64{100}}) {
      const ak::loop_options o{.tuning = {.cpu_grain = grain == 0 ? ak::unset : grain}};
      buf<T> data(n, T(0));
      SCOPED_TRACE("n = " + std::to_string(n) + ", grain " + std::to_string(grain));
      const auto nonzero = [](const T& x) { return static_cast<bool>(x); };
      EXPECT_FALSE(ak::any(data.view(), nonzero, o));
      EXPECT_TRUE(ak::all(
          data.view(), [](const T& x) { return !x; }, o));
      for (i64 at : positions) {
        SCOPED_TRACE("hit at " + std::to_string(at));
        data[at] = T(1);
        EXPECT_TRUE(ak::any(data.view(), nonzero, o));
        EXPECT_FALSE(ak::all(
            data.view(), [](const T& x) { return !x; }, o));
        EXPECT_EQ(ak::count(data.view()), 1);
        data[at] = T(0);
      }
    }
  }
}

// any and all stop early: a hit at the front leaves most elements unvisited.
AKT_TAG(cpu_only, "Predicates.AnyAndAllStopEarly");
TEST(Predicates, AnyAndAllStopEarly) {
  const i64 n = big_size;
  std::vector<std::int32_t> data(static_cast<std::size_t>(n), 0);
  data[0] = 1;
  std::atomic<i64> calls{0};
  const auto hit = [&](std::int32_t x) {
    calls.fetch_add(1, std::memory_order_relaxed);
    return x != 0;
  };
  const auto miss = [&](std::int32_t x) {
    calls.fetch_add(1, std::memory_order_relaxed);
    return x == 0;
  };
  // Whatever the scheduling, the task holding element 0 stops at its first block and every
  // other task at its next block: fewer than n calls.
  EXPECT_TRUE(ak::any(data, hit));
  EXPECT_LT(calls.load(), n) << "any visited " << calls.load() << " of " << n;
  calls = 0;
  EXPECT_FALSE(ak::all(data, miss));
  EXPECT_LT(calls.load(), n) << "all visited " << calls.load() << " of " << n;
  {
    // One thread runs the tasks in order: the first block alone is visited.
    const thread_cap one(1);
    calls = 0;
    EXPECT_TRUE(ak::any(data, hit));
    EXPECT_LE(calls.load(), 4096) << "any visited " << calls.load() << " of " << n;
    calls = 0;
    EXPECT_FALSE(ak::all(data, miss));
    EXPECT_LE(calls.load(), 4096) << "all visited " << calls.load() << " of " << n;
  }
  // Without a hit every element is visited exactly once.
  data[0] = 0;
  calls = 0;
  EXPECT_FALSE(ak::any(data, hit));
  EXPECT_EQ(calls.load(), n);
}

TYPED_TEST(Predicates, NonContiguousViews) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (i64 n : pick<std::vector<i64>>({0, 1, 7, 65537}, {0, 1, 7, 4097})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    buf<T> data(2 * n, T(1));
    for (i64 i = 0; i < n; ++i) data[2 * i] = T(0);  // zeros at the even positions only
    // Views taken after each change of data (on sim, view() copies data to the device).
    const auto evens = [&]() -> ak::view<const T> { return data.view().slice(0, 0, 2 * n, 2); };
    const auto odds_reversed = [&]() -> ak::view<const T> {
      return data.view().slice(0, std::min<i64>(1, 2 * n), 2 * n, -2);
    };
    EXPECT_FALSE(ak::any(evens()));
    EXPECT_EQ(ak::count(evens()), 0);
    EXPECT_TRUE(ak::all(odds_reversed()));
    EXPECT_EQ(ak::count(odds_reversed()), n);
    if (n > 0) {
      const i64 at = r.between(0, n - 1);
      data[2 * at] = T(1);
      EXPECT_TRUE(ak::any(evens()));
      EXPECT_EQ(ak::count(evens()), 1);
      data[2 * at + 1] = T(0);
      EXPECT_FALSE(ak::all(odds_reversed()));
    }
  }
}

}  // namespace
}  // namespace akt
