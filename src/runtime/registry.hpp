// The runtime's internal state shared by its translation units: backends and devices, the hook
// schemas, and the tuning layers. Not installed; nothing outside src/ includes it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ak/core/dtype.hpp"
#include "ak/core/memory.hpp"
#include "ak/plugin/backend_api.h"
#include "ak/runtime/device.hpp"
#include "ak/runtime/memory_resource.hpp"
#include "ak/runtime/tuning.hpp"

namespace ak::detail {

// The most fields a tuning type may have (the per-thread cache keeps this many slots).
inline constexpr std::size_t max_tuning_fields = 16;

// ---- hooks ------------------------------------------------------------------------------------

struct field_schema {
  std::string_view name;
  std::string_view doc;
  std::int64_t min;
  std::int64_t max;
  bool power_of_two;
  std::vector<std::string_view> enum_names;
  std::int64_t generic_default;
};

struct hook_schema {
  std::string_view name;
  std::string_view type_name;
  std::vector<field_schema> fields;
};

// Every hook the runtime knows, indexed by hook id. Defined in hook_schemas.cpp.
const std::vector<hook_schema>& hook_schemas();
const hook_schema* find_hook(std::string_view name);
bool valid_field_value(const field_schema& f, std::int64_t v) noexcept;
// What a valid value of the field is, for messages: "a power of two in [32, 1024]".
std::string expected_field_value(const field_schema& f);
// A value as a tuning file writes it: an enum's name or a number.
std::string field_value_text(const field_schema& f, std::int64_t v);
// Empty when `type_name` with `field_count` fields is the hook's declared type; otherwise
// "<type_name> (N fields), but the hook declares <its type> (M fields)".
std::string type_mismatch(const hook_schema& h, std::string_view type_name,
                          std::uint32_t field_count);
// The index of the first set field whose value is out of its range, or -1.
std::ptrdiff_t first_invalid_field(const hook_schema& h, const std::int64_t* values);
// Throws ak::argument_error(function, "<field>", expected, actual) for the first set field out
// of range; with `name_hook` the argument is "<hook>.<field>". Allocates only on failure.
void check_fields(const hook_schema& h, const std::int64_t* values, std::string_view function,
                  bool name_hook);

// ---- devices and backends ---------------------------------------------------------------------

struct backend_record;

struct device_record final : memory_space {
  device_info info;
  std::uint32_t index = 0;   // dense over the process
  std::int64_t ordinal = 0;  // within its backend
  backend_record* backend = nullptr;

  void* allocate(std::size_t bytes, std::size_t alignment) const override;
  void deallocate(void* p, std::size_t bytes, std::size_t alignment) const noexcept override;
  void* native_queue() const noexcept;  // the backend's queue for this device, or nullptr

  // The user's allocator (ak::set_memory_resource), and which blocks it gave: they go back to it
  // even after another is installed. `resource_blocks` lets deallocate skip the lock until a
  // resource has given any.
  mutable std::atomic<memory_resource*> resource{nullptr};
  mutable std::mutex resource_mutex;
  mutable std::unordered_map<void*, memory_resource*> resource_owner;
  mutable std::atomic<std::size_t> resource_blocks{0};
  void copy_to_host(void* host_dst, const void* src, std::size_t bytes) const override;
  void copy_from_host(void* dst, const void* host_src, std::size_t bytes) const override;
  bool host_accessible() const noexcept override { return info.caps.host_accessible; }
  std::string_view device_name() const noexcept override { return info.name; }
};

struct backend_record {
  std::string name;
  std::string origin;
  ak_backend_v1 api{};
  void* library = nullptr;  // dlopen handle; null for built-in backends
  std::vector<std::unique_ptr<device_record>> devices;
};

// Built-in backends hand the runtime their entry point (the same C table a plugin exports) from
// a static initialiser in libak. The cpu backend is one.
void register_builtin_backend(std::string_view name, ak_backend_entry_v1_fn entry);

// The record behind a device handle; records live until the process ends.
inline const device_record& record_of(const device& d) noexcept {
  return *d.record();
}

// ---- tuning layers ----------------------------------------------------------------------------

// One entry of a layer: some fields of one hook for the devices and dtypes its selectors match.
struct tuning_entry {
  std::uint32_t hook = 0;
  std::string backend;               // backend defaults only: the backend that registered them
  std::string device_selector;       // "*", backend, device class or device name
  std::string dtype_selector;        // "*", dtype class or dtype
  std::vector<std::int64_t> values;  // one per field; ak::unset where not given
  field_origin origin;
  std::int64_t size = 0;  // > 0: measured at this many elements ("by_size"; see tuning_size)
};

// The key under a dtype selector that holds entries measured at sizes.
inline constexpr std::string_view by_size_key = "by_size";

// Validates a dtype selector; returns an empty string, or what was expected.
std::string check_dtype_selector(std::string_view s);
// Whether an entry's selectors match a device and dtype (backend defaults also check the
// backend); -1 when not, else how specific the match is (higher wins).
int match_score(const tuning_entry& e, const device_info& d, dtype t, bool backend_layer);

// Parsing of override files (tuning_files.cpp). `origin` names the file or text in messages.
// AK_TUNING: { device selector: { hook: { dtype selector: { field: value } } } }, where a dtype
// selector's object may also hold "by_size": { elements: { field: value } }.
std::vector<tuning_entry> parse_user_tuning(std::string_view json_text, const std::string& origin);
// A device's autotune cache (docs/tuning.md): its stamp (tuning_cache_stamp) must be this
// device's, and its "tunings" are { hook: { dtype selector: { field: value } } }; each entry's
// origin names the speedup "measured" records for it. Any fault is a tuning_error.
std::vector<tuning_entry> parse_cache_tuning(std::string_view json_text, const std::string& origin,
                                             const device_info& device);
// The stamp of tuning_cache_stamp for a device, as JSON text.
std::string cache_stamp_text(const device_info& device);

// Called by the backend registry when a backend has loaded (its validated defaults and its new
// devices): replaces that backend's defaults, reads the devices' cache files, and invalidates
// every cached lookup.
void add_backend_tunings(const std::string& backend, std::vector<tuning_entry> defaults,
                         const std::vector<const device_record*>& new_devices);

// ---- AK_LOG (log.cpp)
// ----------------------------------------------------------------------------

enum class log_topic : unsigned { tuning = 0, launch = 1 };
// Whether AK_LOG turns a topic on (read on first use; cheap: one atomic load after that).
bool log_enabled(log_topic t) noexcept;
// Rereads AK_LOG (ak::reload_tuning_files calls it).
void reload_log_settings();
// One line on stderr.
void write_log_line(std::string_view line);

}  // namespace ak::detail
