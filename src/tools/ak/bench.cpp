// `ak bench`: ak and its peers side by side in one process, with the memory bandwidth measured
// in the same run. Each (op, dtype, n) case runs ak and each peer in alternation (ak, peer, ak,
// peer, ...), so that the machine's drift hits both alike; it reports the median time of each,
// the median of the per-pair ratios peer/ak (> 1: ak is faster), GB/s of the bytes the op must
// move, and that as a fraction of the measured bandwidth. Every peer's result is checked once
// against ak's; a mismatch fails the command.
#include <tbb/global_control.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <fstream>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "ak/ak.hpp"
#include "ak/backends/cpu/scratch.hpp"
#include "bench.hpp"
#include "bench_cli.hpp"
#include "cache_switch.hpp"
#include "median.hpp"

namespace ak::tool {

namespace bench {

int peer_threads() {
  return static_cast<int>(ak::cpu::num_threads());
}

std::vector<std::string> available_peers() {
  std::vector<std::string> p;
  if (have_std_par) p.emplace_back(std_par);
  p.emplace_back(tbb_peer);
#ifdef AK_BENCH_HAVE_IPS4O
  p.emplace_back(ips4o_peer);
#endif
#ifdef AK_BENCH_HAVE_BOOST_SORT
  p.emplace_back(boost_bis);
  p.emplace_back(boost_pss);
#endif
#ifdef AK_BENCH_HAVE_PDQSORT
  p.emplace_back(pdqsort_peer);
#endif
#ifdef AK_BENCH_HAVE_VQSORT
  p.emplace_back(vqsort_peer);
  p.emplace_back(vqsort_halves);
#endif
#ifdef AK_BENCH_HAVE_THRUST
  p.emplace_back(thrust_tbb);
#endif
  return p;
}

namespace {

using bench_clock = std::chrono::steady_clock;
using json = nlohmann::json;

// ---- repetitions ------------------------------------------------------------------------------

// Pairs per (case, peer): at least min_pairs, then more until the case has used budget_s or
// reached max_pairs.
constexpr int min_pairs = 5;
constexpr int max_pairs = 400;
constexpr double budget_s = 0.25;

double seconds_since(bench_clock::time_point t0) {
  return std::chrono::duration<double>(bench_clock::now() - t0).count();
}

double timed_run(const impl& f) {
  if (f.prepare) f.prepare();
  const auto t0 = bench_clock::now();
  f.run();
  return seconds_since(t0);
}

// ---- peak memory ------------------------------------------------------------------------------

// A field of /proc/self/status in bytes ("VmRSS", "VmHWM"), or -1.
std::int64_t status_bytes(std::string_view field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, field.size(), field) == 0 && line.size() > field.size() &&
        line[field.size()] == ':')
      return std::stoll(line.substr(field.size() + 1)) * 1024;
  return -1;
}

// Resets the peak RSS (VmHWM) to the current RSS (Linux 4.0 and later).
bool reset_peak_rss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

// Runs f once and returns how far its peak RSS rose above the RSS before it, in bytes. Memory
// that earlier calls freed but that stays resident (ak's kept host blocks, malloc's free
// lists) is given back first, so that the call's allocations show as a first call's do.
std::optional<double> run_measuring_peak(const impl& f) {
  if (f.prepare) f.prepare();
  ak::release_cached_memory();
#ifdef __GLIBC__
  // Freed heap memory stays resident and would be reused without touching new pages.
  malloc_trim(0);
#endif
  if (!reset_peak_rss()) {
    f.run();
    return std::nullopt;
  }
  const std::int64_t before = status_bytes("VmRSS");
  f.run();
  const std::int64_t peak = status_bytes("VmHWM");
  if (before < 0 || peak < 0) return std::nullopt;
  return static_cast<double>(std::max<std::int64_t>(0, peak - before));
}

// ---- memory bandwidth -------------------------------------------------------------------------

struct bandwidth {
  double read_gbs = 0;  // bytes read per second, / 1e9
  double copy_gbs = 0;  // bytes read + bytes written per second, / 1e9
  std::int64_t buffer_bytes = 0;
};

// A sum with eight independent accumulators, so that the loads, not the adds, set the pace.
std::uint64_t sum_words(const std::uint64_t* p, std::int64_t n) {
  std::uint64_t s[8] = {};
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; ++k) s[k] += p[i + k];
  for (; i < n; ++i) s[0] += p[i];
  std::uint64_t r = 0;
  for (std::uint64_t v : s) r += v;
  return r;
}

