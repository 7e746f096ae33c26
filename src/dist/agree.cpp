// The agreement round of every ak::dist call, and the communicator handle.
#include <algorithm>
#include <cstring>
#include <new>
#include <string>

#include "ak/dist/detail/collectives.hpp"

namespace ak::dist {

communicator::communicator(std::shared_ptr<const transport> t)
    : transport_(std::move(t)),
      collectives_(std::make_shared<std::int64_t>(0)),
      rank_(transport_->rank()),
      size_(transport_->size()) {}

namespace detail {

namespace {

// The ak exception classes a failure is raised again as, on every rank.
enum class kind : std::int32_t { none, argument, capability, tuning, backend, dist, ak, memory, other };

struct rank_state {
  std::uint64_t signature;
  kind failed;
  char message[1012];
};

rank_state state_of(std::uint64_t signature, const std::exception_ptr& failure) {
  rank_state s{};
  s.signature = signature;
  if (!failure) return s;
  std::string what;
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
  const std::size_t n = std::min(what.size(), sizeof(s.message) - 1);
  std::memcpy(s.message, what.data(), n);
  return s;
}

[[noreturn]] void raise(kind k, const std::string& message) {
  switch (k) {
    case kind::argument: throw argument_error(message);
    case kind::capability: throw capability_error(message);
    case kind::tuning: throw tuning_error(message);
    case kind::backend: throw backend_error(message);
    case kind::dist: throw dist_error(message);
    default: throw error(message);
  }
}

}  // namespace

void agree(const communicator& comm, std::string_view function, std::uint64_t signature,
           std::exception_ptr failure) {
  const std::vector<rank_state> all = allgather(comm, state_of(signature, failure));
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (all[r].failed == kind::none) continue;
    raise(all[r].failed, std::string(all[r].message) + " [raised on rank " + std::to_string(r) +
                             " of " + std::to_string(all.size()) + "]");
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
