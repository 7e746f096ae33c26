// accumulate (inclusive and exclusive scans), cumsum, cumprod, accumulate_inplace: 1-d against
// std::inclusive_scan / std::exclusive_scan, along every dimension of every small shape against
// nested loops, temp storage reuse, the same bits for every thread count, and the chain of tiles
// under the cpu scans handing a late tile over.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <thread>

#include "ak/backends/cpu/parallel.hpp"
#include "test_support.hpp"

namespace akt {
namespace {

// The nested-loop reference: a scan along `dim` of v, row-major.
template <class R, class T, class Op>
buf<R> scan_reference(const ak::view<const T>& dv, std::size_t dim, const Op& op,
                      std::optional<R> init, bool inclusive) {
  host_copy<T> keep;
  const ak::view<const T> v = readable(dv, keep);  // a host reading of a device view
  buf<R> out(v.size());
  if (v.size() == 0) return out;
  const ak::strides rm = ak::row_major_strides(v.shape());
  std::vector<i64> lines(v.rank());
  for (std::size_t d = 0; d < v.rank(); ++d) lines[d] = d == dim ? 1 : v.shape()[d];
  const i64 len = v.rank() == 0 ? 1 : v.shape()[dim];
  for_each_index(make_shape(lines), [&](const index_t& start) {
    std::optional<R> acc = init;
    index_t idx = start;
    for (i64 i = 0; i < len; ++i) {
      if (v.rank() > 0) idx[dim] = i;
      i64 o = 0;
      for (std::size_t d = 0; d < v.rank(); ++d) o += idx[d] * rm[d];
      const R x = static_cast<R>(at(v, idx));
      if (inclusive) {
        acc = acc ? static_cast<R>(op(*acc, x)) : x;
        out[o] = *acc;
      } else {
        out[o] = *acc;
        acc = static_cast<R>(op(*acc, x));
      }
    }
  });
  return out;
}

// The 1-d reference from the std algorithms.
template <class T, class Op>
buf<T> std_scan(const buf<T>& in, const Op& op, std::optional<T> init, bool inclusive) {
  buf<T> out(in.size());
  if (inclusive) {
    if (init)
      std::inclusive_scan(in.begin(), in.end(), out.begin(), op, *init);
    else
      std::inclusive_scan(in.begin(), in.end(), out.begin(), op);
  } else {
    std::exclusive_scan(in.begin(), in.end(), out.begin(),
                        init ? *init : *ak::neutral_element<T, Op>(), op);
  }
  return out;
}

std::vector<pattern> patterns_for(i64 n, std::size_t k) {
  if (n <= (on_gpu_style() ? 257 : 4097)) return {all_patterns.begin(), all_patterns.end()};
  if (n > 65537) return {pattern::random};
  return {pattern::random, all_patterns[1 + k % (all_patterns.size() - 1)]};
}

template <class T>
class Accumulate : public typed_test<T> {};
TYPED_TEST_SUITE(Accumulate, numeric_types, dtype_names);
AKT_TAG(cross_group_sync, "Accumulate/*");

template <class T, class Op>
void check_1d(const buf<T>& data, const Op& op, rng& r, values v) {
  const bool every_variant = data.size() <= 65537 || r.chance(0.3);
  for (bool inclusive : {true, false})
    for (bool with_init : {false, true}) {
      if (!every_variant && with_init == inclusive) continue;
      SCOPED_TRACE(std::string(inclusive ? "inclusive" : "exclusive") +
                   (with_init ? " with init" : ""));
      const std::optional<T> init =
          with_init ? std::optional<T>(random_value<T>(r, v)) : std::nullopt;
      const ak::array<T> got = ak::accumulate(
          data.view(), op, ak::accumulate_options<T>{.init = init, .inclusive = inclusive});
      EXPECT_TRUE(same_elements(got, std_scan(data, op, init, inclusive)));
    }
}

TYPED_TEST(Accumulate, OneDimEverySizeAndPattern) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const auto sizes = all_sizes();
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const i64 n = sizes[k];
    for (pattern p : patterns_for(n, k)) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", pattern " + name_of(p));
      const buf<T> small = make_data<T>(n, p, r, values::small);
      check_1d(small, ak::plus{}, r, values::small);
      const buf<T> full = make_data<T>(n, p, r, values::full);
      check_1d(full, ak::minimum_op{}, r, values::full);
      check_1d(full, ak::maximum_op{}, r, values::full);
      // cumsum and accumulate_inplace are the same scan.
      const buf<T> want = std_scan(small, ak::plus{}, std::optional<T>{}, true);
      EXPECT_TRUE(same_elements(ak::cumsum(small.view()), want));
      buf<T> in_place = small;
      ak::accumulate_inplace(in_place.view(), ak::plus{});
      EXPECT_TRUE(same_elements(in_place, want));
    }
    SCOPED_TRACE("n = " + std::to_string(n) + ", products");
    buf<T> unit = make_data<T>(n, pattern::random, r, values::unit);
    for (int j = 0; j < 5 && n > 0; ++j) unit[r.between(0, n - 1)] = T(2);
    check_1d(unit, ak::multiplies{}, r, values::unit);
    EXPECT_TRUE(same_elements(ak::cumprod(unit.view()),
                              std_scan(unit, ak::multiplies{}, std::optional<T>{}, true)));
  }
}

