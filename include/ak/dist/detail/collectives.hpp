// What every ak::dist algorithm is built from: typed collectives over the communicator's
// transport, the agreement round that raises one rank's error on every rank, and host staging of
// a rank's local data (the transport works on host memory; the data may live on a device).
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/elementwise.hpp"
#include "ak/core/array.hpp"
#include "ak/core/digest.hpp"
#include "ak/dist/communicator.hpp"

namespace ak::dist::detail {

// ---- the agreement round ----------------------------------------------------------------------

// What a call looks like on this rank: a digest of its function, element and operator types and
// option values. Ranks making different calls at the same point disagree, which is an error.
class signature {
 public:
  explicit signature(std::string_view function) { add(function); }
  signature& add(std::string_view s) {
    digest_.text(s);
    return *this;
  }
  signature& add(const std::type_info& t) { return add(std::string_view(t.name())); }
  signature& add(std::int64_t v) { return add(std::to_string(v)); }
  std::uint64_t value() const noexcept { return digest_.value(); }

 private:
  ak::detail::fnv1a64 digest_;
};

// Every rank says whether its part so far failed (and how) and which call it makes; then, on
// every rank: the lowest failing rank's exception is raised again, of the same ak class with the
// rank in its message; or, if the ranks' signatures differ, a dist_error. One collective.
void agree(const communicator& comm, std::string_view function, std::uint64_t signature,
           std::exception_ptr failure);

// Runs f, this rank's part, and then the agreement round: f's result on every rank, or the
// same error on every rank.
template <class F>
auto agreed(const communicator& comm, std::string_view function, std::uint64_t sig, F&& f) {
  using R = std::invoke_result_t<F&>;
  std::exception_ptr failure;
  if constexpr (std::is_void_v<R>) {
    try {
      f();
    } catch (...) {
      failure = std::current_exception();
    }
    agree(comm, function, sig, failure);
  } else {
    std::optional<R> result;
    try {
      result.emplace(f());
    } catch (...) {
      failure = std::current_exception();
    }
    agree(comm, function, sig, failure);
    return std::move(*result);
  }
}

// ---- typed collectives --------------------------------------------------------------------------

// Each rank's value, in rank order.
template <class T>
std::vector<T> allgather(const communicator& comm, const T& mine) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<T> all(static_cast<std::size_t>(comm.size()));
  comm.count_collective(static_cast<std::int64_t>(sizeof(T)) * (comm.size() - 1));
  comm.raw().allgather(&mine, all.data(), sizeof(T));
  return all;
}

// An exchange that would move more elements into or out of one rank than the transport allows:
// a dist_error naming the function.
[[noreturn]] void throw_too_many(const communicator& comm, std::string_view function,
                                 std::int64_t elements);

// Each rank's elements, rank after rank; counts[r] says how many came from rank r. Every rank
// knows every count before the call, so a total past the transport's limit is the same
// dist_error on every rank.
template <class T>
std::vector<T> allgatherv(const communicator& comm, std::span<const T> mine,
                          std::vector<std::int64_t>* counts_out = nullptr,
                          std::string_view function = "ak::dist") {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::vector<std::int64_t> counts = allgather(comm, static_cast<std::int64_t>(mine.size()));
  std::int64_t total = 0;
  for (const std::int64_t c : counts) total += c;
  if (total > comm.raw().max_elements()) throw_too_many(comm, function, total);
  std::vector<T> all(static_cast<std::size_t>(total));
  comm.count_collective(static_cast<std::int64_t>(mine.size_bytes()) * (comm.size() - 1));
  comm.raw().allgatherv(mine.data(), counts, all.data(), sizeof(T));
  if (counts_out != nullptr) *counts_out = counts;
  return all;
}

inline void allreduce_sum(const communicator& comm, std::span<std::int64_t> values) {
  comm.count_collective(static_cast<std::int64_t>(values.size_bytes()));
  comm.raw().allreduce_sum(values);
}

inline std::int64_t allreduce_sum(const communicator& comm, std::int64_t value) {
  allreduce_sum(comm, std::span<std::int64_t>(&value, 1));
  return value;
}

// How many elements each rank will receive from each other rank, given what this rank sends to
// each: one all-to-all of counts.
inline std::vector<std::int64_t> exchange_counts(const communicator& comm,
                                                 std::span<const std::int64_t> send_counts) {
  std::vector<std::int64_t> ones(static_cast<std::size_t>(comm.size()), 1);
  std::vector<std::int64_t> recv(static_cast<std::size_t>(comm.size()));
  comm.count_collective(static_cast<std::int64_t>(sizeof(std::int64_t)) * (comm.size() - 1));
  comm.raw().alltoallv(send_counts.data(), ones, recv.data(), ones, sizeof(std::int64_t));
  return recv;
}

