// foreachindex, foraxes, map, map_into, broadcast, take, copy, reverse, reverse_inplace against
// std::transform and nested loops, over every size around the map grain and every layout. The
// bodies run on the cpu and on every sim profile (AKT_DEVICE): their data is on the device under
// test, and their functions are const functors that a kernel can run.
#include <atomic>

#include "test_support.hpp"

using ak::test::contains;
using ak::test::error_message;

namespace akt {
namespace {

template <class T>
class Elementwise : public typed_test<T> {};

// Results are on the device of the data (the device under test).
template <class T>
::testing::AssertionResult on_target_device(const ak::array<T>& a) {
  if (&a.memory() == &target_memory()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "the result is not on " << target_name();
}
TYPED_TEST_SUITE(Elementwise, numeric_types, dtype_names);

// An element-wise function that wraps like ak's arithmetic: 2x + 1 in T.
template <class T>
T twice_plus_one(T x) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(x) * 2u + 1u));
  } else {
    return static_cast<T>(x * 2 + 1);
  }
}

// Two sources of different types (T and W); the result type is f's.
template <class T, class W>
void check_two_sources(const buf<T>& a, rng& r) {
  const buf<W> b = make_data<W>(a.size(), pattern::random, r, values::small);
  const auto mix = [](T x, W y) { return static_cast<W>(x) + W(0.5) * y; };
  buf<W> want(a.size());
  std::transform(a.begin(), a.end(), b.begin(), want.begin(), mix);
  EXPECT_TRUE(same_elements(ak::map(mix, a.view(), b.view()), want)) << "two sources";
}

// The sizes of the element-wise tests: every size on the cpu; on sim (whose element-wise kernels
// have no barriers and run fast) the small sizes, one past the map grain and big_size.
std::vector<i64> elementwise_sizes() {
  std::vector<i64> s = all_sizes();
  if (on_gpu_style()) s.push_back(32769);
  return s;
}

TYPED_TEST(Elementwise, MapEverySize) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (i64 n : elementwise_sizes()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const buf<T> a = make_data<T>(n, pattern::random, r);
    buf<T> want(n);
    std::transform(a.begin(), a.end(), want.begin(), twice_plus_one<T>);
    const ak::array<T> got = ak::map(twice_plus_one<T>, a.view());
    EXPECT_EQ(got.shape(), (ak::shape{n}));
    EXPECT_TRUE(on_target_device(got));
    EXPECT_TRUE(same_elements(got, want));
    if (type_on_target<double>())
      check_two_sources<T, double>(a, r);
    else
      check_two_sources<T, float>(a, r);
    // map_into a separate array, and in place (dst is the source).
    buf<T> dst(n, T(0));
    ak::map_into(dst.view(), twice_plus_one<T>, a.view());
    EXPECT_TRUE(same_elements(dst, want));
    buf<T> in_place = a;
    ak::map_into(in_place.view(), twice_plus_one<T>, in_place.view());
    EXPECT_TRUE(same_elements(in_place, want)) << "in place";
  }
}

// map_into through views in every layout, from sources in other layouts; nothing outside the
// destination view is written.
TYPED_TEST(Elementwise, MapIntoEveryLayout) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const auto sub = [](T x, T y) { return static_cast<T>(x - y); };
  for (const auto& e : all_shapes(4, 3))
    for (layout ld : all_layouts) {
      const layout la = all_layouts[r.index(4)], lb = all_layouts[r.index(4)];
      SCOPED_TRACE("shape " + shape_string(e) + ", dst " + name_of(ld) + ", srcs " + name_of(la) +
                   " " + name_of(lb));
      auto dst = make_layout<T>(e, ld, r);
      const auto a = make_layout<T>(e, la, r, values::small);
      const auto b = make_layout<T>(e, lb, r, values::small);
      const buf<T> ga = gather(ak::view<const T>(a.view)), gb = gather(ak::view<const T>(b.view));
      buf<T> want(ga.size());
      std::transform(ga.begin(), ga.end(), gb.begin(), want.begin(), sub);
      ak::map_into(dst.view, sub, ak::view<const T>(a.view), ak::view<const T>(b.view));
      EXPECT_TRUE(same_elements(gather(dst.view), want));
      EXPECT_TRUE(outside_untouched(dst));
      EXPECT_TRUE(
          same_elements(ak::map(sub, ak::view<const T>(a.view), ak::view<const T>(b.view)), want))
          << "map";
    }
}

