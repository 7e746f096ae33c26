// Searching a sorted array spread over ranks (rank 0's part first, as ak::dist::sort leaves it):
// each rank asks its own queries and gets their global indices. Each query goes to the one rank
// whose part holds its answer: the first non-empty part whose last element is not before the
// query (searchsortedfirst) or is after it (searchsortedlast), found from every part's last
// element (one allgather). That rank searches its part with ak (on the part's device) and sends
// back its offset plus the local answer; a query that no part answers is answered at home (the
// global size, or its last index). Two all-to-all exchanges of the queries and answers, whatever
// the number of ranks.
//
//   auto at = ak::dist::searchsortedfirst(comm, sorted_part, my_queries);   // global, int64
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
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
  const ak::detail::sort_less<const By&, const Lt&> less{o.by, o.lt, o.rev};
  // This rank's queries on the host, and its part's size and last element.
  struct end {
    maybe<T> last;
    std::int64_t size;
  };
  struct local {
    on_host<T> queries;
    end mine;
  };
  const local here = agreed(comm, function, sig, [&] {
    check_local(function, "sorted", sorted);
    check_local(function, "queries", queries);
    end e{};
    e.size = sorted.size();
    if (e.size > 0) {
      e.last.has = 1;
      const view<const T> tail = sorted.slice(0, e.size - 1, e.size);
      tail.memory().copy_to_host(&e.last.value, tail.data(), sizeof(T));
    }
    return local{on_host<T>(queries), e};
  });
  const std::vector<end> ends = allgather(comm, here.mine);
  std::vector<std::int64_t> offsets(ends.size() + 1, 0);
  std::vector<std::size_t> holders;  // the ranks with elements, in order
  for (std::size_t r = 0; r < ends.size(); ++r) {
    offsets[r + 1] = offsets[r] + ends[r].size;
    if (ends[r].size > 0) holders.push_back(r);
  }
  const std::int64_t total = offsets.back();

  // Where each query goes: the first holder whose last element answers it, or none.
  const std::span<const T> q = here.queries.elements();
  const auto P = static_cast<std::size_t>(comm.size());
  std::vector<std::int64_t> owner(q.size(), -1), send_counts(P, 0);
  for (std::size_t i = 0; i < q.size(); ++i) {
    const auto it = std::partition_point(holders.begin(), holders.end(), [&](std::size_t r) {
      const T& l = ends[r].last.value;
      return last ? !less(q[i], l) : less(l, q[i]);
    });
    if (it == holders.end()) continue;
    owner[i] = static_cast<std::int64_t>(*it);
    ++send_counts[*it];
  }
  // The queries in the order of their owners.
  std::vector<std::int64_t> at(P + 1, 0);
  for (std::size_t r = 0; r < P; ++r) at[r + 1] = at[r] + send_counts[r];
  std::vector<T> outgoing(static_cast<std::size_t>(at[P]));
  std::vector<std::int64_t> slot(q.size(), -1);
  {
    std::vector<std::int64_t> next(at.begin(), at.end() - 1);
    for (std::size_t i = 0; i < q.size(); ++i) {
      if (owner[i] < 0) continue;
      slot[i] = next[static_cast<std::size_t>(owner[i])]++;
      outgoing[static_cast<std::size_t>(slot[i])] = q[i];
    }
  }
  const std::vector<std::int64_t> recv_counts = exchange_counts(comm, send_counts);
  auto incoming = agreed(comm, function, sig, [&] {
    return prepare_landing<T>(comm, function, send_counts, recv_counts, ak::host_memory());
  });
  const array<T> asked = exchange_into(comm, std::span<const T>(outgoing), send_counts, recv_counts,
                                       std::move(incoming));
  // Answer what was asked of this part, and make room for the answers coming back.
  auto [answers, returned] = agreed(comm, function, sig, [&] {
    const array<T> on_device = from_host(
        std::span<const T>(asked.data(), static_cast<std::size_t>(asked.size())), sorted.memory());
    std::vector<std::int64_t> found = (last ? ak::searchsortedlast(sorted, on_device, o)
                                            : ak::searchsortedfirst(sorted, on_device, o))
                                          .to_vector();
    for (std::int64_t& x : found) x += offsets[static_cast<std::size_t>(comm.rank())];
    return std::pair(
        std::move(found),
        prepare_landing<std::int64_t>(comm, function, recv_counts, send_counts, ak::host_memory()));
  });
  const array<std::int64_t> back = exchange_into(comm, std::span<const std::int64_t>(answers),
                                                 recv_counts, send_counts, std::move(returned));
  std::vector<std::int64_t> result(q.size());
  for (std::size_t i = 0; i < q.size(); ++i)
    result[i] = slot[i] >= 0 ? back.data()[slot[i]] : (last ? total - 1 : total);
  return from_host(std::span<const std::int64_t>(result), queries.memory());
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
