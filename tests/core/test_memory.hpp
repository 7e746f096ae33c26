// Memory spaces for tests: host bytes behind the memory_space interface, with counters, a switch
// that makes them look like device memory, and a way to make copies fail.
#pragma once

#include <cstddef>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string_view>

#include "ak/core/memory.hpp"

namespace ak_test {

class counting_memory final : public ak::memory_space {
 public:
  explicit counting_memory(bool host_accessible, std::string_view name = "fake:0")
      : host_accessible_(host_accessible), name_(name) {}

  void* allocate(std::size_t bytes, std::size_t alignment) const override {
    if (bytes == 0) return nullptr;
    ++allocations;
    live_bytes += bytes;
    return ::operator new (bytes, std::align_val_t{alignment});
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment) const noexcept override {
    if (p == nullptr) return;
    ++deallocations;
    live_bytes -= bytes;
    ::operator delete (p, std::align_val_t{alignment});
  }
  void copy_to_host(void* host_dst, const void* src, std::size_t bytes) const override {
    ++copies_to_host;
    std::memcpy(host_dst, src, bytes);
  }
  void copy_from_host(void* dst, const void* host_src, std::size_t bytes) const override {
    if (fail_copies_from_host) throw std::runtime_error("copy_from_host failed on purpose");
    ++copies_from_host;
    std::memcpy(dst, host_src, bytes);
  }
  bool host_accessible() const noexcept override { return host_accessible_; }
  std::string_view device_name() const noexcept override { return name_; }

  // Counters are mutable: memory spaces are used through const references.
  mutable int allocations = 0;
  mutable int deallocations = 0;
  mutable std::size_t live_bytes = 0;
  mutable int copies_to_host = 0;
  mutable int copies_from_host = 0;
  bool fail_copies_from_host = false;

 private:
  bool host_accessible_;
  std::string_view name_;
};

}  // namespace ak_test
