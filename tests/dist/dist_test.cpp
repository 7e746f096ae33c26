// ak::dist against one machine's ak on the gathered data, run under mpirun with 1 to 4 ranks
// (tests/dist/CMakeLists.txt). Every rank builds every rank's part from the same seed, so the
// reference needs no communication: the gathered input is the ranks' parts one after another,
// and each rank checks its own part of the distributed result against the same slice of the
// single-machine result.
//
// Each test body runs on every rank and makes the same collective calls on every rank whatever
// its checks find (EXPECT, never ASSERT, before a collective), so a failing check cannot leave
// the other ranks waiting. Randomised: the seed is AK_TEST_SEED or rank 0's random choice
// (printed), shared by an allgather.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "ak/ak.hpp"
#include "ak/dist/dist.hpp"
#include "ak/dist/mpi.hpp"

namespace {

using i64 = std::int64_t;

ak::dist::communicator& comm() {
  static ak::dist::communicator c = ak::dist::world();
  return c;
}
int P() {
  return comm().size();
}
int me() {
  return comm().rank();
}

std::uint64_t base_seed = 0;

std::uint64_t mix(std::uint64_t x) {  // splitmix64
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// ---- data: how the elements are spread over ranks, and what they are --------------------------

// Per-rank sizes of a global array: the layouts the issue names, sizes that P does not divide.
enum class layout { uneven, one_rank_holds_all, last_rank_holds_all, every_other_empty, all_empty };
constexpr layout layouts[] = {layout::uneven, layout::one_rank_holds_all,
                              layout::last_rank_holds_all, layout::every_other_empty,
                              layout::all_empty};
const char* name_of(layout l) {
  switch (l) {
    case layout::uneven:
      return "uneven";
    case layout::one_rank_holds_all:
      return "rank 0 holds all";
    case layout::last_rank_holds_all:
      return "last rank holds all";
    case layout::every_other_empty:
      return "every other rank empty";
    case layout::all_empty:
      return "all empty";
  }
  return "?";
}

std::vector<i64> sizes_of(layout l, i64 n, int ranks) {
  std::vector<i64> s(static_cast<std::size_t>(ranks), 0);
  switch (l) {
    case layout::uneven:
      for (int r = 0; r < ranks; ++r) s[static_cast<std::size_t>(r)] = n / ranks + 7 * r + r * r;
      break;
    case layout::one_rank_holds_all:
      s[0] = n;
      break;
    case layout::last_rank_holds_all:
      s.back() = n;
      break;
    case layout::every_other_empty:
      for (int r = 0; r < ranks; r += 2) s[static_cast<std::size_t>(r)] = n / ((ranks + 1) / 2) + r;
      break;
    case layout::all_empty:
      break;
  }
  return s;
}

enum class values { random, all_equal, two_values, sorted, reversed, few_distinct, specials };
constexpr values all_values[] = {values::random,  values::all_equal, values::two_values,
                                 values::sorted,  values::reversed,  values::few_distinct,
                                 values::specials};
const char* name_of(values v) {
  switch (v) {
    case values::random:
      return "random";
    case values::all_equal:
      return "all equal";
    case values::two_values:
      return "two values";
    case values::sorted:
      return "sorted";
    case values::reversed:
      return "reversed";
    case values::few_distinct:
      return "few distinct";
    case values::specials:
      return "NaN, -0.0, +0.0, extremes";
  }
  return "?";
}

template <class T>
T value_of(std::uint64_t bits) {
  if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(static_cast<double>(static_cast<std::int64_t>(bits % 2000001) - 1000000) /
                          8.0);
  else
    return static_cast<T>(bits);
}

template <class T>
T special_of(std::uint64_t bits) {
  using L = std::numeric_limits<T>;
  if constexpr (std::is_floating_point_v<T>) {
    const T s[] = {L::quiet_NaN(), -L::quiet_NaN(), T(-0.0),     T(0.0),          L::infinity(),
                   -L::infinity(), L::max(),        L::lowest(), L::denorm_min(), T(1)};
    return s[bits % 10];
  } else {
    const T s[] = {L::max(), L::lowest(), T(0), T(1), static_cast<T>(L::max() / 2)};
    return s[bits % 5];
  }
}

// The global array of `n` elements (every rank makes the same one) and the per-rank sizes.
template <class T>
struct global_data {
  std::vector<T> all;
  std::vector<i64> sizes;
  std::vector<i64> starts;  // ranks' offsets, P + 1 of them

  std::vector<T> part(int r) const {
    return {all.begin() + starts[static_cast<std::size_t>(r)],
            all.begin() + starts[static_cast<std::size_t>(r) + 1]};
  }
  std::vector<T> mine() const { return part(me()); }
};

template <class T>
global_data<T> make_data(layout l, values v, i64 n, std::uint64_t salt) {
  global_data<T> d;
  d.sizes = sizes_of(l, n, P());
  d.starts.assign(1, 0);
  for (i64 s : d.sizes) d.starts.push_back(d.starts.back() + s);
  std::mt19937_64 g(mix(base_seed ^ salt));
  const auto total = static_cast<std::size_t>(d.starts.back());
  d.all.resize(total);
  for (std::size_t i = 0; i < total; ++i) {
    const std::uint64_t b = g();
    switch (v) {
      case values::random:
        d.all[i] = value_of<T>(b);
        break;
      case values::all_equal:
        d.all[i] = value_of<T>(42);
        break;
      case values::two_values:
        d.all[i] = value_of<T>(b % 2);
        break;
      case values::sorted:
      case values::reversed:
        d.all[i] = value_of<T>(b % 1000);
        break;
      case values::few_distinct:
        d.all[i] = value_of<T>(b % 5);
        break;
      case values::specials:
        d.all[i] = b % 3 == 0 ? value_of<T>(b) : special_of<T>(b >> 8);
        break;
    }
  }
  if (v == values::sorted) ak::sort_inplace(d.all);
  if (v == values::reversed) ak::sort_inplace(d.all, {.rev = true});
  return d;
}

// Bit-for-bit equality (tells -0.0 from +0.0 and NaN payloads apart), naming the first mismatch.
template <class T>
::testing::AssertionResult same_bits(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure()
           << "rank " << me() << ": " << got.size() << " elements, expected " << want.size();
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
      ::testing::AssertionResult r = ::testing::AssertionFailure();
      r << "rank " << me() << ": first difference at local index " << i;
      if constexpr (std::is_arithmetic_v<T>) r << ": " << +got[i] << ", expected " << +want[i];
      return r;
    }
  return ::testing::AssertionSuccess();
}

// The devices the parts live on: the cpu, and each sim profile (GPU-style memory that the host
// cannot touch: the exchange is staged through the host).
std::vector<const ak::memory_space*> memories() {
  static std::vector<const ak::memory_space*> m = [] {
    std::vector<const ak::memory_space*> list{&ak::host_memory()};
    static std::vector<ak::device> sims;
    try {
      for (const char* name : {"sim:0", "sim:1", "sim:2", "sim:3"}) sims.emplace_back(name);
    } catch (const ak::backend_error& e) {
      if (me() == 0) std::cout << "no sim backend (" << e.what() << "): cpu data only\n";
    }
    for (const ak::device& d : sims) list.push_back(&d.memory());
    return list;
  }();
  return m;
}

// Whether the device of m runs T (float64 needs the device's float64 capability); every rank
// skips the same devices.
template <class T>
bool runs_on(const ak::memory_space* m) {
  return !std::is_same_v<T, double> || ak::device_of(*m).caps().float64;
}

template <class T>
ak::array<T> on(const std::vector<T>& host, const ak::memory_space& m) {
  return ak::array<T>(host, m);
}

std::string where(const ak::memory_space& m) {
  return std::string(m.device_name());
}

template <class T>
class DistTyped : public ::testing::Test {};
using sort_types = ::testing::Types<std::int32_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(DistTyped, sort_types);

// ---- sort
// ----------------------------------------------------------------------------------------

TYPED_TEST(DistTyped, SortMatchesOneMachineOnEveryLayoutAndDistribution) {
  using T = TypeParam;
  std::uint64_t salt = 1;
  for (const ak::memory_space* m : memories())
    if (runs_on<T>(m))
      for (layout l : layouts)
        for (values v : all_values)
          for (bool rev : {false, true})
            for (ak::dist::balance b : {ak::dist::balance::even, ak::dist::balance::keep_sizes}) {
              SCOPED_TRACE(std::string(name_of(l)) + ", " + name_of(v) + (rev ? ", rev" : "") +
                           (b == ak::dist::balance::even ? ", even" : ", keep sizes") + ", on " +
                           where(*m) + "; seed " + std::to_string(base_seed));
              const auto d = make_data<T>(l, v, 997, ++salt);
              const auto local = on(d.mine(), *m);
              ak::dist::sort_stats stats;
              const ak::array<T> got =
                  ak::dist::sort(comm(), local, {.rev = rev, .balance = b, .stats = &stats});
              // One machine: ak's stable sort of the gathered array, cut as the balance says.
              const std::vector<T> want_all =
                  ak::sort(ak::array<T>(d.all), {.rev = rev}).to_vector();
              const i64 n = d.starts.back();
              const i64 first = b == ak::dist::balance::keep_sizes
                                    ? d.starts[static_cast<std::size_t>(me())]
                                    : me() * (n / P()) + std::min<i64>(me(), n % P());
              const i64 count = b == ak::dist::balance::keep_sizes
                                    ? d.sizes[static_cast<std::size_t>(me())]
                                    : n / P() + (me() < n % P() ? 1 : 0);
              const std::vector<T> want(want_all.begin() + first, want_all.begin() + first + count);
              EXPECT_TRUE(same_bits(got.to_vector(), want));
              EXPECT_EQ(got.device_name(), local.device_name());
              EXPECT_EQ(stats.elements_received, count);
            }
}

TYPED_TEST(DistTyped, SortByKeyIsStableAcrossRanks) {
  using T = TypeParam;
  std::uint64_t salt = 100;
  for (const ak::memory_space* m : memories())
    if (runs_on<T>(m))
      for (layout l : {layout::uneven, layout::one_rank_holds_all, layout::every_other_empty})
        for (values v :
             {values::all_equal, values::two_values, values::few_distinct, values::specials})
          for (bool rev : {false, true}) {
            SCOPED_TRACE(std::string(name_of(l)) + ", " + name_of(v) + (rev ? ", rev" : "") +
                         ", on " + where(*m) + "; seed " + std::to_string(base_seed));
            const auto d = make_data<T>(l, v, 1500, ++salt);
            // Values: each element's global index, so the order of equal keys is checked.
            std::vector<i64> index(d.all.size());
            for (std::size_t i = 0; i < index.size(); ++i) index[i] = static_cast<i64>(i);
            const std::vector<i64> my_index(
                index.begin() + d.starts[static_cast<std::size_t>(me())],
                index.begin() + d.starts[static_cast<std::size_t>(me()) + 1]);
            auto [k, v2] =
                ak::dist::sort_by_key(comm(), on(d.mine(), *m), on(my_index, *m), {.rev = rev});
            ak::array<T> wk(d.all);
            ak::array<i64> wv(index);
            ak::sort_by_key(wk, wv, {.rev = rev});
            const i64 n = d.starts.back();
            const i64 first = me() * (n / P()) + std::min<i64>(me(), n % P());
            const i64 count = n / P() + (me() < n % P() ? 1 : 0);
            const auto all_k = wk.to_vector();
            const auto all_v = wv.to_vector();
            EXPECT_TRUE(same_bits(k.to_vector(), std::vector<T>(all_k.begin() + first,
                                                                all_k.begin() + first + count)));
            EXPECT_TRUE(same_bits(v2.to_vector(), std::vector<i64>(all_v.begin() + first,
                                                                   all_v.begin() + first + count)));
          }
}

TYPED_TEST(DistTyped, SortpermGivesGlobalIndicesInStableOrder) {
  using T = TypeParam;
  std::uint64_t salt = 200;
  for (const ak::memory_space* m : memories())
    if (runs_on<T>(m))
      for (layout l : {layout::uneven, layout::last_rank_holds_all, layout::every_other_empty})
        for (values v : {values::random, values::few_distinct, values::specials})
          for (bool rev : {false, true}) {
            SCOPED_TRACE(std::string(name_of(l)) + ", " + name_of(v) + (rev ? ", rev" : "") +
                         ", on " + where(*m) + "; seed " + std::to_string(base_seed));
            const auto d = make_data<T>(l, v, 1100, ++salt);
            const auto got = ak::dist::sortperm(comm(), on(d.mine(), *m), {.rev = rev});
            const auto want_all = ak::sortperm(ak::array<T>(d.all), {.rev = rev}).to_vector();
            const i64 n = d.starts.back();
            const i64 first = me() * (n / P()) + std::min<i64>(me(), n % P());
            const i64 count = n / P() + (me() < n % P() ? 1 : 0);
            EXPECT_TRUE(same_bits(
                got.to_vector(),
                std::vector<i64>(want_all.begin() + first, want_all.begin() + first + count)));
            EXPECT_EQ(got.device_name(), where(*m));
          }
}

// Many rounds of the splitter search: a part larger than a few samples per window.
TEST(DistSort, LargePartsNeedSeveralRoundsAndBalanceExactly) {
  const auto d = make_data<std::uint32_t>(layout::uneven, values::random, 200000, 7);
  ak::dist::sort_stats stats;
  const auto got =
      ak::dist::sort(comm(), ak::array<std::uint32_t>(d.mine()), {.sample = 8, .stats = &stats});
  const auto want_all = ak::sort(ak::array<std::uint32_t>(d.all)).to_vector();
  const i64 n = d.starts.back();
  const i64 first = me() * (n / P()) + std::min<i64>(me(), n % P());
  const i64 count = n / P() + (me() < n % P() ? 1 : 0);
  EXPECT_TRUE(same_bits(
      got.to_vector(),
      std::vector<std::uint32_t>(want_all.begin() + first, want_all.begin() + first + count)));
  if (P() > 1) {
    EXPECT_GE(stats.rounds, 2);
  }
}

// A custom element type, key function and order.
struct particle {
  std::int32_t cell;
  float mass;
};

TEST(DistSort, CustomTypeByAndLt) {
  std::mt19937_64 g(mix(base_seed ^ 77));
  const auto sizes = sizes_of(layout::uneven, 1200, P());
  std::vector<particle> all;
  for (i64 s : sizes)
    for (i64 i = 0; i < s; ++i)
      all.push_back({static_cast<std::int32_t>(g() % 17), static_cast<float>(all.size())});
  i64 first_in = 0;
  for (int r = 0; r < me(); ++r) first_in += sizes[static_cast<std::size_t>(r)];
  const std::vector<particle> mine(all.begin() + first_in,
                                   all.begin() + first_in + sizes[static_cast<std::size_t>(me())]);
  const auto by = [](const particle& p) { return p.cell; };
  const std::greater<> lt;
  const auto got =
      ak::dist::sort(comm(), ak::array<particle>(mine),
                     ak::dist::sort_options<decltype(by), std::greater<>>{.by = by, .lt = lt});
  std::vector<particle> want = all;
  std::stable_sort(want.begin(), want.end(),
                   [&](const particle& a, const particle& b) { return lt(by(a), by(b)); });
  const i64 n = static_cast<i64>(all.size());
  const i64 first = me() * (n / P()) + std::min<i64>(me(), n % P());
  const auto g2 = got.to_vector();
  EXPECT_EQ(static_cast<i64>(g2.size()), n / P() + (me() < n % P() ? 1 : 0));
  for (std::size_t i = 0; i < std::min(g2.size(), want.size() - static_cast<std::size_t>(first));
       ++i) {
    EXPECT_EQ(g2[i].cell, want[static_cast<std::size_t>(first) + i].cell) << "at " << i;
    EXPECT_EQ(g2[i].mass, want[static_cast<std::size_t>(first) + i].mass) << "at " << i;
  }
}

// ---- reductions
// -----------------------------------------------------------------------------------

// An associative operator that is not commutative and has no neutral element ak knows:
// composition of affine maps x -> a x + b (wrapping).
struct affine {
  std::uint64_t a, b;
};
struct compose {
  affine operator()(const affine& f, const affine& g) const { return {f.a * g.a, f.b * g.a + g.b}; }
};

// Sums of doubles grouped by rank: within rounding of one machine's order.
::testing::AssertionResult near(double got, double want) {
  if (std::isnan(want) && std::isnan(got)) return ::testing::AssertionSuccess();
  if (got == want || std::abs(got - want) <= 1e-12 * std::max(std::abs(want), 1.0))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "rank " << me() << ": " << got << ", expected " << want;
}

// The same bits, or both NaN (which NaN a reduction keeps may depend on the grouping).
template <class T>
::testing::AssertionResult same_scalar(T got, T want) {
  if constexpr (std::is_floating_point_v<T>)
    if (std::isnan(want) && std::isnan(got)) return ::testing::AssertionSuccess();
  if (std::memcmp(&got, &want, sizeof(T)) == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "rank " << me() << ": " << +got << ", expected " << +want;
}

TYPED_TEST(DistTyped, ReductionsMatchOneMachine) {
  using T = TypeParam;
  std::uint64_t salt = 300;
  for (const ak::memory_space* m : memories())
    if (runs_on<T>(m))
      for (layout l : layouts)
        for (values v : all_values) {
          SCOPED_TRACE(std::string(name_of(l)) + ", " + name_of(v) + ", on " + where(*m) +
                       "; seed " + std::to_string(base_seed));
          const auto d = make_data<T>(l, v, 1001, ++salt);
          const auto local = on(d.mine(), *m);
          const ak::array<T> all(d.all);
          EXPECT_EQ(ak::dist::global_size(comm(), local), d.starts.back());
          EXPECT_EQ(ak::dist::offset(comm(), local), d.starts[static_cast<std::size_t>(me())]);
          if constexpr (!std::is_floating_point_v<T>) {
            EXPECT_EQ(ak::dist::sum(comm(), local), ak::sum(all));
          }
          // Within rounding, but for the float specials' overflows (see ScansMatchOneMachine);
          // sums as doubles where the device has float64.
          if (runs_on<double>(m)) {
            const double s = ak::dist::sum(comm(), local, ak::reduce_options<double>{.init = 0.5});
            if (!(std::is_floating_point_v<T> && v == values::specials)) {
              EXPECT_TRUE(near(s, ak::sum(all, ak::reduce_options<double>{.init = 0.5})));
            }
          }
          EXPECT_TRUE(same_scalar(ak::dist::minimum(comm(), local), ak::minimum(all)));
          EXPECT_TRUE(same_scalar(ak::dist::maximum(comm(), local), ak::maximum(all)));
          EXPECT_EQ(ak::dist::count(comm(), local), ak::count(all));
          const auto positive = [](T x) { return x > T(0); };
          EXPECT_EQ(ak::dist::count(comm(), local, positive), ak::count(all, positive));
          EXPECT_EQ(ak::dist::any(comm(), local, positive), ak::any(all, positive));
          EXPECT_EQ(ak::dist::all(comm(), local, positive), ak::all(all, positive));
          const auto as_affine = [](T x) { return affine{static_cast<std::uint64_t>(x) | 1, 3}; };
          if constexpr (!std::is_floating_point_v<T>) {
            // No neutral element ak knows: an empty global array needs init, and a GPU-style
            // device needs .neutral, as on one machine.
            const affine id{1, 0};
            const affine got = ak::dist::mapreduce(comm(), local, as_affine, compose{},
                                                   {.init = id, .neutral = id});
            const affine want = ak::mapreduce(all, as_affine, compose{}, {.init = id});
            EXPECT_EQ(got.a, want.a);
            EXPECT_EQ(got.b, want.b);
            // Without .neutral on the cpu: each part is reduced from its first element.
            if (m == &ak::host_memory()) {
              const affine plain = ak::dist::mapreduce(comm(), local, as_affine, compose{},
                                                       ak::reduce_options<affine>{.init = id});
              EXPECT_EQ(plain.a, want.a);
              EXPECT_EQ(plain.b, want.b);
            }
          }
        }
}

// ---- scans
// -----------------------------------------------------------------------------------------

TYPED_TEST(DistTyped, ScansMatchOneMachine) {
  using T = TypeParam;
  std::uint64_t salt = 500;
  for (const ak::memory_space* m : memories())
    if (runs_on<T>(m))
      for (layout l : layouts)
        for (values v : {values::random, values::two_values, values::specials})
          for (bool inclusive : {true, false}) {
            SCOPED_TRACE(std::string(name_of(l)) + ", " + name_of(v) +
                         (inclusive ? ", inclusive" : ", exclusive") + ", on " + where(*m) +
                         "; seed " + std::to_string(base_seed));
            const auto d = make_data<T>(l, v, 1003, ++salt);
            const auto local = on(d.mine(), *m);
            const ak::array<T> all(d.all);
            const auto first = static_cast<std::size_t>(d.starts[static_cast<std::size_t>(me())]);
            const auto count = static_cast<std::size_t>(d.sizes[static_cast<std::size_t>(me())]);
            const auto cut = [&](const auto& w) {
              return std::vector<typename std::decay_t<decltype(w)>::value_type>(
                  w.begin() + static_cast<std::ptrdiff_t>(first),
                  w.begin() + static_cast<std::ptrdiff_t>(first + count));
            };
            // Max: the same bits, but which NaN a scan carries may depend on its grouping (on one
            // machine too).
            const auto got_max =
                ak::dist::accumulate(comm(), local, ak::maximum_op{}, {.inclusive = inclusive})
                    .to_vector();
            const auto want_max =
                cut(ak::accumulate(all, ak::maximum_op{}, {.inclusive = inclusive}).to_vector());
            EXPECT_EQ(got_max.size(), want_max.size());
            for (std::size_t i = 0; i < std::min(got_max.size(), want_max.size()); ++i)
              EXPECT_TRUE(same_scalar(got_max[i], want_max[i])) << "at " << i;
            // Sums as doubles: within rounding of one machine's order, except for the float
            // specials, where the grouping by rank may meet an overflow that one machine's does
            // not.
            if (runs_on<double>(m)) {
              const auto got = ak::dist::cumsum(
                  comm(), local,
                  ak::accumulate_options<double>{.init = 1.0, .inclusive = inclusive});
              const auto want =
                  cut(ak::cumsum(
                          all, ak::accumulate_options<double>{.init = 1.0, .inclusive = inclusive})
                          .to_vector());
              const auto g = got.to_vector();
              EXPECT_EQ(g.size(), want.size());
              if (!(std::is_floating_point_v<T> && v == values::specials)) {
                for (std::size_t i = 0; i < std::min(g.size(), want.size()); ++i)
                  EXPECT_TRUE(near(g[i], want[i])) << "at " << i;
              }
            }
            if constexpr (!std::is_floating_point_v<T>) {
              EXPECT_TRUE(
                  same_bits(ak::dist::cumsum(comm(), local, {.inclusive = inclusive}).to_vector(),
                            cut(ak::cumsum(all, {.inclusive = inclusive}).to_vector())));
              // A custom operator without a neutral element, inclusive (exclusive needs init), on
              // the cpu (GPU-style scans need a neutral element, as on one machine).
              if (m != &ak::host_memory()) continue;
              const auto a = ak::map(
                  [](T x) {
                    return affine{static_cast<std::uint64_t>(x) | 1, 5};
                  },
                  local);
              const auto wa = ak::map(
                  [](T x) {
                    return affine{static_cast<std::uint64_t>(x) | 1, 5};
                  },
                  all);
              const auto ga = ak::dist::accumulate(comm(), a, compose{}).to_vector();
              const auto ra = cut(ak::accumulate(wa, compose{}).to_vector());
              EXPECT_EQ(ga.size(), ra.size());
              for (std::size_t i = 0; i < std::min(ga.size(), ra.size()); ++i) {
                EXPECT_EQ(ga[i].a, ra[i].a) << "at " << i;
                EXPECT_EQ(ga[i].b, ra[i].b) << "at " << i;
              }
            }
          }
}

// ---- search
// ----------------------------------------------------------------------------------------

TYPED_TEST(DistTyped, SearchSortedMatchesOneMachine) {
  using T = TypeParam;
  std::uint64_t salt = 700;
  for (const ak::memory_space* m : memories())
    if (runs_on<T>(m))
      for (layout l : layouts)
        for (values v : {values::random, values::few_distinct, values::specials})
          for (bool rev : {false, true}) {
            SCOPED_TRACE(std::string(name_of(l)) + ", " + name_of(v) + (rev ? ", rev" : "") +
                         ", on " + where(*m) + "; seed " + std::to_string(base_seed));
            auto d = make_data<T>(l, v, 999, ++salt);
            d.all = ak::sort(ak::array<T>(d.all), {.rev = rev}).to_vector();
            // Queries: some elements of the array, some others; a different number on each rank.
            const auto q = make_data<T>(layout::uneven, v, 300, ++salt);
            const auto sorted = on(d.mine(), *m);
            const auto queries = on(q.mine(), *m);
            const ak::array<T> all(d.all);
            const ak::array<T> qs(q.mine());
            EXPECT_TRUE(same_bits(
                ak::dist::searchsortedfirst(comm(), sorted, queries, {.rev = rev}).to_vector(),
                ak::searchsortedfirst(all, qs, {.rev = rev}).to_vector()));
            EXPECT_TRUE(same_bits(
                ak::dist::searchsortedlast(comm(), sorted, queries, {.rev = rev}).to_vector(),
                ak::searchsortedlast(all, qs, {.rev = rev}).to_vector()));
          }
}

// ---- redistribution
// --------------------------------------------------------------------------------

TEST(DistRedistribute, EvenAndAskedSizesKeepTheGlobalOrder) {
  for (const ak::memory_space* m : memories())
    for (layout l : layouts) {
      SCOPED_TRACE(std::string(name_of(l)) + ", on " + where(*m));
      const auto d = make_data<std::int64_t>(l, values::random, 1234, 900);
      const auto local = on(d.mine(), *m);
      const i64 n = d.starts.back();
      const auto even = ak::dist::redistribute(comm(), local);
      const i64 first = me() * (n / P()) + std::min<i64>(me(), n % P());
      const i64 count = n / P() + (me() < n % P() ? 1 : 0);
      EXPECT_TRUE(same_bits(
          even.to_vector(),
          std::vector<std::int64_t>(d.all.begin() + first, d.all.begin() + first + count)));
      // Everything to the last rank.
      const auto last = ak::dist::redistribute(comm(), local, me() == P() - 1 ? n : 0);
      EXPECT_TRUE(
          same_bits(last.to_vector(), me() == P() - 1 ? d.all : std::vector<std::int64_t>{}));
    }
}

// ---- errors
// ----------------------------------------------------------------------------------------

TEST(DistErrors, ABadArgumentOnOneRankIsRaisedOnEveryRank) {
  // The last rank passes a 2-d part; every rank gets the argument_error, naming that rank.
  const ak::array<float> flat(std::vector<float>{3, 1, 2});
  const ak::array<float> square(ak::shape{2, 2}, 1.0f);
  const bool bad = me() == P() - 1;
  try {
    (void)ak::dist::sort(comm(), bad ? square : flat);
    ADD_FAILURE() << "rank " << me() << ": no error";
  } catch (const ak::argument_error& e) {
    EXPECT_NE(std::string(e.what()).find("[raised on rank " + std::to_string(P() - 1)),
              std::string::npos)
        << e.what();
  }
  try {
    (void)ak::dist::sum(comm(), bad ? square : flat);
    ADD_FAILURE() << "rank " << me() << ": no error";
  } catch (const ak::argument_error& e) {
    EXPECT_NE(std::string(e.what()).find("1-d"), std::string::npos) << e.what();
  }
  // Sizes that do not add up to the global size.
  try {
    (void)ak::dist::redistribute(comm(), flat, 1);
    ADD_FAILURE() << "rank " << me() << ": no error";
  } catch (const ak::argument_error& e) {
    EXPECT_NE(std::string(e.what()).find("global size " + std::to_string(3 * P())),
              std::string::npos)
        << e.what();
  }
  // The communicator still works after the errors.
  EXPECT_EQ(ak::dist::global_size(comm(), flat), 3 * P());
}

TEST(DistErrors, RanksThatDisagreeGetADistErrorEverywhere) {
  if (P() < 2) GTEST_SKIP() << "needs two ranks";
  const ak::array<std::int32_t> a(std::vector<std::int32_t>{5, 4, 3});
  try {
    (void)ak::dist::sort(comm(), a, {.rev = me() == 1});
    ADD_FAILURE() << "rank " << me() << ": no error";
  } catch (const ak::dist_error& e) {
    EXPECT_NE(std::string(e.what()).find("disagree"), std::string::npos) << e.what();
  }
  try {
    if (me() == 0)
      (void)ak::dist::sum(comm(), a);
    else
      (void)ak::dist::sum(comm(), ak::array<float>(std::vector<float>{1}));
    ADD_FAILURE() << "rank " << me() << ": no error";
  } catch (const ak::dist_error& e) {
    EXPECT_NE(std::string(e.what()).find("ak::dist::sum"), std::string::npos) << e.what();
  }
  // Another function on rank 1 (sortperm against sort): the same, before any other collective.
  try {
    if (me() == 1)
      (void)ak::dist::sortperm(comm(), a);
    else
      (void)ak::dist::sort(comm(), a);
    ADD_FAILURE() << "rank " << me() << ": no error";
  } catch (const ak::dist_error& e) {
    EXPECT_NE(std::string(e.what()).find("disagree"), std::string::npos) << e.what();
  }
  EXPECT_EQ(ak::dist::sum(comm(), a), 12 * P());
}

TEST(DistErrors, AFailedMpiCallIsADistErrorNamingTheCall) {
  // MPI reports an invalid communicator through MPI_COMM_WORLD's handler: make it return.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  try {
    (void)ak::dist::mpi_communicator(MPI_COMM_NULL);
    ADD_FAILURE() << "no error";
  } catch (const ak::dist_error& e) {
    EXPECT_NE(std::string(e.what()).find("MPI_Comm_dup failed"), std::string::npos) << e.what();
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

// Prints failures of ranks other than 0, prefixed with the rank (rank 0 prints as gtest does).
class rank_printer : public ::testing::EmptyTestEventListener {
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed())
      std::cerr << "[rank " << me() << "] " << (r.file_name() ? r.file_name() : "") << ":"
                << r.line_number() << ": " << r.summary() << "\n";
  }
};

}  // namespace

int main(int argc, char** argv) {
  ak::dist::mpi_session mpi(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  std::uint64_t mine = std::random_device{}() * 0x100000001ull + std::random_device{}();
  if (const char* s = std::getenv("AK_TEST_SEED")) mine = std::stoull(s);
  base_seed = ak::dist::detail::allgather(comm(), mine)[0];
  if (me() == 0)
    std::cout << "ak::dist tests on " << P() << " rank(s); seed " << base_seed
              << " (rerun with AK_TEST_SEED=" << base_seed << ")" << std::endl;
  if (me() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new rank_printer);
  }
  return RUN_ALL_TESTS();
}
