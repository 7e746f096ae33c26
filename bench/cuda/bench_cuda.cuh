// ak_cuda_bench's shared pieces: device buffers, inputs, the check against CUB's results, and
// the case structure (ak's call, the peers' calls, the check). Included by ak_cuda_bench.cu (the
// harness, reductions, scans, elementwise ops) and ak_cuda_bench_sorts.cu (the sorts).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "ak/ak.hpp"

namespace akcb {

using i64 = std::int64_t;

// ---- CUDA helpers ---------------------------------------------------------------------------

inline void check_cuda(cudaError_t e, const char* call, const char* file, int line) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) +
                             ") from " + call + " at " + file + ":" + std::to_string(line));
}
#define CK(call) check_cuda((call), #call, __FILE__, __LINE__)

// Device memory owned by the benchmark (the peers' buffers, pristine inputs, CUB temp storage).
template <class T>
class dbuf {
 public:
  dbuf() = default;
  explicit dbuf(i64 n) : n_(n) {
    if (n > 0) CK(cudaMalloc(&p_, static_cast<std::size_t>(n) * sizeof(T)));
  }
  dbuf(const dbuf&) = delete;
  dbuf& operator=(const dbuf&) = delete;
  ~dbuf() {
    if (p_) cudaFree(p_);
  }
  T* get() const noexcept { return p_; }
  i64 size() const noexcept { return n_; }
  std::size_t bytes() const noexcept { return static_cast<std::size_t>(n_) * sizeof(T); }

 private:
  T* p_ = nullptr;
  i64 n_ = 0;
};

template <class T>
std::shared_ptr<dbuf<T>> make_buf(i64 n) {
  return std::make_shared<dbuf<T>>(n);
}

// Thrust allocates its temporary storage on every call; by default that is cudaMalloc/cudaFree,
// which would time the driver's allocator rather than Thrust's algorithms (ak allocates from a
// stream-ordered pool, CUB is handed its temp storage). This cache keeps freed blocks for reuse
// within a case; it is shared by copies of the allocator (Thrust may copy it).
class thrust_cache {
 public:
  using value_type = char;
  thrust_cache() : s_(std::make_shared<state>()) {}
  char* allocate(std::ptrdiff_t bytes) {
    const std::size_t want = static_cast<std::size_t>(bytes);
    auto it = s_->free.lower_bound(want);
    char* p = nullptr;
    if (it != s_->free.end()) {
      p = it->second;
      s_->used[p] = it->first;
      s_->free.erase(it);
      return p;
    }
    CK(cudaMalloc(&p, want));
    s_->used[p] = want;
    return p;
  }
  void deallocate(char* p, std::size_t) {
    auto it = s_->used.find(p);
    if (it == s_->used.end()) return;
    s_->free.emplace(it->second, p);
    s_->used.erase(it);
  }

 private:
  struct state {
    std::multimap<std::size_t, char*> free;
    std::map<char*, std::size_t> used;
    ~state() {
      for (auto& [size, p] : free) cudaFree(p);
      for (auto& [p, size] : used) cudaFree(p);
    }
  };
  std::shared_ptr<state> s_;
};

// ---- inputs ---------------------------------------------------------------------------------

