#include "ak/core/memory.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <string>

#include "ak/core/error.hpp"

namespace ak {

namespace {

class host_memory_space final : public memory_space {
 public:
  void* allocate(std::size_t bytes, std::size_t alignment) const override {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0)
      throw argument_error("ak::host_memory().allocate", "alignment", "a power of two",
                           std::to_string(alignment));
    if (bytes == 0) return nullptr;
    void* p = ::operator new (bytes, std::align_val_t{effective_alignment(alignment, bytes)});
#ifdef MADV_HUGEPAGE
    // Large arrays on transparent huge pages (where the kernel gives them on advice): a fresh
    // array's first writes fault once per 2 MiB instead of once per 4 KiB, which for the arrays
    // that calls return (copy_if, sort, map, ...) was most of a call's time. Advice only.
    if (bytes >= huge_page) madvise(p, bytes / huge_page * huge_page, MADV_HUGEPAGE);
#endif
    return p;
  }

  void deallocate(void* p, std::size_t bytes, std::size_t alignment) const noexcept override {
    if (p == nullptr) return;
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
  static constexpr std::size_t huge_page = std::size_t{2} << 20;
  // Blocks of a huge page or more start on one (the same rule in allocate and deallocate, which
  // are given the same size).
  static std::size_t effective_alignment(std::size_t alignment, std::size_t bytes) noexcept {
    return std::max({alignment, host_alignment, bytes >= huge_page ? huge_page : 1});
  }
};

}  // namespace

const memory_space& host_memory() noexcept {
  // Never destroyed: arrays with static storage may still free through it during exit.
  alignas(host_memory_space) static unsigned char storage[sizeof(host_memory_space)];
  static const host_memory_space* const space = ::new (storage) host_memory_space();
  return *space;
}

}  // namespace ak
