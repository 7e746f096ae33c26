// reduce and mapreduce along dimensions: every non-empty subset of the dimensions of every shape
// with extents 0..3 up to rank 4, on contiguous, strided, transposed and reversed views, and some
// larger shapes that reach each of the cpu backend's code paths; against nested loops.
#include "test_support.hpp"

namespace akt {
namespace {

// ak::dims from a run-time list (order and repeats do not matter).
ak::dims dims_of(const std::vector<i64>& d) {
  switch (d.size()) {
    case 1:
      return ak::dims{d[0]};
    case 2:
      return ak::dims{d[0], d[1]};
    case 3:
      return ak::dims{d[0], d[1], d[2]};
    case 4:
      return ak::dims{d[0], d[1], d[2], d[3]};
    case 5:
      return ak::dims{d[0], d[1], d[2], d[3], d[4]};
    default:
      ADD_FAILURE() << "dims_of: " << d.size() << " dims";
      return ak::dims{0};
  }
}

// The dims of a mask, shuffled, sometimes with one repeated.
std::vector<i64> dims_list(std::uint32_t mask, rng& r) {
  std::vector<i64> d;
  for (i64 k = 0; k < 8; ++k)
    if ((mask >> k) & 1u) d.push_back(k);
  std::shuffle(d.begin(), d.end(), r.engine());
  if (r.chance(0.25)) d.push_back(d[r.index(d.size())]);
  return d;
}

std::string dims_string(const std::vector<i64>& d) {
  std::string s = "dims {";
  for (std::size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "}";
}

// The nested-loop reference: for every output index, the reduced elements in row-major order
// folded from init (else the neutral element, else the first element).
template <class R, class T, class F, class Op>
buf<R> reference(const ak::view<const T>& dv, std::uint32_t mask, const F& f, const Op& op,
                 std::optional<R> init, std::optional<R> neutral, ak::shape& out_shape) {
  host_copy<T> keep;
  const ak::view<const T> v = readable(dv, keep);  // a host reading of a device view
  std::vector<i64> oe(v.rank()), re(v.rank());
  for (std::size_t d = 0; d < v.rank(); ++d) {
    const bool red = (mask >> d) & 1u;
    oe[d] = red ? 1 : v.shape()[d];
    re[d] = red ? v.shape()[d] : 1;
  }
  out_shape = make_shape(oe);
  const ak::shape rs = make_shape(re);
  buf<R> out(out_shape.size());
  i64 k = 0;
  for_each_index(out_shape, [&](const index_t& o) {
    std::optional<R> acc = init ? init : neutral;
    for_each_index(rs, [&](const index_t& ri) {
      index_t idx = o;
      for (std::size_t d = 0; d < v.rank(); ++d)
        if ((mask >> d) & 1u) idx[d] = ri[d];
      const R x = static_cast<R>(f(at(v, idx)));
      acc = acc ? static_cast<R>(op(*acc, x)) : x;
    });
    out[k++] = *acc;
  });
  return out;
}

template <class R>
::testing::AssertionResult same_array(const ak::array<R>& got, const ak::shape& want_shape,
                                      const buf<R>& want) {
  if (got.shape() != want_shape)
    return ::testing::AssertionFailure()
           << "shape " << got.shape().to_string() << ", want " << want_shape.to_string();
  return same_range(to_buf(got).data(), want.data(), want.size());
}

template <class T>
class ReduceDims : public typed_test<T> {};
TYPED_TEST_SUITE(ReduceDims, numeric_types, dtype_names);

AKT_TAG(cross_group_sync, "ReduceDims/*.EverySubsetOfEveryShapeAndLayout");
TYPED_TEST(ReduceDims, EverySubsetOfEveryShapeAndLayout) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const auto shapes = pick(all_shapes(4, 3), all_shapes(3, 2));
  for (layout l : all_layouts) {
    for (const auto& e : shapes) {
      if (e.empty()) continue;
      // On sim each shape in one layout (chosen at random; every layout over all shapes).
      if (on_gpu_style() && all_layouts[r.index(all_layouts.size())] != l) continue;
      const auto small = make_layout<T>(e, l, r, values::small);
      const auto full = make_layout<T>(e, l, r, values::full);
      const ak::view<const T> vs = small.view, vf = full.view;
      const std::uint32_t subsets = 1u << e.size();
      for (std::uint32_t mask = 1; mask < subsets; ++mask) {
        const auto d = dims_list(mask, r);
        SCOPED_TRACE(std::string(name_of(l)) + " shape " + shape_string(e) + " " + dims_string(d));
        ak::shape ws;
        // sum, with and without init
        {
          const auto want = reference<T>(vs, mask, ak::identity{}, ak::plus{}, std::optional<T>{},
                                         std::optional<T>(T(0)), ws);
          EXPECT_TRUE(same_array(ak::sum(vs, dims_of(d)), ws, want));
          const T init = random_value<T>(r, values::small);
          const auto want_init = reference<T>(vs, mask, ak::identity{}, ak::plus{},
                                              std::optional<T>(init), std::optional<T>{}, ws);
          EXPECT_TRUE(same_array(
              ak::reduce(vs, ak::plus{}, dims_of(d), ak::reduce_options<T>{.init = init}), ws,
              want_init));
        }
        // maximum and minimum over any values (NaN propagates)
        {
          const auto hi =
              reference<T>(vf, mask, ak::identity{}, ak::maximum_op{}, std::optional<T>{},
                           ak::neutral_element<T, ak::maximum_op>(), ws);
          EXPECT_TRUE(same_array(ak::maximum(vf, dims_of(d)), ws, hi));
          const auto lo =
              reference<T>(vf, mask, ak::identity{}, ak::minimum_op{}, std::optional<T>{},
                           ak::neutral_element<T, ak::minimum_op>(), ws);
          EXPECT_TRUE(same_array(ak::minimum(vf, dims_of(d)), ws, lo));
        }
        // prod of small values along few elements cannot overflow (|x| <= 8, <= 3 elements...):
        // only where at most 2 elements are reduced per output, so |prod| <= 64.
        i64 per = 1;
        for (std::size_t k = 0; k < e.size(); ++k)
          if ((mask >> k) & 1u) per *= e[k];
        if (per <= 2) {
          const auto want = reference<T>(vs, mask, ak::identity{}, ak::multiplies{},
                                         std::optional<T>{}, std::optional<T>(T(1)), ws);
          EXPECT_TRUE(same_array(ak::prod(vs, dims_of(d)), ws, want));
        }
      }
    }
  }
}

// mapreduce along dims: f's result type, with and without init.
TYPED_TEST(ReduceDims, MapreduceEveryShape) {
  using T = TypeParam;
  AKT_SKIP_UNLESS_TYPE_ON_TARGET(double);
  AKT_RANDOM(r);
  const auto twice = [](T x) { return 2.0 * static_cast<double>(x); };
  const auto positive = [](T x) { return static_cast<std::int64_t>(x > T(0)); };
  for (const auto& e : pick(all_shapes(3, 3), all_shapes(3, 2))) {
    if (e.empty()) continue;
    const layout l = all_layouts[r.index(all_layouts.size())];
    const auto lo = make_layout<T>(e, l, r, values::small);
    const ak::view<const T> v = lo.view;
    for (std::uint32_t mask = 1; mask < (1u << e.size()); ++mask) {
      const auto d = dims_list(mask, r);
      SCOPED_TRACE(std::string(name_of(l)) + " shape " + shape_string(e) + " " + dims_string(d));
      ak::shape ws;
      const auto want = reference<double>(v, mask, twice, ak::plus{}, std::optional<double>{},
                                          std::optional<double>(0.0), ws);
      EXPECT_TRUE(same_array(ak::mapreduce(v, twice, ak::plus{}, dims_of(d)), ws, want));
      const auto want_init = reference<double>(
          v, mask, twice, ak::plus{}, std::optional<double>(0.5), std::optional<double>{}, ws);
      EXPECT_TRUE(same_array(
          ak::mapreduce(v, twice, ak::plus{}, dims_of(d), ak::reduce_options<double>{.init = 0.5}),
          ws, want_init));
      const auto count =
          reference<std::int64_t>(v, mask, positive, ak::plus{}, std::optional<std::int64_t>{},
                                  std::optional<std::int64_t>(0), ws);
      EXPECT_TRUE(same_array(ak::mapreduce(v, positive, ak::plus{}, dims_of(d)), ws, count));
    }
  }
}

// Larger shapes: few long reductions (each in parallel), many short ones, the innermost
// dimension kept (vector accumulators in blocks) or reduced, with odd per-call tunings.
TYPED_TEST(ReduceDims, LargerShapesReachEveryPath) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const std::vector<std::vector<i64>> shapes = pick<std::vector<std::vector<i64>>>({{2, 140000},
                                                                                    {140000, 2},
                                                                                    {3, 65537},
                                                                                    {65537, 3},
                                                                                    {300, 1001},
                                                                                    {1001, 300},
                                                                                    {17, 31, 257},
                                                                                    {2, 3, 5, 4099},
                                                                                    {4099, 5, 3, 2},
                                                                                    {1, 131073},
                                                                                    {131073, 1}},
                                                                                   {{2, 3000},
                                                                                    {3000, 2},
                                                                                    {3, 1025},
                                                                                    {1025, 3},
                                                                                    {30, 101},
                                                                                    {101, 30},
                                                                                    {5, 7, 33},
                                                                                    {2, 3, 5, 109},
                                                                                    {109, 5, 3, 2},
                                                                                    {1, 5001},
                                                                                    {5001, 1}});
  for (const auto& e : shapes) {
    for (layout l : {layout::contiguous, r.chance(0.5) ? layout::transposed : layout::strided}) {
      const auto lo = make_layout<T>(e, l, r, values::small);
      const ak::view<const T> v = lo.view;
      // Each single dimension, all of them, and one random subset.
      std::vector<std::uint32_t> masks{
          (1u << e.size()) - 1, static_cast<std::uint32_t>(r.between(1, (1 << e.size()) - 1))};
      for (std::size_t k = 0; k < e.size(); ++k) masks.push_back(1u << k);
      for (std::uint32_t mask : masks) {
        const auto d = dims_list(mask, r);
        SCOPED_TRACE(std::string(name_of(l)) + " shape " + shape_string(e) + " " + dims_string(d));
        ak::shape ws;
        const auto want = reference<T>(v, mask, ak::identity{}, ak::plus{}, std::optional<T>{},
                                       std::optional<T>(T(0)), ws);
        EXPECT_TRUE(same_array(ak::sum(v, dims_of(d)), ws, want));
        if (on_gpu_style()) continue;  // cpu tunings only
        const ak::reduce_options<T> odd{.tuning = {.cpu_tasks = 3, .cpu_grain = 1000}};
        EXPECT_TRUE(same_array(ak::sum(v, dims_of(d), odd), ws, want))
            << "cpu_tasks 3, cpu_grain 1000";
      }
    }
  }
}

// Random shapes up to rank 4 with permuted, sliced and reversed views of random parents.
AKT_TAG(cross_group_sync, "ReduceDims/*.RandomShapesAndViews");
TYPED_TEST(ReduceDims, RandomShapesAndViews) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (int trial = 0; trial < pick(40, 10); ++trial) {
    const std::size_t rank = static_cast<std::size_t>(r.between(1, 4));
    std::vector<i64> pe(rank);
    for (auto& x : pe) x = r.between(1, rank <= 2 ? 300 : 25);
    buf<T> host(make_shape(pe).size());
    for (auto& x : host) x = random_value<T>(r, values::small);
    const ak::array<T> parent = to_array(host, make_shape(pe));
    ak::view<const T> v = parent.view();
    for (std::size_t k = 0; k < rank; ++k) {
      const i64 b = r.between(0, pe[k] - 1), en = r.between(b, pe[k]);
      const i64 step = r.chance(0.5) ? r.between(1, 3) : -r.between(1, 3);
      v = v.slice(static_cast<i64>(k), b, en, step);
    }
    std::vector<i64> perm(rank);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), r.engine());
    v = v.permute(std::span<const i64>(perm.data(), perm.size()));
    const std::uint32_t mask = static_cast<std::uint32_t>(r.between(1, (1 << rank) - 1));
    const auto d = dims_list(mask, r);
    SCOPED_TRACE("shape " + v.shape().to_string() + " strides " + v.strides().to_string() + " " +
                 dims_string(d));
    ak::shape ws;
    const auto want = reference<T>(v, mask, ak::identity{}, ak::plus{}, std::optional<T>{},
                                   std::optional<T>(T(0)), ws);
    EXPECT_TRUE(same_array(ak::sum(v, dims_of(d)), ws, want));
    const auto hi = reference<T>(v, mask, ak::identity{}, ak::maximum_op{}, std::optional<T>{},
                                 ak::neutral_element<T, ak::maximum_op>(), ws);
    EXPECT_TRUE(same_array(ak::maximum(v, dims_of(d)), ws, hi));
  }
}