// Along every dimension of every shape with extents 0..3 up to rank 4, in every layout; the
// in-place form writes through the view and nowhere else.
TYPED_TEST(Accumulate, AlongEveryDimOfEveryShapeAndLayout) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (layout l : all_layouts) {
    for (const auto& e : pick(all_shapes(4, 3), all_shapes(3, 3))) {
      for (std::size_t dim = 0; dim < e.size(); ++dim) {
        for (bool inclusive : {true, false}) {
          const bool with_init = r.chance(0.5);
          auto lo = make_layout<T>(e, l, r, values::small);
          const ak::view<const T> v = lo.view;
          const std::optional<T> init =
              with_init ? std::optional<T>(random_value<T>(r, values::small)) : std::nullopt;
          SCOPED_TRACE(std::string(name_of(l)) + " shape " + shape_string(e) + " dim " +
                       std::to_string(dim) + (inclusive ? " inclusive" : " exclusive") +
                       (with_init ? " with init" : ""));
          const auto want = scan_reference<T>(
              v, dim, ak::plus{}, inclusive || init ? init : std::optional<T>(T(0)), inclusive);
          const ak::accumulate_options<T> o{
              .init = init, .inclusive = inclusive, .dim = static_cast<i64>(dim)};
          const ak::array<T> got = ak::accumulate(v, ak::plus{}, o);
          EXPECT_EQ(got.shape(), v.shape());
          EXPECT_TRUE(same_elements(got, want));
          ak::accumulate_inplace(lo.view, ak::plus{}, o);
          EXPECT_TRUE(same_elements(gather(lo.view), want)) << "accumulate_inplace";
          EXPECT_TRUE(outside_untouched(lo));
        }
      }
    }
  }
}

// Rank 0 and rank 1 need no dim.
TYPED_TEST(Accumulate, DimMayBeOmittedUpToRankOne) {
  using T = TypeParam;
  ak::array<T> scalar(ak::shape{}, T(3), target_memory());
  const ak::array<T> s = ak::cumsum(scalar);
  EXPECT_EQ(s.shape(), ak::shape{});
  EXPECT_TRUE(same_value(to_buf(s)[0], T(3)));
  const ak::array<T> e = ak::accumulate(
      scalar, ak::plus{}, ak::accumulate_options<T>{.init = T(1), .inclusive = false});
  EXPECT_TRUE(same_value(to_buf(e)[0], T(1)));
  const buf<T> v(5, T(1));
  const buf<T> c = to_buf(ak::cumsum(v.view()));
  for (i64 i = 0; i < 5; ++i) EXPECT_TRUE(same_value(c[i], static_cast<T>(i + 1)));
}