// f(slice, begin, end) on `threads` equal slices of [0, n), one per thread.
template <class F>
void on_slices(std::int64_t n, int threads, F f) {
  tbb::parallel_for(
      tbb::blocked_range<int>(0, threads, 1),
      [&](const tbb::blocked_range<int>& r) {
        for (int t = r.begin(); t < r.end(); ++t) f(t, n * t / threads, n * (t + 1) / threads);
      },
      tbb::static_partitioner{});
}

// Read and copy bandwidth over two buffers kept for the whole run, so that it can be measured
// again right before each case: this machine drifts (the same copy at 20 to 37 GB/s minutes
// apart), and an op's %bw is only meaningful against the bandwidth of the same moment.
class bandwidth_meter {
 public:
  explicit bandwidth_meter(int threads) : threads_(threads) {
    // Several times the last-level cache, so that the caches hold a small part of it.
    const std::int64_t l3 = device("cpu").info().l3_cache_bytes;
    const std::int64_t bytes =
        std::clamp<std::int64_t>(8 * l3, std::int64_t{256} << 20, std::int64_t{1} << 30);
    words_ = bytes / 8;
    src_ = make_buffer<std::uint64_t>(words_);
    dst_ = make_buffer<std::uint64_t>(words_);
    parallel_fill(src_.get(), words_, [](std::int64_t i) { return static_cast<std::uint64_t>(i); });
    parallel_fill(dst_.get(), words_, [](std::int64_t) { return std::uint64_t{0}; });
    partial_.resize(static_cast<std::size_t>(threads));
  }

  // One read (copy) of the buffers, as GB/s: the probe that alternates with ak in each case.
  double read_gbs() { return static_cast<double>(words_ * 8) / read() / 1e9; }
  double copy_gbs() { return 2.0 * static_cast<double>(words_ * 8) / copy() / 1e9; }

  // The medians of `reps` reads and copies, after one of each untimed.
  bandwidth measure(int reps) {
    read();
    copy();
    std::vector<double> r, c;
    for (int i = 0; i < reps; ++i) {
      r.push_back(read());
      c.push_back(copy());
    }
    const double b = static_cast<double>(words_ * 8);
    return {b / median(r) / 1e9, 2 * b / median(c) / 1e9, words_ * 8};
  }

 private:
  double read() {
    const auto t0 = bench_clock::now();
    on_slices(words_, threads_, [&](int t, std::int64_t b, std::int64_t e) {
      partial_[static_cast<std::size_t>(t)] = sum_words(src_.get() + b, e - b);
    });
    const double t = seconds_since(t0);
    for (std::uint64_t v : partial_) sink_ = sink_ + v;
    return t;
  }
  double copy() {
    const auto t0 = bench_clock::now();
    on_slices(words_, threads_, [&](int, std::int64_t b, std::int64_t e) {
      std::memcpy(dst_.get() + b, src_.get() + b, static_cast<std::size_t>(e - b) * 8);
    });
    return seconds_since(t0);
  }

  int threads_;
  std::int64_t words_ = 0;
  std::shared_ptr<std::uint64_t[]> src_, dst_;
  std::vector<std::uint64_t> partial_;
  volatile std::uint64_t sink_ = 0;
};

// ---- one case ---------------------------------------------------------------------------------

struct impl_result {
  std::string name;
  std::vector<double> times;
  std::vector<double> ratios;  // peers: this run's time / the paired ak run's time
  std::optional<double> peak_bytes;
  std::string mismatch;  // peers: what differs from ak's result
};

struct case_result {
  std::string op, dist, group, note;
  dtype type{};
  std::int64_t n = 0, elements = 0;
  double bytes = 0, input_bytes = 0;
  bool writes = false;
  impl_result ak;
  std::vector<impl_result> peers;
  // The bandwidth probe (a read, or a copy for ops that write) alternated with ak: each pair's
  // ak GB/s over the probe's, and the probes' GB/s.
  std::vector<double> bw_fractions, probe_gbs;
};