// ---- broadcast --------------------------------------------------------------------------------

// The nested-loop reference: out[i] = f(a[i'], b[i'']) with each operand aligned from the last
// dimension and extent-1 dimensions repeated.
template <class R, class A, class B, class F>
buf<R> broadcast_reference(const ak::view<const A>& a_anywhere, const ak::view<const B>& b_anywhere,
                           const ak::shape& out, F f) {
  host_copy<const A> keep_a;
  host_copy<const B> keep_b;
  const ak::view<const A> a = readable(a_anywhere, keep_a);
  const ak::view<const B> b = readable(b_anywhere, keep_b);
  buf<R> o(out.size());
  i64 k = 0;
  const auto pick = [&](const auto& v, const index_t& idx) {
    index_t j{};
    const std::size_t skip = out.rank() - v.rank();
    for (std::size_t d = 0; d < v.rank(); ++d) j[d] = v.shape()[d] == 1 ? 0 : idx[d + skip];
    return at(v, j);
  };
  for_each_index(
      out, [&](const index_t& idx) { o[k++] = static_cast<R>(f(pick(a, idx), pick(b, idx))); });
  return o;
}

TEST(Broadcast, FourDimsWithUnitExtentsAndRankMismatch) {
  AKT_SKIP_UNLESS_TYPE_ON_TARGET(double);
  AKT_RANDOM(r);
  // (2, 1, 4, 1) and (3, 1, 5) broadcast to (2, 3, 4, 5).
  const buf<std::int32_t> a = make_data<std::int32_t>(8, pattern::random, r, values::small);
  const buf<double> b = make_data<double>(15, pattern::random, r, values::small);
  const ak::array<std::int32_t> a_dev = to_array(a, ak::shape{2, 1, 4, 1});
  const ak::array<double> b_dev = to_array(b, ak::shape{3, 1, 5});
  const ak::view<const std::int32_t> av = a_dev.view();
  const ak::view<const double> bv = b_dev.view();
  const auto f = [](std::int32_t x, double y) { return 10.0 * x + y; };
  const ak::array<double> got = ak::broadcast(f, av, bv);
  const ak::shape want_shape{2, 3, 4, 5};
  ASSERT_EQ(got.shape(), want_shape);
  EXPECT_TRUE(same_elements(got, broadcast_reference<double>(av, bv, want_shape, f)));
  // The other order gives the same shape.
  const auto g = [](double y, std::int32_t x) { return 10.0 * x + y; };
  EXPECT_TRUE(
      same_elements(ak::broadcast(g, bv, av), broadcast_reference<double>(av, bv, want_shape, f)));
}

