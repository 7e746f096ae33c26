// Sorting across ranks: a sample sort whose splitters are exact.
//
//   auto sorted = ak::dist::sort(comm, local);                       // even split over ranks
//   auto [k, v] = ak::dist::sort_by_key(comm, keys, values, {.rev = true});
//   auto perm = ak::dist::sortperm(comm, local);                     // global indices
//
// The global array is the ranks' parts one after another. The result is the global array sorted
// by lt(by(a), by(b)) (reversed when rev), spread over the ranks evenly (the first N % P ranks
// hold one element more) or, with balance::keep_sizes, in the input's per-rank sizes.
//
// The algorithm (docs/distributed.md):
//   1. Each rank sorts its part with ak (stably, on the part's device).
//   2. Splitters: the elements at the global positions where each rank's output starts, found
//      exactly by a multi-selection. Elements are ordered by (key, rank, index), a total order,
//      so equal keys are split between ranks like any others: all-equal keys and heavy
//      duplicates still balance. Each round, every rank offers a few evenly spaced elements of
//      each window that still holds a splitter; one allgather spreads them, one allreduce counts
//      how many elements precede each offered element globally, and each window shrinks to the
//      offered elements around its target. A rank's part of a window that is no larger than its
//      offer is offered whole, so each search ends, in about log(N) / log(sample) rounds.
//   3. One all-to-all exchange sends each rank the runs that belong to it.
//   4. Each rank makes one run of what it received (stably: the runs arrive in rank order):
//      merged in host memory, sorted by ak on a device.
// Equal keys keep their global input order (rank, then index): the sort is stable. The result
// depends only on the data and the number of ranks. Data on a device is sorted there and staged
// through host memory for the exchange.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "ak/algorithms/options.hpp"
#include "ak/algorithms/sort.hpp"
#include "ak/dist/detail/collectives.hpp"
#include "ak/dist/reduce.hpp"

