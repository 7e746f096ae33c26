// The kernel context of the cuda backend: the kernel language's primitives as CUDA intrinsics.
// nvcc compiles a portable kernel with this context; ak::cuda::launch (launch.cuh) runs it. The
// sub-group is the warp (32 lanes), local memory is the launch's dynamic shared memory, atomics
// are libcu++'s atomic_ref at the scope the kernel asks for.
#pragma once

#include <cuda/atomic>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ak/kernel/kernel.hpp"

namespace ak::cuda {

using ak::kernel::memory_order;
using ak::kernel::memory_scope;
using ak::kernel::site;

// 16-byte aligned, so that any element type and vector loads fit at offset 0.
extern __shared__ __align__(16) unsigned char dynamic_shared[];

__device__ inline ::cuda::std::memory_order to_cuda(memory_order o) {
  switch (o) {
    case memory_order::relaxed:
      return ::cuda::std::memory_order_relaxed;
    case memory_order::acquire:
      return ::cuda::std::memory_order_acquire;
    case memory_order::release:
      return ::cuda::std::memory_order_release;
    case memory_order::acq_rel:
      return ::cuda::std::memory_order_acq_rel;
    default:
      return ::cuda::std::memory_order_seq_cst;
  }
}

class context : public ak::kernel::context_base<context> {
 public:
  __device__ context(int rank, std::size_t local_bytes) : rank_(rank), local_bytes_(local_bytes) {}

  __device__ int rank() const { return rank_; }
  __device__ std::int64_t global_id(int d) const {
    return group_id(d) * local_size(d) + local_id(d);
  }
  __device__ std::int64_t global_size(int d) const { return num_groups(d) * local_size(d); }
  __device__ std::int64_t group_id(int d) const {
    return d == 0 ? blockIdx.x : d == 1 ? blockIdx.y : blockIdx.z;
  }
  __device__ std::int64_t num_groups(int d) const {
    return d == 0 ? gridDim.x : d == 1 ? gridDim.y : gridDim.z;
  }
  __device__ int local_id(int d) const {
    return static_cast<int>(d == 0 ? threadIdx.x : d == 1 ? threadIdx.y : threadIdx.z);
  }
  __device__ int local_size(int d) const {
    return static_cast<int>(d == 0 ? blockDim.x : d == 1 ? blockDim.y : blockDim.z);
  }
  __device__ std::size_t local_bytes() const { return local_bytes_; }
  // Warps are 32 lanes on every NVIDIA GPU ak supports.
  static constexpr int warp = 32;
  __device__ int sub_group_size() const { return warp; }
  __device__ int sub_group_lane() const { return local_linear_id() % warp; }
  __device__ int sub_group_id() const { return local_linear_id() / warp; }
  __device__ int num_sub_groups() const { return (local_linear_size() + warp - 1) / warp; }

  __device__ void barrier(site = site::current()) { __syncthreads(); }

  template <class T>
  __device__ ak::kernel::span<T> local_array(std::size_t byte_offset, std::size_t count) {
    return ak::kernel::span<T>(reinterpret_cast<T*>(dynamic_shared + byte_offset), count);
  }

  template <class T>
  __device__ T shuffle(T v, int src, site = site::current()) {
    return by_words(v, [&](unsigned w) { return __shfl_sync(0xffffffffu, w, src); });
  }
  template <class T>
  __device__ T shuffle_up(T v, int d, site = site::current()) {
    return by_words(v, [&](unsigned w) { return __shfl_up_sync(0xffffffffu, w, d); });
  }
  template <class T>
  __device__ T shuffle_down(T v, int d, site = site::current()) {
    return by_words(v, [&](unsigned w) { return __shfl_down_sync(0xffffffffu, w, d); });
  }
  template <class T>
  __device__ T shuffle_xor(T v, int m, site = site::current()) {
    return by_words(v, [&](unsigned w) { return __shfl_xor_sync(0xffffffffu, w, m); });
  }
  __device__ std::uint64_t ballot(bool p, site = site::current()) {
    return __ballot_sync(0xffffffffu, p);
  }
  template <class T>
  __device__ std::uint64_t sub_group_match_any(T v, site = site::current()) {
    static_assert(std::is_integral_v<T> && sizeof(T) <= 8, "match an integer of at most 8 bytes");
    if constexpr (sizeof(T) <= 4)
      return __match_any_sync(0xffffffffu,
                              static_cast<unsigned>(static_cast<std::make_unsigned_t<T>>(v)));
    else
      return __match_any_sync(0xffffffffu, static_cast<unsigned long long>(v));
  }

  template <class T>
  __device__ T atomic_add(T* p, T v, memory_order o, memory_scope s) {
    return scoped(p, s, [&](auto r) { return r.fetch_add(v, to_cuda(o)); });
  }
  template <class T>
  __device__ T atomic_min(T* p, T v, memory_order o, memory_scope s) {
    return scoped(p, s, [&](auto r) { return r.fetch_min(v, to_cuda(o)); });
  }
  template <class T>
  __device__ T atomic_max(T* p, T v, memory_order o, memory_scope s) {
    return scoped(p, s, [&](auto r) { return r.fetch_max(v, to_cuda(o)); });
  }
  template <class T>
  __device__ T atomic_exchange(T* p, T v, memory_order o, memory_scope s) {
    return scoped(p, s, [&](auto r) { return r.exchange(v, to_cuda(o)); });
  }
  template <class T>
  __device__ bool atomic_compare_exchange(T* p, T& expected, T desired, memory_order o,
                                          memory_scope s) {
    return scoped(p, s,
                  [&](auto r) { return r.compare_exchange_strong(expected, desired, to_cuda(o)); });
  }
  template <class T>
  __device__ T atomic_load(T* p, memory_order o, memory_scope s) {
    return scoped(p, s, [&](auto r) { return r.load(to_cuda(o)); });
  }
  template <class T>
  __device__ void atomic_store(T* p, T v, memory_order o, memory_scope s) {
    scoped(p, s, [&](auto r) {
      r.store(v, to_cuda(o));
      return 0;
    });
  }
  __device__ void fence(memory_order o, memory_scope s) {
    if (s == memory_scope::device)
      ::cuda::atomic_thread_fence(to_cuda(o), ::cuda::thread_scope_device);
    else
      ::cuda::atomic_thread_fence(to_cuda(o), ::cuda::thread_scope_block);
  }

 private:
  // f(an atomic_ref to *p at the scope asked for): a block-scope atomic is cheaper where only the
  // group's items share the location (local memory, per-group counters).
  template <class T, class F>
  __device__ static auto scoped(T* p, memory_scope s, F f) {
    if (s == memory_scope::device) return f(::cuda::atomic_ref<T, ::cuda::thread_scope_device>(*p));
    return f(::cuda::atomic_ref<T, ::cuda::thread_scope_block>(*p));
  }

  // Shuffles any trivially copyable value as 32-bit words.
  template <class T, class F>
  __device__ static T by_words(T v, F f) {
    constexpr int words = (sizeof(T) + 3) / 4;
    unsigned w[words] = {};
    std::memcpy(w, &v, sizeof(T));
    for (int i = 0; i < words; ++i) w[i] = f(w[i]);
    T out;
    std::memcpy(&out, w, sizeof(T));
    return out;
  }

  int rank_;
  std::size_t local_bytes_;
};

}  // namespace ak::cuda