// Random compatible shapes up to rank 4 (extents 0..3, some 1s, some leading dims dropped) in
// random layouts, and a rank-0 operand.
TYPED_TEST(Elementwise, BroadcastRandomShapesAndLayouts) {
  using T = TypeParam;
  AKT_RANDOM(r);
  // A result type other than T (float64 only where T is: the Apple-like sim:3 has none).
  using R = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const auto f = [](T x, T y) { return static_cast<R>(x) * R(3) - static_cast<R>(y); };
  for (const auto& out : all_shapes(4, 3)) {
    for (int trial = 0; trial < 3; ++trial) {
      auto operand = [&] {
        std::vector<i64> e(
            out.begin() + static_cast<std::ptrdiff_t>(r.between(0, static_cast<i64>(out.size()))),
            out.end());
        for (auto& x : e)
          if (r.chance(0.4)) x = 1;
        return e;
      };
      const auto ea = operand(), eb = operand();
      const layout la = all_layouts[r.index(4)], lb = all_layouts[r.index(4)];
      const auto a = make_layout<T>(ea, la, r), b = make_layout<T>(eb, lb, r);
      const ak::view<const T> av = a.view, bv = b.view;
      SCOPED_TRACE("shapes " + shape_string(ea) + " (" + name_of(la) + ") and " + shape_string(eb) +
                   " (" + name_of(lb) + ")");
      // The broadcast shape: per dimension from the right, the extent that is not 1.
      const std::size_t rank = std::max(ea.size(), eb.size());
      std::vector<i64> want_e(rank);
      for (std::size_t i = 0; i < rank; ++i) {
        const i64 x = i < ea.size() ? ea[ea.size() - 1 - i] : 1,
                  y = i < eb.size() ? eb[eb.size() - 1 - i] : 1;
        want_e[rank - 1 - i] = x == 1 ? y : x;
      }
      const ak::shape ws = make_shape(want_e);
      const ak::array<R> got = ak::broadcast(f, av, bv);
      EXPECT_EQ(got.shape(), ws);
      EXPECT_TRUE(on_target_device(got));
      EXPECT_TRUE(same_elements(got, broadcast_reference<R>(av, bv, ws, f)));
    }
  }
  // Three operands, one of rank 0.
  const buf<T> a = make_data<T>(12, pattern::random, r), b = make_data<T>(4, pattern::random, r);
  const buf<T> s_value(1, random_value<T>(r, values::full));
  const ak::array<T> a_dev = to_array(a, ak::shape{3, 4}), b_dev = to_array(b),
                     s = to_array(s_value, ak::shape{});
  const auto f3 = [](T x, T y, T z) {
    return static_cast<R>(x) + R(2) * static_cast<R>(y) + R(4) * static_cast<R>(z);
  };
  const ak::array<R> got_dev = ak::broadcast(f3, a_dev, s, b_dev);
  ASSERT_EQ(got_dev.shape(), (ak::shape{3, 4}));
  const buf<R> got = to_buf(got_dev);
  for (i64 i = 0; i < 3; ++i)
    for (i64 j = 0; j < 4; ++j)
      EXPECT_TRUE(same_value(got[i * 4 + j], f3(a[i * 4 + j], s_value[0], b[j])));
}

// Large broadcasts: a row and a column to a matrix past the map grain.
TYPED_TEST(Elementwise, BroadcastLarge) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const i64 rows = 1001, cols = 333;
  const buf<T> col = make_data<T>(rows, pattern::random, r),
               row = make_data<T>(cols, pattern::random, r);
  const ak::array<T> c_dev = to_array(col, ak::shape{rows, 1}), r_dev = to_array(row);
  const ak::view<const T> cv = c_dev.view(), rv = r_dev.view();
  const auto f = [](T x, T y) { return static_cast<T>(ak::maximum_op{}(x, y)); };
  const ak::array<T> got = ak::broadcast(f, cv, rv);
  EXPECT_TRUE(same_elements(got, broadcast_reference<T>(cv, rv, ak::shape{rows, cols}, f)));
}

// ---- take -------------------------------------------------------------------------------------

template <class I, class T>
void check_take(const ak::view<const T>& src, const std::vector<i64>& index_shape, rng& r) {
  const buf<T> flat = gather(src);
  const i64 count = make_shape(index_shape).size();
  buf<I> idx(count);
  for (auto& x : idx) x = static_cast<I>(r.between(0, src.size() - 1));
  const ak::array<I> idx_dev = to_array(idx, make_shape(index_shape));
  const ak::view<const I> iv = idx_dev.view();
  const ak::array<T> got = ak::take(src, iv);
  EXPECT_EQ(got.shape(), iv.shape());
  EXPECT_TRUE(on_target_device(got));
  buf<T> want(count);
  for (i64 j = 0; j < count; ++j) want[j] = flat[static_cast<i64>(idx[j])];
  EXPECT_TRUE(same_elements(got, want));
}

