#include "ak/core/memory.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "ak/core/error.hpp"

namespace {

TEST(HostMemory, IsOneProcessWideCpuSpace) {
  const ak::memory_space& host = ak::host_memory();
  EXPECT_EQ(&host, &ak::host_memory());
  EXPECT_EQ(host.device_name(), "cpu:0");
  EXPECT_TRUE(host.host_accessible());
}

TEST(HostMemory, AlignsToAtLeast64Bytes) {
  const ak::memory_space& host = ak::host_memory();
  for (std::size_t alignment :
       {std::size_t{1}, std::size_t{8}, std::size_t{64}, std::size_t{256}}) {
    void* p = host.allocate(100, alignment);
    ASSERT_NE(p, nullptr);
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    EXPECT_EQ(address % ak::host_alignment, 0u);
    EXPECT_EQ(address % alignment, 0u);
    host.deallocate(p, 100, alignment);
  }
}

TEST(HostMemory, ZeroBytesAllocateNothing) {
  const ak::memory_space& host = ak::host_memory();
  EXPECT_EQ(host.allocate(0, 8), nullptr);
  host.deallocate(nullptr, 0, 8);
  host.copy_to_host(nullptr, nullptr, 0);
  host.copy_from_host(nullptr, nullptr, 0);
}

TEST(HostMemory, CopiesBytes) {
  const ak::memory_space& host = ak::host_memory();
  const char source[] = "hello, ak";
  void* p = host.allocate(sizeof source, 1);
  host.copy_from_host(p, source, sizeof source);
  char back[sizeof source] = {};
  host.copy_to_host(back, p, sizeof source);
  EXPECT_STREQ(back, source);
  host.deallocate(p, sizeof source, 1);
}

TEST(HostMemory, AlignmentMustBeAPowerOfTwo) {
  try {
    (void)ak::host_memory().allocate(64, 48);
    ADD_FAILURE() << "no error";
  } catch (const ak::argument_error& e) {
    EXPECT_STREQ(
        e.what(),
        "ak::host_memory().allocate: argument 'alignment': expected a power of two, got 48");
  }
}

}  // namespace
