// The built-in cpu backend: one device, the host, with its worker threads scheduled by oneTBB.
// It is reached through the same C table as every plugin; only its entry point is handed to the
// runtime directly instead of being found by dlopen.
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <new>
#include <string>

#include "../../runtime/registry.hpp"
#include "ak/backends/cpu.hpp"
#include "ak/core/error.hpp"
#include "ak/core/memory.hpp"
#include "cpu_backend.hpp"

namespace ak::cpu {

namespace {

struct thread_control {
  std::mutex mutex;
  std::int64_t env_threads = 0;  // AK_NUM_THREADS, 0 when unset
  std::int64_t requested = 0;    // set_num_threads' last n, 0 for the default
  std::unique_ptr<tbb::global_control> limit;
};

thread_control& threads() {
  static thread_control t;
  return t;
}

// AK_MEMORY_CACHE: the limit of host memory's cache (ak/core/memory.hpp) in bytes, with an
// optional suffix K, M or G (powers of 1024), or the backend refuses to load (with this message).
// Unset or empty: the default limit stays.
std::string apply_memory_cache_env() {
  const char* v = std::getenv("AK_MEMORY_CACHE");
  if (!v || !*v) return {};
  char* end = nullptr;
  errno = 0;
  const unsigned long long n = std::strtoull(v, &end, 10);
  int shift = 0;
  if (*end == 'K' || *end == 'M' || *end == 'G') shift = *end == 'K' ? 10 : *end == 'M' ? 20 : 30;
  const bool ok = std::isdigit(static_cast<unsigned char>(*v)) && errno == 0 &&
                  end[shift ? 1 : 0] == '\0' && n <= (~0ULL >> shift);
  if (!ok)
    return std::string(
               "AK_MEMORY_CACHE: expected a byte count (digits, then optionally K, M or G), "
               "got \"") +
           v + "\"";
  set_host_cache_limit(static_cast<std::size_t>(n << shift));
  return {};
}

// The cap in force: set_num_threads' n, else AK_NUM_THREADS, else none.
void apply_thread_limit(thread_control& t) {
  t.limit.reset();
  std::int64_t n = t.requested ? t.requested : t.env_threads;
  if (n > 0)
    t.limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                    static_cast<std::size_t>(n));
}

// AK_NUM_THREADS: a positive integer, or the backend refuses to load (with this message).
std::string read_num_threads_env(std::int64_t& out) {
  out = 0;
  const char* v = std::getenv("AK_NUM_THREADS");
  if (!v || !*v) return {};
  char* end = nullptr;
  long long n = std::strtoll(v, &end, 10);
  if (*end != '\0' || n <= 0 || n > 1 << 20)
    return std::string("AK_NUM_THREADS: expected a positive integer, got \"") + v + "\"";
  out = n;
  return {};
}

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      auto value = colon == std::string::npos ? colon : line.find_first_not_of(" \t", colon + 1);
      if (value != std::string::npos) return line.substr(value);
    }
  }
  return "host CPU";
}

std::int64_t sysconf_or_zero(int name) {
  long v = sysconf(name);
  return v > 0 ? v : 0;
}

void copy_fixed(char* dst, std::size_t capacity, const std::string& s) {
  std::size_t n = std::min(capacity - 1, s.size());
  std::memcpy(dst, s.data(), n);
  dst[n] = '\0';
}

struct cpu_state {
  std::string error;  // the last message returned through the C table
};

const char* device_count(void*, std::int64_t* count) {
  *count = 1;
  return nullptr;
}