// Larger shapes reach every path: a parallel chained scan per row, rows in parallel, and the
// vertical scan with vector accumulators.
TYPED_TEST(Accumulate, LargerShapesReachEveryPath) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const std::vector<std::vector<i64>> shapes = pick<std::vector<std::vector<i64>>>({{2, 140000},
                                                                                    {140000, 2},
                                                                                    {1000, 300},
                                                                                    {300, 1001},
                                                                                    {3, 5, 4099},
                                                                                    {4099, 3, 5},
                                                                                    {1, 200000},
                                                                                    {200000, 1}},
                                                                                   {{2, 5000},
                                                                                    {5000, 2},
                                                                                    {100, 30},
                                                                                    {30, 101},
                                                                                    {3, 5, 409},
                                                                                    {409, 3, 5},
                                                                                    {1, 20000},
                                                                                    {20000, 1}});
  for (const auto& e : shapes)
    for (layout l : {layout::contiguous, layout::transposed, layout::reversed})
      for (std::size_t dim = 0; dim < e.size(); ++dim) {
        const auto lo = make_layout<T>(e, l, r, values::small);
        const ak::view<const T> v = lo.view;
        const bool inclusive = r.chance(0.5);
        SCOPED_TRACE(std::string(name_of(l)) + " shape " + shape_string(e) + " dim " +
                     std::to_string(dim) + (inclusive ? " inclusive" : " exclusive"));
        const T init = random_value<T>(r, values::small);
        const auto want = scan_reference<T>(v, dim, ak::plus{}, std::optional<T>(init), inclusive);
        EXPECT_TRUE(same_elements(
            ak::accumulate(v, ak::plus{},
                           {.init = init, .inclusive = inclusive, .dim = static_cast<i64>(dim)}),
            want));
      }
}

// Per-call tile sizes: many tiles chained across the workers.
TYPED_TEST(Accumulate, PerCallTilesChainAcrossWorkers) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (i64 n : pick<std::vector<i64>>({1, 1000, 4097, 65537, 300001}, {1, 1000, 4097, 20001}))
    for (i64 grain : {i64{1}, i64{7}, i64{1000}, i64{4096}}) {
      if (grain < 100 && n > 10000) continue;
      SCOPED_TRACE("n = " + std::to_string(n) + ", cpu_grain = " + std::to_string(grain));
      const buf<T> data = make_data<T>(n, pattern::random, r, values::small);
      for (bool inclusive : {true, false}) {
        const ak::accumulate_options<T> o{.inclusive = inclusive, .tuning = {.cpu_grain = grain}};
        EXPECT_TRUE(same_elements(ak::accumulate(data.view(), ak::plus{}, o),
                                  std_scan(data, ak::plus{}, std::optional<T>{}, inclusive)));
      }
      const buf<T> full = make_data<T>(n, pattern::random, r, values::full);
      EXPECT_TRUE(same_elements(
          ak::accumulate(full.view(), ak::maximum_op{}, {.tuning = {.cpu_grain = grain}}),
          std_scan(full, ak::maximum_op{}, std::optional<T>{}, true)));
    }
}

