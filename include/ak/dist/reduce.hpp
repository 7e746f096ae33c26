// Reductions across ranks: each rank reduces its part with ak on its own device, then one
// collective gathers the partial results and every rank combines them in rank order, so the
// result is the same on every rank and the same from run to run. The operator must be
// associative (as for ak::reduce); it need not be commutative. Floating-point sums group the
// elements by rank, so they may differ from one machine's ak::sum in the last bits.
//
//   double total = ak::dist::sum(comm, local);            // every rank gets it
//   std::int64_t n = ak::dist::global_size(comm, local);
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "ak/algorithms/options.hpp"
#include "ak/algorithms/reduce.hpp"
#include "ak/dist/detail/collectives.hpp"

namespace ak::dist {

// The number of elements of all ranks' parts together.
template <class Src>
std::int64_t global_size(const communicator& comm, const Src& local) {
  return detail::allreduce_sum(comm, ak::detail::as_const_view(local).size());
}

// The global index of this rank's first element: the sizes of the ranks before it, summed.
template <class Src>
std::int64_t offset(const communicator& comm, const Src& local) {
  const auto sizes = detail::allgather(comm, ak::detail::as_const_view(local).size());
  std::int64_t before = 0;
  for (int r = 0; r < comm.rank(); ++r) before += sizes[static_cast<std::size_t>(r)];
  return before;
}

namespace detail {

template <class Init, class T, class F, class Op>
Init mapreduce_front(const communicator& comm, view<const T> v, const F& f, const Op& op,
                     const reduce_options<Init>& o, const char* function) {
  const std::uint64_t sig = signature(function)
                                .add(typeid(T))
                                .add(typeid(Init))
                                .add(typeid(F))
                                .add(typeid(Op))
                                .add(o.init.has_value())
                                .add(o.neutral.has_value())
                                .value();
  // This rank's partial result, without init (which is combined once, at the end).
  const maybe<Init> mine = agreed(comm, function, sig, [&] {
    check_local(function, "local", v);
    maybe<Init> m{};
    if (v.size() == 0) return m;
    m.value =
        ak::mapreduce(v, f, op, reduce_options<Init>{.neutral = o.neutral, .tuning = o.tuning});
    m.has = 1;
    return m;
  });
  const std::vector<maybe<Init>> all = allgather(comm, mine);
  const std::optional<Init> folded = fold(all, op, all.size());
  if (!folded) {
    // No rank has an element: what ak says of an empty array (init, the neutral element, or an
    // error), raised on every rank if on any.
    return agreed(comm, function, sig, [&] { return ak::mapreduce(v, f, op, o); });
  }
  return o.init ? static_cast<Init>(op(*o.init, *folded)) : *folded;
}

}  // namespace detail

// op over f(x) of every element of every rank, combined once with init.
template <class Src, class F, class Op,
          class Init = std::remove_cvref_t<
              std::invoke_result_t<F&, const ak::detail::element_t<const Src>&>>>
Init mapreduce(const communicator& comm, const Src& local, F f, Op op,
               const reduce_options<Init>& o = {}) {
  return detail::mapreduce_front(comm, ak::detail::as_const_view(local), f, op, o,
                                 "ak::dist::mapreduce");
}

template <class Src, class Op, class Init = ak::detail::element_t<const Src>>
Init reduce(const communicator& comm, const Src& local, Op op, const reduce_options<Init>& o = {}) {
  return detail::mapreduce_front(comm, ak::detail::as_const_view(local), identity{}, op, o,
                                 "ak::dist::reduce");
}

template <class Src, class Init = ak::detail::element_t<const Src>>
Init sum(const communicator& comm, const Src& local, const reduce_options<Init>& o = {}) {
  return detail::mapreduce_front(comm, ak::detail::as_const_view(local), identity{}, plus{}, o,
                                 "ak::dist::sum");
}

template <class Src, class Init = ak::detail::element_t<const Src>>
Init minimum(const communicator& comm, const Src& local, const reduce_options<Init>& o = {}) {
  return detail::mapreduce_front(comm, ak::detail::as_const_view(local), identity{}, minimum_op{},
                                 o, "ak::dist::minimum");
}

template <class Src, class Init = ak::detail::element_t<const Src>>
Init maximum(const communicator& comm, const Src& local, const reduce_options<Init>& o = {}) {
  return detail::mapreduce_front(comm, ak::detail::as_const_view(local), identity{}, maximum_op{},
                                 o, "ak::dist::maximum");
}

namespace detail {

// count, any and all: this rank's count by `local_count`, summed over ranks.
template <class T, class Pred, class Local>
std::int64_t count_front(const communicator& comm, view<const T> v, const Pred& pred,
                         const char* function, const Local& local_count) {
  const auto sig = signature(function).add(typeid(T)).add(typeid(Pred)).value();
  const std::int64_t mine = agreed(comm, function, sig, [&] {
    check_local(function, "local", v);
    return local_count(v, pred);
  });
  return allreduce_sum(comm, mine);
}

}  // namespace detail

// The elements of every rank for which pred holds (non-zero ones by default).
template <class Src, class Pred = ak::detail::truthy>
std::int64_t count(const communicator& comm, const Src& local, Pred pred = {}) {
  return detail::count_front(comm, ak::detail::as_const_view(local), pred, "ak::dist::count",
                             [](const auto& v, const Pred& p) { return ak::count(v, p); });
}

// Whether pred holds for some element of some rank.
template <class Src, class Pred = ak::detail::truthy>
bool any(const communicator& comm, const Src& local, Pred pred = {}) {
  return detail::count_front(comm, ak::detail::as_const_view(local), pred, "ak::dist::any",
                             [](const auto& v, const Pred& p) -> std::int64_t {
                               return ak::any(v, p) ? 1 : 0;
                             }) > 0;
}

// Whether pred holds for every element of every rank (true when there are none).
template <class Src, class Pred = ak::detail::truthy>
bool all(const communicator& comm, const Src& local, Pred pred = {}) {
  return detail::count_front(comm, ak::detail::as_const_view(local), pred, "ak::dist::all",
                             [](const auto& v, const Pred& p) -> std::int64_t {
                               return ak::all(v, p) ? 0 : 1;
                             }) == 0;
}

}  // namespace ak::dist
