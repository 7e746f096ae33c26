// `ak bench`: the pieces its translation units share. Each op builds a bench_case (inputs,
// ak's call and the peers' equivalent calls, each with a check against ak's result); bench.cpp
// times the calls in alternation, checks them once, and prints and writes the figures.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_scan.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ak/core/dtype.hpp"
#include "key_distributions.hpp"
#include "random_inputs.hpp"

// std::execution::par when this build has it (libstdc++ runs it on TBB); without it the peer is
// left out, and AK_BENCH_PAR lets its code still compile, sequentially.
#ifdef AK_BENCH_HAVE_STD_PAR
#include <execution>
#define AK_BENCH_PAR std::execution::par,
#else
#define AK_BENCH_PAR
#endif

namespace ak::tool::bench {

#ifdef AK_BENCH_HAVE_STD_PAR
inline constexpr bool have_std_par = true;
#else
inline constexpr bool have_std_par = false;
#endif

// The peers' names, as they appear in the table and in the JSON's "impl".
inline constexpr const char* std_par = "std::execution::par";
inline constexpr const char* tbb_peer = "tbb";
inline constexpr const char* ips4o_peer = "ips4o";
inline constexpr const char* boost_bis = "boost::block_indirect_sort";
inline constexpr const char* boost_pss = "boost::parallel_stable_sort";
inline constexpr const char* pdqsort_peer = "pdqsort";
inline constexpr const char* vqsort_peer = "vqsort (highway)";
inline constexpr const char* vqsort_halves = "vqsort halves + merge";  // on the peers' threads
inline constexpr const char* plain_lsd8 = "plain LSD radix (8-bit digits)";
inline constexpr const char* thrust_tbb = "thrust (tbb)";
inline constexpr const char* ak_defaults = "ak (defaults)";  // --vs-defaults: no autotune cache

// One implementation of a case: ak or a peer.
struct impl {
  std::string name;
  std::function<void()> prepare;  // untimed, before every run (restores inputs); may be empty
  std::function<void()> run;      // what is timed
  // Peers: after their first run, "" when the result agrees with ak's, else what differs.
  std::function<std::string()> check;
};

struct bench_case {
  std::string op;
  std::string dist;  // the key distribution, for ops that take one (`--dist`)
  dtype type{};
  std::int64_t n = 0;         // as asked for
  std::int64_t elements = 0;  // as run (a square matrix of n elements has floor(sqrt(n))^2)
  double bytes = 0;           // bytes counted per call (see the legend in bench.cpp)
  bool writes = false;        // compared with the copy bandwidth, else with the read bandwidth
  double input_bytes = 0;     // > 0: measure each call's peak RSS growth relative to this
  std::string note;           // shown under the table: what exactly runs
  impl ak;
  std::vector<impl> peers;
};

// Which ops a translation unit provides. build() allocates and fills the inputs; cases are
// built, run and dropped one at a time, so that only one case's memory is alive.
struct op_spec {
  std::string name;
  std::string group;  // for the plot script: reduce, elementwise, sort, sort_keys, dims, select,
                      // keyed, segmented
  std::vector<dtype> default_dtypes;
  std::function<bench_case(dtype, std::int64_t)> build;
  std::int64_t default_n = 10'000'000;  // without --n
  // Ops whose keys follow `--dist` build their cases with this instead, once per distribution.
  std::function<bench_case(dtype, std::int64_t, key_dist)> build_dist = nullptr;
  // Ops whose keys come in runs of equal keys build theirs with this instead, once per mean run
  // length of `--runs` (default_mean_run without it).
  std::function<bench_case(dtype, std::int64_t, std::int64_t)> build_runs = nullptr;
};
inline constexpr std::int64_t default_mean_run = 4;
void add_reduce_ops(std::vector<op_spec>& ops);       // bench_reduce.cpp
void add_elementwise_ops(std::vector<op_spec>& ops);  // bench_elementwise.cpp
void add_sort_ops(std::vector<op_spec>& ops);         // bench_sort.cpp
void add_custom_sort_ops(std::vector<op_spec>& ops);  // bench_sort_custom.cpp
void add_sort_key_ops(std::vector<op_spec>& ops);     // bench_sort_keys.cpp
void add_sort_row_ops(std::vector<op_spec>& ops);     // bench_sort_rows.cpp
void add_select_ops(std::vector<op_spec>& ops);       // bench_select.cpp
void add_keyed_ops(std::vector<op_spec>& ops);        // bench_keyed.cpp

// Without --n, sorts run on fewer elements than the rest, so that the default run takes about a
// minute on two cores.
inline constexpr std::int64_t sort_default_n = 1'000'000;

// The peers this build has (CMake drops one whose headers are missing).
std::vector<std::string> available_peers();
// The thread count every peer is given: ak::cpu::num_threads().
int peer_threads();

// ---- dtype dispatch ---------------------------------------------------------------------------

// The dtypes this build's bench is compiled for, as AK_BENCH_DTYPES names them ("" for all).
constexpr std::string_view bench_dtypes_built() {
#ifdef AK_BENCH_DTYPES
  return AK_BENCH_DTYPES;
#else
  return "";
#endif
}

// Whether this build's bench is compiled for dtype t: AK_BENCH_DTYPES (CMake's, comma-separated
// names) when it is given, else every numeric dtype.
constexpr bool bench_built_for(dtype t) {
#ifdef AK_BENCH_DTYPES
  const std::string_view list = AK_BENCH_DTYPES, name = name_of(t);
  for (std::size_t at = 0; at <= list.size();) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    if (list.substr(at, comma - at) == name) return true;
    at = comma + 1;
  }
  return false;
#else
  return t != dtype::bool_;
#endif
}

