// `ak bench` ops of the keyed family, merge and partialsort: reduce_by_key and accumulate_by_key
// (sums of values over runs of int64 keys, four keys per run on average or `--runs`),
// segmented_reduce (sums over CSR offsets, segments as long as those runs), merge (two sorted
// halves) and partialsort (the 100 smallest, sorted). Peers: Thrust's TBB backend (Debian's
// libthrust-dev) where it is found, oneTBB as a user would write it, and the std algorithms with
// std::execution::par.
#include <tbb/parallel_scan.h>

#include <algorithm>
#include <utility>
#include <vector>

#ifdef AK_BENCH_HAVE_THRUST
#include <thrust/merge.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/system/tbb/execution_policy.h>
#endif

#include "ak/ak.hpp"
#include "bench.hpp"

namespace ak::tool::bench {

namespace {

using range = tbb::blocked_range<std::int64_t>;
constexpr std::int64_t tbb_grain = 1 << 14;

// Runs of 1 to 2 mean - 1 equal int64 keys (mean on average), each run's key random.
void fill_key_runs(std::int64_t* k, std::int64_t n, std::int64_t mean, std::uint64_t seed) {
  const auto lengths = static_cast<std::uint64_t>(2 * mean - 1);
  std::int64_t i = 0, run = 0;
  while (i < n) {
    const std::uint64_t h =
        hash64(seed ^ (static_cast<std::uint64_t>(run++) * 0x9e3779b97f4a7c15ULL));
    const std::int64_t len =
        std::min<std::int64_t>(n - i, 1 + static_cast<std::int64_t>(h % lengths));
    std::fill(k + i, k + i + len, static_cast<std::int64_t>(h >> 8));
    i += len;
  }
}

// Small integers (-3..3) for every dtype: every sum of them is exact, whatever its order.
template <class T>
void fill_small_values(T* v, std::int64_t n, std::uint64_t seed) {
  parallel_fill(v, n, [seed](std::int64_t i) {
    const std::uint64_t h = hash64(seed ^ (static_cast<std::uint64_t>(i) * 0x2545f4914f6cdd1dULL));
    return static_cast<T>(static_cast<int>(h % 7) - 3);
  });
}

// What an impl produced: keys and values, and how many.
template <class T>
struct keyed_out {
  std::shared_ptr<std::int64_t[]> keys;
  std::shared_ptr<T[]> values;
  std::int64_t count = 0;
};

// The run lengths of fill_key_runs in words: "runs of 1-7".
std::string runs_text(std::int64_t mean) {
  return mean == 1 ? "runs of 1" : "runs of 1-" + std::to_string(2 * mean - 1);
}

template <class T>
bench_case keyed_case(const std::string& op, std::int64_t n, std::int64_t mean_run) {
  auto keys = make_buffer<std::int64_t>(n);
  auto vals = make_buffer<T>(n);
  fill_key_runs(keys.get(), n, mean_run, 21);
  fill_small_values(vals.get(), n, 22);
  const std::int64_t* k = keys.get();
  const T* v = vals.get();
  const ak::view<const std::int64_t> kv(k, ak::shape{n});
  const ak::view<const T> vv(v, ak::shape{n});
  auto got = std::make_shared<keyed_out<T>>();
  auto want = std::make_shared<keyed_out<T>>();
  const bool reduce = op == "reduce_by_key";
  bench_case c;
  c.op = op;
  c.elements = n;
  c.writes = true;
  auto fresh = [want, n] {
    want->keys = make_buffer<std::int64_t>(n);
    want->values = make_buffer<T>(n);
  };
  auto check = [got, want, reduce] {
    if (got->count != want->count)
      return "count: ak " + std::to_string(got->count) + ", peer " + std::to_string(want->count);
    if (reduce) {
      std::string d = compare_exact(got->keys.get(), want->keys.get(), got->count);
      if (!d.empty()) return d;
    }
    return compare_exact(got->values.get(), want->values.get(), got->count);
  };
  auto peer = [&](const char* name, auto run) {
    c.peers.push_back({name, fresh, [keys, vals, want, run] { want->count = run(*want); }, check});
  };
  if (reduce) {
    c.bytes = static_cast<double>(n) * (8 + sizeof(T)) +
              static_cast<double>(n) / static_cast<double>(mean_run) * (8 + sizeof(T));
    c.note = "sums over " + runs_text(mean_run) +
             " equal int64 keys: ak::reduce_by_key(keys, values, plus); "
             "thrust::reduce_by_key(tbb); tbb::parallel_scan of run heads, then a loop per run";
    c.ak = {"ak",
            {},
            [keys, vals, kv, vv, got] {
              auto [rk, rv] = ak::reduce_by_key(kv, vv, ak::plus{});
              auto hk = std::make_shared<ak::array<std::int64_t>>(std::move(rk));
              auto hv = std::make_shared<ak::array<T>>(std::move(rv));
              got->count = hk->size();
              got->keys = std::shared_ptr<std::int64_t[]>(hk, hk->data());
              got->values = std::shared_ptr<T[]>(hv, hv->data());
            },
            {}};
#ifdef AK_BENCH_HAVE_THRUST
    peer(thrust_tbb, [k, v, n](keyed_out<T>& o) {
      auto ends =
          thrust::reduce_by_key(thrust::tbb::par, k, k + n, v, o.keys.get(), o.values.get());
      return static_cast<std::int64_t>(ends.first - o.keys.get());
    });
#endif
    peer(tbb_peer, [k, v, n](keyed_out<T>& o) {
      auto starts = make_buffer<std::int64_t>(n);
      std::int64_t* st = starts.get();
      std::int64_t* ok = o.keys.get();
      const std::int64_t runs = tbb_select(
          n, [k](std::int64_t i) { return i == 0 || k[i - 1] != k[i]; },
          [st, ok, k](std::int64_t i, std::int64_t r, bool head) {
            if (head) {
              st[r] = i;
              ok[r] = k[i];
            }
          });
      T* ov = o.values.get();
      tbb::parallel_for(range(0, runs, tbb_grain), [&](const range& r) {
        for (std::int64_t j = r.begin(); j < r.end(); ++j) {
          const std::int64_t e = j + 1 < runs ? st[j + 1] : n;
          T s = v[st[j]];
          for (std::int64_t i = st[j] + 1; i < e; ++i) s = static_cast<T>(s + v[i]);
          ov[j] = s;
        }
      });
      return runs;
    });
  } else {
    c.bytes = static_cast<double>(n) * (8 + 2 * sizeof(T));
    c.note = "inclusive sums restarting at each of the " + runs_text(mean_run) +
             " equal int64 keys: "
             "ak::accumulate_by_key(keys, values, plus); thrust::inclusive_scan_by_key(tbb); "
             "tbb::parallel_scan of (starts a run, sum) pairs";
    c.ak = {"ak",
            {},
            [keys, vals, kv, vv, got] {
              auto out = std::make_shared<ak::array<T>>(ak::accumulate_by_key(kv, vv, ak::plus{}));
              got->count = out->size();
              got->values = std::shared_ptr<T[]>(out, out->data());
            },
            {}};
#ifdef AK_BENCH_HAVE_THRUST
    peer(thrust_tbb, [k, v, n](keyed_out<T>& o) {
      thrust::inclusive_scan_by_key(thrust::tbb::par, k, k + n, v, o.values.get());
      return n;
    });
#endif
    peer(tbb_peer, [k, v, n](keyed_out<T>& o) {
      using part = std::pair<bool, T>;  // (a run starts in it, the sum since the last start)
      T* out = o.values.get();
      tbb::parallel_scan(
          range(0, n, tbb_grain), part{false, T(0)},
          [&](const range& r, part p, bool final) {
            for (std::int64_t i = r.begin(); i < r.end(); ++i) {
              const bool head = i == 0 || k[i - 1] != k[i];
              p = head ? part{true, v[i]} : part{p.first, static_cast<T>(p.second + v[i])};
              if (final) out[i] = p.second;
            }
            return p;
          },
          [](const part& a, const part& b) {
            return b.first ? b : part{a.first, static_cast<T>(a.second + b.second)};
          });
      return n;
    });
  }
  return c;
}

// segmented_reduce: the sum of each segment of CSR offsets (the runs of fill_key_runs: 1 to 7
// elements, 4 on average, by default).
template <class T>
bench_case segmented_reduce_case(std::int64_t n, std::int64_t mean_run) {
  std::vector<std::int64_t> starts{0};
  {
    auto keys = make_buffer<std::int64_t>(n);
    fill_key_runs(keys.get(), n, mean_run, 23);
    for (std::int64_t i = 1; i < n; ++i)
      if (keys[i] != keys[i - 1]) starts.push_back(i);
    starts.push_back(n);
  }
  const std::int64_t m = static_cast<std::int64_t>(starts.size()) - 1;
  auto offs = std::make_shared<std::vector<std::int64_t>>(std::move(starts));
  auto vals = make_buffer<T>(n);
  fill_small_values(vals.get(), n, 24);
  const T* v = vals.get();
  const std::int64_t* o = offs->data();
  const ak::view<const T> vv(v, ak::shape{n});
  const ak::view<const std::int64_t> ov(o, ak::shape{m + 1});
  auto got = std::make_shared<std::shared_ptr<T[]>>();
  auto want = std::make_shared<std::shared_ptr<T[]>>();
  bench_case c;
  c.op = "segmented_reduce";
  c.elements = n;
  c.writes = true;
  c.bytes = static_cast<double>(n) * sizeof(T) + static_cast<double>(m) * (8 + sizeof(T));
  c.note = "sums over CSR offsets, segments as the " + runs_text(mean_run) +
           " keys: ak::reduce(values, plus, "
           "ak::offsets{o}); tbb::parallel_for over the segments, a loop each";
  c.ak = {"ak",
          {},
          [offs, vals, vv, ov, got] {
            auto r = std::make_shared<ak::array<T>>(ak::reduce(vv, ak::plus{}, ak::offsets{ov}));
            *got = std::shared_ptr<T[]>(r, r->data());
          },
          {}};
  c.peers.push_back({tbb_peer, [want, m] { *want = make_buffer<T>(m); },
                     [offs, vals, v, o, m, want] {
                       T* out = want->get();
                       tbb::parallel_for(range(0, m, tbb_grain), [&](const range& r) {
                         for (std::int64_t s = r.begin(); s < r.end(); ++s) {
                           T a = T(0);
                           for (std::int64_t i = o[s]; i < o[s + 1]; ++i)
                             a = static_cast<T>(a + v[i]);
                           out[s] = a;
                         }
                       });
                     },
                     [got, want, m] { return compare_exact(got->get(), want->get(), m); }});
  return c;
}

// merge: two sorted halves of random keys into one array.
template <class T>
bench_case merge_case(std::int64_t n) {
  const std::int64_t na = n / 2, nb = n - n / 2;
  auto a = make_buffer<T>(na);
  auto b = make_buffer<T>(nb);
  fill_keys(a.get(), na, 31);
  fill_keys(b.get(), nb, 32);
  ak::sort_inplace(ak::view<T>(a.get(), ak::shape{na}));
  ak::sort_inplace(ak::view<T>(b.get(), ak::shape{nb}));
  const T* pa = a.get();
  const T* pb = b.get();
  auto got = std::make_shared<std::shared_ptr<T[]>>();
  auto want = std::make_shared<std::shared_ptr<T[]>>();
  bench_case c;
  c.op = "merge";
  c.elements = n;
  c.writes = true;
  c.bytes = 2.0 * static_cast<double>(n) * sizeof(T);
  c.note =
      "two sorted halves of random keys (ak's order; no NaN among them): ak::merge(a, b); "
      "std::merge(par); thrust::merge(tbb)";
  c.ak = {"ak",
          {},
          [a, b, pa, pb, na, nb, got] {
            auto m = std::make_shared<ak::array<T>>(ak::merge(
                ak::view<const T>(pa, ak::shape{na}), ak::view<const T>(pb, ak::shape{nb})));
            *got = std::shared_ptr<T[]>(m, m->data());
          },
          {}};
  auto fresh = [want, n] { *want = make_buffer<T>(n); };
  auto check = [got, want, n] { return compare_exact(got->get(), want->get(), n); };
  if (have_std_par)
    c.peers.push_back({std_par, fresh,
                       [a, b, pa, pb, na, nb, want] {
                         std::merge(AK_BENCH_PAR pa, pa + na, pb, pb + nb, want->get());
                       },
                       check});
#ifdef AK_BENCH_HAVE_THRUST
  c.peers.push_back({thrust_tbb, fresh,
                     [a, b, pa, pb, na, nb, want] {
                       thrust::merge(thrust::tbb::par, pa, pa + na, pb, pb + nb, want->get());
                     },
                     check});
#endif
  return c;
}

// partialsort: the 100 smallest of random keys, sorted.
template <class T>
bench_case partialsort_case(std::int64_t n) {
  const std::int64_t k = std::min<std::int64_t>(100, n);
  auto x = make_buffer<T>(n);
  fill_keys(x.get(), n, 41);
  const T* p = x.get();
  auto got = std::make_shared<std::vector<T>>();
  auto want = std::make_shared<std::vector<T>>();
  auto work = std::make_shared<std::vector<T>>();
  bench_case c;
  c.op = "partialsort";
  c.elements = n;
  c.bytes = static_cast<double>(n) * sizeof(T);
  c.note =
      "the 100 smallest of random keys, sorted: ak::partialsort(v, 100); on a copy made before "
      "each run, std::partial_sort(par), and std::nth_element(par) then std::sort of the 100";
  c.ak = {"ak",
          {},
          [x, p, n, k, got] {
            *got = ak::partialsort(ak::view<const T>(p, ak::shape{n}), k).to_vector();
          },
          {}};
  auto fresh = [work, p, n] { work->assign(p, p + n); };
  auto check = [got, want, k] { return compare_exact(got->data(), want->data(), k); };
  if (have_std_par) {
    c.peers.push_back({std::string(std_par) + " partial_sort", fresh,
                       [x, work, want, k] {
                         std::partial_sort(AK_BENCH_PAR work->begin(), work->begin() + k,
                                           work->end());
                         want->assign(work->begin(), work->begin() + k);
                       },
                       check});
    c.peers.push_back({std::string(std_par) + " nth_element", fresh,
                       [x, work, want, k] {
                         std::nth_element(AK_BENCH_PAR work->begin(), work->begin() + (k - 1),
                                          work->end());
                         std::sort(work->begin(), work->begin() + k);
                         want->assign(work->begin(), work->begin() + k);
                       },
                       check});
  }
  return c;
}

}  // namespace

void add_keyed_ops(std::vector<op_spec>& ops) {
  const std::vector<dtype> ints_and_floats{dtype::int64, dtype::float64};
  for (const char* op : {"reduce_by_key", "accumulate_by_key"})
    ops.push_back(
        op_over_runs(op, "keyed", ints_and_floats,
                     []<class T>(const std::string& name, std::int64_t n, std::int64_t run) {
                       return keyed_case<T>(name, n, run);
                     }));
  ops.push_back(op_over_runs("segmented_reduce", "keyed", ints_and_floats,
                             []<class T>(const std::string&, std::int64_t n, std::int64_t run) {
                               return segmented_reduce_case<T>(n, run);
                             }));
  ops.push_back({"merge",
                 "keyed",
                 {dtype::int64, dtype::float32},
                 builder("merge", []<class T>(const std::string&, std::int64_t n) {
                   return merge_case<T>(n);
                 })});
  ops.push_back({"partialsort",
                 "keyed",
                 {dtype::float32, dtype::int64},
                 builder("partialsort", []<class T>(const std::string&, std::int64_t n) {
                   return partialsort_case<T>(n);
                 })});
}

}  // namespace ak::tool::bench
