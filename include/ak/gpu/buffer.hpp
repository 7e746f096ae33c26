// Device memory owned by the host code of the GPU algorithms: an array of trivially copyable T on
// a device, with blocking copies to and from host memory.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "ak/runtime/device.hpp"

namespace ak::gpu {

template <class T>
class device_buffer {
  static_assert(std::is_trivially_copyable_v<T>, "device memory holds trivially copyable types");

 public:
  device_buffer(const ak::device& dev, std::int64_t n)
      : mem_(&dev.memory()),
        n_(n),
        p_(static_cast<T*>(n > 0 ? mem_->allocate(bytes(), alignof(T)) : nullptr)) {}
  device_buffer(const ak::device& dev, std::span<const T> host) : device_buffer(dev, host.size()) {
    copy_from(host);
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& o) noexcept
      : mem_(o.mem_), n_(std::exchange(o.n_, 0)), p_(std::exchange(o.p_, nullptr)) {}
  ~device_buffer() {
    if (p_) mem_->deallocate(p_, bytes(), alignof(T));
  }

  T* data() const { return p_; }
  std::int64_t size() const { return n_; }

  void copy_from(std::span<const T> host) {
    if (!host.empty()) mem_->copy_from_host(p_, host.data(), host.size() * sizeof(T));
  }
  std::vector<T> to_host() const {
    std::vector<T> out(static_cast<std::size_t>(n_));
    if (n_) mem_->copy_to_host(out.data(), p_, bytes());
    return out;
  }

 private:
  std::size_t bytes() const { return static_cast<std::size_t>(n_) * sizeof(T); }
  const ak::memory_space* mem_;
  std::int64_t n_;
  T* p_;
};

}  // namespace ak::gpu
