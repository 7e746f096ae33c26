// `ak demo`: a short tour on one device: an array on it, how tunings resolve, the algorithms on
// small arrays, and a table of each operation's first call and warm throughput on the cpu
// backend.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "ak/ak.hpp"
#include "commands.hpp"

namespace ak::tool {

namespace {

template <class F>
double median_ns_per_call(F&& f, int calls) {
  std::vector<double> samples;
  for (int rep = 0; rep < 7; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) f();
    auto t1 = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / calls);
  }
  std::nth_element(samples.begin(), samples.begin() + 3, samples.end());
  return samples[3];
}

template <class T>
std::string list(const std::vector<T>& v) {
  std::ostringstream s;
  s << "[";
  for (std::size_t i = 0; i < v.size(); ++i) s << (i ? ", " : "") << +v[i];
  s << "]";
  return s.str();
}

// The algorithms on arrays small enough to print.
void show_algorithms() {
  const std::vector<double> v{3.5, -0.0, 2.0, std::nan(""), 0.0, -7.25, 2.0};
  std::cout << "\nthe algorithms on v = [3.5, -0.0, 2.0, NaN, 0.0, -7.25, 2.0]:\n";
  std::cout << "  ak::sort(v)                 " << list(ak::sort(v).to_vector()) << "\n";
  std::cout << "  ak::sort(v, {.rev = true})  " << list(ak::sort(v, {.rev = true}).to_vector())
            << "\n";
  std::cout << "  ak::sortperm(v)             " << list(sortperm(v).to_vector()) << "\n";
  std::cout << "  ak::maximum(v)              " << maximum(v) << "  (NaN propagates)\n";
  std::cout << "  ak::count(v, x > 0)         " << count(v, [](double x) { return x > 0; }) << "\n";
  const std::vector<std::int64_t> w{1, 2, 3, 4, 5};
  std::cout << "  ak::cumsum([1..5])          " << list(cumsum(w).to_vector()) << "\n";
  std::cout << "  exclusive, init 10          "
            << list(accumulate(w, plus{}, {.init = 10, .inclusive = false}).to_vector()) << "\n";
  std::vector<float> m(6);
  std::iota(m.begin(), m.end(), 1.0f);
  array<float> a(m, shape{2, 3});
  std::cout << "  a = [[1, 2, 3], [4, 5, 6]]: sum along dims 0 "
            << list(sum(a, dims{0}).to_vector()) << ", along dims 1 "
            << list(sum(a, dims{1}).to_vector()) << "\n";
  const array<float> col = sum(a, dims{1});
  std::cout << "  ak::broadcast(a / rowsum)   "
            << list(broadcast([](float x, float s) { return x / s; }, a, col).to_vector()) << "\n";
  const std::vector<std::int64_t> idx{4, 0, 2};
  std::cout << "  ak::take(a, {4, 0, 2})      " << list(take(a, idx).to_vector()) << "\n";
  const std::vector<double> sorted_v = ak::sort(v).to_vector();
  const std::vector<double> queries{-1.0, 2.0, 9.0};
  std::cout << "  searchsortedfirst(sort(v), [-1, 2, 9]) "
            << list(searchsortedfirst(sorted_v, queries).to_vector()) << "\n";
  std::cout << "  any(v, isnan) " << any(v, [](double x) { return x != x; }) << ", all(v, x < 10) "
            << all(v, [](double x) { return x < 10; }) << "\n";
}

// One operation of the table: the time of its first call in this process and the median warm
// time, with the bytes it must move (read + written) for the throughput column.
template <class F>
void table_row(const char* op, const char* type, std::int64_t n, double bytes, F&& f) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  f();
  const double first = std::chrono::duration<double>(clock::now() - t0).count();
  std::vector<double> warm;
  for (int rep = 0; rep < 5; ++rep) {
    const auto a = clock::now();
    f();
    warm.push_back(std::chrono::duration<double>(clock::now() - a).count());
  }
  std::nth_element(warm.begin(), warm.begin() + 2, warm.end());
  std::cout << "  " << std::left << std::setw(14) << op << std::setw(9) << type << std::right
            << std::setw(10) << n << std::fixed << std::setprecision(2) << std::setw(11)
            << first * 1e3 << std::setw(11) << warm[2] * 1e3 << std::setw(9) << std::setprecision(1)
            << bytes / warm[2] / 1e9 << "\n";
}

