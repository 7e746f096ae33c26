// The sorting peers of `ak bench`, and the in-place sort of numbers that sort and sort_custom
// share. The peers, each given ak's thread count: std::sort(std::execution::par),
// tbb::parallel_sort, ips4o::parallel::sort (its std::thread pool), Boost.Sort's
// block_indirect_sort and parallel_stable_sort, pdqsort (sequential) and Highway's vqsort (one
// thread, vectorised; numbers in the default order). CMake defines
// AK_BENCH_HAVE_<PEER> for those whose headers it found. Beside them, for numbers in the default
// order, a plain LSD radix sort written here (plain_lsd8_sort): the yardstick of the sort targets.
#pragma once

#include <tbb/parallel_sort.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

#ifdef AK_BENCH_HAVE_IPS4O
#include <ips4o.hpp>
#endif
#ifdef AK_BENCH_HAVE_BOOST_SORT
#include <boost/sort/block_indirect_sort/block_indirect_sort.hpp>
#include <boost/sort/parallel_stable_sort/parallel_stable_sort.hpp>
#endif
#ifdef AK_BENCH_HAVE_PDQSORT
#include <pdqsort.h>
#endif
#ifdef AK_BENCH_HAVE_VQSORT
#include <hwy/contrib/sort/vqsort.h>
#endif

#include "ak/ak.hpp"
#include "ak/backends/cpu/radix_sort.hpp"
#include "bench.hpp"

namespace ak::tool::bench {

#ifdef AK_BENCH_HAVE_IPS4O
// One pool for the whole run, like TBB's: its threads sleep on a condition variable between
// sorts. (ips4o's default pool is OpenMP's, whose threads spin after each parallel region and
// would take the cores from the next run.)
inline ips4o::StdThreadPool& ips4o_pool() {
  static ips4o::StdThreadPool pool(peer_threads());
  return pool;
}
#endif

#ifdef AK_BENCH_HAVE_VQSORT
// The sorter of every one-thread vqsort peer: its buffers, allocated once, untimed.
inline const hwy::Sorter& vqsort_sorter() {
  static const hwy::Sorter sorter;
  return sorter;
}
#endif

// Which peers a case runs (a compile-time set, so that a case instantiates only its peers).
enum sort_peer : unsigned {
  peer_std_par = 1,
  peer_tbb = 2,
  peer_ips4o = 4,
  peer_boost_bis = 8,
  peer_boost_pss = 16,
  peer_pdqsort = 32,
  peer_plain_lsd8 = 64,  // numbers in the default order only
  peer_vqsort = 128,     // numbers of 2, 4 and 8 bytes in the default order only
  every_sort_peer = 255,
};

// The yardstick that the CPU backend's sort targets were set against (docs/benchmarks/README.md):
// a plain LSD radix sort with 8-bit digits on the peers' threads. Every pass, none skipped,
// counts each thread's chunk and then scatters it; keys go through ak::ordered_key, so the result
// equals ak's. Keys of 4 and 8 bytes take an even number of passes, which leaves the result in
// `a`.
template <class T>
void plain_lsd8_sort(T* a, T* tmp, std::int64_t n) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  const int workers = peer_threads();
  std::vector<std::array<std::int64_t, 256>> count(static_cast<std::size_t>(workers));
  auto on_every_thread = [workers](const auto& work) {
    std::vector<std::thread> threads;
    for (int w = 1; w < workers; ++w) threads.emplace_back(work, w);
    work(0);
    for (std::thread& t : threads) t.join();
  };
  T* src = a;
  T* dst = tmp;
  for (int shift = 0; shift < static_cast<int>(sizeof(T)) * 8; shift += 8) {
    auto digit = [shift](T x) { return static_cast<std::size_t>((ordered_key(x) >> shift) & 255); };
    auto chunk = [n, workers](int w) { return std::pair{n * w / workers, n * (w + 1) / workers}; };
    on_every_thread([&](int w) {
      std::array<std::int64_t, 256>& c = count[static_cast<std::size_t>(w)];
      c.fill(0);
      for (auto [i, e] = chunk(w); i < e; ++i) ++c[digit(src[i])];
    });
    std::int64_t next = 0;  // digit-major, then thread: each thread's first slot per digit
    for (std::size_t d = 0; d < 256; ++d)
      for (auto& c : count) next += std::exchange(c[d], next);
    on_every_thread([&](int w) {
      std::array<std::int64_t, 256> at = count[static_cast<std::size_t>(w)];
      for (auto [i, e] = chunk(w); i < e; ++i) dst[at[digit(src[i])]++] = src[i];
    });
    std::swap(src, dst);
  }
}

