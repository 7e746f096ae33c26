// Argument and capability errors: each call throws the documented exception type, says what is
// wrong, and leaves every output (and input) as it was (DESIGN.md section 6: bad input never
// reaches a kernel; nothing is written after an argument error).
#include <tuple>
#include <utility>

#include "test_support.hpp"

namespace akt {
namespace {

using ak::test::contains;
using ak::test::error_message;

template <class T>
void expect_unchanged(const buf<T>& now, const buf<T>& before, std::size_t which) {
  EXPECT_TRUE(same_bits_elements(now, before)) << "buffer " << which << " changed";
}

// Runs f, which must throw E; checks that the buffers are unchanged (bit for bit) afterwards.
template <class E, class F, class... B>
std::string throws_and_leaves(F&& f, const B&... buffers) {
  const auto before = std::make_tuple(buf(buffers)...);
  const std::string msg = error_message<E>(std::forward<F>(f));
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (expect_unchanged(buffers, std::get<I>(before), I), ...);
  }
  (std::index_sequence_for<B...>{});
  return msg;
}

TEST(Errors, MapIntoShapeMismatch) {
  AKT_RANDOM(r);
  buf<float> dst = make_data<float>(12, pattern::random, r);
  const buf<float> src = make_data<float>(12, pattern::random, r);
  // On the device under test: each call makes dst's device view, whose end brings back to dst
  // whatever the call wrote there (before throws_and_leaves compares).
  const auto d = [&](auto&& dv) { return ak::view<float>(dv).reshape(ak::shape{3, 4}); };
  const ak::view<const float> s = src.view().reshape(ak::shape{4, 3});
  const auto neg = [](float x) { return -x; };
  const std::string msg =
      throws_and_leaves<ak::argument_error>([&] { ak::map_into(d(dst.view()), neg, s); }, dst, src);
  EXPECT_TRUE(contains(msg, "(3, 4)") && contains(msg, "(4, 3)")) << msg;
  // A second source of another shape, and map with mismatched sources.
  const ak::view<const float> ok = src.view().reshape(ak::shape{3, 4});
  const ak::view<const float> bad = src.view();
  const auto add = [](float x, float y) { return x + y; };
  throws_and_leaves<ak::argument_error>([&] { ak::map_into(d(dst.view()), add, ok, bad); }, dst,
                                        src);
  error_message([&] { (void)ak::map(add, ok, bad); });
}

TEST(Errors, BroadcastOfIncompatibleShapesNamesBoth) {
  const buf<float> a(6, 1.0f), b(4, 2.0f);
  const ak::view<const float> av = a.view().reshape(ak::shape{2, 3}), bv = b.view();
  const auto add = [](float x, float y) { return x + y; };
  const std::string msg =
      throws_and_leaves<ak::argument_error>([&] { (void)ak::broadcast(add, av, bv); }, a, b);
  EXPECT_TRUE(contains(msg, "(2, 3)") && contains(msg, "(4)")) << msg;
  // Aligned from the right: (3, 1) and (2, 1) do not broadcast, (2, 1) and (3) do.
  const ak::view<const float> a_all = a.view();
  const ak::view<const float> c = a_all.slice(0, 0, 3).reshape(ak::shape{3, 1}),
                              d = a_all.slice(0, 0, 2).reshape(ak::shape{2, 1}),
                              e = a_all.slice(0, 0, 3);
  error_message([&] { (void)ak::broadcast(add, c, d); });
  EXPECT_EQ(ak::broadcast(add, d, e).shape(), (ak::shape{2, 3}));
  // An extent 0 against an extent 2.
  const ak::view<const float> z = a_all.slice(0, 0, 0), two = a_all.slice(0, 0, 2);
  error_message([&] { (void)ak::broadcast(add, z, two); });
}

TEST(Errors, DimsOutOfRange) {
  AKT_RANDOM(r);
  buf<std::int32_t> data = make_data<std::int32_t>(12, pattern::random, r);
  // (3, 4) views of data on the device under test, made inside each call: on sim what a call
  // writes there comes back to data, for throws_and_leaves to see.
  const auto m = [&]() -> ak::view<const std::int32_t> {
    return data.view().reshape(ak::shape{3, 4});
  };
  const auto mw = [&]() -> ak::view<std::int32_t> { return data.view().reshape(ak::shape{3, 4}); };
  for (const ak::dims& d :
       {ak::dims{2}, ak::dims{-1}, ak::dims{0, 2}, ak::dims{0, 1, 0, 1, 0, 1, 0, 1, 0}}) {
    const std::string msg =
        throws_and_leaves<ak::argument_error>([&] { (void)ak::sum(m(), d); }, data);
    EXPECT_TRUE(contains(msg, "dims")) << msg;
    throws_and_leaves<ak::argument_error>([&] { (void)ak::reduce(m(), ak::maximum_op{}, d); },
                                          data);
    throws_and_leaves<ak::argument_error>(
        [&] {
          (void)ak::mapreduce(
              m(), [](std::int32_t x) { return 2.0f * static_cast<float>(x); }, ak::plus{}, d);
        },
        data);
  }
  // Rank 0 has no dims.
  const ak::array<float> scalar(ak::shape{}, 1.0f, target_memory());
  error_message([&] { (void)ak::sum(scalar, ak::dims{0}); });
  // accumulate: a dim out of range, or none for rank 2.
  for (i64 dim : {-1, 2, 100}) {
    throws_and_leaves<ak::argument_error>(
        [&] {
          ak::accumulate_inplace(data.view().reshape(ak::shape{3, 4}), ak::plus{}, {.dim = dim});
        },
        data);
    throws_and_leaves<ak::argument_error>([&] { (void)ak::cumsum(m(), {.dim = dim}); }, data);
  }
  (void)mw;
  const std::string msg = throws_and_leaves<ak::argument_error>(
      [&] {
        ak::accumulate_inplace(data.view().reshape(ak::shape{3, 4}), ak::plus{});
      },
      data);
  EXPECT_TRUE(contains(msg, "dim")) << msg;
  // foraxes
  const ak::view<const std::int32_t> host_m = data.host_view().reshape(ak::shape{3, 4});
  error_message([&] { ak::foraxes(host_m, 2, [](i64) {}); });
  error_message([&] { ak::foraxes(host_m, -1, [](i64) {}); });
  error_message([&] { ak::foreachindex(-1, [](i64) {}); });
}

// Temp storage smaller than asked for.
TEST(Errors, TempTooSmall) {
  AKT_SKIP_UNLESS_TYPE_ON_TARGET(double);
  AKT_RANDOM(r);
  for (i64 n : {i64{1}, i64{100}, big_size}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    buf<double> data = make_data<double>(n, pattern::random, r);
    buf<std::int64_t> values(n, 7);
    const std::size_t need = ak::sort_temp_bytes<double>(n);
    std::vector<std::byte> storage(need);
    for (const ak::sort_alg& a :
         {ak::sort_alg{ak::auto_alg{}}, ak::sort_alg{ak::radix_sort{}},
          ak::sort_alg{ak::merge_sort{}}, ak::sort_alg{ak::sample_sort{}}}) {
      if (on_gpu_style() && std::holds_alternative<ak::sample_sort>(a))
        continue;  // none there: DeviceCapabilities
      const ak::sort_options<> o{.stable = !std::holds_alternative<ak::sample_sort>(a),
                                 .alg = a,
                                 .temp = ak::temp_storage(storage.data(), need - 1)};
      const std::string msg =
          throws_and_leaves<ak::argument_error>([&] { ak::sort_inplace(data.view(), o); }, data);
      EXPECT_TRUE(contains(msg, "temp") && contains(msg, std::to_string(need))) << msg;
      throws_and_leaves<ak::argument_error>([&] { (void)ak::sort(data.view(), o); }, data);
      throws_and_leaves<ak::argument_error>([&] { (void)ak::sortperm(data.view(), o); }, data);
      throws_and_leaves<ak::argument_error>([&] { ak::sort_by_key(data.view(), values.view(), o); },
                                            data, values);
    }
    const std::size_t scan_need = ak::accumulate_temp_bytes<double>(n);
    std::vector<std::byte> scan_storage(scan_need);
    const ak::accumulate_options<double> ao{
        .temp = ak::temp_storage(scan_storage.data(), scan_need - 1)};
    const std::string msg = throws_and_leaves<ak::argument_error>(
        [&] { ak::accumulate_inplace(data.view(), ak::plus{}, ao); }, data);
    EXPECT_TRUE(contains(msg, "temp")) << msg;
    throws_and_leaves<ak::argument_error>(
        [&] { (void)ak::accumulate(data.view(), ak::maximum_op{}, ao); }, data);
  }
}

// radix_sort orders numbers by their bits: a custom lt, or a key (the element or what `by`
// returns) that is not a number, is a capability error. (A `by` that returns a number is fine:
// sort_test.cpp's SortCustomOrder.RadixSortByNumericField.)
TEST(Errors, RadixSortWithCustomOrder) {
  AKT_RANDOM(r);
  buf<std::int32_t> data = make_data<std::int32_t>(1000, pattern::random, r);
  buf<float> values(1000, 1.0f);
  struct boxed {
    std::int32_t x;
    bool operator<(const boxed& o) const { return x < o.x; }
  };
  const auto by = [](std::int32_t x) { return boxed{x}; };
  const auto lt = [](std::int32_t a, std::int32_t b) { return a > b; };
  const ak::sort_options with_by{.by = by, .alg = ak::radix_sort{}};
  const ak::sort_options with_lt{.lt = lt, .alg = ak::radix_sort{}};
  const std::string msg = throws_and_leaves<ak::capability_error>(
      [&] { ak::sort_inplace(data.view(), with_by); }, data);
  EXPECT_TRUE(contains(msg, "radix_sort") && contains(msg, "`by`")) << msg;
  throws_and_leaves<ak::capability_error>([&] { ak::sort_inplace(data.view(), with_lt); }, data);
  throws_and_leaves<ak::capability_error>([&] { (void)ak::sort(data.view(), with_lt); }, data);
  throws_and_leaves<ak::capability_error>([&] { (void)ak::sortperm(data.view(), with_by); }, data);
  throws_and_leaves<ak::capability_error>(
      [&] { ak::sort_by_key(data.view(), values.view(), with_lt); }, data, values);
  // std::less<> is a custom lt too (only ak::isless is the default order).
  throws_and_leaves<ak::capability_error>(
      [&] {
        ak::sort_inplace(data.view(),
                         ak::sort_options{.lt = std::less<>{}, .alg = ak::radix_sort{}});
      },
      data);
  // A struct is not a radix key.
  struct pair {
    std::int32_t a, b;
    bool operator<(const pair& o) const { return a < o.a; }
  };
  buf<pair> pairs(10, pair{1, 2});
  const std::string struct_msg = error_message<ak::capability_error>(
      [&] { ak::sort_inplace(pairs.view(), ak::sort_options{.alg = ak::radix_sort{}}); });
  EXPECT_TRUE(contains(struct_msg, on_gpu_style() ? "numeric" : "not one")) << struct_msg;
}

// Algorithm fields out of range name the algorithm value.
TEST(Errors, AlgorithmFieldsOutOfRange) {
  buf<std::uint16_t> data(100, std::uint16_t{5});
  for (std::int64_t bits : {0, 17}) {
    const std::string msg = throws_and_leaves<ak::argument_error>(
        [&] { ak::sort_inplace(data.view(), {.alg = ak::radix_sort{.radix_digit_bits = bits}}); },
        data);
    EXPECT_TRUE(contains(msg, "radix_sort") && contains(msg, "radix_digit_bits")) << msg;
  }
  throws_and_leaves<ak::argument_error>(
      [&] { ak::sort_inplace(data.view(), {.alg = ak::merge_sort{.cpu_grain = 0}}); }, data);
  throws_and_leaves<ak::argument_error>(
      [&] {
        (void)ak::sum(data.view(), ak::reduce_options<std::uint16_t>{.tuning = {.cpu_grain = 0}});
      },
      data);
}

// Values in a field's range that a device cannot run (docs/tuning.md, "Device limits") are
// capability errors naming the field, before any data is touched; the cpu has no such limits.
TEST(Errors, DeviceLimitsOfTuningFields) {
  AKT_RANDOM(r);
  buf<std::int32_t> data = make_data<std::int32_t>(3000, pattern::random, r);
  if (!on_gpu_style()) {
    std::vector<std::int32_t> want(data.begin(), data.end());
    std::stable_sort(want.begin(), want.end());
    ak::sort_inplace(data.view(), {.alg = ak::radix_sort{.radix_digit_bits = 16}});
    EXPECT_TRUE(std::equal(want.begin(), want.end(), data.begin()));
    return;
  }
  const ak::device_info& info = target().info();
  std::string msg = throws_and_leaves<ak::capability_error>(
      [&] { ak::sort_inplace(data.view(), {.alg = ak::radix_sort{.radix_digit_bits = 9}}); }, data);
  EXPECT_TRUE(contains(msg, "radix_digit_bits 9")) << msg;
  if (const std::int64_t block = 2 * info.max_group_size; block <= 1024) {  // the schema's max
    msg = throws_and_leaves<ak::capability_error>(
        [&] { ak::sort_inplace(data.view(), {.alg = ak::radix_sort{.block_size = block}}); }, data);
    EXPECT_TRUE(contains(msg, "block_size " + std::to_string(block))) << msg;
  }
  msg = throws_and_leaves<ak::capability_error>(
      [&] {
        (void)ak::accumulate(data.view(), ak::plus{},
                             {.tuning = {.sub_group_width = info.sub_group_width / 2}});
      },
      data);
  EXPECT_TRUE(contains(msg, "sub_group_width " + std::to_string(info.sub_group_width / 2))) << msg;
}

TEST(Errors, TakeWithABadIndexWritesNothing) {
  AKT_RANDOM(r);
  const buf<float> src = make_data<float>(100, pattern::random, r);
  for (i64 bad_value : {-1, 100, 1000000}) {
    for (i64 count : {1, 5, 70000}) {
      buf<std::int64_t> idx(count);
      for (auto& x : idx) x = r.between(0, 99);
      const i64 at_pos = r.between(0, count - 1);
      idx[at_pos] = bad_value;
      SCOPED_TRACE("index " + std::to_string(bad_value) + " at " + std::to_string(at_pos) + " of " +
                   std::to_string(count));
      const std::string msg = throws_and_leaves<ak::argument_error>(
          [&] { (void)ak::take(src.view(), idx.view()); }, src, idx);
      EXPECT_TRUE(contains(msg, std::to_string(bad_value))) << msg;
    }
  }
  // Small index types: a negative int8, an unsigned index past the end; any index into nothing.
  buf<std::int8_t> i8(3, std::int8_t{1});
  i8[2] = -3;
  throws_and_leaves<ak::argument_error>([&] { (void)ak::take(src.view(), i8.view()); }, src, i8);
  buf<std::uint32_t> u32(2, 100u);
  throws_and_leaves<ak::argument_error>([&] { (void)ak::take(src.view(), u32.view()); }, src, u32);
  const buf<float> none(0);
  const buf<std::int32_t> zero(1, 0);
  throws_and_leaves<ak::argument_error>([&] { (void)ak::take(none.view(), zero.view()); }, none,
                                        zero);
}

// An exclusive scan needs a first value: a custom op without init has none.
TEST(Errors, ExclusiveScanOfACustomOpWithoutInit) {
  AKT_RANDOM(r);
  buf<std::int64_t> data = make_data<std::int64_t>(1000, pattern::random, r, values::small);
  const auto add = [](std::int64_t a, std::int64_t b) { return a + b; };
  const std::string msg = throws_and_leaves<ak::argument_error>(
      [&] { ak::accumulate_inplace(data.view(), add, {.inclusive = false}); }, data);
  EXPECT_TRUE(contains(msg, "init")) << msg;
  throws_and_leaves<ak::argument_error>(
      [&] { (void)ak::accumulate(data.view(), add, {.inclusive = false}); }, data);
  // With init it works; an inclusive scan needs none. On GPU-style devices the scans start from
  // the operator's neutral element, which a custom op lacks: a capability error there.
  if (on_gpu_style()) {
    const std::string gpu_msg = throws_and_leaves<ak::capability_error>(
        [&] { (void)ak::accumulate(data.view(), add, {.init = 0, .inclusive = false}); }, data);
    EXPECT_TRUE(contains(gpu_msg, "neutral")) << gpu_msg;
    throws_and_leaves<ak::capability_error>([&] { ak::accumulate_inplace(data.view(), add); },
                                            data);
    return;
  }
  EXPECT_EQ(ak::accumulate(data.view(), add, {.init = 0, .inclusive = false}).size(), 1000);
  EXPECT_EQ(ak::accumulate(data.view(), add).size(), 1000);
}

// Reducing nothing with an operator that has no neutral element and no init.
TEST(Errors, ReduceOfNothingWithACustomOpAndNoInit) {
  AKT_SKIP_UNLESS_TYPE_ON_TARGET(double);
  const buf<double> none(0);
  const auto add = [](double a, double b) { return a + b; };
  const std::string msg =
      throws_and_leaves<ak::argument_error>([&] { (void)ak::reduce(none.view(), add); }, none);
  EXPECT_TRUE(contains(msg, "init")) << msg;
  error_message([&] {
    (void)ak::mapreduce(
        none.view(), [](double x) { return x; }, add);
  });
  // Along a dimension of extent 0.
  const buf<double> some(6, 1.0);
  const ak::view<const double> empty_rows =
      some.view().reshape(ak::shape{6}).slice(0, 0, 0).reshape(ak::shape{0, 3});
  error_message([&] { (void)ak::reduce(empty_rows, add, ak::dims{0}); });
  // init, or the caller's neutral element, is the result.
  EXPECT_EQ(ak::reduce(none.view(), add, ak::reduce_options<double>{.init = 2.0}), 2.0);
  EXPECT_EQ(ak::reduce(none.view(), add, ak::reduce_options<double>{.neutral = 0.0}), 0.0);
  const ak::array<double> cols =
      ak::reduce(empty_rows, add, ak::dims{0}, ak::reduce_options<double>{.init = 4.0});
  ASSERT_EQ(cols.shape(), (ak::shape{1, 3}));
  const buf<double> c = to_buf(cols);
  for (i64 i = 0; i < 3; ++i) EXPECT_EQ(c[i], 4.0);
  // An empty output needs no init: reducing (0, 3) along dim 1 gives (0, 1).
  EXPECT_EQ(ak::reduce(empty_rows, add, ak::dims{1}).shape(), (ak::shape{0, 1}));
}

// Sorts and searches take 1-d arrays; sort_by_key needs values of the keys' shape.
TEST(Errors, RanksAndLengths) {
  AKT_RANDOM(r);
  buf<std::int16_t> data = make_data<std::int16_t>(12, pattern::random, r);
  const auto m = [&]() -> ak::view<std::int16_t> { return data.view().reshape(ak::shape{3, 4}); };
  throws_and_leaves<ak::argument_error>([&] { ak::sort_inplace(m()); }, data);
  throws_and_leaves<ak::argument_error>([&] { (void)ak::sort(ak::view<const std::int16_t>(m())); },
                                        data);
  throws_and_leaves<ak::argument_error>(
      [&] { (void)ak::sortperm(ak::view<const std::int16_t>(m())); }, data);
  throws_and_leaves<ak::argument_error>(
      [&] { (void)ak::searchsortedfirst(ak::view<const std::int16_t>(m()), data.view()); }, data);
  buf<std::int16_t> keys = make_data<std::int16_t>(10, pattern::random, r);
  buf<float> values(9, 1.0f);
  const std::string msg = throws_and_leaves<ak::argument_error>(
      [&] { ak::sort_by_key(keys.view(), values.view()); }, keys, values);
  EXPECT_TRUE(contains(msg, "(10)") && contains(msg, "(9)")) << msg;
}

// What a GPU-style device cannot do is a capability error that leaves the data as it was:
// decoupled look-back without a device-scope fence and forward progress (auto picks
// reduce-then-scan there), float64 without the float64 capability (the element-wise algorithms
// too), and sample sort (none on GPUs); arrays of one call on different devices are an argument
// error that names both.
AKT_TAG(cross_group_sync, "Errors.DeviceCapabilities");
TEST(Errors, DeviceCapabilities) {
  if (!on_gpu_style()) GTEST_SKIP() << "GPU-style devices only (the sim registrations run it)";
  AKT_RANDOM(r);
  const ak::device& dev = target();
  buf<float> data = make_data<float>(3000, pattern::random, r, values::small);
  buf<float> want(data.size());
  std::inclusive_scan(data.begin(), data.end(), want.begin());
  const bool can_decouple = dev.caps().device_scope_fence && dev.caps().forward_progress;
  const ak::accumulate_options<float> lookback{
      .tuning = {.algorithm = ak::scan_algorithm::decoupled_lookback}};
  const ak::accumulate_options<float> rts{
      .tuning = {.algorithm = ak::scan_algorithm::reduce_then_scan}};
  if (can_decouple) {
    EXPECT_TRUE(same_elements(ak::accumulate(data.view(), ak::plus{}, lookback), want));
  } else {
    const std::string msg = throws_and_leaves<ak::capability_error>(
        [&] { ak::accumulate_inplace(data.view(), ak::plus{}, lookback); }, data);
    EXPECT_TRUE(contains(msg, "decoupled_lookback") && contains(msg, dev.name())) << msg;
    EXPECT_EQ(ak::resolve(ak::scan_alg{ak::auto_alg{}}, dev, ak::dtype::float32).algorithm,
              ak::scan_algorithm::reduce_then_scan);
  }
  EXPECT_TRUE(same_elements(ak::accumulate(data.view(), ak::plus{}, rts), want));
  EXPECT_TRUE(same_elements(ak::cumsum(data.view()), want));

  buf<double> d(10, 1.0);
  if (!dev.caps().float64) {
    const std::string msg =
        throws_and_leaves<ak::capability_error>([&] { (void)ak::sum(d.view()); }, d);
    EXPECT_TRUE(contains(msg, "float64")) << msg;
    throws_and_leaves<ak::capability_error>([&] { ak::sort_inplace(d.view()); }, d);
    throws_and_leaves<ak::capability_error>([&] { ak::accumulate_inplace(d.view(), ak::plus{}); },
                                            d);
    throws_and_leaves<ak::capability_error>(
        [&] { (void)ak::searchsortedfirst(d.view(), d.view()); }, d);
    throws_and_leaves<ak::capability_error>(
        [&] { (void)ak::sum(data.view(), ak::reduce_options<double>{.init = 0.0}); }, data);
  } else {
    EXPECT_EQ(ak::sum(d.view()), 10.0);
  }

  for (bool stable : {true, false}) {
    const std::string msg = throws_and_leaves<ak::capability_error>(
        [&] { ak::sort_inplace(data.view(), {.stable = stable, .alg = ak::sample_sort{}}); }, data);
    EXPECT_TRUE(contains(msg, "sample_sort")) << msg;
  }

  buf<float> queries(5, 1.0f);
  const std::string mixed = throws_and_leaves<ak::argument_error>(
      [&] { (void)ak::searchsortedfirst(data.view(), queries.host_view()); }, data, queries);
  EXPECT_TRUE(contains(mixed, "queries") && contains(mixed, dev.name())) << mixed;
  buf<std::int64_t> values(data.size(), 0);
  throws_and_leaves<ak::argument_error>([&] { ak::sort_by_key(data.view(), values.host_view()); },
                                        data, values);

  // The element-wise algorithms: float64 needs the capability, and arrays of one call on
  // different devices are an argument error naming both (nothing written).
  const auto neg = [](float x) { return -x; };
  const auto widen = [](float x) { return static_cast<double>(x); };
  if (!dev.caps().float64) {
    const std::string msg =
        throws_and_leaves<ak::capability_error>([&] { (void)ak::map(widen, data.view()); }, data);
    EXPECT_TRUE(contains(msg, "float64") && contains(msg, "ak::map")) << msg;
    throws_and_leaves<ak::capability_error>([&] { (void)ak::reverse(d.view()); }, d);
    throws_and_leaves<ak::capability_error>([&] { ak::reverse_inplace(d.view()); }, d);
    throws_and_leaves<ak::capability_error>([&] { (void)ak::copy(d.view()); }, d);
    buf<std::int64_t> idx(3, 0);
    throws_and_leaves<ak::capability_error>([&] { (void)ak::take(d.view(), idx.view()); }, d, idx);
    throws_and_leaves<ak::capability_error>([&] { (void)ak::broadcast(widen, data.view()); }, data);
  } else {
    buf<double> want_wide(data.size());
    std::transform(data.begin(), data.end(), want_wide.begin(), widen);
    EXPECT_TRUE(same_elements(ak::map(widen, data.view()), want_wide));
  }
  buf<float> host_dst(data.size(), 0.0f);
  const std::string into = throws_and_leaves<ak::argument_error>(
      [&] { ak::map_into(host_dst.host_view(), neg, data.view()); }, host_dst, data);
  EXPECT_TRUE(contains(into, dev.name()) && contains(into, "cpu")) << into;
  const std::string from_host = throws_and_leaves<ak::argument_error>(
      [&] { ak::map_into(data.view(), neg, host_dst.host_view()); }, data, host_dst);
  EXPECT_TRUE(contains(from_host, "host memory") && contains(from_host, dev.name())) << from_host;
  const auto add = [](float x, float y) { return x + y; };
  throws_and_leaves<ak::argument_error>(
      [&] { (void)ak::map(add, data.view(), host_dst.host_view()); }, data, host_dst);
  throws_and_leaves<ak::argument_error>(
      [&] { (void)ak::broadcast(add, data.view(), queries.host_view().slice(0, 0, 1)); }, data,
      queries);
  buf<std::int64_t> host_idx(4, 0);
  const std::string take_msg = throws_and_leaves<ak::argument_error>(
      [&] { (void)ak::take(data.view(), host_idx.host_view()); }, data, host_idx);
  EXPECT_TRUE(contains(take_msg, "indices") && contains(take_msg, "host memory") &&
              contains(take_msg, dev.name()))
      << take_msg;
}

}  // namespace
}  // namespace akt
