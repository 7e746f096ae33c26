// Where an array's bytes live. Each backend's devices implement memory_space; the core layer
// knows only plain host memory. Memory spaces live for the whole process: arrays and views keep
// plain pointers to them, and two pointers to the same space mean the same memory.
#pragma once

#include <cstddef>
#include <string_view>

namespace ak {

class memory_space {
 public:
  virtual ~memory_space() = default;
  // A space is an identity, not a value.
  memory_space(const memory_space&) = delete;
  memory_space& operator=(const memory_space&) = delete;

  // Memory for `bytes` bytes aligned to at least `alignment` (a power of two); nullptr when
  // bytes is 0. Throws when it cannot allocate.
  virtual void* allocate(std::size_t bytes, std::size_t alignment) const = 0;
  // Frees what allocate returned, given the same bytes and alignment. nullptr does nothing.
  virtual void deallocate(void* p, std::size_t bytes, std::size_t alignment) const noexcept = 0;
  // Blocking copies between this space and host memory: complete when they return.
  virtual void copy_to_host(void* host_dst, const void* src, std::size_t bytes) const = 0;
  virtual void copy_from_host(void* dst, const void* host_src, std::size_t bytes) const = 0;
  // True when host code may dereference pointers into this space (element access, fill).
  virtual bool host_accessible() const noexcept = 0;
  // "cpu:0", "cuda:1", ...: names the device in messages.
  virtual std::string_view device_name() const noexcept = 0;

 protected:
  memory_space() = default;
};

// The smallest alignment host_memory() gives: a cache line, so that blocks of work handed to
// different threads do not share lines at the start of an array.
inline constexpr std::size_t host_alignment = 64;

// Plain host memory (operator new with host_alignment or more; copies are memcpy), device "cpu:0":
// the same memory as ak::device("cpu"), and ak::device_of(host_memory()) is that device.
const memory_space& host_memory() noexcept;

// Host memory kept for reuse. A fresh block costs the kernel's zeroing and a page fault on the
// first touch of each page, as long as a pass over the data or longer (accumulate_by_key of 1e7
// float64: half its time). So host_memory() keeps freed blocks of 64 KiB or more (arrays, and the
// cpu algorithms' scratch, which comes from it), at most 32, and gives one back to the next
// allocation of the same size class (rounded up to a power of two under 2 MiB, to a multiple of
// 2 MiB above), as a GPU library's caching allocator keeps device memory. The
// kept blocks' bytes stay under a limit: by default an eighth of the machine's physical memory,
// or AK_MEMORY_CACHE (read when the cpu backend loads: bytes, or with a suffix K, M or G for
// powers of 1024; 0 keeps nothing), or what set_host_cache_limit set last; the oldest blocks go
// first.
void set_host_cache_limit(std::size_t bytes) noexcept;
std::size_t host_cache_limit() noexcept;
// The bytes kept now.
std::size_t host_cache_bytes() noexcept;
// Frees every kept block.
void release_cached_memory() noexcept;

}  // namespace ak
