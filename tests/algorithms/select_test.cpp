// The selection family against the std algorithms: findall and copy_if against std::copy_if,
// partition against std::stable_partition, unique against std::unique, run_length_encode and
// unique_by_key against a loop, with ak::isequal as the equality, for every dtype, the size
// classes, the data patterns and flag patterns (all selected, none, alternating, random, runs of
// every length); n-d and strided inputs, custom types, predicates and equalities, per-call tunings
// and the errors, raised before anything is written. findmin, findmax and extrema (whole and
// along dims) against a loop that keeps the first NaN, else the first smallest (largest) element
// in ak's order. histogram with even bins and with edges against a loop (std::upper_bound for
// edges), NaN, infinities and values outside the bins included, and its errors.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include "test_support.hpp"

namespace akt {
namespace {

template <class T>
class Select : public typed_test<T> {};
TYPED_TEST_SUITE(Select, all_types, dtype_names);

// x before the pivot in ak's order: a predicate that selects some of every pattern.
template <class T>
struct before {
  T pivot;
  AK_KERNEL_FN bool operator()(const T& x) const { return ak::isless{}(x, pivot); }
};

// Which elements a flag array selects.
enum class flags { all, none, alternating, random, runs };
inline constexpr std::array<flags, 5> all_flags{flags::all, flags::none, flags::alternating,
                                                flags::random, flags::runs};
inline const char* name_of(flags f) {
  switch (f) {
    case flags::all:
      return "all";
    case flags::none:
      return "none";
    case flags::alternating:
      return "alternating";
    case flags::random:
      return "random";
    case flags::runs:
      return "runs";
  }
  return "?";
}

buf<bool> make_flags(i64 n, flags f, rng& r) {
  buf<bool> out(n);
  bool on = r.chance(0.5);
  i64 left = 0;
  for (i64 i = 0; i < n; ++i) {
    switch (f) {
      case flags::all:
        out[i] = true;
        break;
      case flags::none:
        out[i] = false;
        break;
      case flags::alternating:
        out[i] = i % 2 == 0;
        break;
      case flags::random:
        out[i] = r.chance(0.5);
        break;
      case flags::runs:
        if (left == 0) {
          on = !on;
          left = r.between(1, 300);
        }
        --left;
        out[i] = on;
        break;
    }
  }
  return out;
}

// Runs of equal values of every length from 1 to `longest`, in random order of lengths.
template <class T>
buf<T> make_runs(i64 n, i64 longest, rng& r) {
  buf<T> out(n);
  i64 i = 0;
  T prev = random_value<T>(r, values::full);
  while (i < n) {
    T x = random_value<T>(r, values::full);
    if constexpr (is_bool_v<T>) x = !prev;
    const i64 len = std::min(n - i, r.between(1, longest));
    for (i64 k = 0; k < len; ++k) out[i + k] = x;
    i += len;
    prev = x;
  }
  return out;
}

// A buf of a vector's elements (element by element: std::vector<bool> has no data()).
template <class T>
buf<T> from_vector(const std::vector<T>& v) {
  buf<T> out(static_cast<i64>(v.size()));
  for (i64 i = 0; i < out.size(); ++i) out[i] = v[static_cast<std::size_t>(i)];
  return out;
}

template <class T, class Pred>
buf<T> ref_copy_if(const buf<T>& v, Pred pred) {
  std::vector<T> out;
  std::copy_if(v.begin(), v.end(), std::back_inserter(out), pred);
  return from_vector(out);
}
template <class T, class Pred>
buf<i64> ref_findall(const buf<T>& v, Pred pred) {
  std::vector<i64> out;
  for (i64 i = 0; i < v.size(); ++i)
    if (pred(v[i])) out.push_back(i);
  return buf<i64>(out.data(), static_cast<i64>(out.size()));
}
// The first element of each run and the run's length (unique is the first part).
template <class T, class Eq>
std::pair<buf<T>, buf<i64>> ref_runs(const buf<T>& v, Eq eq) {
  std::vector<T> first;
  std::vector<i64> len;
  for (i64 i = 0; i < v.size(); ++i)
    if (i == 0 || !eq(v[i - 1], v[i])) {
      first.push_back(v[i]);
      len.push_back(1);
    } else {
      ++len.back();
    }
  return {from_vector(first), from_vector(len)};
}

TYPED_TEST(Select, EverySizeAndPattern) {
  using T = TypeParam;
  AKT_RANDOM(r);
  // On sim, where each work-item is a fiber, the patterns whose runs and selections differ most.
  const std::vector<pattern> patterns =
      pick<std::vector<pattern>>({pattern::random, pattern::sorted, pattern::equal, pattern::few,
                                  pattern::special, pattern::extremes},
                                 {pattern::random, pattern::equal, pattern::few, pattern::special});
  for (i64 n : all_sizes())
    for (pattern p : patterns) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", pattern " + name_of(p));
      const buf<T> v = make_data<T>(n, p, r);
      const before<T> pred{n > 0 ? v[r.between(0, n - 1)] : T(0)};
      EXPECT_TRUE(same_elements(ak::findall(v.view()), ref_findall(v, ak::detail::truthy{})))
          << "findall";
      EXPECT_TRUE(same_elements(ak::findall(v.view(), pred), ref_findall(v, pred)))
          << "findall(pred)";
      EXPECT_TRUE(same_elements(ak::copy_if(v.view(), pred), ref_copy_if(v, pred))) << "copy_if";
      {
        buf<T> want = v;
        const auto mid = std::stable_partition(want.begin(), want.end(), pred);
        auto [got, count] = ak::partition(v.view(), pred);
        EXPECT_EQ(count, mid - want.begin()) << "partition";
        EXPECT_TRUE(same_elements(got, want)) << "partition";
      }
      const auto [heads, lengths] = ref_runs(v, ak::isequal{});
      EXPECT_TRUE(same_elements(ak::unique(v.view()), heads)) << "unique";
      EXPECT_EQ(ak::unique_count(v.view()), heads.size()) << "unique_count";
      auto [values, got_lengths] = ak::run_length_encode(v.view());
      EXPECT_TRUE(same_elements(values, heads)) << "run_length_encode values";
      EXPECT_TRUE(same_elements(got_lengths, lengths)) << "run_length_encode lengths";
    }
}

