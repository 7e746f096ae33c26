// The segmented sorts: sort, sort_inplace and sortperm along each dimension of n-d arrays
// (`.dim`) and over CSR offsets (ak::offsets), against a loop of std::stable_sort over each slice
// or segment with ak::isless (reversed for rev): every dtype, every shape of rank 1 to 3 with
// extents 0..3 and some of rank 4, larger random shapes, every layout (strided, transposed,
// reversed views), NaN and -0.0/+0.0 and many equal elements (whose order sortperm checks),
// segment layouts (one segment, all empty, all of length 1, one huge and many tiny, random with
// empty ones), every algorithm value, a key function and a custom order, and the errors, made
// before anything is written.
#include <algorithm>
#include <array>
#include <numeric>

#include "test_support.hpp"

namespace akt {
namespace {

// The reference: each slice of a row-major h (extents e) along dim, or each segment, stably
// sorted by less, and the permutation within it.
template <class T>
struct reference {
  buf<T> sorted;
  buf<i64> perm;
};

// Sorts the elements at base + j * step for j in [0, len) into out.
template <class T, class Less>
void sort_positions(const buf<T>& h, i64 base, i64 step, i64 len, const Less& less,
                    reference<T>& out) {
  std::vector<i64> p(static_cast<std::size_t>(len));
  std::iota(p.begin(), p.end(), i64{0});
  std::stable_sort(p.begin(), p.end(),
                   [&](i64 a, i64 b) { return less(h[base + a * step], h[base + b * step]); });
  for (i64 j = 0; j < len; ++j) {
    out.sorted[base + j * step] = h[base + p[static_cast<std::size_t>(j)] * step];
    out.perm[base + j * step] = p[static_cast<std::size_t>(j)];
  }
}

template <class T, class Less>
reference<T> sorted_slices(const buf<T>& h, const std::vector<i64>& e, std::size_t dim,
                           const Less& less) {
  reference<T> out{h, buf<i64>(h.size())};
  if (h.size() == 0) return out;
  std::vector<i64> stride(e.size(), 1);
  for (std::size_t k = e.size() - 1; k > 0; --k) stride[k - 1] = stride[k] * e[k];
  std::vector<i64> starts = e;
  starts[dim] = 1;
  for_each_index(make_shape(starts), [&](const index_t& idx) {
    i64 base = 0;
    for (std::size_t k = 0; k < e.size(); ++k) base += idx[k] * stride[k];
    sort_positions(h, base, stride[dim], e[dim], less, out);
  });
  return out;
}

template <class T, class Less>
reference<T> sorted_segments(const buf<T>& h, const std::vector<i64>& offsets, const Less& less) {
  reference<T> out{h, buf<i64>(h.size())};
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    sort_positions(h, offsets[s], 1, offsets[s + 1] - offsets[s], less, out);
  return out;
}

// The shapes tried: every shape of rank 1..3 with extents 0..3, some of rank 4, and larger ones
// whose slices are long (the cpu's parallel path for a long segment), short and many, or odd.
std::vector<std::vector<i64>> shapes_to_try() {
  std::vector<std::vector<i64>> out;
  for (auto& s : all_shapes(pick<std::size_t>(3, 2), 3))
    if (!s.empty()) out.push_back(s);
  for (i64 e : {0, 1, 3}) out.push_back({2, 3, e, 2});
  for (auto& s :
       pick<std::vector<std::vector<i64>>>({{7, 1000},
                                            {1000, 7},
                                            {3, 1001, 5},
                                            {2, 70001},
                                            {70001, 2},
                                            {3, 2, 2, 300},
                                            {101, 16},
                                            {67, 13}},
                                           {{33, 100}, {100, 33}, {2, 3, 50}, {2, 2, 2, 9}}))
    out.push_back(s);
  return out;
}

template <class T>
class SegmentedSort : public typed_test<T> {};
TYPED_TEST_SUITE(SegmentedSort, all_types, dtype_names);

AKT_TAG(cross_group_sync, "SegmentedSort/*.AlongEveryDimension");
TYPED_TEST(SegmentedSort, AlongEveryDimension) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const std::vector<layout> layouts = pick<std::vector<layout>>(
      {all_layouts.begin(), all_layouts.end()}, {layout::contiguous, layout::transposed});
  i64 case_number = 0;
  for (const auto& e : shapes_to_try())
    for (std::size_t dim = 0; dim < e.size(); ++dim)
      for (bool rev : {false, true}) {
        // Layouts, value kinds (any value, or few distinct ones) and, for big shapes, one case
        // each, taken in turn.
        const bool big = make_shape(e).size() > 64;
        const layout l = layouts[static_cast<std::size_t>(case_number) % layouts.size()];
        const values kind = case_number++ % 3 == 0 ? values::small : values::full;
        for (const layout lay : big ? std::vector<layout>{l} : layouts) {
          SCOPED_TRACE(shape_string(e) + ", dim " + std::to_string(dim) + (rev ? ", rev" : "") +
                       ", " + name_of(lay));
          laid_out<T> lo = make_layout<T>(e, lay, r, kind);
          const buf<T> h = gather(lo.view);
          const reference<T> want = sorted_slices(h, e, dim, sort_order{rev});
          const ak::sort_options<> o{.rev = rev, .dim = static_cast<i64>(dim)};
          const ak::array<T> got = ak::sort(ak::view<const T>(lo.view), o);
          ASSERT_EQ(got.shape(), lo.view.shape());
          EXPECT_TRUE(same_bits_elements(to_buf(got), want.sorted));
          const ak::array<i64> perm = ak::sortperm(ak::view<const T>(lo.view), o);
          ASSERT_EQ(perm.shape(), lo.view.shape());
          EXPECT_TRUE(same_elements(perm, want.perm));
          ak::sort_inplace(lo.view, o);
          EXPECT_TRUE(same_bits_elements(gather(lo.view), want.sorted));
          EXPECT_TRUE(outside_untouched(lo));
        }
      }
}

// Rows of 1 to 17 elements (the cpu sorts rows of 2 to 16 numbers by a sorting network across
// rows, and rows with a NaN by insertion): values from the specials (floats: -0.0 and +0.0, the
// infinities, the extremes, and NaN in some rows only; integers: their extremes), row counts
// that leave a partial batch of rows, every row length.
TYPED_TEST(SegmentedSort, ShortRowsOfSpecialValues) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (i64 length = 1; length <= 17; ++length)
    for (i64 rows : pick<std::vector<i64>>({1, 7, 8, 9, 203}, {9, 20}))
      for (bool with_nan : {false, true})
        for (bool rev : {false, true}) {
          SCOPED_TRACE(std::to_string(rows) + " rows of " + std::to_string(length) +
                       (with_nan ? ", some NaN" : "") + (rev ? ", rev" : ""));
          buf<T> h = make_data<T>(rows * length, pattern::special, r);
          if constexpr (is_float_v<T>)
            for (i64 i = 0; i < h.size(); ++i)
              if (h[i] != h[i] && (!with_nan || r.between(0, 9) > 0)) h[i] = T(-0.0);
          const std::vector<i64> e{rows, length};
          const reference<T> want = sorted_slices(h, e, 1, sort_order{rev});
          ak::array<T> a = to_array(h, make_shape(e));
          ak::sort_inplace(a, {.rev = rev, .dim = 1});
          EXPECT_TRUE(same_bits_elements(to_buf(a), want.sorted));
        }
}

