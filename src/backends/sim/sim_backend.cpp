// The sim backend plugin (libak_sim.so): devices sim:0 .. sim:3, one per profile (profiles.hpp),
// whose memory is host memory, and the engine that runs portable kernels on them (engine.cpp,
// reached through ak_sim_api_v1). The backend needs ak's headers alone; the plugin's precompiled
// entries (entries/) link libak, which is always loaded before a plugin.
#include <cstring>
#include <new>

#include "ak/plugin/backend_api.h"
#include "profiles.hpp"

namespace ak::sim_backend {
namespace {

void copy_fixed(char* dst, std::size_t capacity, const char* s) {
  std::strncpy(dst, s, capacity - 1);
  dst[capacity - 1] = '\0';
}

const char* device_count(void*, std::int64_t* count) {
  *count = profile_count;
  return nullptr;
}

const char* describe_device(void*, std::int64_t index, ak_device_desc_v1* d) {
  if (index < 0 || index >= profile_count) return "no such sim device";
  const profile& p = profiles[index];
  *d = ak_device_desc_v1{};
  const char* names[] = {"sim:0", "sim:1", "sim:2", "sim:3"};
  static_assert(sizeof(names) / sizeof(names[0]) == profile_count);
  copy_fixed(d->name, sizeof d->name, names[index]);
  copy_fixed(d->device_class, sizeof d->device_class, p.device_class);
  copy_fixed(d->description, sizeof d->description, p.description);
  d->kind = AK_DEVICE_SIMULATOR;
  d->compute_units = p.compute_units;
  d->l1_cache_bytes = 128 << 10;
  d->l2_cache_bytes = 32 << 20;
  d->memory_bytes = std::int64_t{16} << 30;
  d->sub_group_width = p.sub_group_width;
  d->local_memory_bytes = p.local_memory_bytes;
  d->max_group_size = p.max_group_size;
  // Device memory is host memory, but sim does not say so: code that reads device memory on the
  // host without copying it is wrong on a GPU and is meant to fail here too.
  d->capabilities = p.capabilities;
  return nullptr;
}

const char* register_tunings(void*, const ak_host_v1* host) {
  return register_tuning_defaults(host);
}

constexpr std::size_t min_alignment = 256;  // as cudaMalloc's

const char* allocate(void*, std::int64_t, std::size_t bytes, std::size_t alignment, void** out) {
  *out = nullptr;
  if (bytes == 0) return nullptr;
  *out = ::operator new (
      bytes, std::align_val_t{alignment < min_alignment ? min_alignment : alignment}, std::nothrow);
  return *out ? nullptr : "out of memory";
}

void deallocate(void*, std::int64_t, void* p, std::size_t, std::size_t alignment) {
  if (p)
    ::operator delete (p, std::align_val_t{alignment < min_alignment ? min_alignment : alignment});
}

const char* copy_bytes(void*, std::int64_t, void* dst, const void* src, std::size_t bytes) {
  if (bytes) std::memcpy(dst, src, bytes);
  return nullptr;
}

}  // namespace
}  // namespace ak::sim_backend

extern "C" __attribute__((visibility("default"))) const char* ak_backend_entry_v1(
    std::uint32_t host_abi_version, ak_backend_v1* out) {
  using namespace ak::sim_backend;
  if (host_abi_version != AK_BACKEND_ABI_VERSION) return "host ABI version mismatch";
  *out = ak_backend_v1{};
  out->abi_version = AK_BACKEND_ABI_VERSION;
  out->name = "sim";
  out->device_count = &device_count;
  out->describe_device = &describe_device;
  out->register_tunings = &register_tunings;
  out->allocate = &allocate;
  out->deallocate = &deallocate;
  out->copy_to_host = &copy_bytes;
  out->copy_from_host = &copy_bytes;
  return nullptr;
}
