// The cuda backend plugin (libak_cuda.so): devices cuda:0 .. cuda:N-1, their memory (a
// stream-ordered pool), copies, and one stream per device on which ak orders all its work. The
// CUDA runtime is linked statically, so the plugin needs only the driver (libcuda.so.1) on the
// machine; a program that never touches cuda never loads this plugin. The algorithms' kernels,
// compiled by nvcc, are in the same library (entries/).
#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "ak/backends/cuda/cuda_api.h"
#include "ak/plugin/backend_api.h"
#include "cuda_tuning_defaults.hpp"

namespace ak::cuda_backend {
namespace {

// What the backend keeps per device: its stream (made on first use) and the kernel launched last.
struct device_state {
  std::once_flag once;
  cudaStream_t stream = nullptr;
  std::string init_error;
  std::atomic<const char*> last_kernel{nullptr};
};

struct backend_state {
  int count = 0;
  std::vector<device_state> devices;
};

backend_state* state = nullptr;

// The message of the last failed call, valid until the next call on the same thread.
thread_local std::string message;

const char* fail(const std::string& what) {
  message = "cuda: " + what;
  return message.c_str();
}

std::string describe(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

std::string after_kernel(std::int64_t d) {
  const char* k = state->devices[static_cast<std::size_t>(d)].last_kernel.load();
  return k ? std::string(", after kernel '") + k + "'" : std::string();
}

// Makes device d current on this thread and its stream ready (once): a non-blocking stream, and
// the device's default memory pool told to keep freed memory for reuse instead of returning it
// to the driver at every synchronisation.
const char* prepare(std::int64_t d, cudaStream_t* stream) {
  if (d < 0 || d >= state->count) return fail("no device cuda:" + std::to_string(d));
  device_state& s = state->devices[static_cast<std::size_t>(d)];
  cudaError_t e = cudaSetDevice(static_cast<int>(d));
  if (e != cudaSuccess) return fail("cudaSetDevice(" + std::to_string(d) + "): " + describe(e));
  std::call_once(s.once, [&] {
    cudaMemPool_t pool;
    cudaError_t r = cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking);
    if (r == cudaSuccess) r = cudaDeviceGetDefaultMemPool(&pool, static_cast<int>(d));
    std::uint64_t keep = UINT64_MAX;
    if (r == cudaSuccess) r = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    if (r != cudaSuccess)
      s.init_error = "setting up cuda:" + std::to_string(d) + ": " + describe(r);
  });
  if (!s.init_error.empty()) return fail(s.init_error);
  *stream = s.stream;
  return nullptr;
}

const char* device_count(void*, std::int64_t* count) {
  *count = state->count;
  return nullptr;
}

void copy_fixed(char* dst, std::size_t capacity, const std::string& s) {
  std::snprintf(dst, capacity, "%s", s.c_str());
}

const char* describe_device(void*, std::int64_t index, ak_device_desc_v1* d) {
  if (index < 0 || index >= state->count) return fail("no device cuda:" + std::to_string(index));
  cudaDeviceProp p{};
  const cudaError_t e = cudaGetDeviceProperties(&p, static_cast<int>(index));
  if (e != cudaSuccess) return fail("cudaGetDeviceProperties: " + describe(e));
  *d = ak_device_desc_v1{};
  copy_fixed(d->name, sizeof d->name, "cuda:" + std::to_string(index));
  copy_fixed(d->device_class, sizeof d->device_class,
             "sm_" + std::to_string(p.major) + std::to_string(p.minor));
  copy_fixed(d->description, sizeof d->description, p.name);
  d->kind = AK_DEVICE_GPU;
  d->compute_units = p.multiProcessorCount;
  d->l1_cache_bytes = static_cast<std::int64_t>(p.sharedMemPerMultiprocessor);
  d->l2_cache_bytes = p.l2CacheSize;
  d->memory_bytes = static_cast<std::int64_t>(p.totalGlobalMem);
  d->sub_group_width = p.warpSize;
  // What a group gets without opting in to more (cudaFuncSetAttribute): the same on every GPU.
  d->local_memory_bytes = static_cast<std::int64_t>(p.sharedMemPerBlock);
  d->max_group_size = p.maxThreadsPerBlock;
  // Volta and later: device-scope fences, and independent thread scheduling with resident
  // blocks that make progress (a waiting block cannot starve one that started before it).
  d->capabilities = AK_CAP_DEVICE_SCOPE_FENCE | AK_CAP_FORWARD_PROGRESS | AK_CAP_ATOMICS64 |
                    AK_CAP_FLOAT64 | AK_CAP_SUB_GROUPS;
  return nullptr;
}

const char* register_tunings(void*, const ak_host_v1* host) {
  return register_tuning_defaults(host);
}

const char* allocate(void*, std::int64_t d, std::size_t bytes, std::size_t alignment, void** out) {
  *out = nullptr;
  if (bytes == 0) return nullptr;
  if (alignment > 256) return fail("alignment " + std::to_string(alignment) + " > 256 requested");
  cudaStream_t s;
  if (const char* m = prepare(d, &s)) return m;
  const cudaError_t e = cudaMallocAsync(out, bytes, s);
  if (e != cudaSuccess) {
    *out = nullptr;
    return fail("cudaMallocAsync of " + std::to_string(bytes) +
                " bytes on cuda:" + std::to_string(d) + ": " + describe(e) + after_kernel(d));
  }
  return nullptr;
}

void deallocate(void*, std::int64_t d, void* p, std::size_t, std::size_t) {
  cudaStream_t s;
  if (p && !prepare(d, &s)) (void)cudaFreeAsync(p, s);
}

// The stream a user's memory resource orders its allocations on.
void* native_queue(void*, std::int64_t d) {
  cudaStream_t s;
  return prepare(d, &s) ? nullptr : static_cast<void*>(s);
}

// Blocking copies: enqueued behind the device's work, then waited for.
const char* copy(std::int64_t d, void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                 const char* what) {
  if (bytes == 0) return nullptr;
  cudaStream_t s;
  if (const char* m = prepare(d, &s)) return m;
  cudaError_t e = cudaMemcpyAsync(dst, src, bytes, kind, s);
  if (e == cudaSuccess) e = cudaStreamSynchronize(s);
  if (e != cudaSuccess)
    return fail(std::string(what) + " of " + std::to_string(bytes) +
                " bytes on cuda:" + std::to_string(d) + ": " + describe(e) + after_kernel(d));
  return nullptr;
}

const char* copy_to_host(void*, std::int64_t d, void* dst, const void* src, std::size_t bytes) {
  return copy(d, dst, src, bytes, cudaMemcpyDeviceToHost, "cudaMemcpyAsync (device to host)");
}
const char* copy_from_host(void*, std::int64_t d, void* dst, const void* src, std::size_t bytes) {
  return copy(d, dst, src, bytes, cudaMemcpyHostToDevice, "cudaMemcpyAsync (host to device)");
}

// The extension table (cuda_api.h).
void* api_stream(std::int64_t d) {
  cudaStream_t s;
  return prepare(d, &s) ? nullptr : static_cast<void*>(s);
}
void api_note_launch(std::int64_t d, const char* kernel) {
  if (d >= 0 && d < state->count) state->devices[static_cast<std::size_t>(d)].last_kernel = kernel;
}
const char* api_wait(std::int64_t d) {
  cudaStream_t s;
  if (const char* m = prepare(d, &s)) return m;
  const cudaError_t e = cudaStreamSynchronize(s);
  if (e != cudaSuccess)
    return fail("waiting for cuda:" + std::to_string(d) + ": " + describe(e) + after_kernel(d));
  return nullptr;
}

}  // namespace
}  // namespace ak::cuda_backend

