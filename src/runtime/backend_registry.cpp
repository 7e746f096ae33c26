// Backends and devices: the built-in ones, plugins found on disk, device selection by name.
// Every backend, built in or not, goes through the same C table (ak/plugin/backend_api.h).
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>

#include "ak/core/error.hpp"
#include "ak/runtime/extension.hpp"
#include "registry.hpp"

namespace ak::detail {

namespace {

struct builtin_backend {
  std::string name;
  ak_backend_entry_v1_fn entry;
};

struct backend_registry {
  std::recursive_mutex mutex;
  std::vector<builtin_backend> builtins;
  std::vector<std::unique_ptr<backend_record>> backends;
  std::vector<const device_record*> devices;  // by device index
};

// Never destroyed: device records are memory spaces that arrays in other static objects may
// still free into while the process exits.
backend_registry& registry() {
  static backend_registry* r = new backend_registry;
  return *r;
}

[[noreturn]] void fail(const std::string& message) {
  throw backend_error(message);
}

void check_status(const backend_record& b, const char* status, std::string_view what) {
  if (status) fail("backend '" + b.name + "': " + std::string(what) + " failed: " + status);
}

bool valid_backend_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

std::string fixed_string(const char* s, std::size_t capacity) {
  return std::string(s, strnlen(s, capacity));
}

device_info to_device_info(const backend_record& b, const ak_device_desc_v1& d) {
  device_info i;
  i.name = fixed_string(d.name, sizeof d.name);
  i.backend = b.name;
  i.device_class = fixed_string(d.device_class, sizeof d.device_class);
  i.description = fixed_string(d.description, sizeof d.description);
  if (d.kind < AK_DEVICE_CPU || d.kind > AK_DEVICE_SIMULATOR)
    fail("backend '" + b.name + "': device '" + i.name + "' has an unknown kind " +
         std::to_string(d.kind));
  i.kind = static_cast<device_kind>(d.kind);
  i.compute_units = d.compute_units;
  i.l1_cache_bytes = d.l1_cache_bytes;
  i.l2_cache_bytes = d.l2_cache_bytes;
  i.l3_cache_bytes = d.l3_cache_bytes;
  i.memory_bytes = d.memory_bytes;
  i.sub_group_width = d.sub_group_width;
  i.local_memory_bytes = d.local_memory_bytes;
  i.max_group_size = d.max_group_size;
  i.caps.device_scope_fence = d.capabilities & AK_CAP_DEVICE_SCOPE_FENCE;
  i.caps.forward_progress = d.capabilities & AK_CAP_FORWARD_PROGRESS;
  i.caps.atomics64 = d.capabilities & AK_CAP_ATOMICS64;
  i.caps.float64 = d.capabilities & AK_CAP_FLOAT64;
  i.caps.host_accessible = d.capabilities & AK_CAP_HOST_ACCESSIBLE;
  i.caps.sub_groups = d.capabilities & AK_CAP_SUB_GROUPS;
  return i;
}

// Collects and validates the defaults a backend registers through the host table.
struct registration {
  backend_record* backend;
  std::vector<tuning_entry> entries;
  std::string error;
};

const char* register_default_unguarded(registration& reg, const ak_tuning_default_v1* e) {
  auto refuse = [&](const std::string& why) {
    if (reg.error.empty()) reg.error = why;
    return reg.error.c_str();
  };
  if (!e || !e->hook || !e->type_name || !e->device_class || !e->dtype || !e->values)
    return refuse("a tuning default with a null field");
  const hook_schema* hook = find_hook(e->hook);
  if (!hook) return refuse("a tuning default for unknown hook '" + std::string(e->hook) + "'");
  if (auto why = type_mismatch(*hook, e->type_name, e->field_count); !why.empty())
    return refuse("a default for hook '" + std::string(e->hook) + "' of type " + why);
  std::string dsel = e->dtype;
  if (auto why = check_dtype_selector(dsel); !why.empty())
    return refuse("a default for hook '" + std::string(e->hook) + "' with dtype '" + dsel +
                  "': expected " + why);
  tuning_entry t;
  t.hook = static_cast<std::uint32_t>(hook - hook_schemas().data());
  t.backend = reg.backend->name;
  t.device_selector = e->device_class;
  t.dtype_selector = dsel;
  t.values.assign(e->values, e->values + e->field_count);
  if (std::ptrdiff_t bad = first_invalid_field(*hook, t.values.data()); bad >= 0) {
    const field_schema& f = hook->fields[static_cast<std::size_t>(bad)];
    return refuse("a default for " + std::string(e->hook) + "." + std::string(f.name) + " (class " +
                  t.device_selector + ", dtype " + dsel + "): expected " + expected_field_value(f) +
                  ", got " + std::to_string(t.values[static_cast<std::size_t>(bad)]));
  }
  t.origin = {tuning_source::backend, "backend " + t.backend + " defaults (class " +
                                          t.device_selector + ", dtype " + dsel + ")"};
  reg.entries.push_back(std::move(t));
  return nullptr;
}

// Called from the backend's code through the C table: no exception may cross back into it.
const char* register_default(void* context, const ak_tuning_default_v1* e) {
  auto& reg = *static_cast<registration*>(context);
  try {
    return register_default_unguarded(reg, e);
  } catch (const std::exception& x) {
    reg.error = std::string("a tuning default that could not be recorded: ") + x.what();
    return reg.error.c_str();
  }
}

backend_record* find_loaded(backend_registry& r, std::string_view name) {
  for (auto& b : r.backends)
    if (b->name == name) return b.get();
  return nullptr;
}

// Takes a filled-in table, enumerates its devices and collects its tunings; on any failure the
// backend is shut down and nothing of it is kept.
// `expect` is the name it was asked for by (empty when loaded by path).
void adopt(backend_registry& r, std::unique_ptr<backend_record> b, std::string_view expect) {
  struct shutdown_guard {
    backend_record* b;
    ~shutdown_guard() {
      if (b && b->api.shutdown) b->api.shutdown(b->api.state);
      if (b && b->library) dlclose(b->library);
    }
  } guard{b.get()};

  const ak_backend_v1& api = b->api;
  // The version first: with another version, nothing else in the table can be trusted.
  if (api.abi_version != AK_BACKEND_ABI_VERSION)
    fail("backend " + b->origin + " was built for backend ABI version " +
         std::to_string(api.abi_version) + ", this ak needs version " +
         std::to_string(AK_BACKEND_ABI_VERSION));
  b->name = api.name ? api.name : "";
  if (!expect.empty() && b->name != expect)
    fail("backend " + b->origin + " calls itself '" + b->name + "', expected '" +
         std::string(expect) + "'");
  if (!valid_backend_name(b->name))
    fail("backend " + b->origin + " has an invalid name '" + b->name +
         "': expected lower-case letters, digits and '_'");
  if (find_loaded(r, b->name))
    fail("a backend named '" + b->name + "' is already loaded; not loading " + b->origin);
  const std::pair<const void*, const char*> required[] = {
      {reinterpret_cast<const void*>(api.device_count), "device_count"},
      {reinterpret_cast<const void*>(api.describe_device), "describe_device"},
      {reinterpret_cast<const void*>(api.register_tunings), "register_tunings"},
      {reinterpret_cast<const void*>(api.allocate), "allocate"},
      {reinterpret_cast<const void*>(api.deallocate), "deallocate"},
      {reinterpret_cast<const void*>(api.copy_to_host), "copy_to_host"},
      {reinterpret_cast<const void*>(api.copy_from_host), "copy_from_host"}};
  for (const auto& [fn, fn_name] : required)
    if (!fn)
      fail("backend '" + b->name + "' (" + b->origin + ") left its function " + fn_name + " null");

  std::int64_t count = 0;
  check_status(*b, api.device_count(api.state, &count), "counting devices");
  if (count < 0) fail("backend '" + b->name + "' reported " + std::to_string(count) + " devices");
  for (std::int64_t i = 0; i < count; ++i) {
    ak_device_desc_v1 desc{};
    check_status(*b, api.describe_device(api.state, i, &desc),
                 "describing device " + std::to_string(i));
    auto d = std::make_unique<device_record>();
    d->info = to_device_info(*b, desc);
    d->ordinal = i;
    d->backend = b.get();
    // One naming rule for every backend, so that names are selectors users can predict.
    const std::string expected = b->name + ":" + std::to_string(i);
    if (d->info.name != expected)
      fail("backend '" + b->name + "': device " + std::to_string(i) + " is named '" + d->info.name +
           "', expected '" + expected + "'");
    if (d->info.device_class.empty())
      fail("backend '" + b->name + "': device '" + d->info.name + "' has no device class");
    b->devices.push_back(std::move(d));
  }

  registration reg{b.get(), {}, {}};
  ak_host_v1 host{AK_BACKEND_ABI_VERSION, &reg, &register_default};
  const char* status = api.register_tunings(api.state, &host);
  if (!reg.error.empty()) fail("backend '" + b->name + "' registered " + reg.error);
  check_status(*b, status, "registering tunings");

  std::vector<const device_record*> new_devices;
  for (auto& d : b->devices) {
    d->index = static_cast<std::uint32_t>(r.devices.size() + new_devices.size());
    new_devices.push_back(d.get());
  }
  add_backend_tunings(b->name, std::move(reg.entries), new_devices);
  r.devices.insert(r.devices.end(), new_devices.begin(), new_devices.end());
  guard.b = nullptr;  // kept: no shutdown
  r.backends.push_back(std::move(b));
}

// The directory that holds libak itself: plugins are installed beside it.
std::string libak_directory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&registry), &info) && info.dli_fname)
    return std::filesystem::absolute(info.dli_fname).parent_path().string();
  return {};
}