// For each peer in Peers that this build has: an impl that sorts [w, w + n) by comp after
// `prepare` (which restores w), checked by `check`. `keep` holds the buffers alive.
template <unsigned Peers, class T, class Comp, class Keep>
void add_sort_peers(bench_case& c, T* w, std::int64_t n, Comp comp, std::function<void()> prepare,
                    std::function<std::string()> check, Keep keep) {
  auto add = [&](const char* name, auto sort) {
    c.peers.push_back({name, prepare, [w, n, comp, keep, sort] { sort(w, w + n, comp); }, check});
  };
  if constexpr ((Peers & peer_std_par) != 0 && have_std_par)
    add(std_par,
        [](T* first, T* last, const Comp& cmp) { std::sort(AK_BENCH_PAR first, last, cmp); });
  if constexpr ((Peers & peer_tbb) != 0)
    add(tbb_peer, [](T* first, T* last, const Comp& cmp) { tbb::parallel_sort(first, last, cmp); });
#ifdef AK_BENCH_HAVE_IPS4O
  if constexpr ((Peers & peer_ips4o) != 0)
    add(ips4o_peer, [](T* first, T* last, const Comp& cmp) {
      ips4o::parallel::sort(first, last, cmp, ips4o_pool());
    });
#endif
#ifdef AK_BENCH_HAVE_BOOST_SORT
  if constexpr ((Peers & peer_boost_bis) != 0)
    add(boost_bis, [](T* first, T* last, const Comp& cmp) {
      boost::sort::block_indirect_sort(first, last, cmp,
                                       static_cast<std::uint32_t>(peer_threads()));
    });
  if constexpr ((Peers & peer_boost_pss) != 0)
    add(boost_pss, [](T* first, T* last, const Comp& cmp) {
      boost::sort::parallel_stable_sort(first, last, cmp,
                                        static_cast<std::uint32_t>(peer_threads()));
    });
#endif
#ifdef AK_BENCH_HAVE_PDQSORT
  if constexpr ((Peers & peer_pdqsort) != 0)
    add(pdqsort_peer, [](T* first, T* last, const Comp& cmp) { pdqsort(first, last, cmp); });
#endif
#ifdef AK_BENCH_HAVE_VQSORT
  // Highway's vqsort, one thread as it ships, dispatching at run time to the best vector unit.
  // Bench keys have no NaN and no -0.0, so its float order is ak's.
  if constexpr ((Peers & peer_vqsort) != 0 && std::is_same_v<Comp, std::less<T>> &&
                std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && sizeof(T) >= 2 &&
                !(std::is_floating_point_v<T> && sizeof(T) == 2)) {
    add(vqsort_peer, [](T* first, T* last, const Comp&) {
      vqsort_sorter()(first, static_cast<std::size_t>(last - first), hwy::SortAscending());
    });
    // What a user would write to use every thread: each thread vqsorts its share, then the
    // sorted shares are merged pairwise (std::merge with std::execution::par where the build has
    // it) through a scratch buffer, round by round.
    // Its scratch and one sorter per thread: allocated once, untimed.
    std::shared_ptr<T[]> tmp = make_buffer<T>(n);
    const int parts = peer_threads();
    auto sorters = std::make_shared<std::vector<hwy::Sorter>>(static_cast<std::size_t>(parts));
    add(vqsort_halves, [tmp, parts, sorters](T* first, T* last, const Comp& cmp) {
      const std::int64_t len = last - first;
      auto bound = [len, parts](int k) { return len * k / parts; };
      auto sort_part = [&](int k) {
        (*sorters)[static_cast<std::size_t>(k)](first + bound(k),
                                                static_cast<std::size_t>(bound(k + 1) - bound(k)),
                                                hwy::SortAscending());
      };
      std::vector<std::thread> threads;
      for (int k = 1; k < parts; ++k) threads.emplace_back(sort_part, k);
      sort_part(0);
      for (std::thread& t : threads) t.join();
      T* src = first;
      T* dst = tmp.get();
      for (int width = 1; width < parts; width *= 2) {
        for (int k = 0; k < parts; k += 2 * width) {
          const std::int64_t lo = bound(k), mid = bound(std::min(k + width, parts)),
                             hi = bound(std::min(k + 2 * width, parts));
          std::merge(AK_BENCH_PAR src + lo, src + mid, src + mid, src + hi, dst + lo, cmp);
        }
        std::swap(src, dst);
      }
      if (src != first) parallel_copy(first, src, len);
    });
  }
#endif
  if constexpr ((Peers & peer_plain_lsd8) != 0 && std::is_same_v<Comp, std::less<T>> &&
                std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8)) {
    std::shared_ptr<T[]> tmp = make_buffer<T>(n);  // its scratch, allocated once, untimed
    add(plain_lsd8,
        [tmp](T* first, T* last, const Comp&) { plain_lsd8_sort(first, tmp.get(), last - first); });
  }
}

