// A backend plugin for tests, built as its own shared library and loaded at run time. It
// pretends to be a GPU-like backend with two devices (one with, one without a device-scope
// fence). Compile definitions make broken variants to test the loader's errors:
//   AK_TEST_VARIANT_OK, _BAD_TYPE, _BAD_ABI, _REFUSES, _BAD_RANGE, _MISNAMED, _NO_ENTRY.
#include <cstdlib>
#include <cstring>
#include <new>

#include "ak/plugin/backend_api.h"
#include "ak/runtime/backend_defaults.hpp"

#ifndef AK_TEST_PLUGIN_NAME
#error "AK_TEST_PLUGIN_NAME must be defined"
#endif

namespace {

void copy_fixed(char* dst, std::size_t capacity, const char* s) {
  std::strncpy(dst, s, capacity - 1);
  dst[capacity - 1] = '\0';
}

[[maybe_unused]] const char* device_count(void*, std::int64_t* count) {
  *count = 2;
  return nullptr;
}

[[maybe_unused]] const char* describe_device(void*, std::int64_t index, ak_device_desc_v1* d) {
  if (index < 0 || index > 1) return "no such device";
  *d = ak_device_desc_v1{};
  const char* names[] = {AK_TEST_PLUGIN_NAME ":0", AK_TEST_PLUGIN_NAME ":1"};
  copy_fixed(d->name, sizeof d->name, names[index]);
  copy_fixed(d->device_class, sizeof d->device_class, index == 0 ? "fence-class" : "nofence-class");
  copy_fixed(d->description, sizeof d->description, index == 0 ? "Test GPU A" : "Test GPU B");
  d->kind = AK_DEVICE_GPU;
  d->compute_units = 4;
  d->l1_cache_bytes = 64 << 10;
  d->l2_cache_bytes = 4 << 20;
  d->memory_bytes = std::int64_t{1} << 30;
  d->sub_group_width = 32;
  d->local_memory_bytes = 48 << 10;
  d->max_group_size = 1024;
  d->capabilities = AK_CAP_ATOMICS64 | AK_CAP_FLOAT64 | AK_CAP_SUB_GROUPS;
  if (index == 0) d->capabilities |= AK_CAP_DEVICE_SCOPE_FENCE | AK_CAP_FORWARD_PROGRESS;
  return nullptr;
}

[[maybe_unused]] const char* register_tunings(void*, const ak_host_v1* host) {
  ak::plugin::tuning_defaults d(host);
#if defined(AK_TEST_VARIANT_BAD_TYPE)
  d.add_as("reduce", ak::scan_tuning{.block_size = 128}, "*", "*");
#elif defined(AK_TEST_VARIANT_BAD_RANGE)
  d.add(ak::reduce_hook{}, "*", "*", {.block_size = 1000});
#else
  // Values no generic default has, so tests can see where they came from.
  d.add(ak::reduce_hook{}, "*", "*", {.block_size = 128, .items_per_thread = 3});
  d.add(ak::reduce_hook{}, "fence-class", "float", {.block_size = 512});
  d.add(ak::reduce_hook{}, "fence-class", "float64", {.items_per_thread = 5});
  d.add(ak::scan_hook{}, "*", "*", {.algorithm = ak::scan_algorithm::decoupled_lookback});
  d.add(ak::sort_hook{}, "*", "*", {.merge_tile_size = 1 << 16});
#endif
  return d.status();
}

// Device memory is host memory in disguise: the device does not claim host access, so code
// under test must go through the copy functions.
[[maybe_unused]] const char* allocate(void*, std::int64_t, std::size_t bytes, std::size_t alignment,
                                      void** out) {
  *out =
      bytes ? ::operator new (bytes, std::align_val_t{alignment < 64 ? 64 : alignment}) : nullptr;
  return nullptr;
}

[[maybe_unused]] void deallocate(void*, std::int64_t, void* p, std::size_t, std::size_t alignment) {
  if (p) ::operator delete (p, std::align_val_t{alignment < 64 ? 64 : alignment});
}

[[maybe_unused]] const char* copy_bytes(void*, std::int64_t, void* dst, const void* src,
                                        std::size_t bytes) {
  if (bytes) std::memcpy(dst, src, bytes);
  return nullptr;
}

}  // namespace

#if !defined(AK_TEST_VARIANT_NO_ENTRY)
extern "C" __attribute__((visibility("default"))) const char* ak_backend_entry_v1(
    std::uint32_t host_abi_version, ak_backend_v1* out) {
  if (host_abi_version != AK_BACKEND_ABI_VERSION) return "host ABI version mismatch";
#if defined(AK_TEST_VARIANT_REFUSES)
  (void)out;
  return "no test driver installed (this plugin always refuses)";
#else
  *out = ak_backend_v1{};
#if defined(AK_TEST_VARIANT_BAD_ABI)
  out->abi_version = 99;
#else
  out->abi_version = AK_BACKEND_ABI_VERSION;
#endif
#if defined(AK_TEST_VARIANT_MISNAMED)
  out->name = "someone_else";
#else
  out->name = AK_TEST_PLUGIN_NAME;
#endif
  out->device_count = &device_count;
  out->describe_device = &describe_device;
  out->register_tunings = &register_tunings;
  out->allocate = &allocate;
  out->deallocate = &deallocate;
  out->copy_to_host = &copy_bytes;
  out->copy_from_host = &copy_bytes;
  return nullptr;
#endif
}
#else
extern "C" __attribute__((visibility("default"))) int ak_something_else() {
  return 0;
}
#endif
