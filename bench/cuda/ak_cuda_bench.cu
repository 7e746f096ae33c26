// ak_cuda_bench: ak on a CUDA device side by side with CUB, Thrust and a device-to-device copy
// of the same bytes (issue 5). Each (op, dtype, n) case runs ak and each peer in turn, rep by rep
// (ak, cub, thrust, copy, ak, cub, ...), so that clock and thermal drift hit them alike, and
// reports the median time of each and the median of the per-rep ratios peer / ak (> 1: ak is
// faster). ak's result is checked once per case against CUB's; a mismatch prints a FAIL line and
// makes the exit status non-zero.
//
//   ak_cuda_bench [--ops LIST] [--dtypes LIST] [--n LIST] [--reps N] [--max-case-s S] [--json FILE]
//
// ak is used through its public API only (ak::device("cuda:0"), ak::array, ak::sum, ...). Op and
// dtype names follow `ak bench`'s. This file holds the harness and the reductions, scans and
// elementwise ops; ak_cuda_bench_sorts.cu the sorts; bench_cuda.cuh what both use.
#include <thrust/execution_policy.h>
#include <thrust/logical.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_transform.cuh>
#include <cuda/std/functional>

#include <charconv>
#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "bench_cuda.cuh"

namespace akcb {
namespace {

// ---- the functors of the custom ops (host and device, as ak's kernels and the peers call them)

struct above_ten {  // any: never true on [0, 1), so every element is read
  __host__ __device__ bool operator()(float x) const { return x > 10.0f; }
};
struct below_ten {  // all: always true on [0, 1), so every element is read
  __host__ __device__ bool operator()(float x) const { return x < 10.0f; }
};
template <class Pred>
struct as_count {  // the CUB peer of any/all: how many satisfy the predicate
  Pred pred;
  __host__ __device__ i64 operator()(float x) const { return pred(x) ? 1 : 0; }
};
struct twice_plus_one {  // map
  __host__ __device__ float operator()(float x) const { return 2.0f * x + 1.0f; }
};

template <class T>
bench_case reduce_case(const std::string& dtype, i64 n) {
  bench_case c{"reduce", dtype, n, double(n) * sizeof(T)};
  auto in = make_buf<T>(n);
  fill(in->get(), n, 1, fill_kind::small);
  auto a = ak_copy_of(*in);
  auto ak_result = std::make_shared<T>();
  c.ak = {"ak", {}, [a, ak_result] { *ak_result = ak::sum(a->view()); }};

  auto out = make_buf<T>(1);
  std::size_t temp_bytes = 0;
  CK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in->get(), out->get(), static_cast<int>(n)));
  auto temp = make_buf<char>(static_cast<i64>(temp_bytes));
  c.peers.push_back(
      {"cub", {}, [=] {
         std::size_t b = temp_bytes;
         CK(cub::DeviceReduce::Sum(temp->get(), b, in->get(), out->get(), static_cast<int>(n)));
       }});
  thrust_cache cache;
  c.peers.push_back({"thrust", {}, [=]() mutable {
                       volatile T r =
                           thrust::reduce(thrust::cuda::par(cache), in->get(), in->get() + n, T(0));
                       (void)r;
                     }});
  add_copy(c, in);
  c.verify = [=] {
    // Integers exactly; float sums in another order may differ in the last bits (data >= 0).
    return compare_scalar("sum", *ak_result, to_host(out->get()), sizeof(T) == 4 ? 1e-5 : 1e-12);
  };
  c.note = "reduce: ak::sum; cub::DeviceReduce::Sum; thrust::reduce";
  return c;
}