// Floats: a NaN in a reduced run makes that output NaN and no other; zeros keep their order.
template <class T>
class ReduceDimsFloat : public typed_test<T> {};
TYPED_TEST_SUITE(ReduceDimsFloat, float_types, dtype_names);

TYPED_TEST(ReduceDimsFloat, NanStaysInItsOutput) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (const std::vector<i64>& e : {std::vector<i64>{5, 7}, std::vector<i64>{64, 33},
                                    std::vector<i64>{3, 4, pick<i64>(70000, 7000)}}) {
    for (std::uint32_t mask = 1; mask < (1u << e.size()); ++mask) {
      buf<T> host(make_shape(e).size());
      for (auto& x : host) {
        x = random_value<T>(r, values::small);
        if (r.chance(0.001))
          x = std::numeric_limits<T>::quiet_NaN();
        else if (x == 0)
          x = r.chance(0.5) ? -T(0) : T(0);
      }
      const ak::array<T> a = to_array(host, make_shape(e));
      const ak::view<const T> v = a.view();
      SCOPED_TRACE("shape " + shape_string(e) + " mask " + std::to_string(mask));
      ak::shape ws;
      const auto d = dims_list(mask, r);
      EXPECT_TRUE(
          same_array(ak::maximum(v, dims_of(d)), ws,
                     reference<T>(v, mask, ak::identity{}, ak::maximum_op{}, std::optional<T>{},
                                  ak::neutral_element<T, ak::maximum_op>(), ws)));
      EXPECT_TRUE(
          same_array(ak::minimum(v, dims_of(d)), ws,
                     reference<T>(v, mask, ak::identity{}, ak::minimum_op{}, std::optional<T>{},
                                  ak::neutral_element<T, ak::minimum_op>(), ws)));
      // Sums: NaN where the reference has NaN; the sign of a zero sum is not checked (the
      // library seeds with +0.0 on some paths and with the first element on others, so a sum
      // of -0.0 alone is +0.0 or -0.0 depending on the layout; reported).
      const ak::array<T> sum = ak::sum(v, dims_of(d));
      const auto want = reference<T>(v, mask, ak::identity{}, ak::plus{}, std::optional<T>{},
                                     std::optional<T>(T(0)), ws);
      EXPECT_EQ(sum.shape(), ws);
      EXPECT_TRUE(same_range(to_buf(sum).data(), want.data(), want.size(),
                             [](T x, T y) { return (x != x && y != y) || x == y; }));
    }
  }
}

