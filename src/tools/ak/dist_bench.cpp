// `ak dist-bench` (this program, ak_dist_bench, which the ak command runs): ak::dist's sort and
// scan at a few sizes per rank, over the input distributions of the distributed sort's tests.
//
//   mpirun -np 4 build/bin/ak dist-bench [--n 1e5,1e6] [--dists LIST] [--dtype float64]
//                                        [--repeats 5] [--json FILE]
//
// Per row: the median over the repeats of each phase's time on the slowest rank; then what does
// not depend on the machine: the splitter search's rounds, the collective calls, the bytes sent
// to other ranks per element over the element size (the exchange alone, and every collective of
// the call: the splitter search and the agreement rounds too), and the largest rank's output over
// N / P. Times on an oversubscribed machine are for
// information only. Each row's first run is checked (sorted in ak's order across the ranks, the
// even split, the same elements; the scan's total): exit status 4 when one is not right.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ak/ak.hpp"
#include "ak/dist/dist.hpp"
#include "bench_cli.hpp"

namespace {

using i64 = std::int64_t;
using ak::dist::communicator;

const std::vector<std::string> dist_names = {"uniform",  "all-equal", "two-values", "sorted",
                                             "reversed", "root-dup",  "one-rank"};

// This rank's part of the global input: n elements (all N = n * P on rank 0 for one-rank).
template <class T>
std::vector<T> make_part(const std::string& dist, i64 n, int rank, int ranks) {
  std::mt19937_64 g(0x5eed + static_cast<std::uint64_t>(rank));
  const i64 N = n * ranks;
  i64 count = n;
  if (dist == "one-rank") count = rank == 0 ? N : 0;
  std::vector<T> v(static_cast<std::size_t>(count));
  const auto root =
      static_cast<std::uint64_t>(std::max<double>(1, std::sqrt(static_cast<double>(N))));
  for (i64 i = 0; i < count; ++i) {
    const i64 global = static_cast<i64>(rank) * n + i;
    std::uint64_t x = g();
    if (dist == "all-equal")
      x = 7;
    else if (dist == "two-values")
      x &= 1;
    else if (dist == "sorted")
      x = static_cast<std::uint64_t>(global);
    else if (dist == "reversed")
      x = static_cast<std::uint64_t>(N - global);
    else if (dist == "root-dup")
      x %= root;
    if constexpr (std::is_floating_point_v<T>)
      v[static_cast<std::size_t>(i)] = dist == "uniform" || dist == "one-rank"
                                           ? static_cast<T>(static_cast<double>(x >> 11) * 0x1p-53)
                                           : static_cast<T>(x);
    else
      v[static_cast<std::size_t>(i)] = static_cast<T>(x);
  }
  return v;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// The largest of every rank's value.
double max_over_ranks(const communicator& comm, double x) {
  const auto all = ak::dist::detail::allgather(comm, x);
  return *std::max_element(all.begin(), all.end());
}
i64 sum_over_ranks(const communicator& comm, i64 x) {
  return ak::dist::detail::allreduce_sum(comm, x);
}

// Whether `out` is the sort of `in` across the ranks: each part in order, each rank's last element
// not after the next non-empty rank's first, the even split, and the same elements (a sum of
// their bits, which any order gives exactly). The same answer on every rank.
template <class T>
bool sorted_right(const communicator& comm, const ak::array<T>& in, const ak::array<T>& out) {
  const std::vector<T> o = out.to_vector();
  bool ok = std::is_sorted(o.begin(), o.end(), ak::isless{});
  struct ends {
    T first, last;
    i64 size;
  };
  const auto all = ak::dist::detail::allgather(
      comm, ends{o.empty() ? T{} : o.front(), o.empty() ? T{} : o.back(), out.size()});
  const i64 N = ak::dist::global_size(comm, in);
  std::optional<T> previous;
  for (std::size_t r = 0; r < all.size(); ++r) {
    const i64 share = N / comm.size() + (static_cast<i64>(r) < N % comm.size() ? 1 : 0);
    ok = ok && all[r].size == share;
    if (all[r].size == 0) continue;
    ok = ok && !(previous && ak::isless{}(all[r].first, *previous));
    previous = all[r].last;
  }
  using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  const auto bits = [](T x) { return static_cast<std::uint64_t>(std::bit_cast<U>(x)); };
  // Both collectives on every rank, whatever `ok` is here.
  const std::uint64_t sum_in = ak::dist::mapreduce(comm, in, bits, ak::plus{});
  const std::uint64_t sum_out = ak::dist::mapreduce(comm, out, bits, ak::plus{});
  ok = ok && sum_in == sum_out;
  return ak::dist::all(comm, ak::array<bool>(std::vector<bool>{ok}));
}

struct row {
  std::string op, dist;
  i64 n_per_rank = 0, N = 0;
  double local_sort = 0, splitters = 0, exchange = 0, merge = 0, total = 0;
  i64 rounds = 0, collectives = 0;
  double exchange_bytes_ratio = 0, all_bytes_ratio = 0, max_share = 0;
  bool wrong = false;  // the result was checked and is not right
};

template <class T>
row bench_sort(const communicator& comm, const std::string& dist, i64 n, int repeats) {
  const auto part = make_part<T>(dist, n, comm.rank(), comm.size());
  const ak::array<T> local(part);
  row r{"sort", dist, n, n * comm.size()};
  std::vector<double> ls, sp, ex, me, tot;
  ak::dist::sort_stats s;
  for (int k = 0; k < repeats + 1; ++k) {  // the first run warms up and is not counted
    const auto t0 = std::chrono::steady_clock::now();
    const auto out = ak::dist::sort(comm, local, {.stats = &s});
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (k == 0) {
      r.wrong = !sorted_right(comm, local, out);
      continue;
    }
    tot.push_back(max_over_ranks(comm, t));
    ls.push_back(max_over_ranks(comm, s.local_sort_seconds));
    sp.push_back(max_over_ranks(comm, s.splitter_seconds));
    ex.push_back(max_over_ranks(comm, s.exchange_seconds));
    me.push_back(max_over_ranks(comm, s.merge_seconds));
  }
  r.total = median(tot), r.local_sort = median(ls), r.splitters = median(sp);
  r.exchange = median(ex), r.merge = median(me);
  r.rounds = s.rounds;
  r.collectives = s.collectives;
  const double denominator = static_cast<double>(r.N) * sizeof(T);
  r.exchange_bytes_ratio =
      static_cast<double>(sum_over_ranks(comm, s.elements_sent * static_cast<i64>(sizeof(T)))) /
      denominator;
  r.all_bytes_ratio = static_cast<double>(sum_over_ranks(comm, s.bytes_sent)) / denominator;
  r.max_share = max_over_ranks(comm, static_cast<double>(s.elements_received)) /
                (static_cast<double>(r.N) / comm.size());
  return r;
}

template <class T>
row bench_scan(const communicator& comm, const std::string& dist, i64 n, int repeats) {
  const auto part = make_part<T>(dist, n, comm.rank(), comm.size());
  const ak::array<T> local(part);
  row r{"cumsum", dist, n, n * comm.size()};
  std::vector<double> tot;
  i64 bytes = 0;
  for (int k = 0; k < repeats + 1; ++k) {
    const i64 before = comm.collectives(), bytes_before = comm.bytes_sent();
    const auto t0 = std::chrono::steady_clock::now();
    const auto out = ak::dist::cumsum(comm, local);
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.collectives = comm.collectives() - before;
    bytes = comm.bytes_sent() - bytes_before;
    if (k > 0) {
      tot.push_back(max_over_ranks(comm, t));
      continue;
    }
    // The last rank's last element is the whole sum (within rounding for floats).
    const auto o = out.to_vector();
    const auto last = ak::dist::detail::allgather(comm, o.empty() ? T{} : o.back());
    const auto sizes = ak::dist::detail::allgather(comm, out.size());
    std::optional<T> end;
    for (std::size_t q = 0; q < sizes.size(); ++q)
      if (sizes[q] != 0) end = last[q];
    const T sum = ak::dist::sum(comm, local);
    const double tolerance =
        std::is_floating_point_v<T> ? 1e-9 * std::abs(static_cast<double>(sum)) : 0;
    r.wrong = end && std::abs(static_cast<double>(*end) - static_cast<double>(sum)) > tolerance;
  }
  r.total = median(tot);
  r.all_bytes_ratio =
      static_cast<double>(sum_over_ranks(comm, bytes)) / (static_cast<double>(r.N) * sizeof(T));
  r.max_share = 1;  // a scan keeps the input's layout
  return r;
}

template <class T>
int run(const communicator& comm, const std::vector<i64>& sizes,
        const std::vector<std::string>& dists, int repeats, const std::string& dtype,
        const std::string& json_path) {
  const bool root = comm.rank() == 0;
  if (root) {
    std::cout << "ak::dist on " << comm.size() << " rank(s), " << dtype << "; times: median of "
              << repeats
              << " runs on the slowest rank, ms; bytes: sent to other ranks per element / "
                 "element size; share: largest rank's output / (N / P)\n"
              << std::left << std::setw(8) << "op" << std::setw(12) << "dist" << std::right
              << std::setw(10) << "n/rank" << std::setw(10) << "total" << std::setw(10) << "local"
              << std::setw(10) << "splitter" << std::setw(10) << "exchange" << std::setw(10)
              << "merge" << std::setw(8) << "rounds" << std::setw(8) << "colls" << std::setw(10)
              << "bytes" << std::setw(10) << "bytes+spl" << std::setw(8) << "share" << std::endl;
  }
  nlohmann::json rows = nlohmann::json::array();
  bool wrong = false;
  for (const i64 n : sizes)
    for (const std::string& d : dists)
      for (const char* op : {"sort", "cumsum"}) {
        const row r = std::string(op) == "sort" ? bench_sort<T>(comm, d, n, repeats)
                                                : bench_scan<T>(comm, d, n, repeats);
        wrong = wrong || r.wrong;
        if (!root) continue;
        if (r.wrong) std::cout << "WRONG: the next row's result is not right\n";
        std::cout << std::left << std::setw(8) << r.op << std::setw(12) << r.dist << std::right
                  << std::setw(10) << r.n_per_rank << std::fixed << std::setprecision(2)
                  << std::setw(10) << r.total * 1e3;
        // A scan has no phases, rounds or exchange: "-".
        const bool phases = r.op == "sort";
        const auto cell = [&](int width, auto value) {
          std::cout << std::setw(width);
          if (phases)
            std::cout << value;
          else
            std::cout << "-";
        };
        cell(10, r.local_sort * 1e3), cell(10, r.splitters * 1e3), cell(10, r.exchange * 1e3);
        cell(10, r.merge * 1e3), cell(8, r.rounds);
        std::cout << std::setw(8) << r.collectives << std::setprecision(3);
        cell(10, r.exchange_bytes_ratio);
        std::cout << std::setw(10) << r.all_bytes_ratio << std::setw(8) << r.max_share << std::endl;
        rows.push_back({{"op", r.op},
                        {"dist", r.dist},
                        {"dtype", dtype},
                        {"ranks", comm.size()},
                        {"n_per_rank", r.n_per_rank},
                        {"N", r.N},
                        {"seconds",
                         {{"total", r.total},
                          {"local_sort", r.local_sort},
                          {"splitters", r.splitters},
                          {"exchange", r.exchange},
                          {"merge", r.merge}}},
                        {"rounds", r.rounds},
                        {"collectives", r.collectives},
                        {"exchange_bytes_per_element_over_size", r.exchange_bytes_ratio},
                        {"all_bytes_per_element_over_size", r.all_bytes_ratio},
                        {"max_share", r.max_share},
                        {"checked_right", !r.wrong}});
      }
  if (root && !json_path.empty()) {
    const std::string tmp = json_path + ".tmp";
    std::ofstream(tmp) << nlohmann::json{{"format", "ak-dist-bench-1"}, {"rows", rows}}.dump(1)
                       << "\n";
    if (std::rename(tmp.c_str(), json_path.c_str()) != 0) {
      std::cerr << "ak dist-bench: error: cannot write " << json_path << "\n";
      return 1;
    }
    std::cout << "wrote " << json_path << "\n";
  }
  return wrong ? 4 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ak dist-bench: ak::dist's sort and scan across MPI ranks (run under mpirun)",
               "ak dist-bench"};
  std::vector<std::string> n_text{"1e5", "1e6"};
  std::vector<std::string> dists = dist_names;
  std::string dtype = "float64";
  std::string json;
  int repeats = 5;
  app.add_option("--n", n_text, "Elements per rank (list)")
      ->delimiter(',')
      ->capture_default_str()
      ->check([](const std::string& s) {
        return ak::tool::parse_bench_size(s) ? std::string() : "not a size: " + s;
      });
  app.add_option("--dists", dists, "Input distributions (list)")
      ->delimiter(',')
      ->capture_default_str()
      ->check(CLI::IsMember(dist_names));
  app.add_option("--dtype", dtype, "Element type")
      ->capture_default_str()
      ->check(CLI::IsMember({"uint32", "int64", "float64"}));
  app.add_option("--repeats", repeats, "Timed runs per row")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  app.add_option("--json", json, "Also write the rows to FILE (rank 0)");
  CLI11_PARSE(app, argc, argv);
  std::vector<i64> sizes;
  for (const auto& s : n_text) sizes.push_back(*ak::tool::parse_bench_size(s));
  try {
    ak::dist::mpi_session mpi(argc, argv);
    const communicator comm = ak::dist::world();
    if (dtype == "uint32") return run<std::uint32_t>(comm, sizes, dists, repeats, dtype, json);
    if (dtype == "int64") return run<std::int64_t>(comm, sizes, dists, repeats, dtype, json);
    return run<double>(comm, sizes, dists, repeats, dtype, json);
  } catch (const std::exception& e) {
    std::cerr << "ak dist-bench: error: " << e.what() << "\n";
    return 1;
  }
}