template <class T>
bench_case accumulate_case(const std::string& dtype, i64 n) {
  bench_case c{"accumulate", dtype, n, 2.0 * double(n) * sizeof(T)};
  auto in = make_buf<T>(n);
  fill(in->get(), n, 2, fill_kind::small);
  auto a = ak_copy_of(*in);
  // ak's out-of-place scan allocates its result (from the device's pool) inside the timed call;
  // the previous result is freed before the clock starts.
  auto ak_out = std::make_shared<std::optional<ak::array<T>>>();
  c.ak = {"ak", [ak_out] { ak_out->reset(); },
          [a, ak_out] { ak_out->emplace(ak::cumsum(a->view())); }};

  auto out = make_buf<T>(n);
  std::size_t temp_bytes = 0;
  CK(cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, in->get(), out->get(),
                                   static_cast<int>(n)));
  auto temp = make_buf<char>(static_cast<i64>(temp_bytes));
  c.peers.push_back({"cub", {}, [=] {
                       std::size_t b = temp_bytes;
                       CK(cub::DeviceScan::InclusiveSum(temp->get(), b, in->get(), out->get(),
                                                        static_cast<int>(n)));
                     }});
  auto tout = make_buf<T>(n);
  thrust_cache cache;
  c.peers.push_back({"thrust", {}, [=]() mutable {
                       thrust::inclusive_scan(thrust::cuda::par(cache), in->get(), in->get() + n,
                                              tout->get());
                     }});
  add_copy(c, in);
  c.verify = [=] {
    // Float prefix sums up to n/2 in another order: differences grow with the running sum.
    const double rtol = std::is_floating_point_v<T> ? (sizeof(T) == 4 ? 2e-3 : 1e-9) : 0;
    return compare("cumsum", (*ak_out)->data(), out->get(), n, rtol, rtol);
  };
  c.note =
      "accumulate: ak::cumsum (out of place, its result allocated in the call); "
      "cub::DeviceScan::InclusiveSum; thrust::inclusive_scan";
  return c;
}

template <bool Any>
bench_case any_all_case(const std::string& dtype, i64 n) {
  using T = float;
  using Pred = std::conditional_t<Any, above_ten, below_ten>;
  bench_case c{Any ? "any" : "all", dtype, n, double(n) * sizeof(T)};
  auto in = make_buf<T>(n);
  fill(in->get(), n, 8, fill_kind::small);
  auto a = ak_copy_of(*in);
  auto ak_result = std::make_shared<bool>();
  c.ak = {"ak", {}, [a, ak_result] {
            *ak_result = Any ? ak::any(a->view(), Pred{}) : ak::all(a->view(), Pred{});
          }};

  // CUB has no any/all: a count of the elements that satisfy the predicate, compared on the host.
  auto count = make_buf<i64>(1);
  std::size_t temp_bytes = 0;
  CK(cub::DeviceReduce::TransformReduce(nullptr, temp_bytes, in->get(), count->get(),
                                        static_cast<int>(n), cuda::std::plus<i64>{},
                                        as_count<Pred>{}, i64{0}));
  auto temp = make_buf<char>(static_cast<i64>(temp_bytes));
  auto cub_result = std::make_shared<bool>();
  c.peers.push_back({"cub", {}, [=] {
                       std::size_t b = temp_bytes;
                       CK(cub::DeviceReduce::TransformReduce(
                           temp->get(), b, in->get(), count->get(), static_cast<int>(n),
                           cuda::std::plus<i64>{}, as_count<Pred>{}, i64{0}));
                       const i64 k = to_host(count->get());
                       *cub_result = Any ? k > 0 : k == n;
                     }});
  thrust_cache cache;
  c.peers.push_back(
      {"thrust", {}, [=]() mutable {
         volatile bool r =
             Any ? thrust::any_of(thrust::cuda::par(cache), in->get(), in->get() + n, Pred{})
                 : thrust::all_of(thrust::cuda::par(cache), in->get(), in->get() + n, Pred{});
         (void)r;
       }});
  add_copy(c, in);
  c.verify = [=] {
    const bool expected = !Any;  // the predicates are never (any) or always (all) true here
    if (*ak_result != expected || *cub_result != expected)
      return std::string(Any ? "any" : "all") + ": ak " + (*ak_result ? "true" : "false") +
             ", cub " + (*cub_result ? "true" : "false") + ", expected " +
             (expected ? "true" : "false");
    return std::string();
  };
  c.note =
      Any ? "any: ak::any(v, x > 10), never true (a full pass); cub::DeviceReduce::TransformReduce "
            "(a count); thrust::any_of"
          : "all: ak::all(v, x < 10), always true (a full pass); "
            "cub::DeviceReduce::TransformReduce "
            "(a count); thrust::all_of";
  return c;
}