std::vector<std::string> plugin_directories() {
  std::vector<std::string> dirs;
  if (const char* p = std::getenv("AK_BACKEND_PATH")) {
    std::string_view s = p;
    while (!s.empty()) {
      auto colon = s.find(':');
      auto dir = s.substr(0, colon);
      if (!dir.empty()) dirs.emplace_back(dir);
      if (colon == std::string_view::npos) break;
      s.remove_prefix(colon + 1);
    }
  }
  if (auto d = libak_directory(); !d.empty()) dirs.push_back(d);
  return dirs;
}

std::string plugin_file_name(std::string_view backend) {
  return "libak_" + std::string(backend) + ".so";
}

void load_plugin_file(backend_registry& r, const std::string& path, std::string_view expect) {
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = dlerror();
    fail("cannot load backend plugin " + path + ": " + (why ? why : "unknown dlopen error"));
  }
  // dlopen of a loaded library returns the same handle: never run a live plugin's entry again.
  for (const auto& b : r.backends)
    if (b->library == lib) {
      dlclose(lib);
      fail("backend plugin " + path + " is already loaded as backend '" + b->name + "'");
    }
  auto entry = reinterpret_cast<ak_backend_entry_v1_fn>(dlsym(lib, AK_BACKEND_ENTRY_SYMBOL));
  if (!entry) {
    dlclose(lib);
    fail("backend plugin " + path + " does not export " AK_BACKEND_ENTRY_SYMBOL);
  }
  auto b = std::make_unique<backend_record>();
  b->origin = path;
  b->library = lib;
  if (const char* why = entry(AK_BACKEND_ABI_VERSION, &b->api)) {
    std::string message = "backend plugin " + path + " cannot run here: " + why;
    dlclose(lib);
    fail(message);
  }
  adopt(r, std::move(b), expect);  // from here on, a failure shuts the plugin down
}