// copy_if with arrays of flags in every pattern, and runs of every length for unique and
// run_length_encode.
TYPED_TEST(Select, FlagsAndRuns) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (i64 n : pick<std::vector<i64>>({0, 1, 2, 255, 256, 257, 4097, 65537, 1000003},
                                      {0, 1, 2, 255, 256, 257, 4097, 10001})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const buf<T> v = make_data<T>(n, pattern::random, r);
    for (flags f : all_flags) {
      SCOPED_TRACE(std::string("flags ") + name_of(f));
      const buf<bool> fl = make_flags(n, f, r);
      buf<T> want;
      {
        std::vector<T> w;
        for (i64 i = 0; i < n; ++i)
          if (fl[i]) w.push_back(v[i]);
        want = from_vector(w);
      }
      EXPECT_TRUE(same_elements(ak::copy_if(v.view(), fl.view()), want));
      // Flags of another dtype take the header templates (bool flags, libak's entry): any
      // nonzero value selects.
      buf<std::int32_t> wide(n);
      for (i64 i = 0; i < n; ++i) wide[i] = fl[i] ? static_cast<std::int32_t>(i % 7) - 9 : 0;
      EXPECT_TRUE(same_elements(ak::copy_if(v.view(), wide.view()), want)) << "int32 flags";
    }
    for (i64 longest : {1, 2, 7, 300}) {
      SCOPED_TRACE("runs up to " + std::to_string(longest));
      const buf<T> runs = make_runs<T>(n, longest, r);
      const auto [heads, lengths] = ref_runs(runs, ak::isequal{});
      auto [values, got_lengths] = ak::run_length_encode(runs.view());
      EXPECT_TRUE(same_elements(values, heads));
      EXPECT_TRUE(same_elements(got_lengths, lengths));
      EXPECT_TRUE(same_elements(ak::unique(runs.view()), heads));
    }
  }
}

// The flags the cpu computes with its vector loops (run heads of the default equality: unique,
// unique_count, run_length_encode, reduce_by_key; nonzero elements: findall without a predicate,
// copy_if's flags) on every instruction set the build has code for: those this machine lacks are
// named and skipped. On each target, the bits and counts of every range [b, e) with b < 67 and
// e - b < 131 (ends on and beside the vectors' boundaries) of every pattern and of runs, against
// loops of ak::isequal and of conversion to bool, and the algorithms on the whole arrays.
AKT_TAG(cpu_only, "*FlagBitsOnEveryVectorTarget");
TYPED_TEST(Select, FlagBitsOnEveryVectorTarget) {
  using T = TypeParam;
  if constexpr (!ak::detail::vector_flag_type_v<T>) {
    GTEST_SKIP() << "no vector loop for this type";
  } else {
    AKT_RANDOM(r);
    std::vector<buf<T>> inputs;
    for (const pattern p : all_patterns) inputs.push_back(make_data<T>(1001, p, r));
    for (i64 longest : {2, 5}) inputs.push_back(make_runs<T>(1001, longest, r));
    // The bits of [b, e) that loop gives against want(i), for every range above.
    auto check_bits = [](const char* name, const buf<T>& v, const auto& loop, const auto& want) {
      i64 wrong = 0;
      std::vector<std::uint64_t> words(3);
      for (i64 b = 0; b < 67; ++b)
        for (i64 e = b; e < std::min(v.size(), b + 131); ++e) {
          std::fill(words.begin(), words.end(), ~std::uint64_t{0});
          const i64 count = loop(ak::detail::vector_elements(v.data()), b, e, words.data());
          i64 set = 0;
          bool same = true;
          for (i64 i = b; i < b + 64 * ((e - b + 63) / 64); ++i) {
            const bool bit = (words[static_cast<std::size_t>((i - b) / 64)] >> ((i - b) % 64)) & 1;
            same = same && bit == (i < e && want(i));
            set += i < e && want(i);
          }
          if ((!same || count != set) && ++wrong <= 3)
            ADD_FAILURE() << name << " over [" << b << ", " << e << "): count " << count
                          << ", want " << set << (same ? "" : ", wrong bits");
        }
      EXPECT_EQ(wrong, 0) << name;
    };
    for_each_vector_target([&](const std::string& target) {
      for (std::size_t k = 0; k < inputs.size(); ++k) {
        SCOPED_TRACE("target " + target + ", input " + std::to_string(k));
        const buf<T>& v = inputs[k];
        check_bits(
            "run_head_bits", v,
            [](const auto* p, i64 b, i64 e, std::uint64_t* w) {
              return ak::cpu::run_head_bits(p, b, e, w);
            },
            [&](i64 i) { return i == 0 || !ak::isequal{}(v[i - 1], v[i]); });
        check_bits(
            "nonzero_bits", v,
            [](const auto* p, i64 b, i64 e, std::uint64_t* w) {
              return ak::cpu::nonzero_bits(p, b, e, w);
            },
            [&](i64 i) { return static_cast<bool>(v[i]); });
        const auto [heads, lengths] = ref_runs(v, ak::isequal{});
        EXPECT_EQ(ak::unique_count(v.view()), heads.size());
        auto [values, got_lengths] = ak::run_length_encode(v.view());
        EXPECT_TRUE(same_bits_elements(to_buf(values), heads));
        EXPECT_TRUE(same_elements(got_lengths, lengths));
        EXPECT_TRUE(same_elements(ak::findall(v.view()), ref_findall(v, ak::detail::truthy{})));
        EXPECT_TRUE(same_bits_elements(to_buf(ak::copy_if(v.view(), v.view())),
                                       ref_copy_if(v, ak::detail::truthy{})));
      }
    });
  }
}

// Floats: NaN of either sign equals every NaN, -0.0 and +0.0 differ (ak::isequal); NaN is
// nonzero for findall; the bits of the kept element are the first of its run's.
template <class T>
class SelectFloat : public typed_test<T> {};
TYPED_TEST_SUITE(SelectFloat, float_types, dtype_names);