// A correctly sized temp works, may be reused, and gives the same bits as no temp; it need not
// be aligned.
TYPED_TEST(Accumulate, TempStorageReuse) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (i64 n : pick<std::vector<i64>>({0, 5, 65537, big_size}, {0, 5, 4097})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const buf<T> data = make_data<T>(n, pattern::random, r, values::small);
    const buf<T> want = std_scan(data, ak::plus{}, std::optional<T>{}, true);
    const std::size_t need = ak::accumulate_temp_bytes<T>(n);
    std::vector<std::byte> storage(need + 1);
    for (std::size_t shift : {std::size_t{0}, std::size_t{1}}) {
      const ak::temp_storage temp(storage.data() + shift, need);
      for (int k = 0; k < 2; ++k) {
        SCOPED_TRACE("offset " + std::to_string(shift) + ", use " + std::to_string(k));
        EXPECT_TRUE(same_elements(ak::accumulate(data.view(), ak::plus{}, {.temp = temp}), want));
        buf<T> in_place = data;
        ak::accumulate_inplace(in_place.view(), ak::plus{}, {.temp = temp});
        EXPECT_TRUE(same_elements(in_place, want));
      }
    }
    // A per-call tile size changes the need; the temp sized for it works.
    const ak::scan_tuning small_tiles{.cpu_grain = 1000};
    std::vector<std::byte> storage2(ak::accumulate_temp_bytes<T>(n, small_tiles));
    EXPECT_TRUE(same_elements(
        ak::accumulate(data.view(), ak::plus{}, {.tuning = small_tiles, .temp = storage2}), want));
  }
  // Along a dimension the temp is sized for the scanned extent.
  const std::vector<i64> e{3, pick<i64>(300001, 3001)};
  const auto lo = make_layout<T>(e, layout::contiguous, r, values::small);
  const ak::view<const T> v = lo.view;
  std::vector<std::byte> storage(ak::accumulate_temp_bytes<T>(e[1]));
  for (int k = 0; k < 2; ++k)
    EXPECT_TRUE(same_elements(ak::accumulate(v, ak::plus{}, {.dim = 1, .temp = storage}),
                              scan_reference<T>(v, 1, ak::plus{}, std::optional<T>{}, true)));
}

// Accumulating into a wider type (the header templates): no wrapping in the element type.
TYPED_TEST(Accumulate, InitOfAWiderType) {
  using T = TypeParam;
  using W =
      std::conditional_t<is_float_v<T>, double,
                         std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>;
  AKT_SKIP_UNLESS_TYPE_ON_TARGET(W);
  AKT_RANDOM(r);
  constexpr bool full = std::is_integral_v<T> && !std::is_same_v<T, std::int64_t>;
  for (i64 n : pick<std::vector<i64>>({0, 3, 65537, 300001}, {0, 3, 4097, 20001})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const buf<T> data = make_data<T>(n, pattern::random, r, full ? values::full : values::small);
    for (bool inclusive : {true, false}) {
      const ak::array<W> got = ak::accumulate(
          data.view(), ak::plus{}, ak::accumulate_options<W>{.init = W(7), .inclusive = inclusive});
      buf<W> want(n);
      W acc = 7;
      for (i64 i = 0; i < n; ++i) {
        if (!inclusive) want[i] = acc;
        acc = static_cast<W>(acc + static_cast<W>(data[i]));
        if (inclusive) want[i] = acc;
      }
      EXPECT_TRUE(same_elements(got, want)) << (inclusive ? "inclusive" : "exclusive");
    }
  }
}

// Determinism: the same bits for 1 and 2 (and 3) threads, for arbitrary floats.
template <class T>
class AccumulateFloat : public typed_test<T> {};
TYPED_TEST_SUITE(AccumulateFloat, float_types, dtype_names);
AKT_TAG(cross_group_sync, "AccumulateFloat/*");

TYPED_TEST(AccumulateFloat, SameBitsForEveryThreadCount) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const std::vector<std::vector<i64>> shapes =
      pick<std::vector<std::vector<i64>>>({{big_size}, {2, 300001}, {300001, 2}, {700, 900}},
                                          {{big_size}, {2, 5001}, {5001, 2}, {70, 90}});
  for (const auto& e : shapes) {
    buf<T> h(make_shape(e).size());
    for (auto& x : h) x = static_cast<T>(r.unit() * 2 - 1);
    const ak::array<T> a = to_array(h, make_shape(e));
    for (std::size_t dim = 0; dim < e.size(); ++dim)
      for (bool inclusive : {true, false}) {
        SCOPED_TRACE("shape " + shape_string(e) + " dim " + std::to_string(dim) +
                     (inclusive ? " inclusive" : " exclusive"));
        // On GPU-style devices the same bits hold for reduce-then-scan, whose order of
        // combination is fixed; decoupled look-back (auto's choice where the device allows)
        // combines predecessors' values in an order that depends on timing.
        const ak::scan_tuning t{.algorithm = on_gpu_style() ? ak::scan_algorithm::reduce_then_scan
                                                            : ak::scan_algorithm::not_set};
        const ak::accumulate_options<T> o{
            .init = T(0.25), .inclusive = inclusive, .dim = static_cast<i64>(dim), .tuning = t};
        std::vector<ak::array<T>> results;
        for (i64 threads : {1, 2, 3}) {
          const thread_cap cap(threads);
          results.push_back(ak::accumulate(a, ak::plus{}, o));
          results.push_back(ak::accumulate(
              a, ak::plus{}, {.inclusive = inclusive, .dim = static_cast<i64>(dim), .tuning = t}));
        }
        for (std::size_t k = 2; k < results.size(); ++k)
          EXPECT_TRUE(same_range(to_buf(results[k]).data(), to_buf(results[k % 2]).data(), a.size(),
                                 [](T x, T y) { return same_bits(x, y); }))
              << "thread count " << (k / 2 + 1) << " differs from 1";
      }
  }
}

