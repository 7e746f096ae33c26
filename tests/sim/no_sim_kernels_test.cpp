// A translation unit compiled with AK_NO_SIM_KERNELS (tests/sim/CMakeLists.txt): it instantiates
// no kernel, so a call on sim data that needs one (a custom operator) is an error that names the
// macro, while the standard ones still run on sim through the precompiled entries and every call
// still runs on cpu.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ak/ak.hpp"

#ifndef AK_NO_SIM_KERNELS
#error "this file tests AK_NO_SIM_KERNELS: compile it with the macro defined"
#endif

namespace {

struct max_abs {
  std::int32_t operator()(std::int32_t a, std::int32_t b) const {
    return (a < 0 ? -a : a) > (b < 0 ? -b : b) ? a : b;
  }
};

TEST(NoSimKernels, CustomOperatorOnSimIsAnErrorNamingTheMacro) {
  const std::vector<std::int32_t> v{3, -7, 5, 2};
  const ak::array<std::int32_t> a(v, ak::device("sim:0"));
  try {
    (void)ak::reduce(a, max_abs{}, ak::reduce_options<std::int32_t>{.init = 0, .neutral = 0});
    FAIL() << "a kernel ran in a translation unit compiled without sim's kernels";
  } catch (const ak::capability_error& e) {
    EXPECT_NE(std::string(e.what()).find("AK_NO_SIM_KERNELS"), std::string::npos) << e.what();
  }
  EXPECT_EQ(ak::sum(a), 3) << "the standard reduction takes sim's precompiled entry";
  const ak::array<std::int32_t> c(v, ak::device("cpu"));
  EXPECT_EQ(ak::reduce(c, max_abs{}, ak::reduce_options<std::int32_t>{.init = 0, .neutral = 0}), -7)
      << "cpu needs no kernel";
}

}  // namespace