TYPED_TEST(SelectFloat, NaNAndSignedZeros) {
  using T = TypeParam;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const buf<T> v = [&] {
    const std::vector<T> x{nan, -nan, nan, T(-0.0), T(0.0), T(0.0), T(-0.0), T(1), -nan};
    return buf<T>(x.data(), static_cast<i64>(x.size()));
  }();
  const buf<T> u = to_buf(ak::unique(v.view()));
  ASSERT_EQ(u.size(), 6);
  EXPECT_TRUE(same_bits(u[0], nan));
  EXPECT_TRUE(same_bits(u[1], T(-0.0)));
  EXPECT_TRUE(same_bits(u[2], T(0.0)));
  EXPECT_TRUE(same_bits(u[3], T(-0.0)));
  EXPECT_TRUE(same_bits(u[4], T(1)));
  EXPECT_TRUE(same_bits(u[5], -nan));
  auto [values, lengths] = ak::run_length_encode(v.view());
  const std::vector<i64> want_lengths{3, 1, 2, 1, 1, 1};
  EXPECT_EQ(to_buf(lengths).size(), 6);
  EXPECT_TRUE(same_elements(lengths, buf<i64>(want_lengths.data(), 6)));
  const std::vector<i64> nonzero{0, 1, 2, 7, 8};
  EXPECT_TRUE(same_elements(ak::findall(v.view()), buf<i64>(nonzero.data(), 5)));
}

// n-d and strided inputs are read in row-major order; partition_inplace writes back through the
// view's strides and leaves the rest of its parent alone; select_into writes a strided dst.
TEST(SelectViews, StridedTransposedAndInPlace) {
  AKT_RANDOM(r);
  for (layout l : all_layouts)
    for (const std::vector<i64>& ext :
         {std::vector<i64>{0, 3}, std::vector<i64>{37, 61}, std::vector<i64>{5, 4, 3}}) {
      SCOPED_TRACE(std::string("layout ") + name_of(l) + ", shape " + shape_string(ext));
      laid_out<std::int32_t> lo = make_layout<std::int32_t>(ext, l, r, values::small);
      const buf<std::int32_t> flat = gather(lo.view);
      const before<std::int32_t> pred{1};
      EXPECT_TRUE(same_elements(ak::findall(ak::view<const std::int32_t>(lo.view), pred),
                                ref_findall(flat, pred)));
      EXPECT_TRUE(same_elements(ak::copy_if(ak::view<const std::int32_t>(lo.view), pred),
                                ref_copy_if(flat, pred)));
      EXPECT_TRUE(same_elements(ak::unique(ak::view<const std::int32_t>(lo.view)),
                                ref_runs(flat, ak::isequal{}).first));
      buf<std::int32_t> want = flat;
      const i64 count = std::stable_partition(want.begin(), want.end(), pred) - want.begin();
      EXPECT_EQ(ak::partition_inplace(lo.view, pred), count);
      EXPECT_TRUE(same_elements(gather(lo.view), want)) << "partition_inplace";
      EXPECT_TRUE(outside_untouched(lo));
    }
  // select_into a dst with stride 2: the first count elements written, the rest as they were.
  const buf<std::int16_t> v = make_data<std::int16_t>(1000, pattern::random, r, values::small);
  const auto odd = [](std::int16_t x) { return x % 2 != 0; };
  const buf<std::int16_t> want = ref_copy_if(v, odd);
  ak::array<std::int16_t> parent(ak::shape{2000}, std::int16_t{-100}, target_memory());
  const ak::view<std::int16_t> dst = parent.view().slice(0, 0, 2000, 2);
  EXPECT_EQ(ak::select_into(dst, v.view(), odd), want.size());
  const buf<std::int16_t> got = to_buf(parent);
  for (i64 i = 0; i < 1000; ++i) {
    const std::int16_t expect = i < want.size() ? want[i] : std::int16_t{-100};
    ASSERT_EQ(got[2 * i], expect) << "dst element " << i;
    ASSERT_EQ(got[2 * i + 1], -100) << "between dst's elements, at " << i;
  }
}

// A custom element type with a custom predicate and equality (the key alone), and unique_by_key
// with keys and values of different types.
struct item {
  std::int32_t key;
  float payload;
};

TEST(SelectCustom, TypesPredicatesAndEqualities) {
  AKT_RANDOM(r);
  for (i64 n : pick<std::vector<i64>>({0, 1, 257, 4097, 100003}, {0, 1, 257, 4097})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    buf<item> v(n);
    for (i64 i = 0; i < n; ++i)
      v[i] = {static_cast<std::int32_t>(r.between(0, 3)), static_cast<float>(i)};
    const auto small = [](const item& x) { return x.key < 2; };
    const auto same_key = [](const item& a, const item& b) { return a.key == b.key; };
    buf<item> want = v;
    const i64 count = std::stable_partition(want.begin(), want.end(), small) - want.begin();
    auto [got, got_count] = ak::partition(v.view(), small);
    EXPECT_EQ(got_count, count);
    const buf<item> g = to_buf(got);
    ASSERT_EQ(g.size(), n);
    for (i64 i = 0; i < n; ++i) {
      ASSERT_EQ(g[i].key, want[i].key) << i;
      ASSERT_EQ(g[i].payload, want[i].payload) << i;
    }
    const auto [heads, lengths] = ref_runs(v, same_key);
    const buf<item> u = to_buf(ak::unique(v.view(), same_key));
    ASSERT_EQ(u.size(), heads.size());
    for (i64 i = 0; i < u.size(); ++i) ASSERT_EQ(u[i].payload, heads[i].payload) << i;
    EXPECT_EQ(ak::unique_count(v.view(), same_key), heads.size());
    auto [rv, rl] = ak::run_length_encode(v.view(), same_key);
    EXPECT_TRUE(same_elements(rl, lengths));

    // unique_by_key: int32 keys, double values (float64 where the device has it, else int64).
    buf<std::int32_t> keys(n);
    for (i64 i = 0; i < n; ++i) keys[i] = v[i].key;
    buf<std::int64_t> vals(n);
    for (i64 i = 0; i < n; ++i) vals[i] = i * 3;
    auto [uk, uv] = ak::unique_by_key(keys.view(), vals.view());
    const auto [kheads, klengths] = ref_runs(keys, ak::isequal{});
    EXPECT_TRUE(same_elements(uk, kheads));
    buf<std::int64_t> want_v(kheads.size());
    for (i64 i = 0, at = 0; i < kheads.size(); at += klengths[i], ++i) want_v[i] = at * 3;
    EXPECT_TRUE(same_elements(uv, want_v));
  }
}