// Every impl sorts its own copy of the keys, restored before each run; ak's copy and the
// peers' copy are compared after each peer's first run.
template <class T>
struct sort_buffers {
  std::int64_t n;
  std::shared_ptr<T[]> input = make_buffer<T>(n), ak = make_buffer<T>(n), peer = make_buffer<T>(n);
};

// A case that sorts n elements of T in place: the data read and written once counted.
template <class T>
bench_case in_place_sort_case(const std::string& op, std::int64_t n) {
  bench_case c;
  c.op = op;
  c.elements = n;
  c.bytes = 2.0 * static_cast<double>(n) * sizeof(T);
  c.writes = true;
  c.input_bytes = static_cast<double>(n) * sizeof(T);
  return c;
}

// stable = false (only with a custom lt): ak is asked for an unstable sort, like its peers'.
// d: the keys' distribution (`--dist`).
template <class T, class Lt>
bench_case sort_values(const std::string& op, std::int64_t n, Lt lt, bool stable = true,
                       key_dist d = key_dist::uniform) {
  auto b = std::make_shared<sort_buffers<T>>(sort_buffers<T>{n});
  fill_keys(b->input.get(), n, 7, d);
  const T* in = b->input.get();
  T* wa = b->ak.get();
  T* wp = b->peer.get();
  bench_case c = in_place_sort_case<T>(op, n);
  auto check = [b, n] { return compare_exact(b->ak.get(), b->peer.get(), n); };
  auto restore_peer = [b, in, wp, n] { parallel_copy(wp, in, n); };
  auto restore_ak = [b, in, wa, n] { parallel_copy(wa, in, n); };
  if constexpr (std::is_same_v<Lt, std::less<T>>) {
    c.note =
        "in place; ak::sort_inplace(v) (the default: radix sort for numbers); peers with "
        "std::less; vqsort (highway) on one thread as it ships, and `vqsort halves + merge`: each "
        "of the peers' threads vqsorts its share, then std::merge(par) pairwise; the plain LSD "
        "radix sort: every 8-bit digit counted and scattered per thread, no pass skipped (the "
        "yardstick of the CPU sort targets)";
    c.ak = {"ak", restore_ak, [b, wa, n] { ak::sort_inplace(ak::view<T>(wa, ak::shape{n})); }, {}};
    add_sort_peers<every_sort_peer>(c, wp, n, lt, restore_peer, check, b);
  } else {
    c.note = stable ? "descending through a comparator lambda, in place: ak::sort_inplace(v, "
                      "{.lt = [](T a, T b) { return a > b; }}) (on cpu the stable sample sort, the "
                      "default for a custom order); peers with the same lambda"
                    : "descending through a comparator lambda, in place, unstable (the contract "
                      "of ips4o, std::sort and pdqsort): ak::sort_inplace(v, {.lt = [](T a, T b) "
                      "{ return a > b; }, .stable = false}) (on cpu the same stable sample sort); "
                      "peers with the same lambda";
    c.ak = {"ak",
            restore_ak,
            [b, wa, n, lt, stable] {
              ak::sort_inplace(ak::view<T>(wa, ak::shape{n}),
                               ak::sort_options<ak::identity, Lt>{.lt = lt, .stable = stable});
            },
            {}};
    add_sort_peers<peer_std_par | peer_tbb | peer_ips4o | peer_pdqsort>(c, wp, n, lt, restore_peer,
                                                                        check, b);
  }
  return c;
}

}  // namespace ak::tool::bench