void show_throughput_table() {
  constexpr std::int64_t n = 4'000'000;
  std::vector<float> f(n);
  std::vector<double> d(n);
  std::vector<std::uint32_t> u(n);
  std::uint64_t state = 12345;
  for (std::int64_t i = 0; i < n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    u[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(state >> 32);
    d[static_cast<std::size_t>(i)] = static_cast<double>(state >> 11) / 9007199254740992.0;
    f[static_cast<std::size_t>(i)] = static_cast<float>(d[static_cast<std::size_t>(i)]);
  }
  std::vector<double> dout(n);
  std::vector<std::uint32_t> uout(n);
  array<float> matrix(f, shape{2000, 2000});
  array<float> row(std::vector<float>(2000, 1.0f), shape{1, 2000});
  std::cout << "\nfirst call and warm median on " << cpu::num_threads()
            << " cpu threads (GB/s counts the bytes each operation must read and write):\n";
  std::cout << "  op            dtype            n   first ms    warm ms     GB/s\n";
  const double fb = sizeof(float) * double(n), db = sizeof(double) * double(n),
               ub = sizeof(std::uint32_t) * double(n);
  table_row("sum", "float32", n, fb, [&] {
    volatile float s = sum(f);
    (void)s;
  });
  table_row("sum dims 0", "float32", n, fb, [&] {
    auto s = sum(matrix, dims{0});
    (void)s;
  });
  table_row("sum dims 1", "float32", n, fb, [&] {
    auto s = sum(matrix, dims{1});
    (void)s;
  });
  table_row("any (none)", "float64", n, db, [&] {
    volatile bool b = any(d, [](double x) { return x > 2; });
    (void)b;
  });
  table_row("map", "float64", n, 2 * db, [&] {
    map_into(
        dout, [](double x) { return 2 * x + 1; }, d);
  });
  table_row("broadcast", "float32", n, 2 * fb, [&] {
    auto b = broadcast(plus{}, matrix, row);
    (void)b;
  });
  table_row("accumulate", "float64", n, 2 * db, [&] {
    std::copy(d.begin(), d.end(), dout.begin());
    accumulate_inplace(dout, plus{});
  });
  table_row("sort", "uint32", n, 2 * ub, [&] {
    std::copy(u.begin(), u.end(), uout.begin());
    sort_inplace(uout);
  });
  table_row("sort", "float64", n, 2 * db, [&] {
    std::copy(d.begin(), d.end(), dout.begin());
    sort_inplace(dout);
  });
  table_row("sortperm", "float64", n, db + 8.0 * n, [&] {
    auto p = sortperm(d);
    (void)p;
  });
  std::cout << "  (accumulate and sort rows include a copy of the input; 'first' includes "
               "loading the backend and first-touch page faults)\n";
}

}  // namespace

int run_demo(const demo_options& o) {
  device dev(o.device);
  std::cout << "ak " << version_string() << " demo on " << dev.name() << " ("
            << dev.info().description << ", " << dev.info().compute_units << " compute units, "
            << cpu::num_threads() << " cpu worker threads)\n\n";

  // An n-d array on the device, filled from the host and read back.
  std::vector<float> host(24);
  std::iota(host.begin(), host.end(), 0.0f);
  array<float> a(host, shape{2, 3, 4}, dev);
  std::vector<float> back = a.to_vector();
  std::cout << "array<float> of shape " << a.shape().to_string() << " on " << a.device_name()
            << ": round trip " << (back == host ? "exact" : "MISMATCH") << "\n";

  // Tunings are data: where each value comes from, and what a lookup costs.
  std::cout << "\nhow ak::sort resolves for float32 keys on " << dev.name() << ":\n";
  auto r = resolve(auto_alg{}, dev, dtype::float32, {});
  std::cout << "  auto picks " << name_of(r.algorithm) << "\n";
  for (const auto& f : explain_tuning(sort_hook::name, dev, dtype::float32))
    std::cout << "  " << std::left << std::setw(20) << f.field << std::right << std::setw(8)
              << f.text << "  from " << f.origin.detail << "\n";
  {
    scoped_tuning s(sort_hook{}, {.radix_digit_bits = 8});
    std::cout << "  with ak::scoped_tuning{.radix_digit_bits = 8}: "
              << tuning(sort_hook{}, dev, dtype::float32).radix_digit_bits << "\n";
  }

  double lookup = median_ns_per_call(
      [&] {
        volatile auto t = tuning(reduce_hook{}, dev, dtype::float32).block_size;
        (void)t;
      },
      200000);
  double resolve_ns = median_ns_per_call(
      [&] {
        volatile auto alg = resolve(auto_alg{}, dev, dtype::uint32, {}).algorithm;
        (void)alg;
      },
      100000);
  std::cout << "\none tuning lookup: " << std::fixed << std::setprecision(1) << lookup
            << " ns; resolving a sort algorithm: " << resolve_ns << " ns (medians of 7)\n";
  if (dev.backend() != "cpu") {
    std::cout << "\nThe algorithms run on the cpu backend in this version; run `ak demo` without "
                 "--device for the tour and the throughput table.\n";
    return 0;
  }
  show_algorithms();
  show_throughput_table();
  std::cout << "\n`ak bench` compares these with std::execution::par, oneTBB, ips4o and "
               "Boost.Sort; `ak info` lists every tuning and its source.\n";
  return 0;
}

}  // namespace ak::tool