// Per-call tunings: every chunk border on cpu, every tile shape on GPU-style devices.
TEST(SelectTuning, PerCallTunings) {
  AKT_RANDOM(r);
  const buf<std::int32_t> v = make_data<std::int32_t>(pick<i64>(100003, 10007), pattern::few, r);
  const before<std::int32_t> pred{v[0]};
  const buf<i64> want = ref_findall(v, pred);
  const auto [heads, lengths] = ref_runs(v, ak::isequal{});
  for (i64 grain : {1, 7, 4096, 1 << 20})
    for (i64 block : {32, 128})
      for (i64 ipt : {1, 3, 32}) {
        SCOPED_TRACE("cpu_grain " + std::to_string(grain) + ", block_size " +
                     std::to_string(block) + ", items_per_thread " + std::to_string(ipt));
        const ak::select_options o{
            .tuning = {.block_size = block, .items_per_thread = ipt, .cpu_grain = grain}};
        EXPECT_TRUE(same_elements(ak::findall(v.view(), pred, o), want));
        auto [values, got_lengths] = ak::run_length_encode(v.view(), o);
        EXPECT_TRUE(same_elements(got_lengths, lengths));
      }
}

// Bad arguments are errors that name them, raised before anything is written.
TEST(SelectErrors, BeforeAnythingIsWritten) {
  const buf<std::int32_t> v(10, 1);
  const buf<bool> short_flags(9, true);
  EXPECT_THROW(ak::copy_if(v.view(), short_flags.view()), ak::argument_error);
  const buf<std::int64_t> short_values(9, 0);
  EXPECT_THROW(ak::unique_by_key(v.view(), short_values.view()), ak::argument_error);
  // dst too small for the selected count: an error, and dst as it was.
  buf<std::int32_t> dst(9, -7);
  const auto all = [](std::int32_t) { return true; };
  try {
    (void)ak::select_into(dst.view(), v.view(), all);
    ADD_FAILURE() << "no error for a dst of 9 elements and 10 selected";
  } catch (const ak::argument_error& e) {
    EXPECT_NE(std::string(e.what()).find("dst"), std::string::npos) << e.what();
  }
  for (i64 i = 0; i < 9; ++i) EXPECT_EQ(dst[i], -7);
  // A dst of exactly the count is enough; a 2-d dst is a rank error.
  buf<std::int32_t> exact(10, 0);
  EXPECT_EQ(ak::select_into(exact.view(), v.view(), all), 10);
  ak::array<std::int32_t> square(ak::shape{4, 4}, target_memory());
  EXPECT_THROW(ak::select_into(square.view(), v.view(), all), ak::argument_error);
  // dst overlapping src (in place, or shifted by one): an error, and the data as they were.
  ak::array<std::int32_t> both(ak::shape{20}, std::int32_t{5}, target_memory());
  EXPECT_THROW(ak::select_into(both.view(), ak::view<const std::int32_t>(both.view()), all),
               ak::argument_error);
  EXPECT_THROW(ak::select_into(both.view().slice(0, 1, 20), both.view().slice(0, 0, 10), all),
               ak::argument_error);
  EXPECT_TRUE(same_elements(both, buf<std::int32_t>(20, 5)));
  EXPECT_EQ(ak::select_into(both.view().slice(0, 10, 20), both.view().slice(0, 0, 10), all), 10);
  // Arguments on two devices.
  if (on_gpu_style()) {
    std::vector<bool> host_flags_storage(10, true);
    const std::vector<std::uint8_t> host_flags(10, 1);
    EXPECT_THROW(ak::copy_if(v.view(), host_flags), ak::error);
  }
}

// An exception from the caller's predicate reaches the caller from any tile of the one-pass
// selection, with no worker left waiting on the tile that threw; the same for the chained scan
// (accumulate), which runs on the same chain of tiles.
TEST(SelectErrors, PredicateExceptionsPropagate) {
  if (on_gpu_style())
    GTEST_SKIP() << "a kernel body cannot throw (elementwise_test checks how a launch fails)";
  struct boom : std::runtime_error {
    boom() : std::runtime_error("boom") {}
  };
  const i64 n = big_size;
  std::vector<std::int32_t> iota(static_cast<std::size_t>(n));
  std::iota(iota.begin(), iota.end(), 0);
  const buf<std::int32_t> v = from_vector(iota);
  for (i64 grain : {i64{1024}, i64{1} << 16})
    for (i64 at : {i64{0}, n / 2, n - 1}) {
      SCOPED_TRACE("throws at " + std::to_string(at) + ", cpu_grain " + std::to_string(grain));
      const auto pred = [at](std::int32_t x) {
        if (x == at) throw boom();
        return x % 3 == 0;
      };
      const ak::select_options o{.tuning = {.cpu_grain = grain}};
      EXPECT_THROW((void)ak::findall(v.view(), pred, o), boom);
      EXPECT_THROW((void)ak::copy_if(v.view(), pred, o), boom);
      buf<std::int32_t> dst(n, 0);
      EXPECT_THROW((void)ak::select_into(dst.view(), v.view(), pred, o), boom);
      const auto op = [at](i64 a, i64 b) {
        if (b == at) throw boom();
        return a + b;
      };
      EXPECT_THROW(
          (void)ak::accumulate(
              v.view(), op, ak::accumulate_options<i64>{.init = 0, .tuning = {.cpu_grain = grain}}),
          boom);
      // And the same calls without the throw still work.
      EXPECT_EQ(ak::findall(
                    v.view(), [](std::int32_t x) { return x % 3 == 0; }, o)
                    .size(),
                (n + 2) / 3);
    }
}

