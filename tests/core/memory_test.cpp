#include "ak/core/memory.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

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

// The cache of freed blocks of 2 MiB or more (and from 64 KiB: the next test): a block comes back
// to the next allocation of the same rounded size, the kept bytes stay under the limit (the oldest
// go first), and release_cached_memory frees them all.
TEST(HostMemoryCache, ReusesFreedBlocksOfTheSameRoundedSize) {
  const ak::memory_space& host = ak::host_memory();
  const std::size_t saved = ak::host_cache_limit();
  constexpr std::size_t mib = std::size_t{1} << 20, kib = std::size_t{1} << 10;
  ak::release_cached_memory();
  ak::set_host_cache_limit(64 * mib);
  EXPECT_EQ(ak::host_cache_limit(), 64 * mib);

  void* a = host.allocate(3 * mib, 8);
  std::memset(a, 1, 3 * mib);
  host.deallocate(a, 3 * mib, 8);
  EXPECT_EQ(ak::host_cache_bytes(), 4 * mib);  // rounded up to 2 MiB
  // Another size: a block of its own; the kept one stays.
  void* b = host.allocate(6 * mib, 8);
  EXPECT_NE(b, a);
  EXPECT_EQ(ak::host_cache_bytes(), 4 * mib);
  host.deallocate(b, 6 * mib, 8);
  EXPECT_EQ(ak::host_cache_bytes(), 10 * mib);
  // The same rounded size (4 MiB), any alignment up to 2 MiB: the kept block, aligned for both.
  void* c = host.allocate(4 * mib - 100, 4096);
  EXPECT_EQ(c, a);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(c) % (2 * mib), 0u);
  EXPECT_EQ(ak::host_cache_bytes(), 6 * mib);
  host.deallocate(c, 4 * mib - 100, 4096);
  // Blocks under 64 KiB are not kept.
  void* s = host.allocate(64 * kib - 1, 8);
  host.deallocate(s, 64 * kib - 1, 8);
  EXPECT_EQ(ak::host_cache_bytes(), 10 * mib);

  // A lower limit evicts the oldest (the 6 MiB block freed first).
  ak::set_host_cache_limit(5 * mib);
  EXPECT_EQ(ak::host_cache_bytes(), 4 * mib);
  void* d = host.allocate(4 * mib, 8);
  EXPECT_EQ(d, a);
  // A block larger than the limit is freed at once; a limit of 0 keeps nothing.
  void* e = host.allocate(8 * mib, 8);
  host.deallocate(e, 8 * mib, 8);
  EXPECT_EQ(ak::host_cache_bytes(), 0u);
  ak::set_host_cache_limit(0);
  host.deallocate(d, 4 * mib, 8);
  EXPECT_EQ(ak::host_cache_bytes(), 0u);

  ak::set_host_cache_limit(64 * mib);
  void* f = host.allocate(2 * mib, 8);
  host.deallocate(f, 2 * mib, 8);
  EXPECT_EQ(ak::host_cache_bytes(), 2 * mib);
  ak::release_cached_memory();
  EXPECT_EQ(ak::host_cache_bytes(), 0u);
  ak::set_host_cache_limit(saved);
}

// Blocks from 64 KiB to 2 MiB are kept too, in classes of powers of two, starting on a page (a
// call returning arrays of a few hundred KB must not fault in fresh pages each time).
TEST(HostMemoryCache, KeepsBlocksUnderTwoMiBByPowersOfTwo) {
  const ak::memory_space& host = ak::host_memory();
  const std::size_t saved = ak::host_cache_limit();
  constexpr std::size_t kib = std::size_t{1} << 10;
  ak::release_cached_memory();
  ak::set_host_cache_limit(std::size_t{64} << 20);
  void* m = host.allocate(100 * kib, 8);
  std::memset(m, 1, 100 * kib);
  host.deallocate(m, 100 * kib, 8);
  EXPECT_EQ(ak::host_cache_bytes(), 128 * kib);
  // Another size of the same class, any alignment up to a page: the kept block.
  void* same = host.allocate(128 * kib, 4096);
  EXPECT_EQ(same, m);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(same) % 4096, 0u);
  EXPECT_EQ(ak::host_cache_bytes(), 0u);
  // Aligned past a page: a block of its own, not kept.
  void* wide = host.allocate(128 * kib, 8192);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(wide) % 8192, 0u);
  host.deallocate(wide, 128 * kib, 8192);
  EXPECT_EQ(ak::host_cache_bytes(), 0u);
  // Over 1 MiB: the 2 MiB class, shared with the blocks of exactly 2 MiB.
  host.deallocate(same, 128 * kib, 4096);
  void* big = host.allocate(1536 * kib, 8);
  host.deallocate(big, 1536 * kib, 8);
  EXPECT_EQ(ak::host_cache_bytes(), 2176 * kib);
  EXPECT_EQ(host.allocate(2048 * kib, 8), big);
  host.deallocate(big, 2048 * kib, 8);
  ak::release_cached_memory();
  ak::set_host_cache_limit(saved);
}

// At most 32 blocks are kept, whatever their bytes: the 33rd evicts the oldest.
TEST(HostMemoryCache, KeepsAtMostThirtyTwoBlocks) {
  const ak::memory_space& host = ak::host_memory();
  const std::size_t saved = ak::host_cache_limit();
  constexpr std::size_t mib = std::size_t{1} << 20;
  ak::release_cached_memory();
  ak::set_host_cache_limit(1024 * mib);
  std::vector<void*> blocks;
  for (int k = 0; k < 33; ++k) blocks.push_back(host.allocate(2 * mib, 8));
  for (void* p : blocks) host.deallocate(p, 2 * mib, 8);
  EXPECT_EQ(ak::host_cache_bytes(), 64 * mib);
  // The newest kept block comes back first; the first freed is gone.
  EXPECT_EQ(host.allocate(2 * mib, 8), blocks.back());
  host.deallocate(blocks.back(), 2 * mib, 8);
  ak::release_cached_memory();
  ak::set_host_cache_limit(saved);
}

}  // namespace