// f.template operator()<T>() for the C++ type of a numeric dtype (the types of
// AK_FOR_EACH_NUMERIC_TYPE that this build's bench is compiled for).
template <class F>
bench_case visit_numeric(dtype t, F&& f) {
#define AK_BENCH_VISIT(T)                                      \
  if constexpr (bench_built_for(dtype_of_v<T>)) {              \
    if (t == dtype_of_v<T>) return f.template operator()<T>(); \
  }
  AK_FOR_EACH_NUMERIC_TYPE(AK_BENCH_VISIT)
#undef AK_BENCH_VISIT
  if (t != dtype::bool_ && !bench_built_for(t))
    throw std::invalid_argument("ak bench: this build's bench is compiled for " +
                                std::string(bench_dtypes_built()) +
                                " alone (AK_BENCH_DTYPES), not " + std::string(name_of(t)) +
                                "; configure with -DAK_BENCH_DTYPES= for every dtype");
  throw std::invalid_argument("ak bench: no benchmarks for dtype " + std::string(name_of(t)));
}

// An op's build function: make.template operator()<T>(op, n) for the C++ type of the dtype.
template <class F>
std::function<bench_case(dtype, std::int64_t)> builder(const std::string& op, F make) {
  return [op, make](dtype t, std::int64_t n) {
    return visit_numeric(t, [&]<class T>() { return make.template operator()<T>(op, n); });
  };
}

// An op whose keys come in runs of equal keys: its cases built once per `--runs`, by
// make<T>(op, n, mean_run) for the dtype's T (op_spec::build_runs).
template <class F>
op_spec op_over_runs(const std::string& op, const std::string& group,
                     std::vector<dtype> default_dtypes, F make) {
  op_spec spec;
  spec.name = op;
  spec.group = group;
  spec.default_dtypes = std::move(default_dtypes);
  spec.build_runs = [op, make](dtype t, std::int64_t n, std::int64_t mean_run) {
    return visit_numeric(t,
                         [&]<class T>() { return make.template operator()<T>(op, n, mean_run); });
  };
  return spec;
}

// ---- buffers and inputs -----------------------------------------------------------------------

// Uninitialised memory shared by a case's closures; freed when the case is dropped.
template <class T>
std::shared_ptr<T[]> make_buffer(std::int64_t n) {
  return std::shared_ptr<T[]>(new T[static_cast<std::size_t>(n > 0 ? n : 1)]);
}

// p[i] = gen(i) in parallel.
template <class T, class G>
void parallel_fill(T* p, std::int64_t n, G gen) {
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n, 1 << 15), [&](const auto& r) {
    for (std::int64_t i = r.begin(); i < r.end(); ++i) p[i] = gen(i);
  });
}

template <class T>
void parallel_copy(T* dst, const T* src, std::int64_t n) {
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n, 1 << 16), [&](const auto& r) {
    std::memcpy(dst + r.begin(), src + r.begin(), static_cast<std::size_t>(r.size()) * sizeof(T));
  });
}