// ---- findmin, findmax, extrema ------------------------------------------------------------------

template <class T>
bool is_nan_value(const T& x) {
  if constexpr (is_float_v<T>)
    return x != x;
  else
    return false;
}

// The reference, walking elements in index order: the first NaN if any (NaN propagates), else the
// first smallest (largest) element in ak's order.
template <class T>
struct ref_keep {
  bool max;
  ak::found<T> operator()(const ak::found<T>& best, const ak::found<T>& x) const {
    bool take = best.index < 0;
    if (!take) {
      const bool xn = is_nan_value(x.value), bn = is_nan_value(best.value);
      take = !bn &&
             (xn || (max ? ak::isless{}(best.value, x.value) : ak::isless{}(x.value, best.value)));
    }
    return take ? x : best;
  }
};

template <class T>
ak::found<T> ref_find(const buf<T>& v, bool max) {
  ak::found<T> best;
  for (i64 i = 0; i < v.size(); ++i) best = ref_keep<T>{max}(best, {v[i], i});
  return best;
}

template <class T>
::testing::AssertionResult same_found(const ak::found<T>& got, const ak::found<T>& want) {
  if (got.index == want.index && same(got.value, want.value)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "got (" << show(got.value) << ", " << got.index << "), want (" << show(want.value)
         << ", " << want.index << ")";
}

template <class T>
class FindMinMax : public typed_test<T> {};
TYPED_TEST_SUITE(FindMinMax, numeric_types, dtype_names);

TYPED_TEST(FindMinMax, EverySizeAndPattern) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (i64 n : all_sizes())
    for (pattern p : all_patterns) {
      if (n == 0) continue;
      SCOPED_TRACE("n = " + std::to_string(n) + ", pattern " + name_of(p));
      const buf<T> v = make_data<T>(n, p, r);
      const auto lo = ref_find(v, false), hi = ref_find(v, true);
      EXPECT_TRUE(same_found(ak::findmin(v.view()), lo)) << "findmin";
      EXPECT_TRUE(same_found(ak::findmax(v.view()), hi)) << "findmax";
      const ak::extrema_result<T> e = ak::extrema(v.view());
      EXPECT_TRUE(same_found(e.min, lo)) << "extrema.min";
      EXPECT_TRUE(same_found(e.max, hi)) << "extrema.max";
    }
}

// findmin and findmax on every vector target the machine has (their blocks are tested by
// cpu::extreme_in_order): lengths around the vectors and the blocks, every pattern.
AKT_TAG(cpu_only, "FindMinMax/*.OnEveryVectorTarget");
TYPED_TEST(FindMinMax, OnEveryVectorTarget) {
  using T = TypeParam;
  AKT_RANDOM(r);
  std::vector<buf<T>> inputs;
  for (i64 n : {1, 2, 7, 64, 129, 1024, 1025, 2049, 5000})
    for (pattern p : all_patterns) inputs.push_back(make_data<T>(n, p, r));
  for_each_vector_target([&](const std::string& target) {
    for (const buf<T>& v : inputs) {
      SCOPED_TRACE("target " + target + ", n = " + std::to_string(v.size()));
      EXPECT_TRUE(same_found(ak::findmin(v.view()), ref_find(v, false))) << "findmin";
      EXPECT_TRUE(same_found(ak::findmax(v.view()), ref_find(v, true))) << "findmax";
    }
  });
}

// Along every set of dims of 2-d and 3-d shapes (and strided layouts): each output against the
// reference over its slice, the index being the element's row-major index in src.
template <class T>
class FindMinMaxDims : public typed_test<T> {};
TYPED_TEST_SUITE(FindMinMaxDims, float_types, dtype_names);

TYPED_TEST(FindMinMaxDims, AlongDims) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (layout l : {layout::contiguous, layout::transposed})
    for (const std::vector<i64>& ext : {std::vector<i64>{7, 5}, std::vector<i64>{1, 9},
                                        std::vector<i64>{4, 3, 6}, std::vector<i64>{0, 3}}) {
      laid_out<T> lo = make_layout<T>(ext, l, r, values::small);
      const buf<T> flat = gather(lo.view);
      const i64 rank = static_cast<i64>(ext.size());
      for (std::uint32_t mask = 1; mask < (1u << rank); ++mask) {
        std::vector<i64> along;
        for (i64 k = 0; k < rank; ++k)
          if ((mask >> k) & 1u) along.push_back(k);
        const ak::dims d = along.size() == 1   ? ak::dims(along[0])
                           : along.size() == 2 ? ak::dims{along[0], along[1]}
                                               : ak::dims{along[0], along[1], along[2]};
        SCOPED_TRACE(std::string("layout ") + name_of(l) + ", shape " + shape_string(ext) +
                     ", mask " + std::to_string(mask));
        bool reduced_empty = false;
        for (i64 k = 0; k < rank; ++k)
          if (((mask >> k) & 1u) && ext[static_cast<std::size_t>(k)] == 0) reduced_empty = true;
        if (reduced_empty) {
          EXPECT_THROW(ak::findmin(ak::view<const T>(lo.view), d), ak::argument_error);
          continue;
        }
        const ak::array<ak::found<T>> got = ak::findmin(ak::view<const T>(lo.view), d);
        const ak::array<ak::extrema_result<T>> both = ak::extrema(ak::view<const T>(lo.view), d);
        const buf<ak::found<T>> g = to_buf(got);
        const buf<ak::extrema_result<T>> b = to_buf(both);
        // The reference: for each output index, walk its slice in row-major order.
        const ak::shape full = make_shape(ext);
        std::vector<i64> out_ext = ext;
        for (i64 k = 0; k < rank; ++k)
          if ((mask >> k) & 1u) out_ext[static_cast<std::size_t>(k)] = 1;
        ASSERT_EQ(got.shape(), make_shape(out_ext));
        i64 o = 0;
        for_each_index(make_shape(out_ext), [&](const index_t& out_idx) {
          ak::found<T> lo_ref, hi_ref;
          const ref_keep<T> keep_lo{false}, keep_hi{true};
          for_each_index(full, [&](const index_t& idx) {
            for (i64 k = 0; k < rank; ++k)
              if (!((mask >> k) & 1u) &&
                  idx[static_cast<std::size_t>(k)] != out_idx[static_cast<std::size_t>(k)])
                return;
            i64 lin = 0;
            for (i64 k = 0; k < rank; ++k)
              lin = lin * ext[static_cast<std::size_t>(k)] + idx[static_cast<std::size_t>(k)];
            lo_ref = keep_lo(lo_ref, {flat[lin], lin});
            hi_ref = keep_hi(hi_ref, {flat[lin], lin});
          });
          EXPECT_TRUE(same_found(g[o], lo_ref)) << "findmin output " << o;
          EXPECT_TRUE(same_found(b[o].min, lo_ref)) << "extrema.min output " << o;
          EXPECT_TRUE(same_found(b[o].max, hi_ref)) << "extrema.max output " << o;
          ++o;
        });
      }
    }
}