void load_locked(backend_registry& r, std::string_view name) {
  if (find_loaded(r, name)) return;
  if (!valid_backend_name(name))
    fail("invalid backend name '" + std::string(name) +
         "': expected lower-case letters, digits and '_'");
  for (const auto& bi : r.builtins) {
    if (bi.name != name) continue;
    auto b = std::make_unique<backend_record>();
    b->origin = "built in";
    if (const char* why = bi.entry(AK_BACKEND_ABI_VERSION, &b->api))
      fail("built-in backend '" + bi.name + "' cannot run here: " + why);
    adopt(r, std::move(b), bi.name);
    return;
  }
  std::string searched;
  for (const auto& dir : plugin_directories()) {
    auto path = (std::filesystem::path(dir) / plugin_file_name(name)).string();
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) {
      load_plugin_file(r, path, name);
      return;
    }
    searched += (searched.empty() ? "" : ", ") + dir;
  }
  fail("backend '" + std::string(name) + "' is not available: no " + plugin_file_name(name) +
       " in " + (searched.empty() ? std::string("any directory") : searched) +
       " (AK_BACKEND_PATH " + (std::getenv("AK_BACKEND_PATH") ? "is set" : "is unset") +
       "; plugins are also searched next to libak)");
}

// Makes sure the default backend is loaded before anything looks at devices.
backend_registry& loaded_registry() {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  if (r.backends.empty()) load_locked(r, "cpu");
  return r;
}

