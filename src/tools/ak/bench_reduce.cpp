// `ak bench` ops that read their input once: reduce (sum), mapreduce (sum of squares), minimum,
// count, any, all, and sums along each axis of a square matrix (sum_dims0, sum_dims1).
#include <algorithm>
#include <array>
#include <numeric>

#include "ak/ak.hpp"
#include "bench.hpp"

namespace ak::tool::bench {

namespace {

using range = tbb::blocked_range<std::int64_t>;
constexpr std::int64_t tbb_grain = 1 << 14;

template <class T>
struct add {
  T operator()(T a, T b) const { return static_cast<T>(a + b); }
};
template <class T>
struct square {
  T operator()(T x) const { return static_cast<T>(x * x); }
};
template <class T>
struct smaller {  // no NaN nor -0.0 in the bench's inputs: the same minimum as ak's
  T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T>
struct positive {  // about half of the inputs
  bool operator()(T x) const { return x > T(0); }
};
template <class T>
struct above_ten {  // never true: any() makes a full pass
  bool operator()(T x) const { return x > T(10); }
};
template <class T>
struct below_ten {  // always true: all() makes a full pass
  bool operator()(T x) const { return x < T(10); }
};

// The plain TBB form of a map-reduce: a loop per range, partial results added.
template <class R, class T, class F>
R tbb_mapreduce(const T* p, std::int64_t n, F f) {
  return tbb::parallel_reduce(
      range(0, n, tbb_grain), R(0),
      [&](const range& r, R acc) {
        for (std::int64_t i = r.begin(); i < r.end(); ++i) acc = static_cast<R>(acc + f(p[i]));
        return acc;
      },
      add<R>{});
}

// Whether pred holds for some element (plain TBB: each range stops at its first hit).
template <class T, class Pred>
bool tbb_any(const T* p, std::int64_t n, Pred pred) {
  return tbb::parallel_reduce(
      range(0, n, tbb_grain), false,
      [&](const range& r, bool found) {
        if (found) return true;
        for (std::int64_t i = r.begin(); i < r.end(); ++i)
          if (pred(p[i])) return true;
        return false;
      },
      [](bool a, bool b) { return a || b; });
}

// A case whose result is one value of type R per impl.
template <class R>
struct scalar_results {
  R ak{};
  R peer{};
};

template <class T>
bench_case reduce_like(const std::string& op, std::int64_t n) {
  auto x = make_buffer<T>(n);
  fill_small(x.get(), n, 1);
  const T* p = x.get();
  const double magnitude = sum_of_magnitudes(p, n);
  bench_case c;
  c.op = op;
  c.elements = n;
  c.bytes = static_cast<double>(n) * sizeof(T);
  const ak::view<const T> v(p, ak::shape{n});

  auto add_cases = [&](auto result_tag, auto ak_call, auto std_call, auto tbb_call,
                       double check_magnitude) {
    using R = decltype(result_tag);
    auto res = std::make_shared<scalar_results<R>>();
    auto check = [res, check_magnitude] {
      return compare_value(res->ak, res->peer, check_magnitude, "result");
    };
    c.ak = {"ak", {}, [x, res, ak_call] { res->ak = ak_call(); }, {}};
    if (have_std_par)
      c.peers.push_back({std_par, {}, [x, res, std_call] { res->peer = std_call(); }, check});
    c.peers.push_back({tbb_peer, {}, [x, res, tbb_call] { res->peer = tbb_call(); }, check});
  };

  if (op == "reduce") {
    c.note = "ak::sum(v); std::reduce(par); tbb::parallel_reduce of a loop";
    add_cases(
        T{}, [v] { return ak::sum(v); },
        [p, n] { return std::reduce(AK_BENCH_PAR p, p + n, T(0), add<T>{}); },
        [p, n] { return tbb_mapreduce<T>(p, n, [](T a) { return a; }); }, magnitude);
  } else if (op == "mapreduce") {
    c.note = "ak::mapreduce(v, x*x, ak::plus{}); std::transform_reduce(par); tbb::parallel_reduce";
    add_cases(
        T{}, [v] { return ak::mapreduce(v, square<T>{}, ak::plus{}); },
        [p, n] {
          return std::transform_reduce(AK_BENCH_PAR p, p + n, T(0), add<T>{}, square<T>{});
        },
        [p, n] { return tbb_mapreduce<T>(p, n, square<T>{}); }, 2 * magnitude);
  } else if (op == "minimum") {
    c.note =
        "ak::minimum(v); std::reduce(par) and tbb::parallel_reduce of a loop, with b < a ? b : a";
    add_cases(
        T{}, [v] { return ak::minimum(v); },
        [p, n] { return std::reduce(AK_BENCH_PAR p, p + n, p[0], smaller<T>{}); },
        [p, n] {
          return tbb::parallel_reduce(
              range(0, n, tbb_grain), p[0],
              [p](const range& r, T m) {
                for (std::int64_t i = r.begin(); i < r.end(); ++i) m = smaller<T>{}(m, p[i]);
                return m;
              },
              smaller<T>{});
        },
        0.0);
  } else if (op == "count") {
    c.note = "ak::count(v, x > 0); std::count_if(par); tbb::parallel_reduce";
    add_cases(
        std::int64_t{}, [v] { return ak::count(v, positive<T>{}); },
        [p, n] {
          return static_cast<std::int64_t>(std::count_if(AK_BENCH_PAR p, p + n, positive<T>{}));
        },
        [p, n] {
          return tbb_mapreduce<std::int64_t>(p, n,
                                             [](T a) { return a > T(0) ? std::int64_t{1} : 0; });
        },
        0.0);
  } else if (op == "any") {
    c.note = "ak::any(v, x > 10), never true: a full pass; std::any_of(par); tbb::parallel_reduce";
    add_cases(
        bool{}, [v] { return ak::any(v, above_ten<T>{}); },
        [p, n] { return std::any_of(AK_BENCH_PAR p, p + n, above_ten<T>{}); },
        [p, n] { return tbb_any(p, n, above_ten<T>{}); }, 0.0);
  } else {  // all
    c.note = "ak::all(v, x < 10), always true: a full pass; std::all_of(par); tbb::parallel_reduce";
    add_cases(
        bool{}, [v] { return ak::all(v, below_ten<T>{}); },
        [p, n] { return std::all_of(AK_BENCH_PAR p, p + n, below_ten<T>{}); },
        [p, n] { return !tbb_any(p, n, [](T a) { return !below_ten<T>{}(a); }); }, 0.0);
  }
  return c;
}

// ---- sums along an axis of a square matrix ----------------------------------------------------

// Column sums (along dimension 0) of rows x cols, for the columns [c0, c1): each row's run of
// columns is added into a local block of accumulators, so that the loop vectorises.
template <class T>
void column_sums(const T* m, std::int64_t rows, std::int64_t cols, std::int64_t c0, std::int64_t c1,
                 T* out) {
  constexpr std::int64_t block = 512;
  std::array<T, block> acc{};
  for (std::int64_t b = c0; b < c1; b += block) {
    const std::int64_t w = std::min(block, c1 - b);
    std::fill_n(acc.begin(), w, T(0));
    for (std::int64_t i = 0; i < rows; ++i) {
      const T* row = m + i * cols + b;
      for (std::int64_t j = 0; j < w; ++j) acc[j] = static_cast<T>(acc[j] + row[j]);
    }
    std::copy_n(acc.begin(), w, out + b);
  }
}

// A row's sum with eight accumulators (a float loop with one accumulator cannot vectorise).
template <class T>
T row_sum(const T* p, std::int64_t n) {
  std::array<T, 8> s{};
  std::int64_t j = 0;
  for (; j + 8 <= n; j += 8)
    for (int k = 0; k < 8; ++k) s[k] = static_cast<T>(s[k] + p[j + k]);
  for (; j < n; ++j) s[0] = static_cast<T>(s[0] + p[j]);
  T r = T(0);
  for (T v : s) r = static_cast<T>(r + v);
  return r;
}

template <class T>
bench_case sum_dims(const std::string& op, std::int64_t n) {
  const auto side = static_cast<std::int64_t>(std::sqrt(static_cast<double>(n)));
  const std::int64_t elements = side * side;
  const bool along0 = op == "sum_dims0";
  auto x = make_buffer<T>(elements);
  fill_small(x.get(), elements, 2);
  auto out_ak = std::make_shared<ak::array<T>>();
  auto out_peer = make_buffer<T>(side);
  const T* p = x.get();
  bench_case c;
  c.op = op;
  c.elements = elements;
  c.bytes = static_cast<double>(elements) * sizeof(T);
  c.note = std::to_string(side) + "x" + std::to_string(side) + " matrix; ak::sum(m, ak::dims{" +
           (along0 ? "0" : "1") + "}); tbb: parallel_for over " +
           (along0 ? "blocks of 512 columns" : "rows, 8 accumulators per row") +
           "; std: for_each(par) over the same blocks" + (along0 ? "" : " (rows: std::reduce)");
  const ak::view<const T> m(p, ak::shape{side, side});
  c.ak = {"ak",
          [out_ak] { *out_ak = ak::array<T>(); },
          [x, m, out_ak, along0] { *out_ak = ak::sum(m, ak::dims{along0 ? 0 : 1}); },
          {}};
  // Each output sums `side` elements of magnitude below 1.
  auto check = [out_ak, out_peer, side] {
    if (out_ak->size() != side) return std::string("ak's result has the wrong size");
    return compare_arrays(out_ak->data(), out_peer.get(), side,
                          [side](std::int64_t) { return static_cast<double>(side); });
  };
  // Row indices (or column-block indices) for std::for_each(par).
  constexpr std::int64_t col_block = 512;
  const std::int64_t tasks = along0 ? (side + col_block - 1) / col_block : side;
  auto index = make_buffer<std::int64_t>(tasks);
  std::iota(index.get(), index.get() + tasks, std::int64_t{0});
  T* o = out_peer.get();
  if (along0) {
    if (have_std_par)
      c.peers.push_back(
          {std_par,
           {},
           [x, index, out_peer, p, o, side, tasks] {
             std::for_each(AK_BENCH_PAR index.get(), index.get() + tasks, [&](std::int64_t b) {
               column_sums(p, side, side, b * col_block, std::min(side, (b + 1) * col_block), o);
             });
           },
           check});
    c.peers.push_back(
        {tbb_peer,
         {},
         [x, out_peer, p, o, side] {
           tbb::parallel_for(
               range(0, side, col_block),
               [&](const range& r) { column_sums(p, side, side, r.begin(), r.end(), o); },
               tbb::simple_partitioner{});
         },
         check});
  } else {
    if (have_std_par)
      c.peers.push_back(
          {std_par,
           {},
           [x, index, out_peer, p, o, side] {
             std::transform(AK_BENCH_PAR index.get(), index.get() + side, o, [&](std::int64_t i) {
               return std::reduce(p + i * side, p + (i + 1) * side, T(0), add<T>{});
             });
           },
           check});
    c.peers.push_back({tbb_peer,
                       {},
                       [x, out_peer, p, o, side] {
                         tbb::parallel_for(range(0, side, 16), [&](const range& r) {
                           for (std::int64_t i = r.begin(); i < r.end(); ++i)
                             o[i] = row_sum(p + i * side, side);
                         });
                       },
                       check});
  }
  return c;
}

}  // namespace

void add_reduce_ops(std::vector<op_spec>& ops) {
  const std::vector<dtype> ints_and_floats{dtype::int64, dtype::float64};
  auto reduce_maker = []<class T>(const std::string& op, std::int64_t n) {
    return reduce_like<T>(op, n);
  };
  for (const char* op : {"reduce", "mapreduce", "minimum", "count", "any", "all"})
    ops.push_back({op, "reduce", ints_and_floats, builder(op, reduce_maker)});
  auto dims_maker = []<class T>(const std::string& op, std::int64_t n) {
    return sum_dims<T>(op, n);
  };
  for (const char* op : {"sum_dims0", "sum_dims1"})
    ops.push_back({op, "dims", {dtype::float32}, builder(op, dims_maker)});
}

}  // namespace ak::tool::bench
