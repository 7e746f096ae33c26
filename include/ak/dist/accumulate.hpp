// Scans across ranks: the global array is the ranks' parts one after another (rank 0 first), and
// each rank gets the scan of its own part within it. Each rank reduces its part with ak, one
// collective gathers the totals, and each rank scans its part with ak, starting from init
// combined with the totals of the ranks before it (in rank order): two local passes over the
// data (a reduction, then a scan) and one collective, whatever the number of ranks. op must be
// associative.
//
//   auto c = ak::dist::cumsum(comm, local);   // this rank's part of the global inclusive sum
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ak/algorithms/accumulate.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/algorithms/reduce.hpp"
#include "ak/dist/detail/collectives.hpp"

namespace ak::dist {

namespace detail {

template <class Init, class T, class Op>
array<Init> accumulate_front(const communicator& comm, view<const T> v, const Op& op,
                             const accumulate_options<Init>& o, const char* function) {
  const std::uint64_t sig = signature(function)
                                .add(typeid(T))
                                .add(typeid(Init))
                                .add(typeid(Op))
                                .add(o.init.has_value())
                                .add(o.inclusive)
                                .add(o.dim.value_or(0))
                                .value();
  const maybe<Init> total = agreed(comm, function, sig, [&] {
    check_local(function, "local", v);
    if (o.dim && *o.dim != 0)
      throw argument_error(function, "dim", "0 (the parts are 1-d)", std::to_string(*o.dim));
    if (!o.temp.empty())
      throw argument_error(function, "temp", "empty (ak::dist allocates its own)",
                           std::to_string(o.temp.size()) + " bytes");
    maybe<Init> m{};
    if (v.size() == 0) return m;
    m.value = ak::reduce(v, op, reduce_options<Init>{});
    m.has = 1;
    return m;
  });
  const std::vector<maybe<Init>> totals = allgather(comm, total);
  // init, then the totals of the ranks before this one.
  std::optional<Init> start = o.init;
  if (const auto before = fold(totals, op, static_cast<std::size_t>(comm.rank())))
    start = start ? static_cast<Init>(op(*start, *before)) : *before;
  return agreed(comm, function, sig, [&] {
    return ak::accumulate(
        v, op,
        accumulate_options<Init>{.init = start, .inclusive = o.inclusive, .tuning = o.tuning});
  });
}

}  // namespace detail

// This rank's part of the scan of the global array: inclusive (default) or exclusive, from init
// (which may be omitted when op has a known neutral element, as for ak::accumulate).
template <class Src, class Op, class Init = ak::detail::element_t<const Src>>
array<Init> accumulate(const communicator& comm, const Src& local, Op op,
                       const accumulate_options<Init>& o = {}) {
  return detail::accumulate_front(comm, ak::detail::as_const_view(local), op, o,
                                  "ak::dist::accumulate");
}

template <class Src, class Init = ak::detail::element_t<const Src>>
array<Init> cumsum(const communicator& comm, const Src& local,
                   const accumulate_options<Init>& o = {}) {
  return detail::accumulate_front(comm, ak::detail::as_const_view(local), plus{}, o,
                                  "ak::dist::cumsum");
}

}  // namespace ak::dist