TEST(FindMinMaxErrors, EmptyIsAnError) {
  const buf<float> none(0);
  EXPECT_THROW(ak::findmin(none.view()), ak::argument_error);
  EXPECT_THROW(ak::findmax(none.view()), ak::argument_error);
  EXPECT_THROW(ak::extrema(none.view()), ak::argument_error);
  // Ties go to the first index; -0.0 is smaller than +0.0; the first NaN wins both ways.
  const std::vector<float> x{1.0f, 0.0f, -0.0f, -0.0f, 2.0f, 2.0f};
  const buf<float> v = from_vector(x);
  EXPECT_EQ(ak::findmin(v.view()).index, 2);
  EXPECT_EQ(ak::findmax(v.view()).index, 4);
  const std::vector<float> y{1.0f, std::nanf(""), -1.0f, -std::nanf("")};
  const buf<float> w = from_vector(y);
  EXPECT_EQ(ak::findmin(w.view()).index, 1);
  EXPECT_EQ(ak::findmax(w.view()).index, 1);
}

// ---- histogram ----------------------------------------------------------------------------------

// The even bin of x by the documented formula, or -1.
template <class T>
i64 ref_even_bin(T x, T lower, T upper, i64 count) {
  i64 j = 0;
  if constexpr (is_float_v<T>) {
    if (!(x >= lower && x <= upper)) return -1;
    // Halved where the width overflows double (a bound near each end of the double range),
    // times 2^64 while count over the width does (bounds a subnormal apart).
    double h = std::isinf(static_cast<double>(upper) - static_cast<double>(lower)) ? 0.5 : 1;
    while (std::isinf(static_cast<double>(count) /
                      (static_cast<double>(upper) * h - static_cast<double>(lower) * h)))
      h *= 0x1p64;
    const double lo = static_cast<double>(lower) * h, hi = static_cast<double>(upper) * h;
    j = static_cast<i64>((static_cast<double>(x) * h - lo) *
                         (static_cast<double>(count) / (hi - lo)));
  } else {
    if (x < lower || x > upper) return -1;
    __extension__ using wide = __int128;
    j = static_cast<i64>((static_cast<wide>(x) - static_cast<wide>(lower)) * count /
                         (static_cast<wide>(upper) - static_cast<wide>(lower)));
  }
  return std::min(j, count - 1);
}

// Bins over the whole double range, whose width overflows double: each value's bin by hand
// ((x - lowest) / (max - lowest) * 4 in exact arithmetic, none near a bin boundary).
TEST(HistogramWide, WholeDoubleRange) {
  AKT_SKIP_UNLESS_TYPE_ON_TARGET(double);
  constexpr double lo = std::numeric_limits<double>::lowest(),
                   hi = std::numeric_limits<double>::max();
  const double inf = std::numeric_limits<double>::infinity();
  const buf<double> v = from_vector(
      std::vector<double>{lo, -1e308, -5e307, 1e307, 5e307, 1.5e308, hi, inf, -inf, std::nan("")});
  const std::vector<i64> want{2, 1, 2, 2};  // {lo, -1e308}, {-5e307}, {1e307, 5e307}, {1.5e308, hi}
  EXPECT_TRUE(same_elements(
      ak::histogram(v.view(), ak::even_bins<double>{.lower = lo, .upper = hi, .count = 4}),
      from_vector(want)));
}

// Bounds a few subnormals apart: count / (upper - lower) overflows double, and every value's bin
// is by hand. (It was infinite, and the bins' int64 conversion of infinity and NaN undefined; found
// by the algorithms fuzz target.)
TEST(HistogramWide, BoundsSubnormalsApart) {
  AKT_SKIP_UNLESS_TYPE_ON_TARGET(double);
  const double d = std::numeric_limits<double>::denorm_min();
  const buf<double> v = from_vector(std::vector<double>{
      0, d, 2 * d, 3 * d, 4 * d, -d, 5 * d, std::nan(""), -2 * d, -0.0, 1e-300, -1e300});
  EXPECT_TRUE(same_elements(
      ak::histogram(v.view(), ak::even_bins<double>{.lower = 0, .upper = 4 * d, .count = 4}),
      from_vector(std::vector<i64>{2, 1, 1, 2})));  // {0, -0.0}, {d}, {2d}, {3d, 4d}
  EXPECT_TRUE(same_elements(
      ak::histogram(v.view(), ak::even_bins<double>{.lower = -2 * d, .upper = 2 * d, .count = 2}),
      from_vector(std::vector<i64>{2, 4})));  // {-d, -2d}, {0, d, 2d, -0.0}
  EXPECT_TRUE(same_elements(
      ak::histogram(v.view(), ak::even_bins<double>{.lower = 0, .upper = d, .count = 3}),
      from_vector(std::vector<i64>{2, 0, 1})));  // {0, -0.0}, {}, {d}
}