template <class T>
void alltoallv(const communicator& comm, const T* send, std::span<const std::int64_t> send_counts,
               T* recv, std::span<const std::int64_t> recv_counts) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::int64_t off_rank = 0;
  for (std::size_t r = 0; r < send_counts.size(); ++r)
    if (static_cast<int>(r) != comm.rank()) off_rank += send_counts[r];
  comm.count_collective(off_rank * static_cast<std::int64_t>(sizeof(T)));
  comm.raw().alltoallv(send, send_counts, recv, recv_counts, sizeof(T));
}

// An optional value that crosses the transport: trivially copyable when T is.
template <class T>
struct maybe {
  T value;
  std::uint8_t has = 0;
};

// The values that ranks have (in rank order) combined with op, left to right; nothing when no
// rank has one.
template <class T, class Op>
std::optional<T> fold(const std::vector<maybe<T>>& all, const Op& op, std::size_t end) {
  std::optional<T> acc;
  for (std::size_t r = 0; r < end; ++r) {
    if (!all[r].has) continue;
    acc = acc ? static_cast<T>(op(*acc, all[r].value)) : all[r].value;
  }
  return acc;
}

// ---- this rank's data ---------------------------------------------------------------------------

// A 1-d local view, or an argument_error naming `argument`.
template <class T>
void check_local(std::string_view function, std::string_view argument, const view<T>& v) {
  if (v.rank() != 1)
    throw argument_error(function, argument, "this rank's part as a 1-d array",
                         "rank " + std::to_string(v.rank()));
}

// The elements of a 1-d view in host memory: the view's own when it is contiguous host memory,
// else a copy that this object holds.
template <class T>
class on_host {
 public:
  explicit on_host(view<const T> v) {
    const auto n = static_cast<std::size_t>(v.size());
    if (n == 0) return;
    if (v.is_contiguous() && v.memory().host_accessible()) {
      elements_ = {v.data(), n};
      return;
    }
    if (v.is_contiguous()) {
      copy_.resize(n);
      v.memory().copy_to_host(copy_.data(), v.data(), n * sizeof(T));
    } else {
      copy_ = ak::copy(v).to_vector();  // packed on v's device first
    }
    elements_ = copy_;
  }
  on_host(const on_host&) = delete;
  on_host& operator=(const on_host&) = delete;
  on_host(on_host&& other) noexcept
      : copy_(std::move(other.copy_)),
        elements_(copy_.empty() ? other.elements_ : std::span<const T>(copy_)) {}
  std::span<const T> elements() const noexcept { return elements_; }

 private:
  std::vector<T> copy_;
  std::span<const T> elements_;
};

// A new 1-d array of n elements in `memory`, filled from host memory.
template <class T>
array<T> from_host(std::span<const T> elements, const memory_space& memory) {
  array<T> out(ak::detail::make_1d<ak::shape>(static_cast<std::int64_t>(elements.size())), memory);
  out.copy_from(elements);
  return out;
}

// Where an all-to-all exchange lands: a new array in `memory`, and a host buffer when the host
// cannot touch that memory. Made (and the counts checked against the transport's limit) inside
// an agreement round, so that a rank that cannot take its share fails on every rank, before any
// rank enters the exchange.
template <class T>
struct landing {
  array<T> out;
  std::vector<T> staging;
};

template <class T>
landing<T> prepare_landing(const communicator& comm, std::string_view function,
                           std::span<const std::int64_t> send_counts,
                           std::span<const std::int64_t> recv_counts, const memory_space& memory) {
  std::int64_t sent = 0, received = 0;
  for (const std::int64_t c : send_counts) sent += c;
  for (const std::int64_t c : recv_counts) received += c;
  if (std::max(sent, received) > comm.raw().max_elements())
    throw_too_many(comm, function, std::max(sent, received));
  landing<T> l{array<T>(ak::detail::make_1d<ak::shape>(received), memory), {}};
  if (!memory.host_accessible()) l.staging.resize(static_cast<std::size_t>(received));
  return l;
}

// The exchange into a prepared landing; the landing's array is the result.
template <class T>
array<T> exchange_into(const communicator& comm, std::span<const T> send,
                       std::span<const std::int64_t> send_counts,
                       std::span<const std::int64_t> recv_counts, landing<T>&& l) {
  if (l.out.memory().host_accessible()) {
    alltoallv(comm, send.data(), send_counts, l.out.data(), recv_counts);
  } else {
    alltoallv(comm, send.data(), send_counts, l.staging.data(), recv_counts);
    l.out.copy_from(l.staging);
  }
  return std::move(l.out);
}

}  // namespace ak::dist::detail