bench_case map_case(const std::string& dtype, i64 n) {
  using T = float;
  bench_case c{"map", dtype, n, 2.0 * double(n) * sizeof(T)};
  auto in = make_buf<T>(n);
  fill(in->get(), n, 9, fill_kind::small);
  auto a = ak_copy_of(*in);
  auto ak_out = std::make_shared<ak::array<T>>(ak::shape{n}, ak_device());
  c.ak = {"ak", {}, [a, ak_out] { ak::map_into(ak_out->view(), twice_plus_one{}, a->view()); }};

  auto out = make_buf<T>(n);
  c.peers.push_back({"cub", {}, [=] {
                       CK(cub::DeviceTransform::Transform(in->get(), out->get(),
                                                          static_cast<int>(n), twice_plus_one{}));
                     }});
  auto tout = make_buf<T>(n);
  thrust_cache cache;
  c.peers.push_back({"thrust", {}, [=]() mutable {
                       thrust::transform(thrust::cuda::par(cache), in->get(), in->get() + n,
                                         tout->get(), twice_plus_one{});
                     }});
  add_copy(c, in);
  // 2x is exact, so 2x + 1 has one rounding with or without a fused multiply-add: exact match.
  c.verify = [=] { return compare("map", ak_out->data(), out->get(), n); };
  c.note = "map: ak::map_into(out, 2x + 1, in); cub::DeviceTransform::Transform; thrust::transform";
  return c;
}

// Every (op, dtype) of the program, in `ak bench`'s order.
std::vector<op_entry> all_ops() {
  std::vector<op_entry> ops{
      {"reduce", "float32", 4 * 3, reduce_case<float>},
      {"reduce", "float64", 8 * 3, reduce_case<double>},
      {"reduce", "int64", 8 * 3, reduce_case<i64>},
      {"any", "float32", 4 * 3, any_all_case<true>},
      {"all", "float32", 4 * 3, any_all_case<false>},
      {"map", "float32", 4 * 6, map_case},
      {"accumulate", "float32", 4 * 6, accumulate_case<float>},
      {"accumulate", "int64", 8 * 6, accumulate_case<i64>},
  };
  add_sort_ops(ops);
  return ops;
}

// ---- timing ---------------------------------------------------------------------------------

struct timer {
  cudaEvent_t start{}, stop{};
  timer() {
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&stop));
  }
  ~timer() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  // Seconds from an idle device to the end of the run. ak enqueues on its own stream, which this
  // program cannot name, so every implementation alike is bracketed by device-wide
  // synchronisations, and the events sit on the legacy default stream outside them.
  double time(const impl& m) {
    if (m.prepare) m.prepare();
    CK(cudaDeviceSynchronize());
    CK(cudaEventRecord(start, 0));
    m.run();
    CK(cudaDeviceSynchronize());
    CK(cudaEventRecord(stop, 0));
    CK(cudaEventSynchronize(stop));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, start, stop));
    return ms * 1e-3;
  }
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

struct impl_result {
  std::string name;
  std::vector<double> times, ratios;  // ratios: this peer's time / ak's, rep by rep
};

// ---- command line ---------------------------------------------------------------------------