// Keys at and next to every bin boundary of even bins, where the bin's double arithmetic rounds
// either way: each count as the reference computes it. (The cpu bins floats with the vector code,
// whole vectors at a time, the rest with the scalar bin; both must agree with it.)
template <class T>
void check_bin_boundaries(rng& r) {
  for (const auto& [lower, upper, count] :
       {std::tuple<T, T, i64>{T(-3.7), T(11.3), 1000},
        {T(0), T(1), 7},
        {std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max(), 256}}) {
    std::vector<T> keys;
    const double width = (static_cast<double>(upper) - static_cast<double>(lower)) / 2;
    for (i64 k = 0; k <= count; ++k) {
      // lower + k (upper - lower) / count without overflow, then its neighbours
      const T edge =
          static_cast<T>(static_cast<double>(lower) / 2 * 2 +
                         2 * (width * static_cast<double>(k) / static_cast<double>(count)));
      for (T x : {std::nextafter(edge, -std::numeric_limits<T>::infinity()), edge,
                  std::nextafter(edge, std::numeric_limits<T>::infinity())})
        keys.push_back(x);
    }
    std::shuffle(keys.begin(), keys.end(), r.engine());
    const buf<T> v = from_vector(keys);
    buf<i64> want(count, 0);
    for (const T x : keys)
      if (const i64 j = ref_even_bin(x, lower, upper, count); j >= 0) ++want[j];
    SCOPED_TRACE(std::to_string(count) + " bins over [" + show(lower) + ", " + show(upper) + "]");
    EXPECT_TRUE(same_elements(
        ak::histogram(v.view(), ak::even_bins<T>{.lower = lower, .upper = upper, .count = count}),
        want));
  }
}
TEST(HistogramBoundaries, Float32) {
  AKT_RANDOM(r);
  check_bin_boundaries<float>(r);
}
TEST(HistogramBoundaries, Float64) {
  AKT_SKIP_UNLESS_TYPE_ON_TARGET(double);
  AKT_RANDOM(r);
  check_bin_boundaries<double>(r);
}

// count_values, the cpu's count of keys of one and two bytes by value: its 32-bit counters are
// folded into the histogram every `slab` keys (2^30 in the library, which no other test reaches),
// here every few keys too, against a count by the table; bins out of range (-1), and signed keys
// (the table then starts at the lowest value, and byte b is the value b ^ the sign bit).
AKT_TAG(cpu_only, "HistogramCounts.*");
TEST(HistogramCounts, ValuesFoldedInSlabs) {
  AKT_RANDOM(r);
  const auto check = [&]<class U>(U) {
    constexpr i64 values = i64{1} << (8 * sizeof(U));
    const i64 n = 10007;
    for (bool flip : {false, true}) {
      std::vector<std::int32_t> table(static_cast<std::size_t>(values));
      for (std::int32_t& j : table) j = static_cast<std::int32_t>(r.between(-1, 9));
      std::vector<U> keys(static_cast<std::size_t>(n));
      for (U& k : keys) k = static_cast<U>(r.between(0, values - 1));
      std::vector<i64> want(10, 0);
      for (const U k : keys)
        if (const std::int32_t j = table[static_cast<std::size_t>(k ^ (flip ? values / 2 : 0))];
            j >= 0)
          ++want[static_cast<std::size_t>(j)];
      for (i64 slab : {sizeof(U) == 1 ? i64{3} : i64{1000}, i64{4099}, n, i64{1} << 30}) {
        std::vector<i64> h(10, 0);
        ak::detail::count_values(keys.data(), n, table.data(), flip, h.data(), slab);
        EXPECT_EQ(h, want) << sizeof(U) << "-byte keys, slab " << slab << (flip ? ", signed" : "");
      }
    }
  };
  check(std::uint8_t{});
  check(std::uint16_t{});
}

template <class T>
class Histogram : public typed_test<T> {};
TYPED_TEST_SUITE(Histogram, numeric_types, dtype_names);

AKT_TAG(cross_group_sync, "Histogram/*.EvenBinsAndEdges");
TYPED_TEST(Histogram, EvenBinsAndEdges) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (i64 n : pick<std::vector<i64>>({0, 1, 257, 4097, 65537, 1000003}, {0, 1, 257, 4097, 10001}))
    for (pattern p : {pattern::random, pattern::equal, pattern::special, pattern::extremes}) {
      const buf<T> v = make_data<T>(n, p, r);
      for (i64 count : {i64{1}, i64{7}, i64{256}, pick<i64>(20000, 5000)}) {
        // Bins over a part of the values: some fall outside. Integers: a random interval; floats:
        // [-100, 100] or the whole finite range.
        T lower, upper;
        if constexpr (is_float_v<T>) {
          const bool wide = r.chance(0.3);
          lower = wide ? std::numeric_limits<T>::lowest() : T(-100);
          upper = wide ? std::numeric_limits<T>::max() : T(100);
        } else {
          T a = random_value<T>(r, values::full), b = random_value<T>(r, values::full);
          if (a == b) b = a == std::numeric_limits<T>::max() ? T(a - 1) : T(a + 1);
          lower = std::min(a, b);
          upper = std::max(a, b);
        }
        SCOPED_TRACE("n = " + std::to_string(n) + ", pattern " + name_of(p) + ", " +
                     std::to_string(count) + " bins over [" + show(lower) + ", " + show(upper) +
                     "]");
        buf<i64> want(count, 0);
        for (i64 i = 0; i < n; ++i) {
          const i64 j = ref_even_bin(v[i], lower, upper, count);
          if (j >= 0) ++want[j];
        }
        EXPECT_TRUE(same_elements(
            ak::histogram(v.view(),
                          ak::even_bins<T>{.lower = lower, .upper = upper, .count = count}),
            want));
      }
      // Edges: sorted values of the data and random ones (repeats allowed), no NaN.
      for (i64 m : {i64{2}, i64{3}, i64{100}}) {
        std::vector<T> e;
        while (static_cast<i64>(e.size()) < m) {
          const T x =
              n > 0 && r.chance(0.5) ? v[r.between(0, n - 1)] : random_value<T>(r, values::full);
          if (!is_nan_value(x)) e.push_back(x);
        }
        std::sort(e.begin(), e.end(), ak::isless{});
        const buf<T> edges = from_vector(e);
        SCOPED_TRACE("n = " + std::to_string(n) + ", pattern " + name_of(p) + ", " +
                     std::to_string(m) + " edges");
        buf<i64> want(m - 1, 0);
        for (i64 i = 0; i < n; ++i) {
          const T x = v[i];
          if (is_nan_value(x)) continue;
          const i64 k = std::upper_bound(e.begin(), e.end(), x, ak::isless{}) - e.begin();
          if (k == 0) continue;
          if (k == m) {
            if (ak::isequal{}(x, e.back())) ++want[m - 2];
            continue;
          }
          ++want[k - 1];
        }
        EXPECT_TRUE(same_elements(ak::histogram(v.view(), edges.view()), want));
      }
    }
}