// bool scans with the logical operators (the header templates), along each dimension.
TEST(AccumulateBool, LogicalOperatorsAlongEachDim) {
  AKT_RANDOM(r);
  for (const auto& e : all_shapes(3, 3))
    for (std::size_t dim = 0; dim < e.size(); ++dim) {
      const auto lo = make_layout<bool>(e, all_layouts[r.index(all_layouts.size())], r);
      const ak::view<const bool> v = lo.view;
      SCOPED_TRACE("shape " + shape_string(e) + " dim " + std::to_string(dim));
      const ak::accumulate_options<bool> o{.dim = static_cast<i64>(dim)};
      EXPECT_TRUE(same_elements(
          ak::accumulate(v, ak::logical_or{}, o),
          scan_reference<bool>(v, dim, ak::logical_or{}, std::optional<bool>{}, true)));
      EXPECT_TRUE(same_elements(
          ak::accumulate(v, ak::logical_and{}, o),
          scan_reference<bool>(v, dim, ak::logical_and{}, std::optional<bool>{}, true)));
    }
  const buf<bool> big = make_data<bool>(pick<i64>(300001, 20001), pattern::random, r);
  buf<bool> want(big.size());
  std::inclusive_scan(big.begin(), big.end(), want.begin(), ak::bit_xor{});
  EXPECT_TRUE(same_elements(ak::accumulate(big.view(), ak::bit_xor{}), want));
}

}  // namespace
}  // namespace akt

namespace akt {
namespace {

// accumulate_temp_bytes<R> sizes the temp of a scan whose result type is R, even when the
// elements are of another type whose tuning differs.
TEST(AccumulateTemp, WiderResultTypeWithAPerDtypeTuning) {
  AKT_RANDOM(r);
  const ak::scoped_tuning small_int8_tiles(ak::scan_hook{}, ak::scan_tuning{.cpu_grain = 1000},
                                           {.dtype = "int8"});
  const i64 n = pick<i64>(300001, 20001);
  const buf<std::int8_t> data = make_data<std::int8_t>(n, pattern::random, r);
  std::vector<std::byte> temp(ak::accumulate_temp_bytes<std::int64_t>(n));
  const ak::array<std::int64_t> got = ak::accumulate(
      data.view(), ak::plus{}, ak::accumulate_options<std::int64_t>{.init = 0, .temp = temp});
  buf<std::int64_t> want(n);
  std::int64_t acc = 0;
  for (i64 i = 0; i < n; ++i) want[i] = acc += data[i];
  EXPECT_TRUE(same_elements(got, want));
}

}  // namespace
}  // namespace akt

