#include "ak/core/memory.hpp"

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
    return ::operator new (bytes, std::align_val_t{effective_alignment(alignment)});
  }

  void deallocate(void* p, std::size_t /*bytes*/, std::size_t alignment) const noexcept override {
    if (p == nullptr) return;
    // Unsized: clang before 19 does not declare sized deallocation by default.
    ::operator delete (p, std::align_val_t{effective_alignment(alignment)});
  }

  void copy_to_host(void* host_dst, const void* src, std::size_t bytes) const override {
    // memcpy with a null pointer is undefined even for 0 bytes, and empty arrays have none.
    if (bytes != 0) std::memcpy(host_dst, src, bytes);
  }

  void copy_from_host(void* dst, const void* host_src, std::size_t bytes) const override {
    if (bytes != 0) std::memcpy(dst, host_src, bytes);
  }

  bool host_accessible() const noexcept override { return true; }
  std::string_view device_name() const noexcept override { return "cpu:0"; }

 private:
  static std::size_t effective_alignment(std::size_t alignment) noexcept {
    return std::max(alignment, host_alignment);
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
