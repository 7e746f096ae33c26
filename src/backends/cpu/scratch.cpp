// The cpu algorithms' scratch allocator (see ak/backends/cpu/scratch.hpp).
#include "ak/backends/cpu/scratch.hpp"

#include <sys/mman.h>

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

std::size_t alignment(std::size_t bytes) {
  return bytes >= huge_page ? huge_page : 64;
}

std::size_t rounded(std::size_t bytes) {
  const std::size_t align = alignment(bytes);
  return (bytes + align - 1) / align * align;
}

// Through the global operator new, as every other allocation of ak (a program that replaces it
// sees and can fail these too); throws std::bad_alloc.
void* allocate(std::size_t size) {
  void* p = ::operator new (size, std::align_val_t{alignment(size)});
#ifdef MADV_HUGEPAGE
  if (size >= huge_page) madvise(p, size, MADV_HUGEPAGE);  // advice only: failure is harmless
#endif
  return p;
}

// A block of `size` bytes (rounded) back to operator delete, with the alignment it was made with.
void free_block(void* p, std::size_t size) noexcept {
  if (p != nullptr) ::operator delete (p, std::align_val_t{alignment(size)});
}

}  // namespace

void* acquire_scratch(std::size_t bytes) {
  const std::size_t size = rounded(bytes == 0 ? 1 : bytes);
  {
    cached_block& c = cache();
    std::lock_guard lock(c.mutex);
    // Reuse the kept block when it fits, is not wastefully large and has the alignment of this
    // size (it goes back as a block of this size).
    if (c.block != nullptr && c.bytes >= size && c.bytes / 4 <= size &&
        alignment(c.bytes) == alignment(size)) {
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
  std::size_t size_of_freed = size;
  {
    cached_block& c = cache();
    std::lock_guard lock(c.mutex);
    // Keep the larger of the kept block and this one.
    if (c.block == nullptr || c.bytes < size) {
      to_free = c.block;
      size_of_freed = c.bytes;
      c.block = block;
      c.bytes = size;
    }
  }
  free_block(to_free, size_of_freed);
}

void release_cached_scratch() noexcept {
  cached_block& c = cache();
  std::lock_guard lock(c.mutex);
  free_block(c.block, c.bytes);
  c.block = nullptr;
  c.bytes = 0;
}

}  // namespace ak::cpu