namespace akt {
namespace {

AKT_TAG(cpu_only, "ChainTiles.*");

// The chain under the cpu scans and selections (cpu/parallel.hpp): a worker whose predecessor is
// late hands its tile over instead of waiting. Here tile 0's local waits (at most 5 s) until every
// other tile's local has run: with the two workers running at once, the second worker hands all
// those tiles over and the first runs them after its own. Either way every tile must be linked and
// finished once, in order, with the carry of the tiles before it.
struct chain_record {
  static constexpr i64 tiles = 64;
  std::atomic<i64> locals_done{0};
  std::vector<int> finished = std::vector<int>(tiles, 0);
  std::vector<i64> carry_seen = std::vector<i64>(tiles, -1);
  std::vector<std::thread::id> local_thread = std::vector<std::thread::id>(tiles);
  std::vector<std::thread::id> finish_thread = std::vector<std::thread::id>(tiles);
  bool others_started = false;    // tile 0's local saw another tile's local run meanwhile
  bool others_ran_first = false;  // and every other one

  i64 local(i64 k) {
    local_thread[static_cast<std::size_t>(k)] = std::this_thread::get_id();
    if (k == 0) {
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
      while (locals_done.load() < tiles - 1 && std::chrono::steady_clock::now() < give_up)
        std::this_thread::yield();
      others_started = locals_done.load() > 0;
      others_ran_first = locals_done.load() == tiles - 1;
    } else {
      ++locals_done;
    }
    return k + 1;
  }
  void finish(i64 k, const std::optional<i64>& carry) {
    ++finished[static_cast<std::size_t>(k)];
    carry_seen[static_cast<std::size_t>(k)] = *carry;
    finish_thread[static_cast<std::size_t>(k)] = std::this_thread::get_id();
  }
};

TEST(ChainTiles, ALateTileTakesOverTheTilesHandedToIt) {
  chain_record rec;
  const std::optional<i64> last = ak::cpu::chain_tiles<i64>(
      chain_record::tiles, 2, i64{0}, [&](i64 k) { return rec.local(k); },
      [](i64, const std::optional<i64>& carry, i64 l) { return *carry + l; },
      [&](i64 k, const std::optional<i64>& carry, i64) { rec.finish(k, carry); });
  const i64 t = chain_record::tiles;
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(*last, t * (t + 1) / 2);
  for (i64 k = 0; k < t; ++k) {
    const auto i = static_cast<std::size_t>(k);
    EXPECT_EQ(rec.finished[i], 1) << "tile " << k;
    EXPECT_EQ(rec.carry_seen[i], k * (k + 1) / 2) << "tile " << k;
  }
  // The other worker ran, and then waited for tile 0 instead of handing its tiles over.
  EXPECT_FALSE(rec.others_started && !rec.others_ran_first);
  if (rec.others_ran_first) {
    // The hand-over happened: tiles 1 to 62 were left by the other worker before tile 0's local
    // returned, and tile 0's worker finished them (tile 63 goes to whichever comes first).
    for (std::size_t k = 1; k + 1 < rec.finished.size(); ++k) {
      EXPECT_NE(rec.local_thread[k], rec.local_thread.front()) << "tile " << k;
      EXPECT_EQ(rec.finish_thread[k], rec.local_thread.front()) << "tile " << k;
    }
  } else {
    std::printf("note: the two workers did not run at once; the hand-over was not exercised\n");
  }
}

// A tile that throws while later tiles wait handed over to it: the exception reaches the caller,
// no worker waits for the tiles left behind, and none of them is finished.
TEST(ChainTiles, AThrowingTileLeavesTheHandedOverTilesUnfinished) {
  chain_record rec;
  EXPECT_THROW(ak::cpu::chain_tiles<i64>(
                   chain_record::tiles, 2, i64{0},
                   [&](i64 k) {
                     const i64 l = rec.local(k);
                     if (k == 0) throw std::runtime_error("tile 0");
                     return l;
                   },
                   [](i64, const std::optional<i64>& carry, i64 l) { return *carry + l; },
                   [&](i64 k, const std::optional<i64>& carry, i64) { rec.finish(k, carry); }),
               std::runtime_error);
  if (rec.others_ran_first) {
    for (i64 k = 0; k < chain_record::tiles; ++k)
      EXPECT_EQ(rec.finished[static_cast<std::size_t>(k)], 0) << "tile " << k;
  }
}

}  // namespace
}  // namespace akt