// The case as the table names it: the op, and its input's variant where `--dist` or `--runs` named
// one.
std::string case_label(const case_result& c) {
  return c.dist.empty() ? c.op : c.op + " " + c.dist;
}

case_result run_case(bench_case& c, bandwidth_meter& meter) {
  case_result r;
  r.op = c.op;
  r.dist = c.dist;
  r.note = c.note;
  r.type = c.type;
  r.n = c.n;
  r.elements = c.elements;
  r.bytes = c.bytes;
  r.input_bytes = c.input_bytes;
  r.writes = c.writes;
  r.ak.name = "ak";
  const bool peak = c.input_bytes > 0;
  // First round, untimed: warms up every impl, checks each peer against ak, and measures the
  // peak memory of sorts.
  if (peak)
    r.ak.peak_bytes = run_measuring_peak(c.ak);
  else
    timed_run(c.ak);
  for (const impl& p : c.peers) {
    impl_result pr;
    pr.name = p.name;
    if (peak)
      pr.peak_bytes = run_measuring_peak(p);
    else
      timed_run(p);
    if (p.check) pr.mismatch = p.check();
    r.peers.push_back(std::move(pr));
  }
  // Then ak and each peer in alternation.
  for (std::size_t k = 0; k < c.peers.size(); ++k) {
    const auto t0 = bench_clock::now();
    for (int pairs = 0; pairs < max_pairs && (pairs < min_pairs || seconds_since(t0) < budget_s);
         ++pairs) {
      const double a = timed_run(c.ak);
      const double b = timed_run(c.peers[k]);
      r.ak.times.push_back(a);
      r.peers[k].times.push_back(b);
      r.peers[k].ratios.push_back(b / a);
    }
  }
  // And ak with the bandwidth probe, so that %bw compares ak with the bandwidth of the same
  // moments (this machine drifts by 2x within minutes). The probe streams 1 GiB, so ak's runs
  // here start from cold caches: %bw is a memory-bound figure even where the data would fit.
  {
    const auto t0 = bench_clock::now();
    for (int pairs = 0; pairs < max_pairs && (pairs < min_pairs || seconds_since(t0) < budget_s);
         ++pairs) {
      const double a = timed_run(c.ak);
      const double g = c.writes ? meter.copy_gbs() : meter.read_gbs();
      // The probe leaves the caches cold for ak's next run: these times count only when there
      // is no peer to time ak beside.
      if (c.peers.empty()) r.ak.times.push_back(a);
      r.probe_gbs.push_back(g);
      r.bw_fractions.push_back(c.bytes / a / 1e9 / g);
    }
  }
  return r;
}

// ---- output -----------------------------------------------------------------------------------

std::string size_text(std::int64_t n) {
  // 10000000 -> 1e7, 20000000 -> 2e7; other sizes as they are.
  if (n >= 1000) {
    std::int64_t m = n;
    int e = 0;
    while (m % 10 == 0) m /= 10, ++e;
    if (m < 10) return std::to_string(m) + "e" + std::to_string(e);
  }
  return std::to_string(n);
}

std::string time_text(double s) {
  std::ostringstream o;
  o << std::fixed;
  if (s < 1e-3)
    o << std::setprecision(1) << s * 1e6 << " us";
  else if (s < 1)
    o << std::setprecision(2) << s * 1e3 << " ms";
  else
    o << std::setprecision(3) << s << " s";
  return o.str();
}

std::string fixed_text(double v, int digits) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(digits) << v;
  return o.str();
}

// w_op: "accumulate_by_key runs 1e6" and a space; a longer label pushes its row's columns over.
constexpr int w_op = 28, w_dtype = 8, w_n = 9, w_impl = 29, w_time = 11, w_ratio = 8, w_gbs = 7,
              w_bw = 6, w_runs = 6;

void print_header() {
  std::cout << std::left << std::setw(w_op) << "op" << std::setw(w_dtype) << "dtype"
            << std::setw(w_n) << "n" << std::setw(w_impl) << "impl" << std::right
            << std::setw(w_time) << "median" << std::setw(w_ratio) << "vs ak" << std::setw(w_gbs)
            << "GB/s" << std::setw(w_bw) << "%bw" << std::setw(w_runs) << "runs"
            << "\n";
}