// Segment layouts of n elements, as offsets.
std::vector<std::pair<const char*, std::vector<i64>>> segment_layouts(i64 n, rng& r) {
  std::vector<std::pair<const char*, std::vector<i64>>> out;
  out.push_back({"one segment", {0, n}});
  if (n == 0) out.push_back({"all empty", {0, 0, 0, 0, 0}});
  std::vector<i64> ones(static_cast<std::size_t>(n) + 1);
  std::iota(ones.begin(), ones.end(), i64{0});
  out.push_back({"all of length 1", ones});
  std::vector<i64> huge{0};
  for (i64 i = 1; i <= std::min<i64>(n, 40); ++i) huge.push_back(i);  // tiny ones, then a huge one
  huge.push_back(n);
  huge.push_back(n);  // and an empty one at the end
  out.push_back({"many tiny, one huge", huge});
  std::vector<i64> mixed{0};
  while (mixed.back() < n) {
    static constexpr std::array<i64, 7> lengths{0, 0, 1, 2, 17, 300, 5000};
    const i64 len = lengths[static_cast<std::size_t>(r.between(0, 6))];
    mixed.push_back(std::min(n, mixed.back() + len));
  }
  out.push_back({"random, empty ones among them", mixed});
  return out;
}

AKT_TAG(cross_group_sync, "SegmentedSort/*.OverOffsets");
TYPED_TEST(SegmentedSort, OverOffsets) {
  using T = TypeParam;
  AKT_RANDOM(r);
  // On sim, 5003 elements: several windows of every profile (sort_gpu.hpp).
  for (i64 n : pick<std::vector<i64>>({0, 1, 2, 1000, 300007}, {0, 1, 2, 1000, 5003}))
    for (const auto& [name, offsets] : segment_layouts(n, r))
      for (bool rev : {false, true}) {
        SCOPED_TRACE(std::string(name) + ", n = " + std::to_string(n) + (rev ? ", rev" : ""));
        buf<T> v = make_data<T>(n, rev ? pattern::few : pattern::random, r);
        const reference<T> want = sorted_segments(v, offsets, sort_order{rev});
        buf<i64> o(offsets.data(), static_cast<i64>(offsets.size()));
        const ak::sort_options<> opts{.rev = rev};
        EXPECT_TRUE(same_bits_elements(to_buf(ak::sort(v.view(), ak::offsets{o.view()}, opts)),
                                       want.sorted));
        EXPECT_TRUE(same_elements(ak::sortperm(v.view(), ak::offsets{o.view()}, opts), want.perm));
        ak::sort_inplace(v.view(), ak::offsets{o.view()}, opts);
        EXPECT_TRUE(same_bits_elements(v, want.sorted));
      }
}

