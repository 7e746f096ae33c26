// Launching portable kernels on the sim backend (the plugin libak_sim.so, devices sim:0..3).
//
//   ak::sim::launch(ak::device("sim:0"), {ak::kernel::range_1d(n, 256), 0, "scale"}, kernel);
//
// runs `kernel(ctx)` for every work-item with an ak::sim::context and returns when all are done.
// A kernel that breaks the language's rules (divergent barriers or sub-group operations, local
// memory overruns, atomics the device lacks) is an ak::sim::kernel_error naming the kernel; a
// launch the device cannot take (group too large, too much local memory) an ak::argument_error.
#pragma once

#include <cstdint>
#include <string>

#include "ak/backends/sim/context.hpp"
#include "ak/backends/sim/sim_api.h"
#include "ak/core/error.hpp"
#include "ak/kernel/types.hpp"
#include "ak/runtime/device.hpp"
#include "ak/runtime/extension.hpp"

namespace ak::sim {

// A kernel that broke the kernel language's rules, or threw, while sim ran it.
class kernel_error : public ak::error {
 public:
  using error::error;
};

namespace detail {

inline const ak_sim_api_v1& api() {
  static const ak_sim_api_v1* table = [] {
    const auto* t =
        static_cast<const ak_sim_api_v1*>(ak::backend_extension("sim", AK_SIM_API_SYMBOL));
    if (!t) throw ak::backend_error("backend 'sim' does not export " AK_SIM_API_SYMBOL);
    if (t->version != AK_SIM_API_VERSION)
      throw ak::backend_error("backend 'sim' has API version " + std::to_string(t->version) +
                              ", these headers need " + std::to_string(AK_SIM_API_VERSION));
    return t;
  }();
  return *table;
}

template <class Kernel>
void body(void* kernel, ak_sim_item_v1* item) noexcept {
  const ak_sim_api_v1& a = api();
  try {
    context ctx(item, &a);
    (*static_cast<const Kernel*>(kernel))(ctx);
  } catch (const unwind&) {
  } catch (const std::exception& e) {
    a.fail(item, e.what());
  } catch (...) {
    a.fail(item, "an exception of unknown type");
  }
}

inline std::int64_t ordinal_of(const ak::device& dev) {
  if (dev.backend() != "sim")
    throw ak::argument_error("ak::sim::launch", "device", "a sim device (sim:0 ... sim:3)",
                             dev.name());
  return dev.ordinal();
}

}  // namespace detail

template <class Kernel>
void launch(const ak::device& dev, const kernel::launch_params& p, const Kernel& k) {
  const std::int64_t ordinal = detail::ordinal_of(dev);
  const ak_sim_api_v1& a = detail::api();
  ak_sim_launch_v1 l{};
  l.name = p.name ? p.name : "kernel";
  l.rank = p.range.rank;
  for (int d = 0; d < 3; ++d) {
    l.global_size[d] = p.range.global[d];
    l.group_size[d] = p.range.group[d];
  }
  l.local_bytes = p.local_bytes;
  l.body = &detail::body<Kernel>;
  l.kernel = const_cast<void*>(static_cast<const void*>(&k));
  const char* message = nullptr;
  const std::int32_t status = a.launch(ordinal, &l, &message);
  if (status == AK_SIM_BAD_LAUNCH) throw ak::argument_error(message ? message : "bad launch");
  if (status != AK_SIM_OK) throw kernel_error(message ? message : "kernel failed");
}

// The seed that shuffles the order of work-items between synchronisation points and of groups
// (within the forward-progress rule: a group starts only after every group that comes before it
// in launch order has started or a window of as many groups as sim runs at once). 0 runs items
// and groups in order. The default is AK_SIM_SEED's value, else 0.
inline void set_seed(std::uint64_t seed) {
  detail::api().set_seed(seed);
}
inline std::uint64_t seed() {
  return detail::api().seed();
}

}  // namespace ak::sim
