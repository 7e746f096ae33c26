// Shared by the sim tests: the (profile, seed) parameters every kernel test runs under.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ak/backends/sim/launch.hpp"
#include "ak/gpu/launch.hpp"
#include "ak/kernel/kernel.hpp"
#include "ak/runtime/device.hpp"

namespace ak_sim_test {

struct sim_param {
  int device;          // sim:<device>
  std::uint64_t seed;  // ak::sim::set_seed; 0 runs in launch order
};

// Every profile under three seeds: launch order and two shuffles. The sanitizer build
// (AK_TEST_ONE_SEED_PER_PROFILE, tests/sim/CMakeLists.txt) gives each profile one of the three,
// a different one for each: what it looks for (a read past a buffer, undefined arithmetic) shows
// under any order, and the Release suite runs all twelve.
inline std::vector<sim_param> all_params() {
  const std::uint64_t seeds[] = {0, 1, 0xC0FFEE};
  std::vector<sim_param> out;
  for (int d = 0; d < 4; ++d)
    for (int s = 0; s < 3; ++s) {
#if defined(AK_TEST_ONE_SEED_PER_PROFILE)
      if (s != d % 3) continue;
#endif
      out.push_back({d, seeds[s]});
    }
  return out;
}

inline std::string param_name(const testing::TestParamInfo<sim_param>& i) {
  static const char* names[] = {"nvidia", "amd", "intel", "apple"};
  return std::string(names[i.param.device]) + "_seed" + std::to_string(i.param.seed);
}

class sim_test : public testing::TestWithParam<sim_param> {
 protected:
  void SetUp() override {
    dev_ = ak::device("sim:" + std::to_string(GetParam().device));
    ak::sim::set_seed(GetParam().seed);
    // The seed is in the test's name as well; printed for logs that lose the name.
    std::printf("sim seed %llu on %s\n", static_cast<unsigned long long>(GetParam().seed),
                dev_.name().c_str());
  }
  void TearDown() override { ak::sim::set_seed(0); }
  const ak::device& dev() const { return dev_; }
  int width() const { return static_cast<int>(dev_.info().sub_group_width); }
  bool apple() const { return !dev_.caps().device_scope_fence; }

  // Through the portable launcher (ak/gpu/launch.hpp), as the library's algorithms launch: the
  // bodies name no backend, only the device under test.
  template <class K>
  void run(ak::kernel::nd_range r, std::size_t local_bytes, const char* name, const K& k) {
    ak::gpu::launch(dev_, {r, local_bytes, name}, k);
  }

 private:
  ak::device dev_;
};

// Runs `f` and returns the message of the ak::sim::kernel_error it throws (fails if none).
template <class F>
std::string kernel_error_of(F&& f) {
  try {
    f();
  } catch (const ak::sim::kernel_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an ak::sim::kernel_error";
  return {};
}

}  // namespace ak_sim_test
