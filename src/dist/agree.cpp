// The agreement round of every ak::dist call, and the communicator handle.
#include <algorithm>
#include <new>
#include <string>

#include "ak/dist/detail/collectives.hpp"

namespace ak::dist {

communicator::communicator(std::shared_ptr<const transport> t)
    : transport_(std::move(t)),
      counts_(std::make_shared<counts>()),
      rank_(transport_->rank()),
      size_(transport_->size()) {}

namespace detail {

namespace {

// The ak exception classes a failure is raised again as, on every rank.
enum class kind : std::int32_t {
  none,
  argument,
  capability,
  tuning,
  backend,
  dist,
  ak,
  memory,
  other
};

// What each rank says in the round: 16 bytes; the failing ranks' messages follow in a second
// collective, made only when some rank failed.
struct rank_state {
  std::uint64_t signature;
  kind failed;
  std::int32_t message_size;
};

rank_state state_of(std::uint64_t signature, const std::exception_ptr& failure, std::string& what) {
  rank_state s{};
  s.signature = signature;
  if (!failure) return s;
  try {
    std::rethrow_exception(failure);
  } catch (const argument_error& e) {
    s.failed = kind::argument, what = e.what();
  } catch (const capability_error& e) {
    s.failed = kind::capability, what = e.what();
  } catch (const tuning_error& e) {
    s.failed = kind::tuning, what = e.what();
  } catch (const backend_error& e) {
    s.failed = kind::backend, what = e.what();
  } catch (const dist_error& e) {
    s.failed = kind::dist, what = e.what();
  } catch (const error& e) {
    s.failed = kind::ak, what = e.what();
  } catch (const std::bad_alloc&) {
    s.failed = kind::memory, what = "out of memory";
  } catch (const std::exception& e) {
    s.failed = kind::other, what = e.what();
  } catch (...) {
    s.failed = kind::other, what = "an exception that is not a std::exception";
  }
  if (what.size() > 4000) what.resize(4000);
  s.message_size = static_cast<std::int32_t>(what.size());
  return s;
}

[[noreturn]] void raise(kind k, const std::string& message) {
  switch (k) {
    case kind::argument:
      throw argument_error(message);
    case kind::capability:
      throw capability_error(message);
    case kind::tuning:
      throw tuning_error(message);
    case kind::backend:
      throw backend_error(message);
    case kind::dist:
      throw dist_error(message);
    default:
      throw error(message);
  }
}

}  // namespace

void throw_too_many(const communicator& comm, std::string_view function, std::int64_t elements) {
  throw dist_error(std::string(function) + ": " + std::to_string(elements) +
                   " elements into or out of one rank in one exchange; the transport allows " +
                   std::to_string(comm.raw().max_elements()));
}

void agree(const communicator& comm, std::string_view function, std::uint64_t signature,
           std::exception_ptr failure) {
  std::string what;
  const std::vector<rank_state> all = allgather(comm, state_of(signature, failure, what));
  const auto failed = std::find_if(all.begin(), all.end(),
                                   [](const rank_state& s) { return s.failed != kind::none; });
  if (failed != all.end()) {
    std::vector<std::int64_t> sizes;
    const std::vector<char> messages = allgatherv(comm, std::span<const char>(what), &sizes);
    const auto r = static_cast<std::size_t>(failed - all.begin());
    std::int64_t at = 0;
    for (std::size_t q = 0; q < r; ++q) at += sizes[q];
    raise(failed->failed, std::string(messages.data() + at, static_cast<std::size_t>(sizes[r])) +
                              " [raised on rank " + std::to_string(r) + " of " +
                              std::to_string(all.size()) + "]");
  }
  for (std::size_t r = 1; r < all.size(); ++r) {
    if (all[r].signature != all[0].signature)
      throw dist_error(std::string(function) + ": the ranks disagree on the call: rank " +
                       std::to_string(r) +
                       " calls it with another element type, operator or option than rank 0 "
                       "(every rank must make the same collective calls in the same order)");
  }
}

}  // namespace detail
}  // namespace ak::dist