const device_record* select_device(std::string_view name) {
  auto& r = loaded_registry();
  std::lock_guard lock(r.mutex);
  auto colon = name.find(':');
  std::string_view backend = name.substr(0, colon);
  std::int64_t ordinal = 0;
  if (colon != std::string_view::npos) {
    auto digits = name.substr(colon + 1);
    if (digits.empty() || digits.size() > 9 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      throw argument_error("ak::device", "name", "\"<backend>\" or \"<backend>:<index>\"",
                           "\"" + std::string(name) + "\"");
    ordinal = std::stoll(std::string(digits));
  }
  if (backend.empty())
    throw argument_error("ak::device", "name", "\"<backend>\" or \"<backend>:<index>\"",
                         "\"" + std::string(name) + "\"");
  load_locked(r, backend);
  backend_record* b = find_loaded(r, backend);
  if (ordinal >= static_cast<std::int64_t>(b->devices.size())) {
    std::string have;
    for (auto& d : b->devices) have += (have.empty() ? "" : ", ") + d->info.name;
    fail("device '" + std::string(name) + "' does not exist: backend '" + b->name + "' has " +
         std::to_string(b->devices.size()) + " device(s)" + (have.empty() ? "" : ": " + have));
  }
  return b->devices[static_cast<std::size_t>(ordinal)].get();
}

void throw_if(const device_record& d, const char* status, std::string_view what) {
  if (status) fail("device '" + d.info.name + "': " + std::string(what) + " failed: " + status);
}

}  // namespace

void register_builtin_backend(std::string_view name, ak_backend_entry_v1_fn entry) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  r.builtins.push_back({std::string(name), entry});
}

void* device_record::native_queue() const noexcept {
  return backend->api.native_queue ? backend->api.native_queue(backend->api.state, ordinal)
                                   : nullptr;
}

void* device_record::allocate(std::size_t bytes, std::size_t alignment) const {
  if (memory_resource* r = resource.load(std::memory_order_acquire); r && bytes != 0) {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0)
      throw argument_error("ak::memory_space::allocate", "alignment", "a power of two",
                           std::to_string(alignment));
    void* const queue = native_queue();
    void* p = r->allocate(bytes, alignment, queue);
    if (!p || reinterpret_cast<std::uintptr_t>(p) % alignment != 0) {
      if (p) r->deallocate(p, bytes, alignment, queue);
      fail(
          "device '" + info.name + "': its memory resource returned " +
          (p ? "memory not aligned to " + std::to_string(alignment) + " bytes" : "a null pointer") +
          " for " + std::to_string(bytes) + " bytes");
    }
    try {
      std::lock_guard lock(resource_mutex);
      resource_owner.emplace(p, r);
    } catch (...) {
      r->deallocate(p, bytes, alignment, queue);
      throw;
    }
    resource_blocks.fetch_add(1, std::memory_order_release);
    return p;
  }
  void* p = nullptr;
  throw_if(*this, backend->api.allocate(backend->api.state, ordinal, bytes, alignment, &p),
           "allocating " + std::to_string(bytes) + " bytes");
  return p;
}