struct options {
  std::vector<std::string> ops, dtypes;
  std::vector<i64> ns{i64{1} << 16, i64{1} << 20, i64{1} << 24, i64{1} << 28};
  int reps = 0;           // 0: 15, or 7 from 2^26 elements on
  double max_case_s = 6;  // bounds the default run (the GPU check gives it 240 s) if an op is slow
  std::string json;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

i64 parse_count(const std::string& s) {
  auto number = [&](std::string_view t) {
    i64 v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || p != t.data() + t.size() || v < 0)
      throw std::invalid_argument("not a size: '" + s + "' (use 2^k or a plain number)");
    return v;
  };
  const auto caret = s.find('^');
  if (caret == std::string::npos) return number(s);
  if (s.substr(0, caret) != "2") throw std::invalid_argument("not a size: '" + s + "' (use 2^k)");
  const i64 k = number(std::string_view(s).substr(caret + 1));
  if (k > 62) throw std::invalid_argument("too large: '" + s + "'");
  return i64{1} << k;
}

const char* usage =
    "usage: ak_cuda_bench [--ops LIST] [--dtypes LIST] [--n LIST] [--reps N] [--max-case-s S]\n"
    "                     [--json FILE]\n"
    "  --ops      reduce,any,all,map,accumulate,sort,sort_custom,sortperm,sort_by_key (default "
    "all)\n"
    "  --dtypes   keep only these dtypes of each op (reduce: float32,float64,int64; accumulate:\n"
    "             float32,int64; sort: uint32,uint64,float64; sort_custom: uint64; sortperm:\n"
    "             float32; sort_by_key: uint32; any, all, map: float32)\n"
    "  --n        sizes, 2^k or plain numbers, 1 to 2^30 (default 2^16,2^20,2^24,2^28)\n"
    "  --reps     timed runs of each implementation per case (default 15; 7 from 2^26 on)\n"
    "  --max-case-s  stop a case's runs after this many seconds, once 3 are done (1 when a\n"
    "             single round takes longer; default 6)\n"
    "  --json     also write the medians as a JSON list of {op, dtype, n, impl, median_s}\n";

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    const auto eq = arg.find('=');
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    } else if (arg != "--help" && arg != "-h") {
      if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
      value = argv[++i];
    }
    if (arg == "--help" || arg == "-h") {
      std::cout << usage;
      std::exit(0);
    } else if (arg == "--ops") {
      o.ops = split(value);
    } else if (arg == "--dtypes") {
      o.dtypes = split(value);
    } else if (arg == "--n") {
      o.ns.clear();
      for (const auto& s : split(value)) {
        const i64 n = parse_count(s);
        if (n < 1 || n > (i64{1} << 30))
          throw std::invalid_argument("--n: " + s + " is outside 1..2^30");
        o.ns.push_back(n);
      }
    } else if (arg == "--reps") {
      o.reps = static_cast<int>(parse_count(value));
      if (o.reps < 1) throw std::invalid_argument("--reps must be at least 1");
    } else if (arg == "--max-case-s") {
      o.max_case_s = std::stod(value);
    } else if (arg == "--json") {
      o.json = value;
    } else {
      throw std::invalid_argument("unknown option " + arg);
    }
  }
  return o;
}

// ---- output ---------------------------------------------------------------------------------

std::string fixed(double x, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << x;
  return s.str();
}

std::string n_text(i64 n) {
  if (n > 1 && (n & (n - 1)) == 0) {
    int k = 0;
    while ((i64{1} << k) < n) ++k;
    return "2^" + std::to_string(k);
  }
  return std::to_string(n);
}

void print_header() {
  std::cout << std::left << std::setw(12) << "op" << std::setw(8) << "dtype" << std::setw(7) << "n"
            << std::right << std::setw(11) << "ak ms" << std::setw(11) << "cub ms" << std::setw(8)
            << "cub/ak" << std::setw(11) << "thrust ms" << std::setw(8) << "thr/ak" << std::setw(10)
            << "copy ms" << std::setw(8) << "%copy" << std::setw(6) << "runs"
            << "\n";
}

