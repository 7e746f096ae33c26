#include "ak/core/memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <mutex>
#include <new>
#include <string>

#include "ak/core/error.hpp"

namespace ak {

namespace {

constexpr std::size_t huge_page = std::size_t{2} << 20;
// The smallest block the cache keeps, and the alignment of those under a huge page.
constexpr std::size_t smallest_kept = std::size_t{64} << 10;
constexpr std::size_t small_page = std::size_t{4} << 10;

// The size classes of kept blocks: from smallest_kept up to a huge page, the next power of two;
// above, the next multiple of a huge page. (Blocks under a huge page were left to malloc until
// 2026-12-08: glibc gives the top of its heap back to the kernel on free past a threshold it
// raises to twice the largest block freed, so a call returning three arrays of 800 KB, such as
// run_length_encode of 1e5 int64 keys in runs of one, faulted in fresh pages on every call, 3.3 ms
// where the selection itself takes 0.1.)
std::size_t block_class(std::size_t bytes) noexcept {
  return bytes <= huge_page ? std::bit_ceil(bytes)
                            : (bytes + huge_page - 1) / huge_page * huge_page;
}
// Where a block of a class starts: a huge page from one up, else a page.
std::size_t class_alignment(std::size_t size) noexcept {
  return size >= huge_page ? huge_page : small_page;
}

// An eighth of the machine's physical memory (1 GiB where the system does not tell).
std::size_t default_limit() noexcept {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0
             ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) / 8
             : std::size_t{1} << 30;
}

// Freed blocks of smallest_kept bytes or more (each of a size class, aligned as its class), for
// reuse by an allocation of the same class. A fixed table, oldest first: the cache itself
// allocates nothing.
class block_cache {
 public:
  struct block {
    void* p;
    std::size_t size;
  };
  // A kept block of exactly `size` bytes (the newest of them), or nullptr.
  void* take(std::size_t size) noexcept {
    std::lock_guard lock(mutex_);
    for (std::size_t k = count_; k-- > 0;)
      if (blocks_[k].size == size) {
        void* p = blocks_[k].p;
        remove(k);
        return p;
      }
    return nullptr;
  }
  // Keeps p (size bytes) unless it exceeds the limit alone; evicts the oldest blocks to make room.
  // Returns false where the caller must free p itself. Evicted blocks are freed outside the lock.
  bool put(void* p, std::size_t size) noexcept {
    block evicted[capacity];
    std::size_t n = 0;
    bool kept = false;
    {
      std::lock_guard lock(mutex_);
      if (size <= limit_) {
        while (count_ > 0 && (count_ == capacity || bytes_ + size > limit_)) {
          evicted[n++] = blocks_[0];
          remove(0);
        }
        blocks_[count_++] = {p, size};
        bytes_ += size;
        kept = true;
      }
    }
    for (std::size_t k = 0; k < n; ++k) free_block(evicted[k]);
    return kept;
  }
  void set_limit(std::size_t bytes) noexcept {
    {
      std::lock_guard lock(mutex_);
      limit_ = bytes;
    }
    trim();
  }
  std::size_t limit() noexcept {
    std::lock_guard lock(mutex_);
    return limit_;
  }
  std::size_t bytes() noexcept {
    std::lock_guard lock(mutex_);
    return bytes_;
  }
  // Frees the oldest blocks until the kept bytes are within the limit (all of them: clear).
  void trim(bool clear = false) noexcept {
    for (;;) {
      block b{};
      {
        std::lock_guard lock(mutex_);
        if (count_ == 0 || (!clear && bytes_ <= limit_)) return;
        b = blocks_[0];
        remove(0);
      }
      free_block(b);
    }
  }

  static void free_block(const block& b) noexcept {
    ::operator delete (b.p, std::align_val_t{class_alignment(b.size)});
  }

