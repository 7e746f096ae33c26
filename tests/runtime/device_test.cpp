#include <gtest/gtest.h>

#include "ak/backends/cpu.hpp"
#include "ak/core/error.hpp"
#include "ak/core/memory.hpp"
#include "ak/runtime/device.hpp"

namespace {

TEST(Device, DefaultIsTheCpu) {
  ak::device d;
  EXPECT_EQ(d.name(), "cpu:0");
  EXPECT_EQ(d.backend(), "cpu");
  EXPECT_EQ(d.ordinal(), 0);
  EXPECT_EQ(d, ak::device("cpu"));
  EXPECT_EQ(d, ak::device("cpu:0"));
  EXPECT_EQ(d.info().kind, ak::device_kind::cpu);
  EXPECT_GE(d.info().compute_units, 1);
  EXPECT_GT(d.info().memory_bytes, 0);
  EXPECT_TRUE(d.caps().host_accessible);
  EXPECT_TRUE(d.caps().device_scope_fence);
  EXPECT_EQ(ak::devices().front(), d);
  EXPECT_EQ(ak::device_of(d.memory()), d);
}

TEST(Device, AbsentBackendSaysWhy) {
  try {
    ak::device d("cuda_absent:0");
    FAIL();
  } catch (const ak::backend_error& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("'cuda_absent' is not available"), std::string::npos) << m;
    EXPECT_NE(m.find("libak_cuda_absent.so"), std::string::npos) << m;
    EXPECT_NE(m.find("AK_BACKEND_PATH"), std::string::npos) << m;
  }
}

TEST(Device, CpuMemory) {
  const ak::memory_space& m = ak::device("cpu").memory();
  EXPECT_TRUE(m.host_accessible());
  EXPECT_EQ(m.allocate(0, 64), nullptr);
  auto* p = static_cast<double*>(m.allocate(10 * sizeof(double), 128));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 128, 0u);
  for (int i = 0; i < 10; ++i) p[i] = i;
  double out[10];
  m.copy_to_host(out, p, sizeof out);
  m.deallocate(p, 10 * sizeof(double), 128);
  EXPECT_EQ(out[9], 9.0);
}

TEST(CpuThreads, CapInCode) {
  std::int64_t all = ak::cpu::num_threads();
  EXPECT_GE(all, 1);
  ak::cpu::set_num_threads(1);
  EXPECT_EQ(ak::cpu::num_threads(), 1);
  ak::cpu::set_num_threads(0);
  EXPECT_EQ(ak::cpu::num_threads(), all);
  EXPECT_THROW(ak::cpu::set_num_threads(-2), ak::argument_error);
}

// CTest also runs this alone in a fresh process, where the cap is set before the backend loads.
TEST(CpuThreads, CapSetBeforeTheBackendLoadsIsKept) {
  ak::cpu::set_num_threads(1);
  ak::device d("cpu");
  EXPECT_EQ(ak::cpu::num_threads(), 1);
  ak::cpu::set_num_threads(0);
}

// Run by CTest with AK_NUM_THREADS=1 (see CMakeLists.txt); skipped otherwise.
TEST(CpuThreads, EnvironmentCap) {
  const char* env = std::getenv("AK_NUM_THREADS");
  if (!env) GTEST_SKIP() << "AK_NUM_THREADS is not set";
  ak::device d("cpu");
  EXPECT_EQ(ak::cpu::num_threads(), std::atoll(env));
  ak::cpu::set_num_threads(0);  // back to the environment's cap, not to all threads
  EXPECT_EQ(ak::cpu::num_threads(), std::atoll(env));
}

// Run by CTest with AK_NUM_THREADS=many; skipped otherwise.
TEST(CpuThreads, BadEnvironmentIsAClearError) {
  const char* env = std::getenv("AK_NUM_THREADS");
  if (!env || std::string(env) != "many") GTEST_SKIP() << "AK_NUM_THREADS is not 'many'";
  try {
    ak::device d("cpu");
    FAIL();
  } catch (const ak::backend_error& e) {
    EXPECT_NE(std::string(e.what()).find("AK_NUM_THREADS"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("many"), std::string::npos) << e.what();
  }
}

// Run by CTest with AK_MEMORY_CACHE=3M: the cpu backend sets host memory's cache limit from it.
TEST(HostCache, EnvironmentLimit) {
  const char* env = std::getenv("AK_MEMORY_CACHE");
  if (!env || std::string(env) != "3M") GTEST_SKIP() << "AK_MEMORY_CACHE is not '3M'";
  ak::device d("cpu");
  EXPECT_EQ(ak::host_cache_limit(), std::size_t{3} << 20);
}

// Run by CTest with AK_MEMORY_CACHE=12X; skipped otherwise.
TEST(HostCache, BadEnvironmentIsAClearError) {
  const char* env = std::getenv("AK_MEMORY_CACHE");
  if (!env || std::string(env) != "12X") GTEST_SKIP() << "AK_MEMORY_CACHE is not '12X'";
  try {
    ak::device d("cpu");
    FAIL();
  } catch (const ak::backend_error& e) {
    EXPECT_NE(std::string(e.what()).find("AK_MEMORY_CACHE"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("12X"), std::string::npos) << e.what();
  }
}

}  // namespace
