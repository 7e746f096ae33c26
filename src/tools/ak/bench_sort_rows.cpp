// `ak bench`'s sorts along a dimension: each row of a row-major matrix sorted on its own, in
// place, ak::sort_inplace(m, {.dim = 1}). sort_rows: rows of 10,000 elements (n / 10,000 of
// them); sort_tiny_rows: rows of 10 (n / 10 of them). Peers are the row loops a user would write:
// oneTBB's parallel_for over rows with std::sort (or ips4o's sequential sort) in each, and, for
// the long rows, a loop over rows of a parallel sort (ips4o, std::sort(par)).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "bench_sort_peers.hpp"

namespace ak::tool::bench {

namespace {

template <class T>
bench_case sort_rows_case(const std::string& op, std::int64_t n, std::int64_t row) {
  const std::int64_t rows = std::max<std::int64_t>(1, n / row);
  const std::int64_t elements = rows * row;
  auto b = std::make_shared<sort_buffers<T>>(sort_buffers<T>{elements});
  fill_keys(b->input.get(), elements, 13);
  const T* in = b->input.get();
  T* wa = b->ak.get();
  T* wp = b->peer.get();
  bench_case c = in_place_sort_case<T>(op, elements);
  c.note = "each row of a " + std::to_string(rows) + " x " + std::to_string(row) +
           " matrix sorted in place: ak::sort_inplace(m, {.dim = 1}); peers: row loops, a "
           "tbb::parallel_for over rows with a sequential sort of each, or a loop of a parallel "
           "sort";
  c.ak = {"ak",
          [b, in, wa, elements] { parallel_copy(wa, in, elements); },
          [b, wa, rows, row] {
            ak::sort_inplace(ak::view<T>(wa, ak::shape{rows, row}), {.dim = 1});
          },
          {}};
  auto restore = [b, in, wp, elements] { parallel_copy(wp, in, elements); };
  auto check = [b, elements] { return compare_exact(b->ak.get(), b->peer.get(), elements); };
  // Each row by a sequential sort, rows spread over oneTBB's workers.
  auto tbb_loop = [&](const std::string& name, auto sort_row) {
    c.peers.push_back({name, restore,
                       [b, wp, rows, row, sort_row] {
                         tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, rows),
                                           [&](const tbb::blocked_range<std::int64_t>& r) {
                                             for (std::int64_t i = r.begin(); i != r.end(); ++i)
                                               sort_row(wp + i * row, wp + (i + 1) * row);
                                           });
                       },
                       check});
  };
  // One row after another, each by a parallel sort.
  auto serial_loop = [&](const std::string& name, auto sort_row) {
    c.peers.push_back({name, restore,
                       [b, wp, rows, row, sort_row] {
                         for (std::int64_t i = 0; i < rows; ++i)
                           sort_row(wp + i * row, wp + (i + 1) * row);
                       },
                       check});
  };
  tbb_loop("tbb rows, std::sort", [](T* first, T* last) { std::sort(first, last); });
#ifdef AK_BENCH_HAVE_IPS4O
  tbb_loop("tbb rows, ips4o::sort", [](T* first, T* last) { ips4o::sort(first, last); });
#endif
  if (row >= 1000) {
#ifdef AK_BENCH_HAVE_IPS4O
    serial_loop("row loop, ips4o::parallel", [](T* first, T* last) {
      ips4o::parallel::sort(first, last, std::less<T>{}, ips4o_pool());
    });
#endif
    if constexpr (have_std_par)
      serial_loop("row loop, std::sort(par)",
                  [](T* first, T* last) { std::sort(AK_BENCH_PAR first, last); });
  }
  return c;
}

}  // namespace

void add_sort_row_ops(std::vector<op_spec>& ops) {
  for (const auto& [op, row] :
       {std::pair<const char*, std::int64_t>{"sort_rows", 10'000}, {"sort_tiny_rows", 10}})
    ops.push_back({op,
                   "segmented",
                   {dtype::float32, dtype::int64},
                   [op = std::string(op), row = row](dtype t, std::int64_t n) {
                     return visit_numeric(t,
                                          [&]<class T>() { return sort_rows_case<T>(op, n, row); });
                   },
                   sort_default_n});
}

}  // namespace ak::tool::bench
