// The kernel language on cuda:0: the portable bodies of tests/kernel/kernel_language_bodies.hpp
// (ids, barriers, local memory, sub-group operations at the warp's width, atomics and fences,
// empty and bad launches), compiled by nvcc, the same bodies that
// tests/sim/kernel_language_test.cpp runs on every sim profile. sim's rule checks (divergence,
// overruns, the watchdog) have no counterpart here: cuda does not check the rules. Without a CUDA
// device every test skips, saying why.
#include <gtest/gtest.h>

#include "../kernel/kernel_language_bodies.hpp"
#include "cuda_test_support.hpp"

namespace {

#define AK_KL_ON_CUDA(name)        \
  TEST(CudaKernelLanguage, name) { \
    AKT_NEED_CUDA();               \
    ak_kl_test::name(dev);         \
  }
AK_KERNEL_LANGUAGE_PORTABLE_TESTS(AK_KL_ON_CUDA)
#undef AK_KL_ON_CUDA

}  // namespace
