// Scratch memory for the cpu algorithms (sort's second buffer, scan's tile states, ...).
//
// Fresh memory costs a page fault per 4 KiB page on first touch, which for a sort's scratch
// buffer can cost as much as the sort. So scratch is host memory (ak/core/memory.hpp), whose
// blocks of 2 MiB and more are aligned for, and advised to use, transparent huge pages (also fewer
// TLB misses in scattering passes) and kept for the next call when freed, as a GPU library's
// caching allocator keeps device memory; ak::release_cached_memory() gives them back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

namespace ak::cpu {

// At least `bytes` bytes aligned to 64 (a cache line); throws std::bad_alloc.
void* acquire_scratch(std::size_t bytes);
// Gives back a block from acquire_scratch with the same byte count.
void release_scratch(void* block, std::size_t bytes) noexcept;

// n uninitialised elements of a trivially copyable T from the scratch allocator (or from the
// caller's memory when `external` is given).
template <class T>
class scratch_buffer {
  static_assert(std::is_trivially_copyable_v<T>, "scratch memory holds trivially copyable types");

 public:
  scratch_buffer() = default;
  explicit scratch_buffer(std::int64_t n, T* external = nullptr) { allocate(n, external); }
  // For a default-constructed (empty) buffer.
  void allocate(std::int64_t n, T* external = nullptr) {
    n_ = n;
    if (external != nullptr) {
      data_ = external;
    } else if (n > 0) {
      data_ = static_cast<T*>(acquire_scratch(bytes()));
      owned_ = true;
    }
  }
  scratch_buffer(const scratch_buffer&) = delete;
  scratch_buffer& operator=(const scratch_buffer&) = delete;
  ~scratch_buffer() {
    if (owned_) release_scratch(data_, bytes());
  }
  T* data() const noexcept { return data_; }

 private:
  std::size_t bytes() const noexcept { return static_cast<std::size_t>(n_) * sizeof(T); }
  std::int64_t n_ = 0;
  T* data_ = nullptr;
  bool owned_ = false;
};

}  // namespace ak::cpu