// The same bits run to run along dims, for arbitrary floats.
TYPED_TEST(ReduceDimsFloat, SameBitsRunToRun) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (const std::vector<i64>& e :
       pick<std::vector<std::vector<i64>>>({{2, 300000}, {1000, 600}}, {{2, 20000}, {100, 60}})) {
    buf<T> host(make_shape(e).size());
    for (auto& x : host) x = static_cast<T>(r.unit() * 100 - 50);
    const ak::array<T> a = to_array(host, make_shape(e));
    for (i64 dim = 0; dim < 2; ++dim) {
      const ak::array<T> first = ak::sum(a, ak::dims{dim});
      for (int k = 0; k < 3; ++k) {
        const ak::array<T> again = ak::sum(a, ak::dims{dim});
        EXPECT_TRUE(same_range(to_buf(again).data(), to_buf(first).data(), first.size(),
                               [](T x, T y) { return same_bits(x, y); }))
            << "shape " << shape_string(e) << " dim " << dim << " run " << k;
      }
    }
  }
}

// bool along dims with the logical operators.
TEST(ReduceDimsBool, LogicalOperatorsEveryShape) {
  AKT_RANDOM(r);
  for (const auto& e : pick(all_shapes(4, 3), all_shapes(3, 3))) {
    if (e.empty()) continue;
    const layout l = all_layouts[r.index(all_layouts.size())];
    const auto lo = make_layout<bool>(e, l, r);
    const ak::view<const bool> v = lo.view;
    for (std::uint32_t mask = 1; mask < (1u << e.size()); ++mask) {
      const auto d = dims_list(mask, r);
      SCOPED_TRACE(std::string(name_of(l)) + " shape " + shape_string(e) + " " + dims_string(d));
      ak::shape ws;
      const auto all = reference<bool>(v, mask, ak::identity{}, ak::logical_and{},
                                       std::optional<bool>{}, std::optional<bool>(true), ws);
      EXPECT_TRUE(same_array(ak::reduce(v, ak::logical_and{}, dims_of(d)), ws, all));
      const auto any = reference<bool>(v, mask, ak::identity{}, ak::logical_or{},
                                       std::optional<bool>{}, std::optional<bool>(false), ws);
      EXPECT_TRUE(same_array(ak::reduce(v, ak::logical_or{}, dims_of(d)), ws, any));
    }
  }
}

}  // namespace
}  // namespace akt