const char* describe_device(void*, std::int64_t index, ak_device_desc_v1* d) {
  if (index != 0) return "the cpu backend has one device";
  *d = ak_device_desc_v1{};
  copy_fixed(d->name, sizeof d->name, "cpu:0");
  copy_fixed(d->device_class, sizeof d->device_class, "cpu");
  copy_fixed(d->description, sizeof d->description, cpu_model_name());
  d->kind = AK_DEVICE_CPU;
  d->compute_units = tbb::info::default_concurrency();
  d->l1_cache_bytes = sysconf_or_zero(_SC_LEVEL1_DCACHE_SIZE);
  d->l2_cache_bytes = sysconf_or_zero(_SC_LEVEL2_CACHE_SIZE);
  d->l3_cache_bytes = sysconf_or_zero(_SC_LEVEL3_CACHE_SIZE);
  d->memory_bytes = sysconf_or_zero(_SC_PHYS_PAGES) * sysconf_or_zero(_SC_PAGESIZE);
  d->capabilities = AK_CAP_DEVICE_SCOPE_FENCE | AK_CAP_FORWARD_PROGRESS | AK_CAP_ATOMICS64 |
                    AK_CAP_FLOAT64 | AK_CAP_HOST_ACCESSIBLE;
  return nullptr;
}

const char* register_tunings(void*, const ak_host_v1* host) {
  return detail::register_tuning_defaults(host);
}

const char* allocate(void*, std::int64_t, std::size_t bytes, std::size_t alignment, void** out) {
  *out = nullptr;
  if (bytes == 0) return nullptr;
  try {
    *out = host_memory().allocate(bytes, alignment);  // host memory's cache included
    return nullptr;
  } catch (const std::bad_alloc&) {
    // Per thread and without allocating (there is no memory, and threads fail at once): the
    // message lives until this thread's next failed allocation, as the C table asks.
    thread_local char message[96];
    std::snprintf(message, sizeof message, "out of host memory allocating %zu bytes", bytes);
    return message;
  }
}

void deallocate(void*, std::int64_t, void* p, std::size_t bytes, std::size_t alignment) {
  host_memory().deallocate(p, bytes, alignment);
}

const char* copy_bytes(void*, std::int64_t, void* dst, const void* src, std::size_t bytes) {
  if (bytes) std::memcpy(dst, src, bytes);
  return nullptr;
}

const char* cpu_backend_entry(std::uint32_t host_abi_version, ak_backend_v1* out) {
  if (host_abi_version != AK_BACKEND_ABI_VERSION) return "backend ABI version mismatch";
  static cpu_state state;
  auto& t = threads();
  {
    std::lock_guard lock(t.mutex);
    std::string why = read_num_threads_env(t.env_threads);
    if (!why.empty()) {
      state.error = why;
      return state.error.c_str();
    }
    apply_thread_limit(t);  // keeps a cap set in code before the backend loaded
  }
  if (std::string why = apply_memory_cache_env(); !why.empty()) {
    state.error = why;
    return state.error.c_str();
  }
  if (std::string why = detail::apply_vector_target_env(); !why.empty()) {
    state.error = why;
    return state.error.c_str();
  }
  *out = ak_backend_v1{};
  out->abi_version = AK_BACKEND_ABI_VERSION;
  out->name = "cpu";
  out->state = &state;
  out->device_count = &device_count;
  out->describe_device = &describe_device;
  out->register_tunings = &register_tunings;
  out->allocate = &allocate;
  out->deallocate = &deallocate;
  out->copy_to_host = &copy_bytes;
  out->copy_from_host = &copy_bytes;
  return nullptr;
}

// Hands the entry point to the runtime when libak loads.
const bool registered = [] {
  ak::detail::register_builtin_backend("cpu", &cpu_backend_entry);
  return true;
}();

}  // namespace

void set_num_threads(std::int64_t n) {
  if (n < 0)
    throw argument_error("ak::cpu::set_num_threads", "n", "a thread count >= 0 (0 = default)",
                         std::to_string(n));
  auto& t = threads();
  std::lock_guard lock(t.mutex);
  t.requested = n;
  apply_thread_limit(t);
}

std::int64_t num_threads() noexcept {
  return static_cast<std::int64_t>(
      tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
}

}  // namespace ak::cpu
