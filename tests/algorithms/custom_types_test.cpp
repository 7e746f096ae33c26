// Custom element types and custom operators through the header templates: a complex number with
// a lambda op, two non-commutative associative operators that expose any reordering (2x2 matrix
// products mod 2^32, and a "string" of the first and last symbols), sorts and searches of a
// struct with by and lt lambdas, and custom types in the element-wise algorithms. The bodies run
// on the cpu and on every sim profile (AKT_DEVICE); see custom_reduction and custom_scan for what
// custom operators do on GPU-style devices.
#include "test_support.hpp"

namespace akt {
namespace {

using ak::test::contains;
using ak::test::error_message;

// A reduction of n elements by a custom operator (no known neutral element) without .neutral:
// `checked_call` runs and checks it on the cpu, and anywhere when n is 0 (init alone is the
// result); on a GPU-style device, where partial results start from the neutral element, it must
// be an argument error that asks for .neutral, raised before any work.
template <class F>
void custom_reduction(i64 n, F&& checked_call) {
  if (!on_gpu_style() || n == 0) return checked_call();
  const std::string msg = error_message<ak::argument_error>(checked_call);
  EXPECT_TRUE(contains(msg, "neutral")) << msg;
}
// A scan of a custom operator: on a GPU-style device a capability error (scans take no .neutral
// there, and start from the operator's neutral element).
template <class F>
void custom_scan(F&& checked_call) {
  if (!on_gpu_style()) return checked_call();
  const std::string msg = error_message<ak::capability_error>(checked_call);
  EXPECT_TRUE(contains(msg, "neutral")) << msg;
}

// ---- Types and operators ----------------------------------------------------------------------

struct cplx {
  double re, im;
  friend bool operator==(const cplx&, const cplx&) = default;
};
std::string show(const cplx& c) {
  return "(" + std::to_string(c.re) + ", " + std::to_string(c.im) + ")";
}
const auto cadd = [](const cplx& a, const cplx& b) { return cplx{a.re + b.re, a.im + b.im}; };

// 2x2 matrices over Z/2^32 with odd determinant: a group, so products never degenerate, and
// matrix products do not commute.
struct mat2 {
  std::uint32_t a, b, c, d;
  friend bool operator==(const mat2&, const mat2&) = default;
};
std::string show(const mat2& m) {
  return "[" + std::to_string(m.a) + " " + std::to_string(m.b) + "; " + std::to_string(m.c) + " " +
         std::to_string(m.d) + "]";
}
struct matmul {
  mat2 operator()(const mat2& x, const mat2& y) const {
    return {static_cast<std::uint32_t>(x.a * y.a + x.b * y.c),
            static_cast<std::uint32_t>(x.a * y.b + x.b * y.d),
            static_cast<std::uint32_t>(x.c * y.a + x.d * y.c),
            static_cast<std::uint32_t>(x.c * y.b + x.d * y.d)};
  }
};
constexpr mat2 identity_matrix{1, 0, 0, 1};
mat2 random_matrix(rng& r) {
  mat2 m{static_cast<std::uint32_t>(r.bits()) | 1u, static_cast<std::uint32_t>(r.bits()),
         static_cast<std::uint32_t>(r.bits()), static_cast<std::uint32_t>(r.bits())};
  if (((m.a * m.d - m.b * m.c) & 1u) == 0) m.d ^= 1u;  // a is odd: this flips the parity
  return m;
}

// The first and last 8 symbols of a sequence and its length; concatenation is associative and
// not commutative, and the result names the order of the elements it saw.
struct window {
  std::array<std::uint8_t, 8> head{}, tail{};  // tail: the last min(len, 8) symbols, in order
  std::uint32_t len = 0;
  friend bool operator==(const window&, const window&) = default;
};
std::string show(const window& w) {
  std::string s = "len " + std::to_string(w.len) + " head";
  for (std::uint32_t i = 0; i < std::min<std::uint32_t>(w.len, 8); ++i)
    s += " " + std::to_string(w.head[i]);
  s += " tail";
  for (std::uint32_t i = 0; i < std::min<std::uint32_t>(w.len, 8); ++i)
    s += " " + std::to_string(w.tail[i]);
  return s;
}
struct concat {
  window operator()(const window& x, const window& y) const {
    window w;
    w.len = x.len + y.len;
    const std::uint32_t nx = std::min<std::uint32_t>(x.len, 8),
                        ny = std::min<std::uint32_t>(y.len, 8);
    std::array<std::uint8_t, 16> h{}, t{};
    for (std::uint32_t i = 0; i < nx; ++i) h[i] = x.head[i], t[i] = x.tail[i];
    for (std::uint32_t i = 0; i < ny; ++i) h[nx + i] = y.head[i], t[nx + i] = y.tail[i];
    const std::uint32_t keep = std::min<std::uint32_t>(nx + ny, 8);
    for (std::uint32_t i = 0; i < keep; ++i) w.head[i] = h[i], w.tail[i] = t[nx + ny - keep + i];
    return w;
  }
};
window symbol(std::uint8_t s) {
  window w;
  w.head[0] = w.tail[0] = s;
  w.len = 1;
  return w;
}

struct rec {
  std::int32_t key;
  std::int32_t id;
  float weight;
  friend bool operator==(const rec&, const rec&) = default;
};
std::string show(const rec& x) {
  return "{key " + std::to_string(x.key) + ", id " + std::to_string(x.id) + "}";
}

std::vector<i64> some_sizes() {
  return {0,   1,    2,     3,     7,     31,    127,    255,     256,
          257, 4097, 16385, 32769, 65536, 65537, 131073, big_size};
}

// ---- Reductions and scans ---------------------------------------------------------------------

TEST(CustomTypes, ComplexSumReduceAccumulateMapreduce) {
  AKT_SKIP_UNLESS_TYPE_ON_TARGET(double);  // cplx holds doubles, and norm2 sums them
  AKT_RANDOM(r);
  for (i64 n : some_sizes()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    buf<cplx> data(n);
    for (auto& x : data)
      x = {static_cast<double>(r.between(-8, 8)), static_cast<double>(r.between(-8, 8))};
    const cplx zero{0, 0}, init{0.5, -1.5};
    const cplx want =
        fold<cplx>(data.data(), n, ak::identity{}, cadd, std::optional<cplx>(zero)).value();
    custom_reduction(n, [&] {
      EXPECT_TRUE(
          same_value(ak::reduce(data.view(), cadd, ak::reduce_options<cplx>{.init = zero}), want));
    });
    custom_reduction(n, [&] {
      EXPECT_TRUE(same_value(ak::reduce(data.view(), cadd, ak::reduce_options<cplx>{.init = init}),
                             cadd(init, want)));
    });
    EXPECT_TRUE(
        same_value(ak::reduce(data.view(), cadd, ak::reduce_options<cplx>{.neutral = zero}), want))
        << ".neutral";
    EXPECT_TRUE(same_value(
        ak::reduce(data.view(), cadd, ak::reduce_options<cplx>{.init = init, .neutral = zero}),
        cadd(init, want)))
        << ".init and .neutral";
    if (n > 0) {
      custom_reduction(
          n, [&] { EXPECT_TRUE(same_value(ak::reduce(data.view(), cadd), want)) << "no init"; });
    }
    const auto norm2 = [](const cplx& c) { return c.re * c.re + c.im * c.im; };
    EXPECT_EQ(ak::mapreduce(data.view(), norm2, ak::plus{}),
              fold<double>(data.data(), n, norm2, ak::plus{}, std::optional<double>(0.0)).value());
    buf<cplx> inc(n), exc(n);
    std::inclusive_scan(data.begin(), data.end(), inc.begin(), cadd);
    std::exclusive_scan(data.begin(), data.end(), exc.begin(), init, cadd);
    custom_scan([&] { EXPECT_TRUE(same_elements(ak::accumulate(data.view(), cadd), inc)); });
    custom_scan([&] {
      EXPECT_TRUE(same_elements(
          ak::accumulate(data.view(), cadd, {.init = init, .inclusive = false}), exc));
    });
  }
}

// Matrix products: any reordering of the elements, or of partial results, changes the answer.
TEST(CustomTypes, NonCommutativeMatrixProductsKeepElementOrder) {
  AKT_RANDOM(r);
  for (i64 n : some_sizes()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    buf<mat2> data(n);
    for (auto& m : data) m = random_matrix(r);
    const auto want =
        fold<mat2>(data.data(), n, ak::identity{}, matmul{}, std::optional<mat2>(identity_matrix))
            .value();
    custom_reduction(n, [&] {
      EXPECT_TRUE(same_value(
          ak::reduce(data.view(), matmul{}, ak::reduce_options<mat2>{.init = identity_matrix}),
          want));
    });
    EXPECT_TRUE(same_value(
        ak::reduce(data.view(), matmul{}, ak::reduce_options<mat2>{.neutral = identity_matrix}),
        want))
        << ".neutral";
    if (n > 0) {
      custom_reduction(n, [&] {
        EXPECT_TRUE(same_value(ak::reduce(data.view(), matmul{}), want)) << "no init";
      });
    }
    const mat2 init = random_matrix(r);
    custom_reduction(n, [&] {
      EXPECT_TRUE(
          same_value(ak::reduce(data.view(), matmul{}, ak::reduce_options<mat2>{.init = init}),
                     matmul{}(init, want)));
    });
    EXPECT_TRUE(
        same_value(ak::reduce(data.view(), matmul{},
                              ak::reduce_options<mat2>{.init = init, .neutral = identity_matrix}),
                   matmul{}(init, want)))
        << ".init and .neutral";
    // Many small partial results: cpu tasks (each from its first element, no neutral), or small
    // GPU groups (from the neutral element).
    for (i64 tasks : {3, 7, 64}) {
      const ak::reduce_options<mat2> o{.tuning = {.cpu_tasks = tasks, .cpu_grain = 100}};
      if (n > 0) {
        custom_reduction(n, [&] {
          EXPECT_TRUE(same_value(ak::reduce(data.view(), matmul{}, o), want))
              << "cpu_tasks " << tasks;
        });
      }
    }
    for (i64 block : {32, 64, 256}) {
      const ak::reduce_options<mat2> o{
          .neutral = identity_matrix,
          .tuning = {
              .block_size = block, .items_per_thread = block == 64 ? 4 : 1, .switch_below = 64}};
      EXPECT_TRUE(same_value(ak::reduce(data.view(), matmul{}, o), want)) << "block_size " << block;
    }
    // Scans, with the default tiles and with many small ones.
    buf<mat2> inc(n), exc(n);
    std::inclusive_scan(data.begin(), data.end(), inc.begin(), matmul{});
    std::exclusive_scan(data.begin(), data.end(), exc.begin(), init, matmul{});
    custom_scan([&] { EXPECT_TRUE(same_elements(ak::accumulate(data.view(), matmul{}), inc)); });
    custom_scan([&] {
      EXPECT_TRUE(same_elements(
          ak::accumulate(data.view(), matmul{}, {.init = init, .inclusive = false}), exc));
    });
    custom_scan([&] {
      EXPECT_TRUE(
          same_elements(ak::accumulate(data.view(), matmul{}, {.tuning = {.cpu_grain = 777}}), inc))
          << "tiles of 777";
    });
    buf<mat2> in_place = data;
    custom_scan([&] {
      ak::accumulate_inplace(in_place.view(), matmul{}, {.tuning = {.cpu_grain = 5000}});
    });
    EXPECT_TRUE(same_elements(in_place, on_gpu_style() ? data : inc)) << "in place";
  }
}

// Along dims: elements are combined in the view's row-major order of the reduced dimensions.
TEST(CustomTypes, NonCommutativeAlongDims) {
  AKT_RANDOM(r);
  const std::vector<std::vector<i64>> shapes{{3, 4, 5},    {2, 70000}, {70000, 2}, {300, 301},
                                             {2, 3, 2, 3}, {0, 3},     {3, 0}};
  for (const auto& e : shapes) {
    for (layout l : all_layouts) {
      const auto lo = make_layout_with<mat2>(e, l, [&] { return random_matrix(r); });
      const ak::view<const mat2> v = lo.view;
      for (std::uint32_t mask = 1; mask < (1u << e.size()); ++mask) {
        if (e.size() > 2 && mask != 1u && mask != (1u << e.size()) - 1 && mask != 2u && mask != 5u)
          continue;
        SCOPED_TRACE(std::string(name_of(l)) + " shape " + shape_string(e) + " mask " +
                     std::to_string(mask));
        // The reference: the reduced elements of each output in row-major order.
        std::vector<i64> oe(e.size()), re(e.size());
        for (std::size_t d = 0; d < e.size(); ++d) {
          oe[d] = (mask >> d) & 1u ? 1 : e[d];
          re[d] = (mask >> d) & 1u ? e[d] : 1;
        }
        buf<mat2> want(make_shape(oe).size());
        i64 k = 0;
        for_each_index(make_shape(oe), [&](const index_t& o) {
          mat2 acc = identity_matrix;
          for_each_index(make_shape(re), [&](const index_t& ri) {
            index_t idx = o;
            for (std::size_t d = 0; d < e.size(); ++d)
              if ((mask >> d) & 1u) idx[d] = ri[d];
            acc = matmul{}(acc, at(v, idx));
          });
          want[k++] = acc;
        });
        std::vector<i64> dl;
        for (std::size_t d = 0; d < e.size(); ++d)
          if ((mask >> d) & 1u) dl.push_back(static_cast<i64>(d));
        const ak::dims dd = dl.size() == 1   ? ak::dims{dl[0]}
                            : dl.size() == 2 ? ak::dims{dl[0], dl[1]}
                            : dl.size() == 3 ? ak::dims{dl[0], dl[1], dl[2]}
                                             : ak::dims{dl[0], dl[1], dl[2], dl[3]};
        const auto with_init = [&] {
          const ak::array<mat2> got =
              ak::reduce(v, matmul{}, dd, ak::reduce_options<mat2>{.init = identity_matrix});
          EXPECT_EQ(got.shape(), make_shape(oe));
          EXPECT_TRUE(same_elements(got, want));
        };
        // With nothing to combine (no outputs, or reduced extents 0) init alone is enough anywhere.
        if (want.size() == 0 || make_shape(re).size() == 0)
          with_init();
        else
          custom_reduction(1, with_init);
        const ak::array<mat2> got_neutral =
            ak::reduce(v, matmul{}, dd, ak::reduce_options<mat2>{.neutral = identity_matrix});
        EXPECT_TRUE(same_elements(got_neutral, want)) << ".neutral";
      }
      // Scans along each dimension.
      for (std::size_t dim = 0; dim < e.size(); ++dim) {
        SCOPED_TRACE(std::string(name_of(l)) + " shape " + shape_string(e) + " scan along " +
                     std::to_string(dim));
        buf<mat2> want(v.size());
        const ak::strides rm = ak::row_major_strides(v.shape());
        std::vector<i64> lines = e;
        lines[dim] = 1;
        for_each_index(make_shape(lines), [&](const index_t& start) {
          mat2 acc = identity_matrix;
          index_t idx = start;
          for (i64 i = 0; i < e[dim]; ++i) {
            idx[dim] = i;
            acc = matmul{}(acc, at(v, idx));
            i64 o = 0;
            for (std::size_t d = 0; d < e.size(); ++d) o += idx[d] * rm[d];
            want[o] = acc;
          }
        });
        custom_scan([&] {
          EXPECT_TRUE(
              same_elements(ak::accumulate(v, matmul{}, {.dim = static_cast<i64>(dim)}), want));
        });
      }
    }
  }
}

// Concatenation of symbols: the head and tail of every prefix name the exact element order.
TEST(CustomTypes, ConcatenationOfSymbols) {
  AKT_RANDOM(r);
  for (i64 n : some_sizes()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    buf<window> data(n);
    for (auto& w : data) w = symbol(static_cast<std::uint8_t>(r.between(1, 255)));
    const window want =
        fold<window>(data.data(), n, ak::identity{}, concat{}, std::optional<window>(window{}))
            .value();
    custom_reduction(n, [&] {
      EXPECT_TRUE(same_value(
          ak::reduce(data.view(), concat{}, ak::reduce_options<window>{.init = window{}}), want));
    });
    EXPECT_TRUE(same_value(
        ak::reduce(data.view(), concat{}, ak::reduce_options<window>{.neutral = window{}}), want))
        << ".neutral";
    if (n > 0) {
      custom_reduction(n, [&] {
        EXPECT_TRUE(same_value(ak::reduce(data.view(), concat{}), want)) << "no init";
      });
    }
    // mapreduce from the symbols' indices.
    buf<std::int32_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    const auto to_symbol = [](std::int32_t i) {
      return symbol(static_cast<std::uint8_t>(i % 251 + 1));
    };
    const window want_idx =
        fold<window>(idx.data(), n, to_symbol, concat{}, std::optional<window>(window{})).value();
    custom_reduction(n, [&] {
      EXPECT_TRUE(same_value(ak::mapreduce(idx.view(), to_symbol, concat{},
                                           ak::reduce_options<window>{.init = window{}}),
                             want_idx));
    });
    EXPECT_TRUE(same_value(ak::mapreduce(idx.view(), to_symbol, concat{},
                                         ak::reduce_options<window>{.neutral = window{}}),
                           want_idx))
        << ".neutral";
    buf<window> inc(n);
    std::inclusive_scan(data.begin(), data.end(), inc.begin(), concat{});
    custom_scan([&] { EXPECT_TRUE(same_elements(ak::accumulate(data.view(), concat{}), inc)); });
  }
}

// A custom operator on numbers takes the header templates (no neutral element known).
TEST(CustomTypes, CustomOperatorOnNumbers) {
  AKT_RANDOM(r);
  const auto add = [](std::int64_t a, std::int64_t b) { return a + b; };
  for (i64 n : some_sizes()) {
    const buf<std::int64_t> data = make_data<std::int64_t>(n, pattern::random, r, values::small);
    const std::int64_t want = std::accumulate(data.begin(), data.end(), std::int64_t{0});
    if (n > 0) {
      custom_reduction(n, [&] { EXPECT_EQ(ak::reduce(data.view(), add), want) << "n = " << n; });
    }
    custom_reduction(n, [&] {
      EXPECT_EQ(ak::reduce(data.view(), add, ak::reduce_options<std::int64_t>{.init = 0}), want)
          << "n = " << n;
    });
    EXPECT_EQ(ak::reduce(data.view(), add, ak::reduce_options<std::int64_t>{.neutral = 0}), want)
        << "n = " << n;
  }
}

// ---- Sorting and searching a struct -----------------------------------------------------------

buf<rec> make_records(i64 n, rng& r, i64 distinct_keys) {
  buf<rec> out(n);
  for (i64 i = 0; i < n; ++i)
    out[i] = {static_cast<std::int32_t>(r.between(0, distinct_keys - 1)),
              static_cast<std::int32_t>(i), static_cast<float>(r.unit())};
  return out;
}

TEST(CustomTypes, SortStructByKeyWithCustomLt) {
  AKT_RANDOM(r);
  const auto key = [](const rec& x) { return x.key; };
  for (i64 n : pick<std::vector<i64>>({0, 1, 2, 100, 16385, 131073}, {0, 1, 2, 100, 16385}))
    for (bool rev : {false, true})
      for (const ak::sort_alg& a : {ak::sort_alg{ak::auto_alg{}}, ak::sort_alg{ak::merge_sort{}},
                                    ak::sort_alg{ak::sample_sort{}}}) {
        // No sample sort on GPU-style devices (its capability error: Sort/*.SampleSort).
        if (on_gpu_style() && std::holds_alternative<ak::sample_sort>(a)) continue;
        const bool stable = !std::holds_alternative<ak::sample_sort>(a);
        SCOPED_TRACE("n = " + std::to_string(n) + (rev ? ", rev" : "") + ", alg " +
                     std::to_string(a.index()));
        const buf<rec> data = make_records(n, r, 1 + n / 10);
        const ak::sort_options o{
            .by = key, .lt = std::greater<>{}, .rev = rev, .stable = stable, .alg = a};
        const auto less = [rev](const rec& x, const rec& y) {
          return rev ? x.key < y.key : x.key > y.key;
        };
        buf<rec> want = data;
        std::stable_sort(want.begin(), want.end(), less);
        buf<rec> got = data;
        ak::sort_inplace(got.view(), o);
        const ak::array<rec> copy_sorted = ak::sort(data.view(), o);
        const buf<i64> perm = to_buf(ak::sortperm(data.view(), o));
        if (stable) {
          EXPECT_TRUE(same_elements(got, want));
          EXPECT_TRUE(same_elements(copy_sorted, want));
          buf<i64> want_perm(n);
          for (i64 i = 0; i < n; ++i) want_perm[i] = want[i].id;
          EXPECT_TRUE(same_elements(perm, want_perm));
        } else {
          // Keys in order, every record once.
          i64 bad = -1;
          buf<bool> seen(n, false);
          for (i64 i = 0; i < n && bad < 0; ++i) {
            if ((i + 1 < n && less(got[i + 1], got[i])) || seen[got[i].id] ||
                !(got[i] == data[got[i].id]))
              bad = i;
            else
              seen[got[i].id] = true;
          }
          EXPECT_EQ(bad, -1) << "at " << bad;
        }
        // Searching the sorted records by key (only stable results are checked against the
        // reference; an unstable one orders keys the same way).
        const buf<rec> queries = make_records(500, r, 2 + n / 10);
        const ak::search_options so{.by = key, .lt = std::greater<>{}, .rev = rev};
        const buf<i64> first = to_buf(ak::searchsortedfirst(got.view(), queries.view(), so));
        const buf<i64> last = to_buf(ak::searchsortedlast(got.view(), queries.view(), so));
        for (i64 j = 0; j < queries.size(); ++j) {
          EXPECT_EQ(first[j],
                    std::lower_bound(got.begin(), got.end(), queries[j], less) - got.begin())
              << "query " << j;
          EXPECT_EQ(last[j],
                    std::upper_bound(got.begin(), got.end(), queries[j], less) - got.begin() - 1)
              << "query " << j;
        }
      }
}

// sort_by_key with struct keys (comparison sorts) and with struct values (radix sort moves the
// structs along with the keys).
TEST(CustomTypes, SortByKeyWithStructKeysOrValues) {
  AKT_RANDOM(r);
  const auto key = [](const rec& x) { return x.key; };
  for (i64 n : pick<std::vector<i64>>({0, 1, 5, 4097, 65537}, {0, 1, 5, 4097, 16385})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const buf<rec> records = make_records(n, r, 50);
    // Struct keys, int64 values.
    buf<rec> keys = records;
    buf<i64> values(n);
    std::iota(values.begin(), values.end(), i64{0});
    ak::sort_by_key(keys.view(), values.view(), ak::sort_options{.by = key});
    buf<rec> want = records;
    std::stable_sort(want.begin(), want.end(),
                     [](const rec& x, const rec& y) { return x.key < y.key; });
    EXPECT_TRUE(same_elements(keys, want));
    buf<i64> want_values(n);
    for (i64 i = 0; i < n; ++i) want_values[i] = want[i].id;
    EXPECT_TRUE(same_elements(values, want_values));
    // int32 keys, struct values, every algorithm that can.
    for (const ak::sort_alg& a : {ak::sort_alg{ak::radix_sort{}}, ak::sort_alg{ak::merge_sort{}},
                                  ak::sort_alg{ak::auto_alg{}}}) {
      buf<std::int32_t> k(n);
      for (i64 i = 0; i < n; ++i) k[i] = records[i].key;
      buf<rec> v = records;
      ak::sort_by_key(k.view(), v.view(), ak::sort_options<>{.alg = a});
      EXPECT_TRUE(same_elements(v, want)) << "struct values, alg " << a.index();
    }
  }
}

// ---- Element-wise algorithms with a struct ----------------------------------------------------

TEST(CustomTypes, ElementwiseWithStructs) {
  AKT_RANDOM(r);
  const i64 n = 70001;
  const buf<rec> records = make_records(n, r, 1000);
  const auto weight = [](const rec& x) { return x.weight * 2.0f; };
  const buf<float> w = to_buf(ak::map(weight, records.view()));
  for (i64 i = 0; i < n; ++i) ASSERT_EQ(w[i], records[i].weight * 2.0f) << i;
  // map_into a struct destination, in place.
  buf<rec> bumped = records;
  const auto bump = [](const rec& x) { return rec{x.key + 1, x.id, x.weight}; };
  ak::map_into(bumped.view(), bump, bumped.view());
  for (i64 i = 0; i < n; ++i) ASSERT_TRUE(bumped[i] == bump(records[i])) << i;
  // take
  buf<std::int64_t> idx(1000);
  for (auto& x : idx) x = r.between(0, n - 1);
  const buf<rec> taken = to_buf(ak::take(records.view(), idx.view()));
  for (i64 j = 0; j < idx.size(); ++j) ASSERT_TRUE(taken[j] == records[idx[j]]) << j;
  // reverse (a copy and in place), copy of a strided view
  const buf<rec> rev = to_buf(ak::reverse(records.view()));
  for (i64 i = 0; i < n; ++i) ASSERT_TRUE(rev[i] == records[n - 1 - i]) << i;
  buf<rec> rev_in_place = records;
  ak::reverse_inplace(rev_in_place.view());
  EXPECT_TRUE(same_elements(rev_in_place, rev)) << "reverse_inplace";
  const buf<rec> every_third = to_buf(ak::copy(records.view().slice(0, 0, n, 3)));
  for (i64 i = 0; i < every_third.size(); ++i) ASSERT_TRUE(every_third[i] == records[3 * i]) << i;
  // broadcast of records against a column of offsets
  const buf<std::int32_t> offsets = make_data<std::int32_t>(3, pattern::random, r, values::small);
  const auto shifted = [](const rec& x, std::int32_t off) { return x.key + off; };
  const ak::array<std::int32_t> b_dev = ak::broadcast(shifted, records.view().slice(0, 0, 10, 1),
                                                      offsets.view().reshape(ak::shape{3, 1}));
  ASSERT_EQ(b_dev.shape(), (ak::shape{3, 10}));
  const buf<std::int32_t> b = to_buf(b_dev);
  for (i64 i = 0; i < 3; ++i)
    for (i64 j = 0; j < 10; ++j) EXPECT_EQ(b[i * 10 + j], records[j].key + offsets[i]);
  // count, any, all with a predicate on a field
  const auto heavy = [](const rec& x) { return x.weight > 0.5f; };
  EXPECT_EQ(ak::count(records.view(), heavy), std::count_if(records.begin(), records.end(), heavy));
  EXPECT_EQ(ak::any(records.view(), heavy), std::any_of(records.begin(), records.end(), heavy));
  EXPECT_EQ(ak::all(records.view(), heavy), std::all_of(records.begin(), records.end(), heavy));
}

}  // namespace
}  // namespace akt
