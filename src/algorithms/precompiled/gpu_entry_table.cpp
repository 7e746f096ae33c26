// Finding the GPU entry table that a backend plugin exports (see gpu_entries.hpp).
#include <string>

#include "ak/core/error.hpp"
#include "ak/runtime/extension.hpp"
#include "ak/version.hpp"
#include "gpu_entries.hpp"

namespace ak::detail {

namespace {

// The table, or nullptr when the backend exports none.
const gpu_entry_table* find_gpu_entries(const device& dev) {
  const auto* t = static_cast<const gpu_entry_table*>(
      backend_extension(dev.backend(), AK_GPU_ENTRY_TABLE_SYMBOL));
  if (!t) return nullptr;
  // The table passes ak's C++ types across the plugin boundary: only a plugin built from this
  // very version of ak may be used.
  if (t->size != sizeof(gpu_entry_table) || !t->ak_version ||
      std::string(t->ak_version) != version_string())
    throw backend_error(
        "backend '" + dev.backend() + "': its precompiled algorithms come from ak " +
        (t->ak_version ? t->ak_version : "(unknown)") + " and this program runs ak " +
        std::string(version_string()) + "; install the plugin of the same version");
  return t;
}

}  // namespace

// Looking the table up takes the backend registry's lock and a dlsym: the last answer is kept per
// thread, keyed by the memory space. That is safe because backends never unload, so neither a
// memory space nor a plugin's table goes away while the process runs.
static const gpu_entry_table* cached_gpu_entries(const device& dev) {
  thread_local const memory_space* last_memory = nullptr;
  thread_local const gpu_entry_table* last_table = nullptr;
  if (&dev.memory() != last_memory) {
    last_table = find_gpu_entries(dev);  // on a throw, nothing is kept
    last_memory = &dev.memory();
  }
  return last_table;
}

bool has_gpu_entries(const device& dev) {
  return cached_gpu_entries(dev) != nullptr;
}

const gpu_entry_table& gpu_entries_for(const device& dev) {
  if (const gpu_entry_table* t = cached_gpu_entries(dev)) return *t;
  throw backend_error("backend '" + dev.backend() + "' (device " + dev.name() +
                      ") exports no table of precompiled GPU entries (" +
                      AK_GPU_ENTRY_TABLE_SYMBOL + "); its plugin is incomplete");
}

const gpu_entry_table& gpu_entries_for(const memory_space& memory) {
  return gpu_entries_for(device_of(memory));
}

}  // namespace ak::detail
