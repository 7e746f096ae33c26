// Shared by the cuda tests: the device under test, cuda:0, or the reason there is none, and
// AKT_NEED_CUDA(), which skips a test with that reason (CI has no GPU) or else names the device
// `dev`.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "ak/core/error.hpp"
#include "ak/runtime/device.hpp"

namespace ak_cuda_test {

struct target {
  bool ok = false;
  std::string why;
  ak::device dev;
};

inline const target& cuda0() {
  static const target t = [] {
    target r;
    try {
      r.dev = ak::device("cuda:0");
      r.ok = true;
    } catch (const ak::error& e) {
      r.why = e.what();
    }
    return r;
  }();
  return t;
}

}  // namespace ak_cuda_test

#define AKT_NEED_CUDA()                                                     \
  if (!ak_cuda_test::cuda0().ok)                                            \
    GTEST_SKIP() << "no usable CUDA device: " << ak_cuda_test::cuda0().why; \
  const ak::device& dev = ak_cuda_test::cuda0().dev