void print_row(const bench_case& c, const impl_result& ak_r,
               const std::vector<impl_result>& peers) {
  const double ak_t = median(ak_r.times);
  std::cout << std::left << std::setw(12) << c.op << std::setw(8) << c.dtype << std::setw(7)
            << n_text(c.n) << std::right << std::setw(11) << fixed(ak_t * 1e3, 4);
  auto peer = [&](const std::string& name) -> const impl_result* {
    for (const auto& p : peers)
      if (p.name == name) return &p;
    return nullptr;
  };
  for (const char* name : {"cub", "thrust"}) {
    if (const impl_result* p = peer(name))
      std::cout << std::setw(11) << fixed(median(p->times) * 1e3, 4) << std::setw(8)
                << fixed(median(p->ratios), 2);
    else
      std::cout << std::setw(11) << "-" << std::setw(8) << "-";
  }
  // %copy: ak's bandwidth on the bytes the op must move, over the bandwidth of the device copy
  // (which reads and writes n elements).
  const impl_result* cp = peer("copy");
  if (cp && c.bytes > 0) {
    const double copy_t = median(cp->times);
    const double pct = 100.0 * (c.bytes / ak_t) / (c.copy_bytes / copy_t);
    std::cout << std::setw(10) << fixed(copy_t * 1e3, 4) << std::setw(7) << fixed(pct, 0) << "%";
  } else {
    std::cout << std::setw(10) << "-" << std::setw(8) << "-";
  }
  std::cout << std::setw(6) << ak_r.times.size() << std::endl;
}

}  // namespace
}  // namespace akcb