TYPED_TEST(Elementwise, TakeGathersByLinearIndex) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (i64 n : {i64{1}, i64{2}, i64{255}, i64{32769}, i64{100000}}) {
    SCOPED_TRACE("src size " + std::to_string(n));
    const buf<T> data = make_data<T>(n, pattern::random, r);
    for (i64 count : {i64{0}, i64{1}, i64{32767}, i64{32768}, i64{65537}}) {
      SCOPED_TRACE("indices " + std::to_string(count));
      check_take<std::int64_t>(data.view(), {count}, r);
      check_take<std::int32_t>(data.view(), {count}, r);
      if (n <= 65535) check_take<std::uint16_t>(data.view(), {count}, r);
    }
    check_take<std::int64_t>(data.view(), {7, 13}, r);
  }
  // n-d and non-contiguous sources: indices are row-major positions in the view.
  const buf<T> m = make_data<T>(6 * 35, pattern::random, r);
  const ak::array<T> m_dev = to_array(m, ak::shape{6, 35});
  const ak::view<const T> mv = m_dev.view();
  check_take<std::int64_t>(mv, {40}, r);
  check_take<std::int64_t>(mv.transpose(), {5, 8}, r);
  check_take<std::int8_t>(mv.slice(0, 0, 6, 2).slice(1, 0, 35, -3), {100}, r);
  // No indices into an empty source.
  const buf<T> none(0);
  const buf<std::int64_t> no_idx(0);
  EXPECT_EQ(ak::take(none.view(), no_idx.view()).size(), 0);
}

// ---- copy, reverse ----------------------------------------------------------------------------

TYPED_TEST(Elementwise, CopyOfSlicingViews) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t rank = static_cast<std::size_t>(r.between(1, 4));
    std::vector<i64> pe(rank);
    for (auto& x : pe) x = r.between(0, rank <= 2 ? 400 : 20);
    const auto lo = make_layout<T>(pe, layout::contiguous, r);
    ak::view<const T> v = lo.view;
    for (std::size_t k = 0; k < rank; ++k) {
      const i64 b = r.between(0, pe[k]), en = r.between(b, pe[k]);
      const i64 step = r.chance(0.5) ? r.between(1, 3) : -r.between(1, 3);
      v = v.slice(static_cast<i64>(k), b, en, step);
    }
    if (r.chance(0.5)) v = v.transpose();
    if (rank > 1 && v.shape()[0] > 0 && r.chance(0.3))
      v = v.index(0, r.between(0, v.shape()[0] - 1));
    SCOPED_TRACE("shape " + v.shape().to_string() + " strides " + v.strides().to_string());
    const ak::array<T> got = ak::copy(v);
    EXPECT_EQ(got.shape(), v.shape());
    EXPECT_TRUE(on_target_device(got));
    EXPECT_TRUE(same_bits_elements(to_buf(got), gather(v)));
  }
}

TYPED_TEST(Elementwise, ReverseEverySizeAndLayout) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (i64 n : elementwise_sizes()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const buf<T> data = make_data<T>(n, pattern::random, r);
    buf<T> want = data;
    std::reverse(want.begin(), want.end());
    EXPECT_TRUE(same_bits_elements(to_buf(ak::reverse(data.view())), want));
    buf<T> in_place = data;
    ak::reverse_inplace(in_place.view());
    EXPECT_TRUE(same_bits_elements(in_place, want)) << "reverse_inplace";
  }
  // n-d and non-contiguous: the elements in reverse row-major order, same shape; in place
  // through a view writes nothing outside it.
  for (const auto& e : all_shapes(3, 3))
    for (layout l : all_layouts) {
      SCOPED_TRACE("shape " + shape_string(e) + " " + name_of(l));
      auto lo = make_layout<T>(e, l, r);
      buf<T> want = gather(lo.view);
      std::reverse(want.begin(), want.end());
      const ak::array<T> got = ak::reverse(ak::view<const T>(lo.view));
      EXPECT_EQ(got.shape(), lo.view.shape());
      EXPECT_TRUE(on_target_device(got));
      EXPECT_TRUE(same_bits_elements(to_buf(got), want));
      ak::reverse_inplace(lo.view);
      EXPECT_TRUE(same_bits_elements(gather(lo.view), want)) << "reverse_inplace";
      EXPECT_TRUE(outside_untouched(lo));
    }
  for (i64 n : {i64{5}, i64{65537}}) {
    auto lo = make_layout<T>({n}, layout::strided, r);
    buf<T> want = gather(lo.view);
    std::reverse(want.begin(), want.end());
    ak::reverse_inplace(lo.view);
    EXPECT_TRUE(same_bits_elements(gather(lo.view), want)) << "strided reverse_inplace, n = " << n;
    EXPECT_TRUE(outside_untouched(lo));
  }
}