// Even bins of integers at each bin's smallest and largest value and their neighbours (the
// smallest offset from lower of bin j is ceil(j * width / count)), over intervals narrower than
// the count (bins no integer falls in), at each end of the type's range (bounds that are one number
// as doubles), over the whole range and a random one; on every vector target the machine has (the
// cpu bins 4- and 8-byte integers with the vector code, an estimate corrected by the bins' bounds,
// and the rest of a block and other integers with the scalar bin).
TYPED_TEST(Histogram, IntegerBinEdges) {
  using T = TypeParam;
  if constexpr (is_float_v<T>) {
    GTEST_SKIP() << "float bins at their edges: HistogramBoundaries";
  } else {
    AKT_RANDOM(r);
    __extension__ using wide = __int128;
    constexpr wide lowest = std::numeric_limits<T>::lowest(),
                   largest = std::numeric_limits<T>::max();
    std::vector<std::tuple<wide, wide, i64>> cases;  // lower, upper, count
    for (const i64 count : {i64{1}, i64{3}, i64{256}, i64{1000}}) {
      cases.emplace_back(lowest, largest, count);
      for (const wide w : {wide{1}, wide{5}, wide{999}, wide{1} << 40}) {
        if (w > largest - lowest) continue;
        cases.emplace_back(lowest, lowest + w, count);
        cases.emplace_back(largest - w, largest, count);
        cases.emplace_back(largest / 2 - w, largest / 2, count);
      }
      const wide a = random_value<T>(r, values::full), b = random_value<T>(r, values::full);
      if (a != b) cases.emplace_back(std::min(a, b), std::max(a, b), count);
    }
    for (const auto& [lower, upper, count] : cases) {
      std::vector<T> keys;
      const wide width = upper - lower;
      for (i64 j = 0; j <= count; ++j) {
        const wide first = (j * width + count - 1) / count;  // the smallest offset of bin j
        for (const wide d : {-1, 0, 1})
          if (lower + first + d >= lowest && lower + first + d <= largest)
            keys.push_back(static_cast<T>(lower + first + d));
      }
      for (i64 k = 0; k < 100; ++k) keys.push_back(random_value<T>(r, values::full));
      std::shuffle(keys.begin(), keys.end(), r.engine());
      const buf<T> v = from_vector(keys);
      const auto lo = static_cast<T>(lower), hi = static_cast<T>(upper);
      buf<i64> want(count, 0);
      for (const T x : keys)
        if (const i64 j = ref_even_bin(x, lo, hi, count); j >= 0) ++want[j];
      const auto check = [&](const std::string& target) {
        SCOPED_TRACE("target " + target + ", " + std::to_string(count) + " bins over [" + show(lo) +
                     ", " + show(hi) + "]");
        EXPECT_TRUE(same_elements(
            ak::histogram(v.view(), ak::even_bins<T>{.lower = lo, .upper = hi, .count = count}),
            want));
      };
      if (on_gpu_style())
        check("none (a GPU-style device)");
      else
        for_each_vector_target(check);
    }
  }
}

TEST(HistogramErrors, BadBinsBeforeAnythingIsWritten) {
  const buf<float> v(10, 1.0f);
  EXPECT_THROW(ak::histogram(v.view(), ak::even_bins<float>{.lower = 0, .upper = 1, .count = 0}),
               ak::argument_error);
  EXPECT_THROW(ak::histogram(v.view(), ak::even_bins<float>{.lower = 1, .upper = 1, .count = 4}),
               ak::argument_error);
  EXPECT_THROW(
      ak::histogram(v.view(), ak::even_bins<float>{.lower = std::nanf(""), .upper = 1, .count = 4}),
      ak::argument_error);
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_THROW(ak::histogram(v.view(), ak::even_bins<float>{.lower = -inf, .upper = 1, .count = 4}),
               ak::argument_error);
  EXPECT_THROW(ak::histogram(v.view(), ak::even_bins<float>{.lower = 0, .upper = inf, .count = 4}),
               ak::argument_error);
  const buf<float> one = from_vector(std::vector<float>{0.0f});
  EXPECT_THROW(ak::histogram(v.view(), one.view()), ak::argument_error);
  const buf<float> unsorted = from_vector(std::vector<float>{0.0f, 2.0f, 1.0f});
  EXPECT_THROW(ak::histogram(v.view(), unsorted.view()), ak::argument_error);
  const buf<float> with_nan = from_vector(std::vector<float>{0.0f, 1.0f, std::nanf("")});
  EXPECT_THROW(ak::histogram(v.view(), with_nan.view()), ak::argument_error);
  // The last bin is closed; values at lower count, NaN and values outside do not.
  const buf<float> w =
      from_vector(std::vector<float>{0.0f, 1.0f, 0.5f, -0.0f, std::nanf(""), 2.0f, -1.0f, 0.999f});
  const std::vector<i64> want{2, 3};  // [0, 0.5): 0, -0.0; [0.5, 1]: 1, 0.5, 0.999
  EXPECT_TRUE(same_elements(
      ak::histogram(w.view(), ak::even_bins<float>{.lower = 0, .upper = 1, .count = 2}),
      from_vector(want)));
}

}  // namespace
}  // namespace akt