// An impl's GB/s over the bandwidth: for ak the median of its pairs with the probe, for a peer
// its median GB/s over the probes' median.
double bw_fraction(const case_result& c, const impl_result& r, bool is_ak) {
  if (is_ak) return median(c.bw_fractions);
  return c.bytes / median(r.times) / 1e9 / median(c.probe_gbs);
}

void print_row(const case_result& c, const impl_result& r, bool is_ak) {
  const double t = median(r.times);
  const double gbs = c.bytes / t / 1e9;
  const double frac = bw_fraction(c, r, is_ak);
  std::cout << std::left << std::setw(w_op - 1) << case_label(c) << ' ' << std::setw(w_dtype)
            << name_of(c.type) << std::setw(w_n) << size_text(c.n) << std::setw(w_impl) << r.name
            << std::right << std::setw(w_time) << time_text(t) << std::setw(w_ratio)
            << (is_ak ? std::string("-") : fixed_text(median(r.ratios), 2) + "x")
            << std::setw(w_gbs) << fixed_text(gbs, 1) << std::setw(w_bw - 1)
            << fixed_text(100 * frac, 0) << "%" << std::setw(w_runs) << r.times.size();
  if (!r.mismatch.empty()) std::cout << "  MISMATCH";
  std::cout << "\n";
}

json row_json(const case_result& c, const impl_result& r, bool is_ak) {
  const double t = median(r.times);
  const double gbs = c.bytes / t / 1e9;
  json j = {{"op", c.op},
            {"dtype", std::string(name_of(c.type))},
            {"n", c.n},
            {"impl", r.name},
            {"median_s", t},
            {"gb_s", gbs},
            {"bw_fraction", bw_fraction(c, r, is_ak)},
            {"bw_compared_with", c.writes ? "copy" : "read"},
            {"bw_gb_s", median(c.probe_gbs)},
            {"bytes", c.bytes},
            {"elements", c.elements},
            {"group", c.group},
            {"runs", r.times.size()},
            {"threads", peer_threads()}};
  if (!is_ak) {
    j["ratio"] = median(r.ratios);
    j["check"] = r.mismatch.empty() ? "ok" : "mismatch: " + r.mismatch;
  }
  if (r.peak_bytes && c.input_bytes > 0) j["peak_rss_ratio"] = *r.peak_bytes / c.input_bytes;
  if (is_ak) j["host_cache_limit_bytes"] = host_cache_limit();  // AK_MEMORY_CACHE
  if (!c.dist.empty()) j["dist"] = c.dist;
  return j;
}

std::string mib_text(double bytes) {
  return fixed_text(bytes / (1 << 20), bytes < (10 << 20) ? 1 : 0) + " MiB";
}

// ---- arguments --------------------------------------------------------------------------------

std::vector<op_spec> all_ops() {
  std::vector<op_spec> ops;
  add_reduce_ops(ops);
  add_elementwise_ops(ops);
  add_sort_ops(ops);
  add_custom_sort_ops(ops);
  add_sort_key_ops(ops);
  add_sort_row_ops(ops);
  add_select_ops(ops);
  add_keyed_ops(ops);
  // In the order of the table, the one list of op names (bench_cli.cpp), which must name each.
  const std::vector<std::string>& order = bench_op_names();
  for (const op_spec& o : ops)
    if (std::find(order.begin(), order.end(), o.name) == order.end())
      throw std::logic_error("ak bench: the op '" + o.name + "' is missing from bench_op_names()");
  std::sort(ops.begin(), ops.end(), [&](const op_spec& a, const op_spec& b) {
    return std::find(order.begin(), order.end(), a.name) <
           std::find(order.begin(), order.end(), b.name);
  });
  return ops;
}

// One case of an op at a dtype and size: how to build it, and its label in the table and the JSON
// rows ("exponential", "runs 1e6"; empty for the op's plain case).
struct case_variant {
  std::function<bench_case()> build;
  std::string label;
};