void device_record::deallocate(void* p, std::size_t bytes, std::size_t alignment) const noexcept {
  if (p && resource_blocks.load(std::memory_order_acquire) != 0) {
    memory_resource* owner = nullptr;
    {
      std::lock_guard lock(resource_mutex);
      if (auto it = resource_owner.find(p); it != resource_owner.end()) {
        owner = it->second;
        resource_owner.erase(it);
      }
    }
    if (owner) {
      resource_blocks.fetch_sub(1, std::memory_order_relaxed);
      owner->deallocate(p, bytes, alignment, native_queue());
      return;
    }
  }
  backend->api.deallocate(backend->api.state, ordinal, p, bytes, alignment);
}

void device_record::copy_to_host(void* host_dst, const void* src, std::size_t bytes) const {
  throw_if(*this, backend->api.copy_to_host(backend->api.state, ordinal, host_dst, src, bytes),
           "copying to the host");
}

void device_record::copy_from_host(void* dst, const void* host_src, std::size_t bytes) const {
  throw_if(*this, backend->api.copy_from_host(backend->api.state, ordinal, dst, host_src, bytes),
           "copying from the host");
}

}  // namespace ak::detail

namespace ak {

using detail::device_record;

std::string_view name_of(device_kind k) noexcept {
  switch (k) {
    case device_kind::cpu:
      return "cpu";
    case device_kind::gpu:
      return "gpu";
    case device_kind::simulator:
      return "simulator";
  }
  return "?";
}

device::device() : device("cpu") {}
device::device(std::string_view name) : rec_(detail::select_device(name)) {}
const device_info& device::info() const noexcept {
  return rec_->info;
}
const memory_space& device::memory() const noexcept {
  return *rec_;
}
std::uint32_t device::index() const noexcept {
  return rec_->index;
}
std::int64_t device::ordinal() const noexcept {
  return rec_->ordinal;
}

memory_resource* set_memory_resource(const device& dev, memory_resource* r) {
  return detail::record_of(dev).resource.exchange(r, std::memory_order_acq_rel);
}
memory_resource* installed_memory_resource(const device& dev) noexcept {
  return detail::record_of(dev).resource.load(std::memory_order_acquire);
}

device device_of(const memory_space& memory) {
  if (auto* d = dynamic_cast<const device_record*>(&memory)) return device(d);
  if (&memory == &host_memory()) return device("cpu");
  throw argument_error("ak::device_of", "memory", "the memory space of an ak device",
                       "a memory space named '" + std::string(memory.device_name()) + "'");
}

void load_backend(std::string_view name) {
  auto& r = detail::loaded_registry();
  std::lock_guard lock(r.mutex);
  detail::load_locked(r, name);
}

void load_backend_file(const std::string& path) {
  auto& r = detail::loaded_registry();
  std::lock_guard lock(r.mutex);
  detail::load_plugin_file(r, path, {});
}

const void* backend_extension(std::string_view backend, const char* symbol) {
  auto& r = detail::loaded_registry();
  std::lock_guard lock(r.mutex);
  detail::load_locked(r, backend);
  const detail::backend_record* b = detail::find_loaded(r, backend);
  if (!b || !b->library) return nullptr;
  return dlsym(b->library, symbol);
}

std::vector<backend_info> loaded_backends() {
  auto& r = detail::loaded_registry();
  std::lock_guard lock(r.mutex);
  std::vector<backend_info> out;
  for (auto& b : r.backends) {
    backend_info i{b->name, b->origin, b->api.abi_version, {}};
    for (auto& d : b->devices) i.devices.emplace_back(d.get());
    out.push_back(std::move(i));
  }
  return out;
}

std::vector<device> devices() {
  auto& r = detail::loaded_registry();
  std::lock_guard lock(r.mutex);
  std::vector<device> out;
  for (auto* d : r.devices) out.emplace_back(d);
  return out;
}

std::vector<std::pair<std::string, std::string>> discoverable_backends() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& dir : detail::plugin_directories()) {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      auto file = e.path().filename().string();
      if (file.rfind("libak_", 0) != 0 || e.path().extension() != ".so") continue;
      auto name = file.substr(6, file.size() - 6 - 3);
      bool seen = std::any_of(out.begin(), out.end(), [&](auto& p) { return p.first == name; });
      if (!seen && detail::valid_backend_name(name)) out.emplace_back(name, e.path().string());
    }
  }
  return out;
}

}  // namespace ak
