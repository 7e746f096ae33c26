// `ak bench` ops of the selection and counting family: findall, copy_if, partition, unique,
// run_length_encode (keep elements by a flag, in order), findmin, and histogram (256 even bins).
// Peers: std::execution::par where the standard has the algorithm, oneTBB as a user would write
// it (a parallel_scan of the selected count, writing in its final pass; a parallel_reduce), and
// Thrust's TBB backend (Debian's libthrust-dev) where it is found.
#include <algorithm>
#include <array>
#include <limits>
#include <numeric>

#ifdef AK_BENCH_HAVE_THRUST
#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/extrema.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/partition.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/system/tbb/execution_policy.h>
#include <thrust/transform.h>
#include <thrust/unique.h>
#endif

#include "ak/ak.hpp"
#include "bench.hpp"

namespace ak::tool::bench {

namespace {

using range = tbb::blocked_range<std::int64_t>;
constexpr std::int64_t tbb_grain = 1 << 14;

template <class T>
struct positive {  // about half of the keys
  bool operator()(const T& x) const { return x > T(0); }
};

// The elements whose flag(i) holds, in order, into o (TBB's copy_if and unique).
template <class T, class Flag>
std::int64_t tbb_copy_flagged(const T* p, std::int64_t n, T* o, const Flag& flag) {
  return tbb_select(n, flag, [p, o](std::int64_t i, std::int64_t r, bool sel) {
    if (sel) o[r] = p[i];
  });
}

// What an impl produced: up to two arrays (values; indices or lengths) and a count.
template <class T>
struct selection {
  std::shared_ptr<T[]> values;
  std::shared_ptr<std::int64_t[]> other;
  std::int64_t count = 0;
};

// Runs of `run` equal keys (the last one shorter), each run's key random: what unique and
// run_length_encode find runs in.
template <class T>
void fill_runs(T* p, std::int64_t n, std::int64_t run, std::uint64_t seed) {
  parallel_fill(p, n, [seed, run](std::int64_t i) {
    return random_key<T>(
        hash64(seed ^ (static_cast<std::uint64_t>(i / run) * 0x2545f4914f6cdd1dULL)));
  });
}

template <class T>
std::string compare_selection(const selection<T>& a, const selection<T>& b, bool values,
                              bool other) {
  if (a.count != b.count)
    return "count: ak " + std::to_string(a.count) + ", peer " + std::to_string(b.count);
  if (values) {
    std::string d = compare_exact(a.values.get(), b.values.get(), a.count);
    if (!d.empty()) return d;
  }
  if (other) return compare_exact(a.other.get(), b.other.get(), a.count);
  return "";
}

// run_length: the length of the runs of unique and run_length_encode.
template <class T>
bench_case select_case(const std::string& op, std::int64_t n, std::int64_t run_length) {
  auto x = make_buffer<T>(n);
  const bool runs = op == "unique" || op == "run_length_encode";
  if (runs)
    fill_runs(x.get(), n, run_length, 11);
  else
    fill_keys(x.get(), n, 11);
  const T* p = x.get();
  const ak::view<const T> v(p, ak::shape{n});
  const positive<T> pred;
  auto got = std::make_shared<selection<T>>();
  auto want = std::make_shared<selection<T>>();
  bench_case c;
  c.op = op;
  c.elements = n;
  c.writes = true;
  // Every impl's outputs are allocated before each run (untimed) and written in it: each pays
  // for touching its pages; ak allocates its result inside its call.
  auto fresh = [want, n] {
    want->values = make_buffer<T>(n);
    want->other = make_buffer<std::int64_t>(n);
  };
  auto to_selection = [got](ak::array<T>&& a, ak::array<std::int64_t>&& b, std::int64_t count) {
    auto keep_a = std::make_shared<ak::array<T>>(std::move(a));
    auto keep_b = std::make_shared<ak::array<std::int64_t>>(std::move(b));
    got->values = std::shared_ptr<T[]>(keep_a, keep_a->data());
    got->other = std::shared_ptr<std::int64_t[]>(keep_b, keep_b->data());
    got->count = count;
  };
  // A partition's result is all n elements; the other ops' the first `count`.
  const bool whole = op == "partition";
  auto check = [got, want, whole, n](bool values, bool other) {
    return [got, want, whole, n, values, other] {
      if (!whole) return compare_selection(*got, *want, values, other);
      if (got->count != want->count)
        return "count: ak " + std::to_string(got->count) + ", peer " + std::to_string(want->count);
      return compare_exact(got->values.get(), want->values.get(), n);
    };
  };
  auto peer = [&](const char* name, auto run, bool values, bool other) {
    c.peers.push_back(
        {name, fresh, [x, want, run] { want->count = run(*want); }, check(values, other)});
  };
  const double selected = static_cast<double>(n) / 2;
  if (op == "findall") {
    c.bytes = static_cast<double>(n) * sizeof(T) + selected * 8;
    c.note =
        "indices of x > 0 (half): ak::findall(v, pred); std::copy_if(par) of an index "
        "array by the keys; tbb::parallel_scan; thrust::copy_if(tbb) of a counting "
        "iterator with the keys as stencil";
    c.ak = {"ak",
            {},
            [x, v, pred, to_selection] {
              ak::array<std::int64_t> idx = ak::findall(v, pred);
              const std::int64_t k = idx.size();
              to_selection(ak::array<T>(), std::move(idx), k);
            },
            {}};
    auto index = make_buffer<std::int64_t>(n);
    parallel_fill(index.get(), n, [](std::int64_t i) { return i; });
    if (have_std_par)
      peer(
          std_par,
          [index, p, n](selection<T>& s) {
            const std::int64_t* b = index.get();
            return static_cast<std::int64_t>(
                std::copy_if(AK_BENCH_PAR b, b + n, s.other.get(),
                             [p](std::int64_t i) { return p[i] > T(0); }) -
                s.other.get());
          },
          false, true);
    peer(
        tbb_peer,
        [p, n](selection<T>& s) {
          std::int64_t* o = s.other.get();
          return tbb_select(
              n, [p](std::int64_t i) { return p[i] > T(0); },
              [o](std::int64_t i, std::int64_t r, bool sel) {
                if (sel) o[r] = i;
              });
        },
        false, true);
#ifdef AK_BENCH_HAVE_THRUST
    peer(
        thrust_tbb,
        [p, n](selection<T>& s) {
          auto first = thrust::counting_iterator<std::int64_t>(0);
          return static_cast<std::int64_t>(
              thrust::copy_if(thrust::tbb::par, first, first + n, p, s.other.get(), positive<T>{}) -
              s.other.get());
        },
        false, true);
#endif
  } else if (op == "copy_if") {
    c.bytes = static_cast<double>(n) * sizeof(T) + selected * sizeof(T);
    c.note =
        "the keys > 0 (half), in order, as a new array: ak::copy_if(v, pred); "
        "std::copy_if(par); tbb::parallel_scan; thrust::copy_if(tbb)";
    c.ak = {"ak",
            {},
            [x, v, pred, to_selection] {
              ak::array<T> out = ak::copy_if(v, pred);
              const std::int64_t k = out.size();
              to_selection(std::move(out), ak::array<std::int64_t>(), k);
            },
            {}};
    if (have_std_par)
      peer(
          std_par,
          [p, n](selection<T>& s) {
            return static_cast<std::int64_t>(
                std::copy_if(AK_BENCH_PAR p, p + n, s.values.get(), positive<T>{}) -
                s.values.get());
          },
          true, false);
    peer(
        tbb_peer,
        [p, n](selection<T>& s) {
          return tbb_copy_flagged(p, n, s.values.get(),
                                  [p](std::int64_t i) { return p[i] > T(0); });
        },
        true, false);
#ifdef AK_BENCH_HAVE_THRUST
    peer(
        thrust_tbb,
        [p, n](selection<T>& s) {
          return static_cast<std::int64_t>(
              thrust::copy_if(thrust::tbb::par, p, p + n, s.values.get(), positive<T>{}) -
              s.values.get());
        },
        true, false);
#endif
  } else if (op == "partition") {
    c.bytes = 2.0 * static_cast<double>(n) * sizeof(T);
    c.note =
        "stable, keys > 0 first, into a new array: ak::partition(v, pred); "
        "std::stable_partition(par) of a copy made before the run; tbb::parallel_scan "
        "writing both parts; thrust::stable_partition_copy(tbb) into two arrays";
    c.ak = {"ak",
            {},
            [x, v, pred, to_selection] {
              auto [values, count] = ak::partition(v, pred);
              to_selection(std::move(values), ak::array<std::int64_t>(), count);
            },
            {}};
    auto fresh_copy = [want, p, n] {
      want->values = make_buffer<T>(n);
      parallel_copy(want->values.get(), p, n);
    };
    if (have_std_par)
      c.peers.push_back({std_par, fresh_copy,
                         [x, want, n] {
                           T* b = want->values.get();
                           want->count = static_cast<std::int64_t>(
                               std::stable_partition(AK_BENCH_PAR b, b + n, positive<T>{}) - b);
                         },
                         check(true, false)});
    peer(
        tbb_peer,
        [p, n](selection<T>& s) {
          T* o = s.values.get();
          const std::int64_t k = tbb_select(
              n, [p](std::int64_t i) { return p[i] > T(0); },
              [](std::int64_t, std::int64_t, bool) {});
          tbb_select(
              n, [p](std::int64_t i) { return p[i] > T(0); },
              [p, o, k](std::int64_t i, std::int64_t r, bool sel) {
                o[sel ? r : k + (i - r)] = p[i];
              });
          return k;
        },
        true, false);
#ifdef AK_BENCH_HAVE_THRUST
    peer(
        thrust_tbb,
        [p, n](selection<T>& s) {
          auto rest = make_buffer<T>(n);
          auto ends = thrust::stable_partition_copy(thrust::tbb::par, p, p + n, s.values.get(),
                                                    rest.get(), positive<T>{});
          const std::int64_t k = ends.first - s.values.get();
          std::copy(rest.get(), ends.second, s.values.get() + k);
          return k;
        },
        true, false);
#endif
  } else if (op == "unique") {
    c.bytes = static_cast<double>(n) * sizeof(T) +
              static_cast<double>(n) / static_cast<double>(run_length) * sizeof(T);
    c.note = "runs of " + std::to_string(run_length) +
             " equal keys: ak::unique(v); std::unique_copy(par); "
             "tbb::parallel_scan; thrust::unique_copy(tbb)";
    c.ak = {"ak",
            {},
            [x, v, to_selection] {
              ak::array<T> out = ak::unique(v);
              const std::int64_t k = out.size();
              to_selection(std::move(out), ak::array<std::int64_t>(), k);
            },
            {}};
    if (have_std_par)
      peer(
          std_par,
          [p, n](selection<T>& s) {
            return static_cast<std::int64_t>(
                std::unique_copy(AK_BENCH_PAR p, p + n, s.values.get()) - s.values.get());
          },
          true, false);
    peer(
        tbb_peer,
        [p, n](selection<T>& s) {
          return tbb_copy_flagged(p, n, s.values.get(),
                                  [p](std::int64_t i) { return i == 0 || p[i - 1] != p[i]; });
        },
        true, false);
#ifdef AK_BENCH_HAVE_THRUST
    peer(
        thrust_tbb,
        [p, n](selection<T>& s) {
          return static_cast<std::int64_t>(
              thrust::unique_copy(thrust::tbb::par, p, p + n, s.values.get()) - s.values.get());
        },
        true, false);
#endif
  } else if (op == "run_length_encode") {
    c.bytes = static_cast<double>(n) * sizeof(T) +
              static_cast<double>(n) / static_cast<double>(run_length) * (sizeof(T) + 8);
    c.note = "runs of " + std::to_string(run_length) +
             " equal keys: ak::run_length_encode(v); tbb::parallel_scan of run "
             "heads, then lengths; thrust::reduce_by_key(tbb) of a constant 1";
    c.ak = {"ak",
            {},
            [x, v, to_selection] {
              auto [values, lengths] = ak::run_length_encode(v);
              const std::int64_t k = values.size();
              to_selection(std::move(values), std::move(lengths), k);
            },
            {}};
    peer(
        tbb_peer,
        [p, n](selection<T>& s) {
          T* o = s.values.get();
          std::int64_t* len = s.other.get();
          auto starts = make_buffer<std::int64_t>(n);
          std::int64_t* st = starts.get();
          const std::int64_t k = tbb_select(
              n, [p](std::int64_t i) { return i == 0 || p[i - 1] != p[i]; },
              [p, o, st](std::int64_t i, std::int64_t r, bool sel) {
                if (sel) {
                  o[r] = p[i];
                  st[r] = i;
                }
              });
          tbb::parallel_for(range(0, k, tbb_grain), [&](const range& r) {
            for (std::int64_t j = r.begin(); j < r.end(); ++j)
              len[j] = (j + 1 < k ? st[j + 1] : n) - st[j];
          });
          return k;
        },
        true, true);
#ifdef AK_BENCH_HAVE_THRUST
    peer(
        thrust_tbb,
        [p, n](selection<T>& s) {
          auto ends = thrust::reduce_by_key(thrust::tbb::par, p, p + n,
                                            thrust::constant_iterator<std::int64_t>(1),
                                            s.values.get(), s.other.get());
          return static_cast<std::int64_t>(ends.first - s.values.get());
        },
        true, true);
#endif
  }
  return c;
}

// findmin: the first smallest key and its index.
template <class T>
bench_case findmin_case(std::int64_t n) {
  auto x = make_buffer<T>(n);
  fill_keys(x.get(), n, 12);
  const T* p = x.get();
  const ak::view<const T> v(p, ak::shape{n});
  auto got = std::make_shared<std::int64_t>(-1);
  auto want = std::make_shared<std::int64_t>(-1);
  bench_case c;
  c.op = "findmin";
  c.elements = n;
  c.bytes = static_cast<double>(n) * sizeof(T);
  c.note =
      "ak::findmin(v); std::min_element(par); tbb::parallel_reduce of (value, index); "
      "thrust::min_element(tbb)";
  auto check = [got, want] {
    return *got == *want ? std::string()
                         : "index: ak " + std::to_string(*got) + ", peer " + std::to_string(*want);
  };
  c.ak = {"ak", {}, [x, v, got] { *got = ak::findmin(v).index; }, {}};
  if (have_std_par)
    c.peers.push_back({std_par,
                       {},
                       [x, p, n, want] { *want = std::min_element(AK_BENCH_PAR p, p + n) - p; },
                       check});
  c.peers.push_back({tbb_peer,
                     {},
                     [x, p, n, want] {
                       using best = std::pair<T, std::int64_t>;
                       *want = tbb::parallel_reduce(
                                   range(0, n, tbb_grain), best{p[0], 0},
                                   [p](const range& r, best b) {
                                     for (std::int64_t i = r.begin(); i < r.end(); ++i)
                                       if (p[i] < b.first || (p[i] == b.first && i < b.second))
                                         b = {p[i], i};
                                     return b;
                                   },
                                   [](best a, best b) {
                                     return b.first < a.first ||
                                                    (b.first == a.first && b.second < a.second)
                                                ? b
                                                : a;
                                   })
                                   .second;
                     },
                     check});
#ifdef AK_BENCH_HAVE_THRUST
  c.peers.push_back(
      {thrust_tbb,
       {},
       [x, p, n, want] { *want = thrust::min_element(thrust::tbb::par, p, p + n) - p; },
       check});
#endif
  return c;
}

// histogram: 256 even bins over the keys' whole range.
template <class T>
bench_case histogram_case(std::int64_t n) {
  constexpr std::int64_t bins = 256;
  auto x = make_buffer<T>(n);
  fill_keys(x.get(), n, 13);
  const T* p = x.get();
  const ak::view<const T> v(p, ak::shape{n});
  T lower, upper;
  if constexpr (std::is_floating_point_v<T>) {
    lower = T(-1);
    upper = T(1);
  } else {
    lower = std::numeric_limits<T>::lowest();
    upper = std::numeric_limits<T>::max();
  }
  const auto bin = ak::detail::even_bin<T>::make(lower, upper, bins);
  auto got = std::make_shared<std::array<std::int64_t, bins>>();
  auto want = std::make_shared<std::array<std::int64_t, bins>>();
  bench_case c;
  c.op = "histogram";
  c.elements = n;
  c.bytes = static_cast<double>(n) * sizeof(T);
  c.note =
      "256 even bins over the keys' range: ak::histogram(v, ak::even_bins); "
      "tbb::parallel_reduce of per-range counts (the same bin formula); thrust (tbb): sort "
      "a copy, then upper_bound of the bin edges (Thrust's histogram example)";
  auto check = [got, want] { return compare_exact(got->data(), want->data(), bins); };
  c.ak = {"ak",
          {},
          [x, v, got, lower, upper] {
            const ak::array<std::int64_t> h =
                ak::histogram(v, ak::even_bins<T>{.lower = lower, .upper = upper, .count = bins});
            std::copy(h.data(), h.data() + bins, got->begin());
          },
          {}};
  c.peers.push_back({tbb_peer,
                     {},
                     [x, p, n, want, bin] {
                       using counts = std::array<std::int64_t, bins>;
                       *want = tbb::parallel_reduce(
                           range(0, n, 1 << 16), counts{},
                           [p, bin](const range& r, counts h) {
                             for (std::int64_t i = r.begin(); i < r.end(); ++i) {
                               const std::int64_t j = bin(p[i]);
                               if (j >= 0) ++h[static_cast<std::size_t>(j)];
                             }
                             return h;
                           },
                           [](counts a, const counts& b) {
                             for (std::size_t k = 0; k < a.size(); ++k) a[k] += b[k];
                             return a;
                           });
                     },
                     check});
#ifdef AK_BENCH_HAVE_THRUST
  auto sorted = std::make_shared<std::vector<T>>();
  auto binned = std::make_shared<std::vector<std::int64_t>>(static_cast<std::size_t>(n));
  auto edges = std::make_shared<std::vector<std::int64_t>>(bins);
  c.peers.push_back(
      {thrust_tbb, [sorted, p, n] { sorted->assign(p, p + n); },
       [x, sorted, binned, want, bin, edges] {
         // The bins of the sorted keys ascend: the end of bin j is the first key whose bin is
         // above j.
         thrust::sort(thrust::tbb::par, sorted->begin(), sorted->end());
         thrust::transform(thrust::tbb::par, sorted->begin(), sorted->end(), binned->begin(), bin);
         thrust::counting_iterator<std::int64_t> js(0);
         thrust::upper_bound(thrust::tbb::par, binned->begin(), binned->end(), js, js + bins,
                             edges->begin());
         std::int64_t prev = 0;
         for (std::int64_t j = 0; j < bins; ++j) {
           (*want)[static_cast<std::size_t>(j)] = (*edges)[static_cast<std::size_t>(j)] - prev;
           prev = (*edges)[static_cast<std::size_t>(j)];
         }
       },
       check});
#endif
  return c;
}

}  // namespace

void add_select_ops(std::vector<op_spec>& ops) {
  const std::vector<dtype> ints_and_floats{dtype::int64, dtype::float64};
  for (const char* op : {"findall", "copy_if", "partition"})
    ops.push_back({op, "select", ints_and_floats,
                   builder(op, []<class T>(const std::string& name, std::int64_t n) {
                     return select_case<T>(name, n, default_mean_run);
                   })});
  for (const char* op : {"unique", "run_length_encode"})
    ops.push_back(
        op_over_runs(op, "select", ints_and_floats,
                     []<class T>(const std::string& name, std::int64_t n, std::int64_t run) {
                       return select_case<T>(name, n, run);
                     }));
  ops.push_back({"findmin", "select", ints_and_floats,
                 builder("findmin", []<class T>(const std::string&, std::int64_t n) {
                   return findmin_case<T>(n);
                 })});
  ops.push_back({"histogram",
                 "select",
                 {dtype::float32, dtype::int64},
                 builder("histogram", []<class T>(const std::string&, std::int64_t n) {
                   return histogram_case<T>(n);
                 })});
}

}  // namespace ak::tool::bench
