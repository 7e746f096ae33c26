// `ak bench` ops that read and write every element: map (y = 2x + 1), broadcast (a matrix plus
// a row vector) and accumulate (an inclusive scan with +, in place).
#include <tbb/parallel_scan.h>

#include <algorithm>
#include <numeric>

#include "ak/ak.hpp"
#include "bench.hpp"

namespace ak::tool::bench {

namespace {

using range = tbb::blocked_range<std::int64_t>;

template <class T>
struct add {
  T operator()(T a, T b) const { return static_cast<T>(a + b); }
};
template <class T>
struct affine {  // y = 2x + 1
  T operator()(T x) const { return static_cast<T>(static_cast<T>(x * T(2)) + T(1)); }
};

template <class T>
bench_case map_case(std::int64_t n) {
  auto x = make_buffer<T>(n);
  fill_small(x.get(), n, 3);
  // Outputs written once here, so that no run pays for first-touch page faults.
  auto y_ak = make_buffer<T>(n);
  auto y_peer = make_buffer<T>(n);
  parallel_fill(y_ak.get(), n, [](std::int64_t) { return T(0); });
  parallel_fill(y_peer.get(), n, [](std::int64_t) { return T(0); });
  const T* p = x.get();
  T* ya = y_ak.get();
  T* yp = y_peer.get();
  bench_case c;
  c.op = "map";
  c.elements = n;
  c.bytes = 2.0 * static_cast<double>(n) * sizeof(T);
  c.writes = true;
  c.note =
      "into an existing array: ak::map_into(y, 2x+1, x); std::transform(par); "
      "tbb::parallel_for";
  auto check = [y_ak, y_peer, n] { return compare_exact(y_ak.get(), y_peer.get(), n); };
  c.ak = {"ak",
          {},
          [x, y_ak, p, ya, n] {
            ak::map_into(ak::view<T>(ya, ak::shape{n}), affine<T>{},
                         ak::view<const T>(p, ak::shape{n}));
          },
          {}};
  if (have_std_par)
    c.peers.push_back(
        {std_par,
         {},
         [x, y_peer, p, yp, n] { std::transform(AK_BENCH_PAR p, p + n, yp, affine<T>{}); },
         check});
  c.peers.push_back({tbb_peer,
                     {},
                     [x, y_peer, p, yp, n] {
                       tbb::parallel_for(range(0, n, 1 << 14), [&](const range& r) {
                         for (std::int64_t i = r.begin(); i < r.end(); ++i)
                           yp[i] = affine<T>{}(p[i]);
                       });
                     },
                     check});
  return c;
}

// out = m + row for an r x c matrix m and a row vector of c elements; every impl allocates its
// output (ak::broadcast returns a new array), released before the next run, untimed.
template <class T>
bench_case broadcast_case(std::int64_t n) {
  const auto cols =
      std::max<std::int64_t>(1, static_cast<std::int64_t>(std::sqrt(static_cast<double>(n))));
  const std::int64_t rows = n / cols, elements = rows * cols;
  auto m = make_buffer<T>(elements);
  auto row = make_buffer<T>(cols);
  fill_small(m.get(), elements, 4);
  fill_small(row.get(), cols, 5);
  auto out_ak = std::make_shared<ak::array<T>>();
  auto out_peer = std::make_shared<std::shared_ptr<T[]>>();
  auto row_index = make_buffer<std::int64_t>(rows);
  std::iota(row_index.get(), row_index.get() + rows, std::int64_t{0});
  const T* mp = m.get();
  const T* rp = row.get();
  bench_case c;
  c.op = "broadcast";
  c.elements = elements;
  c.bytes = 2.0 * static_cast<double>(elements) * sizeof(T);
  c.writes = true;
  c.note = std::to_string(rows) + "x" + std::to_string(cols) +
           " matrix + row vector into a new array: ak::broadcast(ak::plus{}, m, row); "
           "std::for_each(par) / tbb::parallel_for over rows";
  c.ak = {"ak",
          [out_ak] { *out_ak = ak::array<T>(); },
          [m, row, out_ak, mp, rp, rows, cols] {
            *out_ak = ak::broadcast(ak::plus{}, ak::view<const T>(mp, ak::shape{rows, cols}),
                                    ak::view<const T>(rp, ak::shape{1, cols}));
          },
          {}};
  auto release = [out_peer] { out_peer->reset(); };
  auto check = [out_ak, out_peer, elements] {
    if (out_ak->size() != elements) return std::string("ak's result has the wrong size");
    return compare_exact(out_ak->data(), out_peer->get(), elements);
  };
  auto add_row = [mp, rp, cols](T* o, std::int64_t i) {
    const T* src = mp + i * cols;
    T* dst = o + i * cols;
    for (std::int64_t j = 0; j < cols; ++j) dst[j] = static_cast<T>(src[j] + rp[j]);
  };
  if (have_std_par)
    c.peers.push_back({std_par, release,
                       [m, row, row_index, out_peer, add_row, elements, rows] {
                         *out_peer = make_buffer<T>(elements);
                         T* o = out_peer->get();
                         std::for_each(AK_BENCH_PAR row_index.get(), row_index.get() + rows,
                                       [&](std::int64_t i) { add_row(o, i); });
                       },
                       check});
  c.peers.push_back({tbb_peer, release,
                     [m, row, out_peer, add_row, elements, rows] {
                       *out_peer = make_buffer<T>(elements);
                       T* o = out_peer->get();
                       tbb::parallel_for(range(0, rows, 4), [&](const range& r) {
                         for (std::int64_t i = r.begin(); i < r.end(); ++i) add_row(o, i);
                       });
                     },
                     check});
  return c;
}

// Inclusive scan with + in place: every impl scans its own copy of x, restored before each run.
template <class T>
bench_case accumulate_case(std::int64_t n) {
  auto x = make_buffer<T>(n);
  fill_small(x.get(), n, 6);
  auto w_ak = make_buffer<T>(n);
  auto w_peer = make_buffer<T>(n);
  const T* p = x.get();
  T* wa = w_ak.get();
  T* wp = w_peer.get();
  bench_case c;
  c.op = "accumulate";
  c.elements = n;
  c.bytes = 2.0 * static_cast<double>(n) * sizeof(T);
  c.writes = true;
  c.note =
      "inclusive scan with + in place: ak::accumulate_inplace(v, ak::plus{}); "
      "std::inclusive_scan(par); tbb::parallel_scan";
  c.ak = {"ak",
          [x, w_ak, p, wa, n] { parallel_copy(wa, p, n); },
          [w_ak, wa, n] { ak::accumulate_inplace(ak::view<T>(wa, ak::shape{n}), ak::plus{}); },
          {}};
  auto restore = [x, w_peer, p, wp, n] { parallel_copy(wp, p, n); };
  // Prefix i of a float scan may differ by a tolerance times the sum of |x| up to i.
  auto check = [x, w_ak, w_peer, n] {
    double running = 0;
    const T* in = x.get();
    return compare_arrays(w_ak.get(), w_peer.get(), n, [&](std::int64_t i) {
      running += std::abs(static_cast<double>(in[i]));  // called once per i, in order
      return running;
    });
  };
  if (have_std_par)
    c.peers.push_back(
        {std_par, restore,
         [w_peer, wp, n] { std::inclusive_scan(AK_BENCH_PAR wp, wp + n, wp, add<T>{}); }, check});
  c.peers.push_back({tbb_peer, restore,
                     [w_peer, wp, n] {
                       tbb::parallel_scan(
                           range(0, n, 1 << 14), T(0),
                           [&](const range& r, T sum, bool is_final) {
                             for (std::int64_t i = r.begin(); i < r.end(); ++i) {
                               sum = static_cast<T>(sum + wp[i]);
                               if (is_final) wp[i] = sum;
                             }
                             return sum;
                           },
                           add<T>{});
                     },
                     check});
  return c;
}

}  // namespace

void add_elementwise_ops(std::vector<op_spec>& ops) {
  const std::vector<dtype> defaults{dtype::int64, dtype::float64};
  ops.push_back(
      {"map", "elementwise", {dtype::float32, dtype::float64}, [](dtype t, std::int64_t n) {
         return visit_numeric(t, [&]<class T>() { return map_case<T>(n); });
       }});
  ops.push_back(
      {"broadcast", "elementwise", {dtype::float32, dtype::float64}, [](dtype t, std::int64_t n) {
         return visit_numeric(t, [&]<class T>() { return broadcast_case<T>(n); });
       }});
  ops.push_back({"accumulate", "elementwise", defaults, [](dtype t, std::int64_t n) {
                   return visit_numeric(t, [&]<class T>() { return accumulate_case<T>(n); });
                 }});
}

}  // namespace ak::tool::bench