// Small windows (merge_sort's block_size and merge_tile_size: on GPU-style devices, windows of a
// sub-group or two x 1 to 16 elements, sorted in local memory), so that segments cross many
// window borders: lengths at and around window multiples, segments that straddle one border,
// one that spans every window, and random mixes, whose pieces take 1 to 8 merge passes (odd and
// even counts, so that some end in the temporaries). On cpu, merge sort with these fields.
TYPED_TEST(SegmentedSort, PiecesAcrossWindows) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const i64 n = pick<i64>(20011, 3001);
  const i64 width = std::max<i64>(on_gpu_style() ? target().info().sub_group_width : 32, 32);
  for (const i64 block : {width, 2 * width})
    for (const i64 tile_size : {64, 128, 256}) {
      const i64 tile = std::max(tile_size, block);  // the window: block x (tile_size / block)
      std::vector<std::pair<std::string, std::vector<i64>>> layouts;
      layouts.push_back({"one segment", {0, n}});
      layouts.push_back({"one short segment straddling each border", {0}});
      for (i64 b = tile; b < n; b += tile) {
        layouts.back().second.push_back(b - 1 - r.between(0, 2));
        layouts.back().second.push_back(std::min(n, b + 1 + r.between(0, 2)));
      }
      layouts.back().second.push_back(n);
      for (const i64 k : {tile - 1, tile, tile + 1, 3 * tile + 5}) {
        std::vector<i64> o{0};
        while (o.back() < n) o.push_back(std::min(n, o.back() + k));
        layouts.push_back({"lengths " + std::to_string(k), o});
      }
      std::vector<i64> mixed{0, r.between(1, tile)};
      while (mixed.back() < n) mixed.push_back(std::min(n, mixed.back() + r.between(0, 9 * tile)));
      layouts.push_back({"random, empty ones among them", mixed});
      for (const auto& [name, offsets] : layouts)
        for (bool rev : {false, true}) {
          SCOPED_TRACE(name + ", block " + std::to_string(block) + ", window " +
                       std::to_string(tile) + (rev ? ", rev" : ""));
          buf<T> v = make_data<T>(n, rev ? pattern::few : pattern::random, r);
          const reference<T> want = sorted_segments(v, offsets, sort_order{rev});
          buf<i64> o(offsets.data(), static_cast<i64>(offsets.size()));
          const ak::sort_options<> opts{
              .rev = rev, .alg = ak::merge_sort{.block_size = block, .merge_tile_size = tile_size}};
          EXPECT_TRUE(
              same_elements(ak::sortperm(v.view(), ak::offsets{o.view()}, opts), want.perm));
          ak::sort_inplace(v.view(), ak::offsets{o.view()}, opts);
          EXPECT_TRUE(same_bits_elements(v, want.sorted));
        }
    }
}