// ---- loops ------------------------------------------------------------------------------------

// foreachindex calls f exactly once for every index, whatever the size and grain. (No data: it
// runs on the cpu wherever the tests run.)
TEST(Loops, ForeachindexVisitsEveryIndexOnce) {
  if (on_gpu_style())
    GTEST_SKIP()
        << "foreachindex(n, f) takes no data and runs on the cpu: the cpu registration runs it";
  std::vector<i64> sizes{0, 1, 2, 3, 31, 32767, 32768, 32769, 65537, big_size};
  for (i64 n : sizes)
    for (i64 grain : {i64{0}, i64{1}, i64{1000}}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", grain " + std::to_string(grain));
      std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
      const ak::loop_options o{.tuning = {.cpu_grain = grain == 0 ? ak::unset : grain}};
      ak::foreachindex(
          n,
          [&](i64 i) { hits[static_cast<std::size_t>(i)].fetch_add(1, std::memory_order_relaxed); },
          o);
      i64 bad = -1;
      for (i64 i = 0; i < n && bad < 0; ++i)
        if (hits[static_cast<std::size_t>(i)].load() != 1) bad = i;
      EXPECT_EQ(bad, -1) << "index " << bad << " visited "
                         << (bad >= 0 ? hits[static_cast<std::size_t>(bad)].load() : 0) << " times";
    }
  // Over a host range: its linear indices.
  const std::vector<double> v(70001, 1.0);
  std::vector<std::atomic<int>> hits(v.size());
  ak::foreachindex(v, [&](i64 i) { hits[static_cast<std::size_t>(i)].fetch_add(1); });
  EXPECT_TRUE(std::all_of(hits.begin(), hits.end(),
                          [](const std::atomic<int>& h) { return h.load() == 1; }));
}

// A loop body that a kernel can run: adds 1 to hits[i] (each index has one work-item, so no two
// calls touch one element when every index is visited once).
struct count_visit {
  std::int32_t* hits;
  AK_KERNEL_FN void operator()(i64 i) const { hits[i] += 1; }
};

// How many of the counts are not 1, and the first such index.
::testing::AssertionResult each_once(const ak::array<std::int32_t>& hits_dev) {
  const buf<std::int32_t> hits = to_buf(hits_dev);
  i64 first = -1, bad = 0;
  for (i64 i = 0; i < hits.size(); ++i)
    if (hits[i] != 1) {
      if (first < 0) first = i;
      ++bad;
    }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << bad << " of " << hits.size() << " indices not visited once; first " << first
         << " visited " << hits[first] << " times";
}

// foreachindex over data on the device under test (a kernel on sim): each linear index once, for
// every size, n-d shapes and views, and the call's tuning.
TEST(Loops, ForeachindexOverDataVisitsEveryIndexOnce) {
  std::vector<i64> sizes = elementwise_sizes();
  if (!on_gpu_style()) sizes.insert(sizes.end(), {70001, big_size});
  for (i64 n : sizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const ak::array<float> data = to_array(buf<float>(n, 1.0f));
    ak::array<std::int32_t> hits = to_array(buf<std::int32_t>(n, 0));
    ak::foreachindex(data, count_visit{hits.data()});
    EXPECT_TRUE(each_once(hits));
  }
  // n-d and a transposed view: the view's size.
  const ak::array<std::int16_t> m =
      to_array(buf<std::int16_t>(30 * 7 * 11, 0), ak::shape{30, 7, 11});
  ak::array<std::int32_t> hits = to_array(buf<std::int32_t>(m.size(), 0));
  ak::foreachindex(m.view().transpose(), count_visit{hits.data()});
  EXPECT_TRUE(each_once(hits)) << "n-d";
  // The call's tuning: small blocks (sim) and grains (cpu), several items per work-item.
  for (const ak::map_tuning t :
       {ak::map_tuning{.block_size = 32, .items_per_thread = 1, .cpu_grain = 1},
        ak::map_tuning{.block_size = 64, .items_per_thread = 3, .cpu_grain = 100}}) {
    ak::array<std::int32_t> h = to_array(buf<std::int32_t>(m.size(), 0));
    ak::foreachindex(m, count_visit{h.data()}, {.tuning = t});
    EXPECT_TRUE(each_once(h)) << "block_size " << t.block_size << ", items_per_thread "
                              << t.items_per_thread;
  }
}

