// Searching a sorted array spread over ranks (rank 0's part first, as ak::dist::sort leaves it):
// each rank asks its own queries and gets their global indices. Every rank searches its part for
// every rank's queries with ak (on the part's device), and one allreduce adds up how many
// elements of each part precede each query: that sum is the query's global index. Each rank
// therefore searches all P ranks' queries: for few queries per element, as in most uses.
//
//   auto at = ak::dist::searchsortedfirst(comm, sorted_part, my_queries);   // global, int64
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ak/algorithms/options.hpp"
#include "ak/algorithms/search.hpp"
#include "ak/dist/detail/collectives.hpp"

namespace ak::dist {

namespace detail {

template <class T, class By, class Lt>
array<std::int64_t> searchsorted_front(const communicator& comm, view<const T> sorted,
                                       view<const T> queries, bool last,
                                       const search_options<By, Lt>& o, const char* function) {
  const std::uint64_t sig =
      signature(function).add(typeid(T)).add(typeid(By)).add(typeid(Lt)).add(o.rev).value();
  const on_host<T> my_queries = agreed(comm, function, sig, [&] {
    check_local(function, "sorted", sorted);
    check_local(function, "queries", queries);
    return on_host<T>(queries);
  });
  std::vector<std::int64_t> counts;
  const std::vector<T> every = allgatherv(comm, my_queries.elements(), &counts, function);
  // For each query of every rank: the elements of this part before it (searchsortedfirst: less
  // than it; searchsortedlast: not greater).
  std::vector<std::int64_t> before = agreed(comm, function, sig, [&] {
    const array<T> q = from_host(std::span<const T>(every), sorted.memory());
    array<std::int64_t> at =
        last ? ak::searchsortedlast(sorted, q, o) : ak::searchsortedfirst(sorted, q, o);
    std::vector<std::int64_t> h = at.to_vector();
    if (last)
      for (std::int64_t& x : h) ++x;
    return h;
  });
  allreduce_sum(comm, before);
  std::int64_t first = 0;
  for (int r = 0; r < comm.rank(); ++r) first += counts[static_cast<std::size_t>(r)];
  std::vector<std::int64_t> mine(before.begin() + first, before.begin() + first + queries.size());
  if (last)
    for (std::int64_t& x : mine) --x;
  return from_host(std::span<const std::int64_t>(mine), queries.memory());
}

}  // namespace detail

// For each of this rank's queries, the global index of the first element of the distributed
// sorted array that is not less than it (the global size when there is none).
template <class Sorted, class Queries, class By = identity, class Lt = isless>
array<std::int64_t> searchsortedfirst(const communicator& comm, const Sorted& sorted,
                                      const Queries& queries,
                                      const search_options<By, Lt>& o = {}) {
  return detail::searchsorted_front(comm, ak::detail::as_const_view(sorted),
                                    ak::detail::as_const_view(queries), false, o,
                                    "ak::dist::searchsortedfirst");
}

// For each query, the global index of the last element that is not greater than it (-1 when
// there is none).
template <class Sorted, class Queries, class By = identity, class Lt = isless>
array<std::int64_t> searchsortedlast(const communicator& comm, const Sorted& sorted,
                                     const Queries& queries, const search_options<By, Lt>& o = {}) {
  return detail::searchsorted_front(comm, ak::detail::as_const_view(sorted),
                                    ak::detail::as_const_view(queries), true, o,
                                    "ak::dist::searchsortedlast");
}

}  // namespace ak::dist