// Every algorithm value the device runs, along a dimension and over offsets.
TYPED_TEST(SegmentedSort, EveryAlgorithm) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const std::vector<i64> e = pick<std::vector<i64>>({300, 257}, {40, 33});
  // The cpu's run thresholds (insertion_run, radix_min_run, sample_leaf_size): the tuning's, or
  // drawn from their ranges (GPU-style devices take and ignore them).
  const bool drawn = r.chance(0.5);
  const i64 insertion = drawn ? 1 + r.index(64) : ak::unset;
  const i64 radix_min = drawn ? i64{1} << r.index(21) : ak::unset;
  const i64 leaf = drawn ? 2 + r.index(63) : ak::unset;
  for (const auto& a :
       {ak::sort_alg{ak::radix_sort{.insertion_run = insertion, .radix_min_run = radix_min}},
        ak::sort_alg{ak::merge_sort{.insertion_run = insertion}},
        ak::sort_alg{ak::sample_sort{.insertion_run = insertion, .sample_leaf_size = leaf}}}) {
    if (on_gpu_style() && std::holds_alternative<ak::sample_sort>(a)) continue;  // not on sim
    SCOPED_TRACE(std::to_string(a.index()) + ", insertion_run " + std::to_string(insertion) +
                 ", radix_min_run " + std::to_string(radix_min) + ", sample_leaf_size " +
                 std::to_string(leaf));
    laid_out<T> lo = make_layout<T>(e, layout::contiguous, r);
    const buf<T> h = gather(lo.view);
    for (std::size_t dim = 0; dim < 2; ++dim) {
      const reference<T> want = sorted_slices(h, e, dim, sort_order{false});
      const ak::sort_options<> o{.alg = a, .dim = static_cast<i64>(dim)};
      EXPECT_TRUE(same_bits_elements(to_buf(ak::sort(ak::view<const T>(lo.view), o)), want.sorted));
      EXPECT_TRUE(same_elements(ak::sortperm(ak::view<const T>(lo.view), o), want.perm));
    }
    const std::vector<i64> offsets{0, 5, 5, 300, e[0] * e[1]};
    const reference<T> want = sorted_segments(h, offsets, sort_order{false});
    buf<i64> o(offsets.data(), static_cast<i64>(offsets.size()));
    buf<T> v = h;
    ak::sort_inplace(v.view(), ak::offsets{o.view()}, {.alg = a});
    EXPECT_TRUE(same_bits_elements(v, want.sorted));
  }
}