// The cases of spec at (t, n): one per `--dist` for the ops whose keys follow it, one per `--runs`
// for the ops whose keys come in runs, else the op's one case. Labelled where the option was given
// (a run without it shows its cases as before).
std::vector<case_variant> variants(const op_spec& spec, dtype t, std::int64_t n,
                                   const bench_options& o) {
  std::vector<case_variant> out;
  if (spec.build_dist) {
    for (const std::string& d : o.dists)
      out.push_back(
          {[&spec, t, n, k = *parse_key_dist(d)] { return spec.build_dist(t, n, k); }, d});
    if (o.dists.empty())
      out.push_back({[&spec, t, n] { return spec.build_dist(t, n, key_dist::uniform); }, ""});
  } else if (spec.build_runs) {
    for (const std::string& m : o.runs)
      out.push_back(
          {[&spec, t, n, run = *parse_bench_size(m)] { return spec.build_runs(t, n, run); },
           "runs " + m});
    if (o.runs.empty())
      out.push_back({[&spec, t, n] { return spec.build_runs(t, n, default_mean_run); }, ""});
  } else {
    out.push_back({[&spec, t, n] { return spec.build(t, n); }, ""});
  }
  return out;
}

}  // namespace

}  // namespace bench

using namespace bench;

int run_bench(const bench_options& o) {
  const std::vector<op_spec> ops = all_ops();
  // Which ops, dtypes and sizes.
  std::vector<const op_spec*> chosen;
  const std::vector<std::string> default_ops{"reduce", "mapreduce", "map", "accumulate", "sort"};
  const std::vector<std::string>& names = o.ops.empty() ? default_ops : o.ops;
  // `--ops all` alone is every op; in a list, `all` is the op ak::all.
  const bool all = names.size() == 1 && names[0] == "all";
  for (const auto& spec : ops)
    if (all || std::find(names.begin(), names.end(), spec.name) != names.end())
      chosen.push_back(&spec);
  std::vector<dtype> dtypes;
  for (const auto& d : o.dtypes) dtypes.push_back(*parse_dtype(d));
  std::vector<std::int64_t> sizes;
  for (const auto& s : o.n) sizes.push_back(*parse_bench_size(s));
  // Each op's dtypes, checked against what this build's bench is compiled for (AK_BENCH_DTYPES)
  // before anything runs or is written.
  std::map<const op_spec*, std::vector<dtype>> op_dtypes;
  for (const op_spec* spec : chosen) {
    std::vector<dtype>& ts = op_dtypes[spec];
    if (!dtypes.empty()) {
      ts = dtypes;
      for (dtype t : ts)
        if (!bench_built_for(t)) {
          std::cerr << "ak bench: this build's bench is compiled for " << bench_dtypes_built()
                    << " alone (AK_BENCH_DTYPES), not " << name_of(t)
                    << "; configure with -DAK_BENCH_DTYPES= for every dtype\n";
          return 1;
        }
    } else {
      for (dtype t : spec->default_dtypes)
        if (bench_built_for(t)) ts.push_back(t);
      if (ts.empty()) {
        std::cerr << "ak bench: none of " << spec->name << "'s default dtypes is in this build's "
                  << "bench (AK_BENCH_DTYPES=" << bench_dtypes_built() << "); pass --dtypes\n";
        return 1;
      }
    }
  }

  std::ofstream json_out;
  if (!o.json.empty()) {
    json_out.open(o.json);
    if (!json_out) {
      std::cerr << "ak bench: cannot write " << o.json << "\n";
      return 1;
    }
  }

  const int threads = peer_threads();
  // Every TBB-based impl (ak's cpu backend, std::execution::par, tbb) at ak's thread count.
  tbb::global_control cap(tbb::global_control::max_allowed_parallelism,
                          static_cast<std::size_t>(threads));
  std::cout << "ak bench: ak " << version_string() << " on " << device("cpu").info().description
            << ", " << threads << " threads (ak::cpu::num_threads; every peer gets as many, "
            << "pdqsort is sequential)\npeers:";
  for (const auto& p : available_peers()) std::cout << " " << p;
  std::cout << "\n" << std::flush;

  bandwidth_meter meter(threads);
  const bandwidth bw = meter.measure(9);
  std::cout << "memory bandwidth, measured now on " << threads << " threads over "
            << mib_text(static_cast<double>(bw.buffer_bytes)) << ": read "
            << fixed_text(bw.read_gbs, 1) << " GB/s (a sum, 8 accumulators per thread), copy "
            << fixed_text(bw.copy_gbs, 1) << " GB/s (memcpy; bytes read + bytes written)\n\n";
  print_header();

  std::optional<cache_switch> defaults;
  if (o.vs_defaults) {
    defaults.emplace();
    std::cout << "autotune cache: " << tuning_cache_path(device("cpu")) << "\n";
  }
  std::vector<case_result> results;
  json rows = json::array();
  // Each case's probe bandwidth (read, or copy for ops that write), per (n, dtype).
  std::map<std::pair<std::int64_t, dtype>, std::vector<bandwidth>> seen;
  std::vector<std::string> mismatches;
  for (const op_spec* spec : chosen) {
    for (dtype t : op_dtypes[spec]) {
      for (std::int64_t n : sizes.empty() ? std::vector<std::int64_t>{spec->default_n} : sizes)
        for (const case_variant& v : variants(*spec, t, n, o)) {
          case_result r;
          {
            bench_case c = v.build();
            c.dist = v.label;
            c.type = t;
            c.n = n;
            if (defaults) {
              // ak as tuned and ak with the backend's defaults, alternating like any peer: each
              // switches the cache on or off before its (untimed) preparation, and after a switch
              // runs once untimed, so that the timed run does not pay for the reread of the
              // tuning files (without that, sub-millisecond calls that ran right after rereading
              // the cache file measured 8-14% slower here).
              auto with_cache = [&switcher = *defaults, p = c.ak.prepare, r = c.ak.run](bool on) {
                return [&switcher, p, r, on] {
                  if (switcher.use_cache(on)) {
                    if (p) p();
                    r();
                  }
                  if (p) p();
                };
              };
              impl d = c.ak;
              d.name = ak_defaults;
              d.prepare = with_cache(false);
              d.check = nullptr;
              c.ak.prepare = with_cache(true);
              c.peers.insert(c.peers.begin(), std::move(d));
            }
            r = run_case(c, meter);
          }  // the case's memory goes here
          r.group = spec->group;
          seen[{n, t}].push_back(r.writes ? bandwidth{0, median(r.probe_gbs), 0}
                                          : bandwidth{median(r.probe_gbs), 0, 0});
          print_row(r, r.ak, true);
          rows.push_back(row_json(r, r.ak, true));
          for (const auto& p : r.peers) {
            print_row(r, p, false);
            rows.push_back(row_json(r, p, false));
            if (!p.mismatch.empty()) {
              std::string m = case_label(r) + " " + std::string(name_of(t)) + " n=" + size_text(n) +
                              " " + p.name + ": " + p.mismatch;
              std::cerr << "ak bench: MISMATCH " << m << "\n";
              mismatches.push_back(std::move(m));
            }
          }
          std::cout << std::flush;
          results.push_back(std::move(r));
        }
    }
  }

  // The bandwidth as times for each (n, dtype) of the run: the medians of what was measured
  // before its cases.
  for (const auto& [key, measured] : seen) {
    const auto [n, t] = key;
    std::vector<double> reads, copies;
    for (const bandwidth& m : measured) {
      if (m.read_gbs > 0) reads.push_back(m.read_gbs);
      if (m.copy_gbs > 0) copies.push_back(m.copy_gbs);
    }
    const bandwidth bw_case{reads.empty() ? bw.read_gbs : median(reads),
                            copies.empty() ? bw.copy_gbs : median(copies), bw.buffer_bytes};
    const double b = static_cast<double>(n) * static_cast<double>(size_of(t));
    rows.push_back(json{{"op", "read"},
                        {"dtype", std::string(name_of(t))},
                        {"n", n},
                        {"impl", "bandwidth"},
                        {"median_s", b / (bw_case.read_gbs * 1e9)},
                        {"gb_s", bw_case.read_gbs},
                        {"bytes", b},
                        {"buffer_bytes", bw.buffer_bytes},
                        {"threads", threads}});
    rows.push_back(json{{"op", "copy"},
                        {"dtype", std::string(name_of(t))},
                        {"n", n},
                        {"impl", "bandwidth"},
                        {"median_s", 2 * b / (bw_case.copy_gbs * 1e9)},
                        {"gb_s", bw_case.copy_gbs},
                        {"bytes", 2 * b},
                        {"buffer_bytes", bw.buffer_bytes},
                        {"threads", threads}});
  }

  std::cout
      << "\nvs ak: the median over pairs of (peer time / ak time) from alternating runs; "
         "> 1 means ak is faster.\n"
      << "GB/s: the bytes the op must move / median time; %bw: that / the bandwidth "
         "of the same moments: a probe (a read of a 1 GiB buffer for ops that only read, a "
         "copy for "
         "ops that also write) alternates with ak in each case, and %bw is the median over "
         "those pairs (this machine's bandwidth drifts).\n"
      << "bytes counted: reduce, mapreduce, count, any, all, sum_dims: the input once; "
         "map, broadcast, accumulate: input read + output written; sorts: the data read "
         "and written once (a lower bound: sorts make several passes; also sort_rows and "
         "sort_tiny_rows); sortperm: keys "
         "read + int64 permutation written; sort_by_key: keys and int64 values read and "
         "written once; searchsorted: queries read + int64 results written; findall, copy_if, "
         "unique, run_length_encode: the input read + what is selected written (int64 "
         "indices, elements, int64 lengths); partition: the input read and written once; "
         "findmin, histogram: the input once; reduce_by_key: int64 keys and values read, a key "
         "and a value written per run (one run per four elements, or per --runs); "
         "accumulate_by_key: keys and "
         "values read, values written; segmented_reduce: the values read, the int64 offsets "
         "read and the sums written; merge: the inputs read and the output written once; "
         "partialsort: the input once.\n"
      << "new outputs: ak's arrays and scratch of 64 KiB or more come, after the first run, "
         "from the blocks its host memory keeps for reuse (up to "
      << (host_cache_limit() >> 20)
      << " MiB here; AK_MEMORY_CACHE=0 keeps none), pages already mapped; a peer writes "
         "where its case says (an existing array, or a buffer allocated before each run, "
         "untimed, whose fresh pages it touches in its time).\n";

  const std::int64_t l3 = device("cpu").info().l3_cache_bytes;
  bool in_cache = false;
  for (const auto& r : results) in_cache = in_cache || median(r.bw_fractions) > 1;
  if (in_cache)
    std::cout << "%bw over 100%: the case's data fits in the caches (the last level holds "
              << mib_text(static_cast<double>(l3))
              << " here), so it runs at cache speed; a larger --n gives memory-bound figures.\n";

  bool any_peak = false;
  for (const auto& r : results) {
    if (r.input_bytes <= 0) continue;
    if (!any_peak)
      std::cout << "\npeak memory: how far the process's peak RSS rose during one call, over the "
                   "input's bytes (VmHWM, reset through /proc/self/clear_refs):\n";
    any_peak = true;
    std::cout << "  " << std::left << std::setw(w_op) << r.op << std::setw(w_dtype)
              << name_of(r.type) << std::setw(w_n) << size_text(r.n) << std::right;
    auto show = [&](const impl_result& p) {
      return p.name + " " +
             (p.peak_bytes ? fixed_text(*p.peak_bytes / r.input_bytes, 2) + "x"
                           : std::string("n/a"));
    };
    std::cout << show(r.ak);
    if (r.ak.peak_bytes) std::cout << " (" << mib_text(*r.ak.peak_bytes) << ")";
    for (const auto& p : r.peers) std::cout << ", " << show(p);
    std::cout << "\n";
  }

  std::cout << "\nwhat runs:\n";
  std::set<std::string> printed;
  for (const auto& r : results)
    if (printed.insert(r.op + r.note).second) std::cout << "  " << r.op << ": " << r.note << "\n";

  if (json_out.is_open()) {
    json_out << rows.dump(1) << "\n";
    json_out.close();
    if (!json_out) {
      std::cerr << "ak bench: cannot write " << o.json << "\n";
      return 1;
    }
    std::cout << "\nwrote " << rows.size() << " rows to " << o.json << "\n";
  }
  if (!mismatches.empty()) {
    std::cerr << "\nak bench: " << mismatches.size()
              << " result(s) of a peer differ from ak's (a bug in ak, or in the benchmark):\n";
    for (const auto& m : mismatches) std::cerr << "  " << m << "\n";
    return 4;
  }
  return 0;
}

}  // namespace ak::tool