int main(int argc, char** argv) {
  using namespace akcb;
  options opt;
  try {
    opt = parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "ak_cuda_bench: " << e.what() << "\n" << usage;
    return 2;
  }

  // Which (op, dtype) pairs run.
  std::vector<op_entry> chosen;
  const std::vector<op_entry> ops = all_ops();
  auto listed = [](const std::vector<std::string>& list, const std::string& s) {
    return list.empty() || std::find(list.begin(), list.end(), s) != list.end();
  };
  for (const auto& name : opt.ops)
    if (std::none_of(ops.begin(), ops.end(), [&](const op_entry& x) { return x.op == name; })) {
      std::cerr << "ak_cuda_bench: unknown op '" << name << "'\n" << usage;
      return 2;
    }
  for (const auto& x : ops)
    if (listed(opt.ops, x.op) && listed(opt.dtypes, x.dtype)) chosen.push_back(x);
  if (chosen.empty()) {
    std::cerr << "ak_cuda_bench: no op has one of the dtypes asked for\n" << usage;
    return 2;
  }

  // No device (or no driver): nothing to measure, and that is not an error of this program.
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    std::cout << "ak_cuda_bench: "
              << (e != cudaSuccess
                      ? std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")"
                      : std::string("no devices"))
              << "\nno CUDA device: benchmark skipped" << std::endl;
    return 0;
  }

  cudaDeviceProp prop{};
  std::size_t free_bytes = 0, total_bytes = 0;
  bool failed = false;
  try {
    CK(cudaSetDevice(0));
    CK(cudaGetDeviceProperties(&prop, 0));
    CK(cudaMemGetInfo(&free_bytes, &total_bytes));
    std::cout << "device 0: " << prop.name << ", sm_" << prop.major << prop.minor << ", "
              << fixed(double(total_bytes) / (1 << 30), 1) << " GiB" << std::endl;
    std::cout << "ak: " << ak_device().name() << " (backend " << ak_device().backend() << ")"
              << std::endl;
  } catch (const std::exception& x) {
    std::cout << "FAIL: cannot open the device for ak: " << x.what() << std::endl;
    return 1;
  }

  std::cout << "ratios are medians of per-run pairs peer/ak (> 1: ak faster); %copy: ak's GB/s on "
               "the bytes the op must move, over a device-to-device copy's\n\n";
  print_header();

  nlohmann::json rows = nlohmann::json::array();
  std::vector<std::string> notes;
  timer tm;
  bool broken = false;
  for (const auto& entry : chosen) {
    for (const i64 n : opt.ns) {
      if (broken) break;
      CK(cudaMemGetInfo(&free_bytes, &total_bytes));
      const double need = entry.bytes_per_element * double(n) + (256 << 20);
      if (need > double(free_bytes)) {
        std::cout << std::left << std::setw(12) << entry.op << std::setw(8) << entry.dtype
                  << std::setw(7) << n_text(n) << "  skipped: needs about "
                  << fixed(need / (1 << 30), 1) << " GiB, "
                  << fixed(double(free_bytes) / (1 << 30), 1) << " GiB free" << std::endl;
        continue;
      }
      try {
        bench_case c = entry.build(entry.dtype, n);
        CK(cudaDeviceSynchronize());
        if (std::find(notes.begin(), notes.end(), c.note) == notes.end()) notes.push_back(c.note);
        // One untimed run of each (warm-up: module loading, pools), then ak's result is checked.
        double warm = tm.time(c.ak);
        for (const auto& p : c.peers) warm += tm.time(p);
        if (const std::string diff = c.verify(); !diff.empty()) {
          std::cout << "FAIL " << c.op << " " << c.dtype << " n=" << n_text(n) << ": " << diff
                    << std::endl;
          failed = true;
        }
        impl_result ak_r{"ak"};
        std::vector<impl_result> peer_r;
        for (const auto& p : c.peers) peer_r.push_back({p.name});
        const int reps = opt.reps > 0 ? opt.reps : (n >= (i64{1} << 26) ? 7 : 15);
        const auto began = std::chrono::steady_clock::now();
        for (int r = 0; r < reps; ++r) {
          const double t_ak = tm.time(c.ak);
          ak_r.times.push_back(t_ak);
          for (std::size_t k = 0; k < c.peers.size(); ++k) {
            const double t = tm.time(c.peers[k]);
            peer_r[k].times.push_back(t);
            peer_r[k].ratios.push_back(t / t_ak);
          }
          const double spent =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
          // At least 3 runs, unless one round alone takes longer than the case's budget.
          const int at_least = warm > opt.max_case_s ? 1 : 3;
          if (r + 1 >= at_least && spent > opt.max_case_s) break;
        }
        print_row(c, ak_r, peer_r);
        rows.push_back({{"op", c.op},
                        {"dtype", c.dtype},
                        {"n", n},
                        {"impl", "ak"},
                        {"median_s", median(ak_r.times)},
                        {"runs", ak_r.times.size()}});
        for (const auto& p : peer_r)
          rows.push_back({{"op", c.op},
                          {"dtype", c.dtype},
                          {"n", n},
                          {"impl", p.name},
                          {"median_s", median(p.times)},
                          {"runs", p.times.size()},
                          {"ratio_to_ak", median(p.ratios)}});
      } catch (const std::exception& x) {
        std::cout << "FAIL " << entry.op << " " << entry.dtype << " n=" << n_text(n) << ": "
                  << x.what() << std::endl;
        failed = true;
        // A sticky CUDA error (an illegal address, a trap) leaves the context unusable.
        const cudaError_t s = cudaDeviceSynchronize();
        if (s != cudaSuccess) {
          std::cout << "FAIL: the CUDA context is broken (" << cudaGetErrorName(s) << "); stopping"
                    << std::endl;
          broken = true;
        }
      }
    }
  }

  std::cout << "\n";
  for (const auto& note : notes) std::cout << "  " << note << "\n";
  if (!opt.json.empty()) {
    std::ofstream f(opt.json);
    f << rows.dump(1) << "\n";
    if (!f) {
      std::cout << "FAIL: cannot write " << opt.json << std::endl;
      failed = true;
    } else {
      std::cout << "wrote " << opt.json << "\n";
    }
  }
  if (failed) std::cout << "FAIL: at least one case failed (see the FAIL lines above)" << std::endl;
  return failed ? 1 : 0;
}
