// Devices and backends. A device is a cheap handle to a record that the runtime keeps for the
// whole process; `ak::device("cuda:0")` loads the cuda backend plugin on first use.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ak/core/memory.hpp"

namespace ak {

enum class device_kind : std::uint8_t { cpu, gpu, simulator };
std::string_view name_of(device_kind k) noexcept;

// What a device can do correctly. These are facts of the backend and device, never tunings: no
// tuning can make an algorithm run that needs a capability the device lacks.
struct capabilities {
  bool device_scope_fence = false;  // orders memory across work-groups (decoupled look-back)
  bool forward_progress = false;    // a spinning group cannot starve an earlier one
  bool atomics64 = false;
  bool float64 = false;
  bool host_accessible = false;  // the host may dereference the device's pointers
  bool sub_groups = false;
};

struct device_info {
  std::string name;          // "<backend>:<index>": "cpu:0", "cuda:1"
  std::string backend;       // "cpu", "cuda"
  std::string device_class;  // the class its tunings are registered for: "cpu", "sm_90"
  std::string description;   // the model, for people
  device_kind kind = device_kind::cpu;
  std::int64_t compute_units = 0;  // cores or multiprocessors
  std::int64_t l1_cache_bytes = 0;
  std::int64_t l2_cache_bytes = 0;
  std::int64_t l3_cache_bytes = 0;
  std::int64_t memory_bytes = 0;
  std::int64_t sub_group_width = 0;  // GPU-like devices only
  std::int64_t local_memory_bytes = 0;
  std::int64_t max_group_size = 0;
  capabilities caps;
};

namespace detail {
struct device_record;
}

class device {
 public:
  // The default device: the built-in cpu backend's.
  device();
  // "cpu", "cpu:0", "cuda", "cuda:1", ...: a backend name alone means its device 0. Loads the
  // backend if needed; throws ak::backend_error saying why if it is absent or cannot load.
  explicit device(std::string_view name);

  const device_info& info() const noexcept;
  const std::string& name() const noexcept { return info().name; }
  const std::string& backend() const noexcept { return info().backend; }
  const capabilities& caps() const noexcept { return info().caps; }
  const memory_space& memory() const noexcept;
  // Lets a device stand where a memory space is expected: ak::array<float> a({3}, dev).
  operator const memory_space&() const noexcept { return memory(); }  // NOLINT implicit on purpose
  // Dense id of this device in the runtime, stable for the process (tuning lookups key on it).
  std::uint32_t index() const noexcept;
  // Its number within its backend: N of "backend:N" (what the backend's own calls take).
  std::int64_t ordinal() const noexcept;

  friend bool operator==(const device& a, const device& b) noexcept { return a.rec_ == b.rec_; }

  // For the runtime: the record behind the handle.
  explicit device(const detail::device_record* rec) noexcept : rec_(rec) {}
  const detail::device_record* record() const noexcept { return rec_; }

 private:
  const detail::device_record* rec_;
};

// The device whose memory space this is (every memory space of a backend belongs to a device).
device device_of(const memory_space& memory);

struct backend_info {
  std::string name;
  std::string origin;  // "built in", or the plugin's path
  std::uint32_t abi_version = 0;
  std::vector<device> devices;
};

// Loads a backend by name if it is not loaded (searching AK_BACKEND_PATH, then the directory
// of libak); throws ak::backend_error with the reasons otherwise.
void load_backend(std::string_view name);
// Loads a backend plugin from an explicit path to its shared library.
void load_backend_file(const std::string& path);
// The backends loaded so far (cpu always) and every device they expose.
std::vector<backend_info> loaded_backends();
std::vector<device> devices();
// Plugins that the loader would find: (backend name, path), without loading them.
std::vector<std::pair<std::string, std::string>> discoverable_backends();

}  // namespace ak