// Records sorted by a key function and by a custom order, along a dimension and over offsets.
struct rec {
  std::int32_t key;
  std::int32_t id;
};
struct rec_key {
  AK_KERNEL_FN std::int32_t operator()(const rec& x) const { return x.key; }
};
struct by_key_descending {
  AK_KERNEL_FN bool operator()(const rec& a, const rec& b) const { return a.key > b.key; }
};

// The ids of records, in order.
template <class R>
buf<std::int32_t> ids(const buf<R>& x) {
  buf<std::int32_t> out(x.size());
  for (i64 i = 0; i < x.size(); ++i) out[i] = x[i].id;
  return out;
}

TEST(SegmentedSortCustom, KeyFunctionsAndCustomOrders) {
  AKT_RANDOM(r);
  const std::vector<i64> e = pick<std::vector<i64>>({50, 3001}, {7, 301});
  const i64 n = e[0] * e[1];
  buf<rec> h(n);
  for (i64 i = 0; i < n; ++i)
    h[i] = {static_cast<std::int32_t>(r.between(-20, 20)), static_cast<std::int32_t>(i)};
  const ak::array<rec> a = to_array(h, make_shape(e));
  const auto by_key = [](const rec& x, const rec& y) { return x.key < y.key; };
  const auto descending = [](const rec& x, const rec& y) { return x.key > y.key; };
  for (std::size_t dim = 0; dim < 2; ++dim) {
    SCOPED_TRACE("dim " + std::to_string(dim));
    const i64 d = static_cast<i64>(dim);
    EXPECT_TRUE(same_elements(ids(to_buf(ak::sort(a, ak::sort_options<rec_key>{.dim = d}))),
                              ids(sorted_slices(h, e, dim, by_key).sorted)));
    EXPECT_TRUE(same_elements(ids(to_buf(ak::sort(a,
                                                  ak::sort_options<ak::identity, by_key_descending>{
                                                      .alg = ak::merge_sort{}, .dim = d}))),
                              ids(sorted_slices(h, e, dim, descending).sorted)));
    EXPECT_TRUE(
        same_elements(ak::sortperm(a, ak::sort_options<ak::identity, by_key_descending>{.dim = d}),
                      sorted_slices(h, e, dim, descending).perm));
  }
  const std::vector<i64> offsets{0, 1, 1, 17, n / 2, n};
  buf<i64> o(offsets.data(), static_cast<i64>(offsets.size()));
  buf<rec> v = h;
  ak::sort_inplace(v.view(), ak::offsets{o.view()}, ak::sort_options<rec_key>{.rev = true});
  EXPECT_TRUE(same_elements(ids(v), ids(sorted_segments(h, offsets, [](const rec& x, const rec& y) {
                                          return x.key > y.key;
                                        }).sorted)));
}

// Records of 1 KiB: on GPU-style devices two copies of a sub-group's window of them do not fit
// local memory (64 KiB at width 32), so the windows are insertion-sorted in global memory before
// the merge passes; the same for the merge sort of a whole array.
struct big_rec {
  std::int32_t key;
  std::int32_t id;
  std::array<char, 1016> pad;
};
struct big_rec_key {
  AK_KERNEL_FN std::int32_t operator()(const big_rec& x) const { return x.key; }
};
TEST(SegmentedSortCustom, RecordsTooLargeForLocalMemory) {
  AKT_RANDOM(r);
  const i64 n = pick<i64>(3001, 701);
  buf<big_rec> h(n);
  for (i64 i = 0; i < n; ++i)
    h[i] = {static_cast<std::int32_t>(r.between(-9, 9)), static_cast<std::int32_t>(i), {}};
  const auto by_key = [](const big_rec& x, const big_rec& y) { return x.key < y.key; };
  const std::vector<i64> offsets{0, 5, 5, 300, 301, n};
  buf<i64> o(offsets.data(), static_cast<i64>(offsets.size()));
  const ak::sort_options<big_rec_key> opts{};
  buf<big_rec> v = h;
  ak::sort_inplace(v.view(), ak::offsets{o.view()}, opts);
  EXPECT_TRUE(same_elements(ids(v), ids(sorted_segments(h, offsets, by_key).sorted)));
  EXPECT_TRUE(same_elements(ak::sortperm(h.view(), ak::offsets{o.view()}, opts),
                            sorted_segments(h, offsets, by_key).perm));
  const std::vector<i64> whole{0, n};
  EXPECT_TRUE(same_elements(ids(to_buf(ak::sort(h.view(), opts))),
                            ids(sorted_segments(h, whole, by_key).sorted)));
}