 private:
  static constexpr std::size_t capacity = 32;
  void remove(std::size_t k) noexcept {
    bytes_ -= blocks_[k].size;
    for (; k + 1 < count_; ++k) blocks_[k] = blocks_[k + 1];
    --count_;
  }

  std::mutex mutex_;
  block blocks_[capacity]{};
  std::size_t count_ = 0;
  std::size_t bytes_ = 0;
  std::size_t limit_ = default_limit();
};

block_cache& cache() noexcept {
  // Never destroyed (arrays may free during exit), and not from the heap: a program that makes
  // allocations fail (tests/algorithms/allocation_failure_test.cpp) fails none here.
  alignas(block_cache) static unsigned char storage[sizeof(block_cache)];
  static block_cache* const c = ::new (storage) block_cache();
  return *c;
}

class host_memory_space final : public memory_space {
 public:
  void* allocate(std::size_t bytes, std::size_t alignment) const override {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0)
      throw argument_error("ak::host_memory().allocate", "alignment", "a power of two",
                           std::to_string(alignment));
    if (bytes == 0) return nullptr;
    const bool keep = cached(bytes, alignment);
    const std::size_t size = keep ? block_class(bytes) : bytes;
    if (keep)
      if (void* p = cache().take(size)) return p;
    void* p = ::operator new (size, std::align_val_t{effective_alignment(alignment, bytes)});
#ifdef MADV_HUGEPAGE
    // Large arrays on transparent huge pages (where the kernel gives them on advice): a fresh
    // array's first writes fault once per 2 MiB instead of once per 4 KiB, which for the arrays
    // that calls return (copy_if, sort, map, ...) was most of a call's time. Advice only.
    if (size >= huge_page) madvise(p, size / huge_page * huge_page, MADV_HUGEPAGE);
#endif
    return p;
  }

  void deallocate(void* p, std::size_t bytes, std::size_t alignment) const noexcept override {
    if (p == nullptr) return;
    if (cached(bytes, alignment) && cache().put(p, block_class(bytes))) return;
    // Unsized: clang before 19 does not declare sized deallocation by default.
    ::operator delete (p, std::align_val_t{effective_alignment(alignment, bytes)});
  }

  void copy_to_host(void* host_dst, const void* src, std::size_t bytes) const override {
    // memcpy with a null pointer is undefined even for 0 bytes, and empty arrays have none.
    if (bytes != 0) std::memcpy(host_dst, src, bytes);
  }

  void copy_from_host(void* dst, const void* host_src, std::size_t bytes) const override {
    if (bytes != 0) std::memcpy(dst, host_src, bytes);
  }

  bool host_accessible() const noexcept override {
    return true;
  }
  std::string_view device_name() const noexcept override {
    return "cpu:0";
  }

 private:
  // Blocks the cache keeps and gives: smallest_kept bytes or more, aligned to no more than their
  // class.
  static bool cached(std::size_t bytes, std::size_t alignment) noexcept {
    return bytes >= smallest_kept && alignment <= class_alignment(block_class(bytes));
  }
  // Kept blocks start where their class does (the same rule in allocate and deallocate, which are
  // given the same size and alignment).
  static std::size_t effective_alignment(std::size_t alignment, std::size_t bytes) noexcept {
    return std::max({alignment, host_alignment,
                     cached(bytes, alignment) ? class_alignment(block_class(bytes)) : 1});
  }
};

}  // namespace

const memory_space& host_memory() noexcept {
  // Never destroyed: arrays with static storage may still free through it during exit.
  alignas(host_memory_space) static unsigned char storage[sizeof(host_memory_space)];
  static const host_memory_space* const space = ::new (storage) host_memory_space();
  return *space;
}

void set_host_cache_limit(std::size_t bytes) noexcept {
  cache().set_limit(bytes);
}
std::size_t host_cache_limit() noexcept {
  return cache().limit();
}
std::size_t host_cache_bytes() noexcept {
  return cache().bytes();
}
void release_cached_memory() noexcept {
  cache().trim(true);
}

}  // namespace ak