__host__ __device__ inline std::uint64_t mix64(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// What the inputs hold. small: reduce/scan/map data whose sums stay well inside the type's range
// (integers in [-100, 100], floats in [0, 1) on a 2^-24 grid, so float sums have no cancellation
// to make a tolerance meaningless). keys: sort keys over the type's range, never -0.0 or NaN (CUB
// orders -0.0 and +0.0 as equal, ak puts -0.0 first: both orders agree without them); float32
// keys have 24 random bits, so large n has many ties, which checks stability.
enum class fill_kind { small, keys };

template <class T>
__device__ T random_value(std::uint64_t r, fill_kind kind) {
  if constexpr (std::is_floating_point_v<T>) {
    if (kind == fill_kind::small) return static_cast<T>(static_cast<double>(r >> 40) * 0x1p-24);
    if constexpr (sizeof(T) == 4)
      return static_cast<T>(static_cast<double>(static_cast<i64>(r >> 40) - (i64{1} << 23)) *
                            0x1p-23);
    else
      return static_cast<T>(static_cast<double>(static_cast<i64>(r >> 11) - (i64{1} << 52)) *
                            0x1p-33);
  } else {
    if (kind == fill_kind::small) return static_cast<T>(static_cast<i64>(r % 201) - 100);
    return static_cast<T>(r);
  }
}

template <class T>
__global__ void fill_kernel(T* p, i64 n, std::uint64_t seed, fill_kind kind) {
  for (i64 i = blockIdx.x * i64{blockDim.x} + threadIdx.x; i < n; i += i64{gridDim.x} * blockDim.x)
    p[i] = random_value<T>(mix64(seed ^ mix64(static_cast<std::uint64_t>(i))), kind);
}

template <class T>
__global__ void iota_kernel(T* p, i64 n) {
  for (i64 i = blockIdx.x * i64{blockDim.x} + threadIdx.x; i < n; i += i64{gridDim.x} * blockDim.x)
    p[i] = static_cast<T>(i);
}

inline unsigned grid_for(i64 n) {
  return static_cast<unsigned>(std::clamp<i64>((n + 255) / 256, 1, 65536));
}

template <class T>
void fill(T* p, i64 n, std::uint64_t seed, fill_kind kind) {
  fill_kernel<T><<<grid_for(n), 256>>>(p, n, seed, kind);
  CK(cudaGetLastError());
}

// Counts the positions where a and b differ (beyond atol + rtol * |b| for floats) and finds the
// first one.
template <class T>
__global__ void diff_kernel(const T* a, const T* b, i64 n, double rtol, double atol,
                            unsigned long long* count, unsigned long long* first) {
  for (i64 i = blockIdx.x * i64{blockDim.x} + threadIdx.x; i < n;
       i += i64{gridDim.x} * blockDim.x) {
    bool bad;
    if constexpr (std::is_floating_point_v<T>) {
      const double x = a[i], y = b[i];
      bad = !(fabs(x - y) <= atol + rtol * fabs(y));
    } else {
      bad = a[i] != b[i];
    }
    if (bad) {
      atomicAdd(count, 1ull);
      atomicMin(first, static_cast<unsigned long long>(i));
    }
  }
}

template <class T>
T to_host(const T* d) {
  T h{};
  CK(cudaMemcpy(&h, d, sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

template <class T>
std::string show(T x) {
  std::ostringstream s;
  if constexpr (std::is_floating_point_v<T>) s << std::setprecision(17);
  if constexpr (sizeof(T) == 1)
    s << static_cast<int>(x);
  else
    s << x;
  return s.str();
}

// "" when ak's n elements equal the reference's, else what differs.
template <class T>
std::string compare(const char* what, const T* ak_out, const T* ref, i64 n, double rtol = 0,
                    double atol = 0) {
  dbuf<unsigned long long> c(2);
  const unsigned long long init[2] = {0, ~0ull};
  CK(cudaMemcpy(c.get(), init, sizeof init, cudaMemcpyHostToDevice));
  diff_kernel<T><<<grid_for(n), 256>>>(ak_out, ref, n, rtol, atol, c.get(), c.get() + 1);
  CK(cudaGetLastError());
  unsigned long long h[2];
  CK(cudaMemcpy(h, c.get(), sizeof h, cudaMemcpyDeviceToHost));
  if (h[0] == 0) return "";
  const i64 i = static_cast<i64>(h[1]);
  return std::string(what) + ": " + std::to_string(h[0]) + " of " + std::to_string(n) +
         " elements differ from CUB's, the first at " + std::to_string(i) + " (ak " +
         show(to_host(ak_out + i)) + ", cub " + show(to_host(ref + i)) + ")";
}

template <class T>
std::string compare_scalar(const char* what, T ak_value, T ref, double rtol = 0) {
  bool ok;
  if constexpr (std::is_floating_point_v<T>)
    ok = std::fabs(static_cast<double>(ak_value) - static_cast<double>(ref)) <=
         rtol * std::fabs(static_cast<double>(ref));
  else
    ok = ak_value == ref;
  return ok ? "" : std::string(what) + ": ak " + show(ak_value) + ", cub " + show(ref);
}

// ---- cases ----------------------------------------------------------------------------------

struct impl {
  std::string name;               // "ak", "cub", "thrust", "copy"
  std::function<void()> prepare;  // untimed, before every run (restores inputs); may be empty
  std::function<void()> run;      // timed, with a device synchronisation after it
};

struct bench_case {
  std::string op, dtype;
  i64 n = 0;
  double bytes = 0;       // bytes a memory-bound op must move (read + written); 0 for sorts
  double copy_bytes = 0;  // bytes the "copy" peer moves (reads and writes the input's bytes)
  impl ak;
  std::vector<impl> peers;
  std::function<std::string()> verify;  // after one run of each: "" or what differs
  std::string note;
};

inline const ak::device& ak_device() {
  static const ak::device dev("cuda:0");
  return dev;
}

// An ak array on the device holding a copy of src's n elements.
template <class T>
std::shared_ptr<ak::array<T>> ak_copy_of(const dbuf<T>& src) {
  auto a = std::make_shared<ak::array<T>>(ak::shape{src.size()}, ak_device());
  CK(cudaMemcpy(a->data(), src.get(), src.bytes(), cudaMemcpyDeviceToDevice));
  return a;
}

// The bandwidth bar: a device-to-device copy of the input's bytes.
template <class T>
void add_copy(bench_case& c, std::shared_ptr<dbuf<T>> in) {
  auto out = make_buf<T>(in->size());
  c.copy_bytes = 2.0 * double(in->bytes());
  c.peers.push_back(
      {"copy", {}, [in, out] {
         CK(cudaMemcpyAsync(out->get(), in->get(), in->bytes(), cudaMemcpyDeviceToDevice, 0));
       }});
}

// Restores a working buffer from the pristine input (untimed) before each run of an in-place op.
template <class T>
std::function<void()> restore(T* dst, std::shared_ptr<dbuf<T>> pristine) {
  return [dst, pristine] {
    CK(cudaMemcpy(dst, pristine->get(), pristine->bytes(), cudaMemcpyDeviceToDevice));
  };
}

// One (op, dtype) of the program, with the device bytes a case needs at most per element
// (inputs, outputs, peers' buffers, ak's scratch; a generous estimate).
struct op_entry {
  std::string op, dtype;
  double bytes_per_element;
  std::function<bench_case(const std::string&, i64)> build;
};

// The sorts' cases (ak_cuda_bench_sorts.cu: a translation unit of their own, compiled in parallel).
void add_sort_ops(std::vector<op_entry>& ops);

}  // namespace akcb
