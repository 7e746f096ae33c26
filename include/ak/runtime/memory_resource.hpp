// A device's memory from the user's own allocator (a pool the application already has, such as
// an RMM pool or a cudaMallocAsync pool of its own):
//
//   struct my_pool final : ak::memory_resource { ... };
//   my_pool pool;
//   ak::scoped_memory_resource use(ak::device("cuda:0"), pool);
//   ak::array<float> a(ak::shape{n}, ak::device("cuda:0"));  // from the pool
//   ak::sort_inplace(a.view());                              // its temporaries too
//
// Installed per device and process-wide (every thread). Arrays made without a device live in
// ak::host_memory(), which no resource changes.
#pragma once

#include <cstddef>

#include "ak/runtime/device.hpp"

namespace ak {

class memory_resource {
 public:
  virtual ~memory_resource() = default;
  // `bytes` (> 0) of the device's memory, aligned to `alignment` (a power of two); throws when it
  // cannot. `queue` is the backend's native queue the memory will be used on, in order: a
  // cudaStream_t on cuda, nullptr on backends without one (cpu, sim).
  virtual void* allocate(std::size_t bytes, std::size_t alignment, void* queue) = 0;
  // Takes back what allocate gave. Work enqueued on `queue` before this call may still use the
  // memory: a resource that hands it out again must order that after the queue's work (as
  // cudaFreeAsync on that stream does).
  virtual void deallocate(void* p, std::size_t bytes, std::size_t alignment,
                          void* queue) noexcept = 0;
};

// From now on, every allocation of dev's memory (arrays made on dev, the temporaries of
// algorithms) comes from `r`; nullptr gives the backend's own allocator back. Memory always goes
// back to the allocator that gave it, whichever is installed then, so `r` must outlive the
// memory it gave. Returns the resource installed before (nullptr: the backend's own).
memory_resource* set_memory_resource(const device& dev, memory_resource* r);
// The resource installed for dev; nullptr when it allocates with the backend's own.
memory_resource* installed_memory_resource(const device& dev) noexcept;

// Installs a resource for the lifetime of this object, then puts back the one before it.
class scoped_memory_resource {
 public:
  scoped_memory_resource(const device& dev, memory_resource& r)
      : dev_(dev), previous_(set_memory_resource(dev, &r)) {}
  ~scoped_memory_resource() { set_memory_resource(dev_, previous_); }
  scoped_memory_resource(const scoped_memory_resource&) = delete;
  scoped_memory_resource& operator=(const scoped_memory_resource&) = delete;

 private:
  device dev_;
  memory_resource* previous_;
};

}  // namespace ak