namespace ak::dist {

// Where the sorted elements go: evenly over the ranks, or as many to each rank as it gave.
enum class balance { even, keep_sizes };

// What one call did on this rank (for benchmarks): seconds per phase, the splitter search's
// rounds, the collectives, and what this rank sent to other ranks.
struct sort_stats {
  double local_sort_seconds = 0;
  double splitter_seconds = 0;
  double exchange_seconds = 0;
  double merge_seconds = 0;
  std::int64_t rounds = 0;             // splitter search rounds
  std::int64_t collectives = 0;        // collective calls in all
  std::int64_t elements_sent = 0;      // to other ranks, in the exchange
  std::int64_t bytes_sent = 0;         // to other ranks, in every collective of the call
                                       // (communicator::bytes_sent)
  std::int64_t elements_received = 0;  // this rank's output size
};

// ak::sort_options' order fields, then where the result goes, then an optional report.
template <class By = identity, class Lt = isless>
struct sort_options {
  By by{};
  Lt lt{};
  bool rev = false;
  dist::balance balance = dist::balance::even;
  // Elements offered per window and round by all ranks together: each rank offers
  // ceil(sample / P) of its part of the window, at least 2, so a round's collectives carry about
  // sample * (P - 1) elements whatever P is.
  std::int64_t sample = 256;
  sort_stats* stats = nullptr;
};

namespace detail {

using clock = std::chrono::steady_clock;
inline double seconds_since(clock::time_point t0) {
  return std::chrono::duration<double>(clock::now() - t0).count();
}

// An element offered as a splitter: its key and its place in the (key, rank, index) order.
template <class T>
struct candidate {
  T key;
  std::int64_t index;
  std::int32_t rank;
};

// The positions in this rank's sorted part where the output of each rank starts: P + 1 values,
// from 0 to n. targets[j] is the global position where rank j's output starts (targets[0] = 0).
template <class T, class Less>
std::vector<std::int64_t> find_splits(const communicator& comm, std::span<const T> sorted,
                                      const std::vector<std::int64_t>& targets, std::int64_t total,
                                      const Less& less, std::int64_t sample, sort_stats& stats) {
  const auto P = static_cast<std::size_t>(comm.size());
  const auto n = static_cast<std::int64_t>(sorted.size());
  const int me = comm.rank();
  std::vector<std::int64_t> split(P + 1, 0);
  split[P] = n;
  // Window [lo, hi) of this rank's part that holds target j's element; a target at 0 or at the
  // end needs no search.
  std::vector<std::int64_t> lo(P, 0), hi(P, n);
  std::vector<char> open(P, 0);
  const std::int64_t per = std::max<std::int64_t>(2, (sample + comm.size() - 1) / comm.size());
  for (std::size_t j = 1; j < P; ++j) {
    if (targets[j] <= 0)
      split[j] = 0;
    else if (targets[j] >= total)
      split[j] = n;
    else
      open[j] = 1;
  }
  // Elements of this rank before c in the (key, rank, index) order.
  const auto before = [&](const candidate<T>& c) -> std::int64_t {
    if (c.rank == me) return c.index;
    const T* p = c.rank > me ? std::upper_bound(sorted.data(), sorted.data() + n, c.key, less)
                             : std::lower_bound(sorted.data(), sorted.data() + n, c.key, less);
    return p - sorted.data();
  };
  while (std::any_of(open.begin(), open.end(), [](char o) { return o != 0; })) {
    // Every round shrinks each open window, by about sample times when the order is a strict
    // weak order; an order that is not can keep a window open forever. The same decision on
    // every rank (the rounds are global).
    if (++stats.rounds > 200)
      throw dist_error(
          "ak::dist::sort: the splitter search did not end in 200 rounds; is lt(by(a), "
          "by(b)) a strict weak order?");
    // This rank's offer: `per` evenly spaced elements of each distinct open window.
    std::vector<candidate<T>> offer;
    std::vector<std::pair<std::int64_t, std::int64_t>> windows;
    for (std::size_t j = 1; j < P; ++j)
      if (open[j]) windows.emplace_back(lo[j], hi[j]);
    std::sort(windows.begin(), windows.end());
    windows.erase(std::unique(windows.begin(), windows.end()), windows.end());
    for (const auto& [a, b] : windows) {
      const std::int64_t m = b - a;
      const std::int64_t take = std::min(m, per);
      for (std::int64_t i = 0; i < take; ++i) {
        const std::int64_t at = a + (m <= per ? i : i * m / per);
        offer.push_back(candidate<T>{sorted[static_cast<std::size_t>(at)], at, me});
      }
    }
    const std::vector<candidate<T>> offered =
        allgatherv(comm, std::span<const candidate<T>>(offer));
    std::vector<std::int64_t> mine(offered.size());
    for (std::size_t i = 0; i < offered.size(); ++i) mine[i] = before(offered[i]);
    std::vector<std::int64_t> global = mine;
    allreduce_sum(comm, global);
    for (std::size_t j = 1; j < P; ++j) {
      if (!open[j]) continue;
      // The offered elements nearest the target from below (at or before it) and above.
      std::int64_t below = -1, above = -1;
      for (std::size_t i = 0; i < offered.size(); ++i) {
        if (global[i] <= targets[j]) {
          if (below < 0 || global[i] > global[static_cast<std::size_t>(below)])
            below = static_cast<std::int64_t>(i);
        } else if (above < 0 || global[i] < global[static_cast<std::size_t>(above)]) {
          above = static_cast<std::int64_t>(i);
        }
      }
      if (below >= 0 && global[static_cast<std::size_t>(below)] == targets[j]) {
        split[j] = mine[static_cast<std::size_t>(below)];
        open[j] = 0;
        continue;
      }
      if (below >= 0) lo[j] = std::max(lo[j], mine[static_cast<std::size_t>(below)]);
      if (above >= 0) hi[j] = std::min(hi[j], mine[static_cast<std::size_t>(above)]);
    }
  }
  return split;
}

// Merges the sorted runs [bounds[i], bounds[i + 1]) of keys (and values with them, when values is
// not null) into one, in place: adjacent runs pairwise, ceil(log2(runs)) passes through a buffer.
// Stable: of equal keys, the earlier run's come first.
template <class K, class W, class Less>
void merge_runs(K* keys, W* values, std::vector<std::int64_t> bounds, const Less& less) {
  const std::int64_t n = bounds.back();
  std::vector<K> key_buffer(static_cast<std::size_t>(n));
  std::vector<W> value_buffer(values != nullptr ? static_cast<std::size_t>(n) : 0);
  K* from_k = keys;
  K* to_k = key_buffer.data();
  W* from_v = values;
  W* to_v = value_buffer.data();
  while (bounds.size() > 2) {
    std::vector<std::int64_t> merged{0};
    for (std::size_t r = 0; r + 1 < bounds.size(); r += 2) {
      const std::int64_t a = bounds[r], m = bounds[r + 1];
      const std::int64_t b = r + 2 < bounds.size() ? bounds[r + 2] : m;
      std::int64_t i = a, j = m, out = a;
      while (i < m && j < b) {
        const bool right = less(from_k[j], from_k[i]);  // ties take the left run's
        const std::int64_t take = right ? j++ : i++;
        to_k[out] = from_k[take];
        if (values != nullptr) to_v[out] = from_v[take];
        ++out;
      }
      for (; i < m; ++i, ++out) {
        to_k[out] = from_k[i];
        if (values != nullptr) to_v[out] = from_v[i];
      }
      for (; j < b; ++j, ++out) {
        to_k[out] = from_k[j];
        if (values != nullptr) to_v[out] = from_v[j];
      }
      merged.push_back(b);
    }
    bounds = std::move(merged);
    std::swap(from_k, to_k);
    std::swap(from_v, to_v);
  }
  if (from_k != keys) {
    std::copy(from_k, from_k + n, keys);
    if (values != nullptr) std::copy(from_v, from_v + n, values);
  }
}

// Where rank j's output starts in the global sorted order.
inline std::vector<std::int64_t> output_starts(balance b, const std::vector<std::int64_t>& sizes) {
  const std::size_t P = sizes.size();
  std::int64_t total = 0;
  for (const std::int64_t s : sizes) total += s;
  std::vector<std::int64_t> starts(P + 1, 0);
  for (std::size_t j = 1; j <= P; ++j) {
    if (b == balance::keep_sizes) {
      starts[j] = starts[j - 1] + sizes[j - 1];
    } else {
      const auto p = static_cast<std::int64_t>(P), jj = static_cast<std::int64_t>(j);
      starts[j] = jj * (total / p) + std::min(jj, total % p);
    }
  }
  return starts;
}

// Sorts keys (and values with them, when V is not void) across the ranks.
template <class K, class V, class By, class Lt>
auto sort_front(const communicator& comm, view<const K> keys, const view<const V>* values,
                const sort_options<By, Lt>& o, const char* function) {
  constexpr bool with_values = !std::is_void_v<V>;
  sort_stats local_stats;
  sort_stats& stats = o.stats != nullptr ? *o.stats : local_stats;
  stats = sort_stats{};
  const std::int64_t collectives_before = comm.collectives();
  const std::int64_t bytes_before = comm.bytes_sent();
  const std::uint64_t sig = signature(function)
                                .add(typeid(K))
                                .add(typeid(V))
                                .add(typeid(By))
                                .add(typeid(Lt))
                                .add(o.rev)
                                .add(static_cast<std::int64_t>(o.balance))
                                .add(o.sample)
                                .value();
  const ak::sort_options<By, Lt> local_order{.by = o.by, .lt = o.lt, .rev = o.rev, .stable = true};
  const ak::detail::sort_less<const By&, const Lt&> less{o.by, o.lt, o.rev};

  // 1. This rank's part, sorted on its device, and a host copy of its keys where the host cannot
  // read the device (the splitter search reads them, and the exchange sends them).
  using W = std::conditional_t<with_values, V, char>;
  struct sorted_part {
    array<K> keys;
    array<W> values;
    on_host<K> host_keys;
  };
  auto t0 = clock::now();
  sorted_part part = agreed(comm, function, sig, [&] {
    check_local(function, "keys", keys);
    if (o.sample < 2)
      throw argument_error(function, "sample", "at least 2", std::to_string(o.sample));
    array<K> k;
    array<W> v;
    if constexpr (with_values) {
      check_local(function, "values", *values);
      if (values->size() != keys.size())
        throw argument_error(function, "values", std::to_string(keys.size()) + " elements",
                             std::to_string(values->size()));
      k = ak::copy(keys);
      v = ak::copy(*values);
      ak::sort_by_key(k, v, local_order);
    } else {
      k = ak::sort(keys, local_order);
    }
    on_host<K> h(std::as_const(k).view());
    return sorted_part{std::move(k), std::move(v), std::move(h)};
  });
  stats.local_sort_seconds = seconds_since(t0);

  // 2. Splitters.
  t0 = clock::now();
  const std::span<const K> sorted = part.host_keys.elements();
  const std::vector<std::int64_t> sizes = allgather(comm, keys.size());
  const std::vector<std::int64_t> starts = output_starts(o.balance, sizes);
  const std::int64_t total = starts.back();
  const std::vector<std::int64_t> split =
      find_splits(comm, sorted, starts, total, less, o.sample, stats);
  stats.splitter_seconds = seconds_since(t0);

  // 3. The exchange: to rank j, the elements between split[j] and split[j + 1].
  t0 = clock::now();
  const auto P = static_cast<std::size_t>(comm.size());
  std::vector<std::int64_t> send_counts(P);
  for (std::size_t j = 0; j < P; ++j) {
    send_counts[j] = split[j + 1] - split[j];
    if (static_cast<int>(j) != comm.rank()) stats.elements_sent += send_counts[j];
  }
  std::vector<std::int64_t> recv_counts = exchange_counts(comm, send_counts);
  const auto me = static_cast<std::size_t>(comm.rank());
  const auto runs =
      std::count_if(recv_counts.begin(), recv_counts.end(), [](std::int64_t c) { return c != 0; });
  // A rank that keeps its whole part and receives nothing keeps its arrays as they are (it still
  // takes part in the collective, with nothing to send).
  std::int64_t received = 0;
  for (const std::int64_t c : recv_counts) received += c;
  const bool keeps_all =
      send_counts[me] == keys.size() && recv_counts[me] == keys.size() && received == keys.size();
  if (keeps_all) send_counts[me] = recv_counts[me] = 0;
  // Where the exchange lands, made on every rank before any rank sends (or on none).
  auto [key_landing, value_landing, host_values] = agreed(comm, function, sig, [&] {
    auto k = prepare_landing<K>(comm, function, send_counts, recv_counts, keys.memory());
    landing<W> v;
    std::optional<on_host<W>> h;
    if constexpr (with_values) {
      v = prepare_landing<W>(comm, function, send_counts, recv_counts, values->memory());
      if (!keeps_all) h.emplace(std::as_const(part.values).view());  // else nothing to send
    }
    return std::tuple(std::move(k), std::move(v), std::move(h));
  });
  array<K> out_keys = exchange_into(comm, sorted, send_counts, recv_counts, std::move(key_landing));
  array<W> out_values;
  if constexpr (with_values)
    out_values = exchange_into(comm, host_values ? host_values->elements() : std::span<const W>(),
                               send_counts, recv_counts, std::move(value_landing));
  if (keeps_all) {
    out_keys = std::move(part.keys);
    if constexpr (with_values) out_values = std::move(part.values);
  }
  part.keys = {};
  part.values = {};
  stats.exchange_seconds = seconds_since(t0);

  // 4. The runs received, made one (stably: they came in rank order); one run is sorted already.
  // In host memory they are merged, adjacent pairs at a time; on a device, sorted by ak there.
  t0 = clock::now();
  agreed(comm, function, sig, [&] {
    if (runs <= 1) return;
    bool host = out_keys.memory().host_accessible();
    if constexpr (with_values) host = host && out_values.memory().host_accessible();
    if (host) {
      std::vector<std::int64_t> bounds{0};
      for (const std::int64_t c : recv_counts)
        if (c != 0) bounds.push_back(bounds.back() + c);
      W* v = nullptr;
      if constexpr (with_values) v = out_values.data();
      merge_runs(out_keys.data(), v, bounds, less);
    } else if constexpr (with_values) {
      ak::sort_by_key(out_keys, out_values, local_order);
    } else {
      ak::sort_inplace(out_keys, local_order);
    }
  });
  stats.merge_seconds = seconds_since(t0);
  stats.elements_received = out_keys.size();
  stats.collectives = comm.collectives() - collectives_before;
  stats.bytes_sent = comm.bytes_sent() - bytes_before;
  if constexpr (with_values)
    return std::pair(std::move(out_keys), std::move(out_values));
  else
    return out_keys;
}

}  // namespace detail

// This rank's part of the sorted global array (a new array on the device of `local`).
template <class Src, class By = identity, class Lt = isless>
auto sort(const communicator& comm, const Src& local, const sort_options<By, Lt>& o = {}) {
  using K = ak::detail::element_t<const Src>;
  return detail::sort_front<K, void>(comm, ak::detail::as_const_view(local), nullptr, o,
                                     "ak::dist::sort");
}

// Keys sorted across ranks with their values: this rank's part of each, as two new arrays on
// the devices of `keys` and `values` (auto [k, v] = ...).
template <class Keys, class Values, class By = identity, class Lt = isless>
auto sort_by_key(const communicator& comm, const Keys& keys, const Values& values,
                 const sort_options<By, Lt>& o = {}) {
  using K = ak::detail::element_t<const Keys>;
  using V = ak::detail::element_t<const Values>;
  const view<const V> v = ak::detail::as_const_view(values);
  return detail::sort_front<K, V>(comm, ak::detail::as_const_view(keys), &v, o,
                                  "ak::dist::sort_by_key");
}

// This rank's part of the global permutation that sorts the global array: the global indices
// (int64, on the device of `local`) of the elements that this rank's part of ak::dist::sort's
// result would hold, in that order; equal elements in global index order.
template <class Src, class By = identity, class Lt = isless>
array<std::int64_t> sortperm(const communicator& comm, const Src& local,
                             const sort_options<By, Lt>& o = {}) {
  using K = ak::detail::element_t<const Src>;
  const char* function = "ak::dist::sortperm";
  const view<const K> keys = ak::detail::as_const_view(local);
  // The elements' global indices, made after an agreement round (so that ranks making other
  // calls, or a bad part, fail on every rank before the offset's collective).
  const std::uint64_t sig = detail::signature(function).add(typeid(K)).value();
  detail::agreed(comm, function, sig, [&] { detail::check_local(function, "local", keys); });
  const std::int64_t first = offset(comm, keys);
  const array<std::int64_t> indices = detail::agreed(comm, function, sig, [&] {
    std::vector<std::int64_t> index(static_cast<std::size_t>(keys.size()));
    for (std::size_t i = 0; i < index.size(); ++i) index[i] = first + static_cast<std::int64_t>(i);
    return detail::from_host(std::span<const std::int64_t>(index), keys.memory());
  });
  const view<const std::int64_t> v = indices.view();
  return std::move(detail::sort_front<K, std::int64_t>(comm, keys, &v, o, function).second);
}

}  // namespace ak::dist