// foraxes: each index along the dimension once, on the device under test.
TEST(Loops, ForaxesVisitsEachIndexOfTheDimension) {
  const i64 long_extent = 40000;
  const ak::array<std::int16_t> a =
      to_array(buf<std::int16_t>(3 * long_extent * 2, 0), ak::shape{3, long_extent, 2});
  for (i64 dim = 0; dim < 3; ++dim) {
    ak::array<std::int32_t> hits =
        to_array(buf<std::int32_t>(a.shape()[static_cast<std::size_t>(dim)], 0));
    ak::foraxes(a, dim, count_visit{hits.data()});
    EXPECT_TRUE(each_once(hits)) << "dim " << dim;
  }
  // Through a transposed view: the view's extents.
  ak::array<std::int32_t> hits = to_array(buf<std::int32_t>(2, 0));
  ak::foraxes(a.view().transpose(), 0, count_visit{hits.data()});
  EXPECT_TRUE(each_once(hits)) << "transposed";
}

}  // namespace
}  // namespace akt

namespace akt {
namespace {

// Indices may be any view: a transposed index matrix gathers in its row-major order.
TEST(Take, NonContiguousIndices) {
  AKT_RANDOM(r);
  const buf<float> src = make_data<float>(5000, pattern::random, r);
  buf<std::int32_t> idx(60 * 70);
  for (auto& x : idx) x = static_cast<std::int32_t>(r.between(0, 4999));
  const ak::array<std::int32_t> idx_dev = to_array(idx, ak::shape{60, 70});
  const ak::view<const std::int32_t> iv = idx_dev.view().transpose().slice(1, 0, 60, -2);
  const ak::array<float> got = ak::take(src.view(), iv);
  EXPECT_EQ(got.shape(), iv.shape());
  const buf<std::int32_t> flat = gather(iv);
  buf<float> want(flat.size());
  for (i64 j = 0; j < flat.size(); ++j) want[j] = src[flat[j]];
  EXPECT_TRUE(same_elements(got, want));
}

struct boom : std::runtime_error {
  boom() : std::runtime_error("boom") {}
};

// An exception thrown by the caller's function reaches the caller: as itself on the cpu; on a
// GPU-style device, where a kernel body cannot throw, as the failure of the launch (on sim an
// ak::sim::kernel_error that carries its message).
TEST(Loops, ExceptionsFromTheFunctionPropagate) {
  for (i64 n : {i64{1}, i64{100}, big_size}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const i64 at_index = n / 2;
    const auto throw_at = [at_index](i64 i) {
      if (i == at_index) throw boom();
    };
    const auto throw_positive = [](float x) -> float {
      if (x > 0) throw boom();
      return x;
    };
    const buf<float> v(n, 1.0f);
    if (!on_gpu_style()) {
      EXPECT_THROW(ak::foreachindex(n, throw_at), boom);
      EXPECT_THROW(ak::foreachindex(v.view(), throw_at), boom);
      EXPECT_THROW((void)ak::map(throw_positive, v.view()), boom);
      continue;
    }
    for (const std::string& msg :
         {error_message<ak::sim::kernel_error>([&] { ak::foreachindex(v.view(), throw_at); }),
          error_message<ak::sim::kernel_error>([&] { (void)ak::map(throw_positive, v.view()); })})
      EXPECT_TRUE(contains(msg, "boom") && contains(msg, target_name())) << msg;
  }
}

}  // namespace
}  // namespace akt