// Bad dims and offsets are argument errors that leave the data as it was.
TEST(SegmentedSortErrors, BadDimsAndOffsets) {
  AKT_RANDOM(r);
  const buf<float> h = make_data<float>(12, pattern::random, r);
  ak::array<float> m = to_array(h, ak::shape{3, 4});
  auto unchanged = [&] { return same_bits_elements(to_buf(m), h); };
  EXPECT_THROW(ak::sort_inplace(m), ak::argument_error);  // rank 2 needs a dim
  EXPECT_THROW(ak::sort_inplace(m, {.dim = 2}), ak::argument_error);
  EXPECT_THROW(ak::sort_inplace(m, {.dim = -1}), ak::argument_error);
  EXPECT_THROW((void)ak::sort(m), ak::argument_error);
  EXPECT_THROW((void)ak::sortperm(m, {.dim = 5}), ak::argument_error);
  EXPECT_TRUE(unchanged());
  // Offsets: of a 1-d array only, first 0, last n, never decreasing, 1-d, at least one value.
  buf<float> v = h;
  auto bad = [&](std::vector<i64> offsets) {
    buf<i64> o(offsets.data(), static_cast<i64>(offsets.size()));
    SCOPED_TRACE(::testing::PrintToString(offsets));
    EXPECT_THROW(ak::sort_inplace(v.view(), ak::offsets{o.view()}), ak::argument_error);
    EXPECT_THROW((void)ak::sort(v.view(), ak::offsets{o.view()}), ak::argument_error);
    EXPECT_THROW((void)ak::sortperm(v.view(), ak::offsets{o.view()}), ak::argument_error);
    EXPECT_TRUE(same_bits_elements(v, h));
  };
  bad({1, 12});
  bad({0, 11});
  bad({0, 13});
  bad({0, 8, 4, 12});
  bad({});
  buf<i64> ok(std::vector<i64>{0, 12}.data(), 2);
  EXPECT_THROW(ak::sort_inplace(m, ak::offsets{ok.view()}), ak::argument_error);  // 2-d data
  EXPECT_THROW(ak::sort_inplace(v.view(), ak::offsets{ok.view()}, {.dim = 1}), ak::argument_error);
  const ak::array<i64> two_d =
      to_array(buf<i64>(std::vector<i64>{0, 6, 6, 12}.data(), 4), ak::shape{2, 2});
  EXPECT_THROW(ak::sort_inplace(v.view(), ak::offsets{two_d}), ak::argument_error);
  EXPECT_TRUE(same_bits_elements(v, h));
  EXPECT_TRUE(unchanged());
  // The 1-d calls that take sort_options accept dim 0 alone.
  buf<float> values = h;
  EXPECT_THROW(ak::sort_by_key(v.view(), values.view(), {.dim = 1}), ak::argument_error);
  EXPECT_THROW((void)ak::partialsort(v.view(), 3, {.dim = 1}), ak::argument_error);
  EXPECT_TRUE(same_bits_elements(v, h));
  ak::sort_inplace(v.view(), {.dim = 0});
  buf<float> want = h;
  std::stable_sort(want.begin(), want.end(), sort_order{false});
  EXPECT_TRUE(same_bits_elements(v, want));
}

}  // namespace
}  // namespace akt
