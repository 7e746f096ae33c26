// `ak demo`: a short tour on one device. Later issues add the first operations and the
// throughput table; for now it shows the device, an array on it, and how tunings resolve.
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <numeric>

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
    scoped_tuning s(sort_hook{}, {.radix_digit_bits = 11});
    std::cout << "  with ak::scoped_tuning{.radix_digit_bits = 11}: "
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
  std::cout << "\nThe algorithms (sort, reduce, accumulate, ...) and the throughput table come "
               "with the CPU backend; `ak info` lists every tuning and its source.\n";
  return 0;
}

}  // namespace ak::tool