// Reduction inputs: small integers (-3..3 signed, 0..3 unsigned) so that sums and sums of
// squares do not overflow up to n = 2e8; floats as random_key.
template <class T>
T random_small(std::uint64_t h) noexcept {
  if constexpr (std::is_floating_point_v<T>)
    return random_key<T>(h);
  else if constexpr (std::is_signed_v<T>)
    return static_cast<T>(static_cast<int>(h % 7) - 3);
  else
    return static_cast<T>(h % 4);
}

template <class T>
void fill_keys(T* p, std::int64_t n, std::uint64_t seed, key_dist d = key_dist::uniform) {
  parallel_fill(p, n, [seed, d, n](std::int64_t i) {
    return dist_key<T>(d, i, n,
                       hash64(seed ^ (static_cast<std::uint64_t>(i) * 0x2545f4914f6cdd1dULL)));
  });
  if (d == key_dist::almost_sorted) swap_neighbours(p, n, seed);
}

template <class T>
void fill_small(T* p, std::int64_t n, std::uint64_t seed) {
  parallel_fill(p, n, [seed](std::int64_t i) {
    return random_small<T>(hash64(seed ^ (static_cast<std::uint64_t>(i) * 0x2545f4914f6cdd1dULL)));
  });
}

// The TBB form of a selection, as a user would write it (the selection and keyed ops' peers): a
// parallel_scan of the selected count, whose final pass calls write(i, rank, selected). Returns
// the count.
template <class Flag, class Write>
std::int64_t tbb_select(std::int64_t n, const Flag& flag, const Write& write) {
  using range = tbb::blocked_range<std::int64_t>;
  return tbb::parallel_scan(
      range(0, n, 1 << 14), std::int64_t{0},
      [&](const range& r, std::int64_t sum, bool final) {
        for (std::int64_t i = r.begin(); i < r.end(); ++i) {
          const bool s = flag(i);
          if (final) write(i, sum, s);
          sum += s ? 1 : 0;
        }
        return sum;
      },
      [](std::int64_t a, std::int64_t b) { return a + b; });
}

// ---- checks -----------------------------------------------------------------------------------

template <class T>
std::string text_of(T x) {
  std::ostringstream s;
  if constexpr (std::is_floating_point_v<T>) {
    s.precision(17);
    s << x;
  } else if constexpr (std::is_signed_v<T>) {
    s << static_cast<std::int64_t>(x);
  } else {
    s << static_cast<std::uint64_t>(x);
  }
  return s.str();
}

// How far apart two sums may be: relative to the sum of the magnitudes that went into them.
template <class T>
constexpr double sum_tolerance() {
  if constexpr (std::is_same_v<T, float>)
    return 1e-5;
  else if constexpr (std::is_same_v<T, double>)
    return 1e-12;
  else
    return 0.0;
}

// "" when a and b are equal (within tolerance * magnitude for floats).
template <class T>
std::string compare_value(const T& a, const T& b, double magnitude, std::string_view what) {
  bool ok;
  if constexpr (std::is_floating_point_v<T>)
    ok = std::abs(static_cast<double>(a) - static_cast<double>(b)) <=
         sum_tolerance<T>() * magnitude + 1e-30;
  else
    ok = a == b;
  if (ok) return "";
  return std::string(what) + ": ak " + text_of(a) + ", peer " + text_of(b);
}

// "" when the arrays are equal element by element; else the first difference. For floats,
// element i may differ by tolerance * magnitude(i).
template <class T, class M>
std::string compare_arrays(const T* a, const T* b, std::int64_t n, M magnitude) {
  for (std::int64_t i = 0; i < n; ++i) {
    std::string d = compare_value(a[i], b[i], magnitude(i), "");
    if (!d.empty()) return "first difference at [" + std::to_string(i) + "]" + d;
  }
  return "";
}
template <class T>
std::string compare_exact(const T* a, const T* b, std::int64_t n) {
  return compare_arrays(a, b, n, [](std::int64_t) { return 0.0; });
}

// The sum of |x| over the input, the scale of a float sum's rounding.
template <class T>
double sum_of_magnitudes(const T* p, std::int64_t n) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::int64_t>(0, n, 1 << 15), 0.0,
      [&](const auto& r, double s) {
        for (std::int64_t i = r.begin(); i < r.end(); ++i) s += std::abs(static_cast<double>(p[i]));
        return s;
      },
      [](double a, double b) { return a + b; });
}

}  // namespace ak::tool::bench
