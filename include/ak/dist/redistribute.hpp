// Moving elements between ranks without changing the global order: rank r ends up with global
// positions [starts[r], starts[r + 1]). One all-to-all exchange; data on a device is staged
// through host memory.
//
//   auto even = ak::dist::redistribute(comm, local);        // N / P each (the first N % P: one
//   more) auto mine = ak::dist::redistribute(comm, local, 1000);  // this rank asks for 1000
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ak/dist/detail/collectives.hpp"

namespace ak::dist {

// This rank's new part: `size` elements, or an even share when size is not given. The sizes the
// ranks ask for must add up to the global size (else argument_error, on every rank).
template <class Src>
auto redistribute(const communicator& comm, const Src& local,
                  std::optional<std::int64_t> size = std::nullopt) {
  using T = ak::detail::element_t<const Src>;
  const char* function = "ak::dist::redistribute";
  const view<const T> v = ak::detail::as_const_view(local);
  const auto sig = detail::signature(function).add(typeid(T)).add(size.has_value()).value();
  const detail::on_host<T> host = detail::agreed(comm, function, sig, [&] {
    detail::check_local(function, "local", v);
    if (size && *size < 0)
      throw argument_error(function, "size", "at least 0", std::to_string(*size));
    return detail::on_host<T>(v);
  });
  struct sizes_of {
    std::int64_t have, want;
  };
  const auto all = detail::allgather(comm, sizes_of{v.size(), size.value_or(-1)});
  const auto P = static_cast<std::int64_t>(comm.size());
  std::int64_t total = 0, wanted = 0;
  for (const auto& s : all) {
    total += s.have;
    wanted += s.want;
  }
  // Where each rank's part starts now (from) and after (to).
  std::vector<std::int64_t> from(all.size() + 1, 0), to(all.size() + 1, 0);
  for (std::size_t r = 0; r < all.size(); ++r) {
    const auto rr = static_cast<std::int64_t>(r) + 1;
    from[r + 1] = from[r] + all[r].have;
    to[r + 1] = size ? to[r] + all[r].want : rr * (total / P) + std::min(rr, total % P);
  }
  if (size && wanted != total)
    throw argument_error(function, "size",
                         "sizes adding up to the global size " + std::to_string(total),
                         "sizes adding up to " + std::to_string(wanted));
  const auto overlap = [](std::int64_t a0, std::int64_t a1, std::int64_t b0, std::int64_t b1) {
    return std::max<std::int64_t>(0, std::min(a1, b1) - std::max(a0, b0));
  };
  const auto me = static_cast<std::size_t>(comm.rank());
  std::vector<std::int64_t> send(all.size()), recv(all.size());
  for (std::size_t r = 0; r < all.size(); ++r) {
    send[r] = overlap(from[me], from[me + 1], to[r], to[r + 1]);
    recv[r] = overlap(to[me], to[me + 1], from[r], from[r + 1]);
  }
  auto landing = detail::agreed(comm, function, sig, [&] {
    return detail::prepare_landing<T>(comm, function, send, recv, v.memory());
  });
  return detail::exchange_into(comm, host.elements(), send, recv, std::move(landing));
}

}  // namespace ak::dist
