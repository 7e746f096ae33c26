// The cpu algorithms' scratch allocator (see ak/backends/cpu/scratch.hpp).
#include "ak/backends/cpu/scratch.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <mutex>
#include <new>

namespace ak::cpu {

namespace {

constexpr std::size_t huge_page = std::size_t{2} << 20;

struct cached_block {
  std::mutex mutex;
  void* block = nullptr;
  std::size_t bytes = 0;  // the allocation's rounded size
};

cached_block& cache() {
  static cached_block* c = new cached_block;  // outlives static destructors of other objects
  return *c;
}

std::size_t rounded(std::size_t bytes) {
  const std::size_t align = bytes >= huge_page ? huge_page : 64;
  return (bytes + align - 1) / align * align;
}

void* allocate(std::size_t size) {
  const std::size_t align = size >= huge_page ? huge_page : 64;
  void* p = std::aligned_alloc(align, size);
  if (p == nullptr) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  if (size >= huge_page) madvise(p, size, MADV_HUGEPAGE);  // advice only: failure is harmless
#endif
  return p;
}

}  // namespace

void* acquire_scratch(std::size_t bytes) {
  const std::size_t size = rounded(bytes == 0 ? 1 : bytes);
  {
    cached_block& c = cache();
    std::lock_guard lock(c.mutex);
    // Reuse the kept block when it fits and is not wastefully large.
    if (c.block != nullptr && c.bytes >= size && c.bytes / 4 <= size) {
      void* p = c.block;
      c.block = nullptr;
      c.bytes = 0;
      return p;
    }
  }
  return allocate(size);
}

void release_scratch(void* block, std::size_t bytes) noexcept {
  if (block == nullptr) return;
  const std::size_t size = rounded(bytes == 0 ? 1 : bytes);
  void* to_free = block;
  {
    cached_block& c = cache();
    std::lock_guard lock(c.mutex);
    // Keep the larger of the kept block and this one.
    if (c.block == nullptr || c.bytes < size) {
      to_free = c.block;
      c.block = block;
      c.bytes = size;
    }
  }
  std::free(to_free);
}

void release_cached_scratch() noexcept {
  cached_block& c = cache();
  std::lock_guard lock(c.mutex);
  std::free(c.block);
  c.block = nullptr;
  c.bytes = 0;
}

}  // namespace ak::cpu
