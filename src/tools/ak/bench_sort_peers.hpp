// The sorting peers of `ak bench`, each given ak's thread count: std::sort(std::execution::par),
// tbb::parallel_sort, ips4o::parallel::sort (its std::thread pool), Boost.Sort's
// block_indirect_sort and parallel_stable_sort, and pdqsort (sequential). CMake defines
// AK_BENCH_HAVE_<PEER> for those whose headers it found.
#pragma once

#include <tbb/parallel_sort.h>

#include <algorithm>
#include <cstdint>

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

// Which peers a case runs (a compile-time set, so that a case instantiates only its peers).
enum sort_peer : unsigned {
  peer_std_par = 1,
  peer_tbb = 2,
  peer_ips4o = 4,
  peer_boost_bis = 8,
  peer_boost_pss = 16,
  peer_pdqsort = 32,
  every_sort_peer = 63,
};

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
}

}  // namespace ak::tool::bench