extern "C" __attribute__((visibility("default"))) const ak_cuda_api_v1 ak_cuda_api_table_v1 = {
    AK_CUDA_API_VERSION, &ak::cuda_backend::api_stream, &ak::cuda_backend::api_note_launch,
    &ak::cuda_backend::api_wait};

extern "C" __attribute__((visibility("default"))) const char* ak_backend_entry_v1(
    std::uint32_t host_abi_version, ak_backend_v1* out) {
  using namespace ak::cuda_backend;
  if (host_abi_version != AK_BACKEND_ABI_VERSION) return "host ABI version mismatch";
  if (!state) {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorInsufficientDriver) {
      int driver = 0;
      (void)cudaDriverGetVersion(&driver);
      return fail(driver == 0 ? std::string("no CUDA driver on this machine (libcuda.so.1 not "
                                            "found or not loadable)")
                              : "the CUDA driver is too old: it supports CUDA " +
                                    std::to_string(driver / 1000) + "." +
                                    std::to_string(driver % 1000 / 10) + ", this plugin needs " +
                                    std::to_string(CUDART_VERSION / 1000) + "." +
                                    std::to_string(CUDART_VERSION % 1000 / 10));
    }
    if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0))
      return fail("no CUDA device on this machine");
    if (e != cudaSuccess) return fail("cudaGetDeviceCount: " + describe(e));
    auto* s = new backend_state;  // lives as long as the process: the runtime never unloads us
    s->count = count;
    s->devices = std::vector<device_state>(static_cast<std::size_t>(count));
    state = s;
  }
  *out = ak_backend_v1{};
  out->abi_version = AK_BACKEND_ABI_VERSION;
  out->name = "cuda";
  out->device_count = &device_count;
  out->describe_device = &describe_device;
  out->register_tunings = &register_tunings;
  out->allocate = &allocate;
  out->deallocate = &deallocate;
  out->copy_to_host = &copy_to_host;
  out->copy_from_host = &copy_from_host;
  out->native_queue = &native_queue;
  return nullptr;
}
