// Atomics and fences on the host's memory model, for backends that run kernels on the CPU (sim).
// A device backend implements the same operations with its own instructions.
#pragma once

#include <atomic>
#include <type_traits>

#include "ak/core/sanitizers.hpp"
#include "ak/kernel/types.hpp"

namespace ak::kernel::host {

// ThreadSanitizer does not model fences (g++ refuses std::atomic_thread_fence under it). In a
// TSan build every atomic is sequentially consistent and a fence does nothing: TSan then checks
// that whatever one work-item reads of another's writes is ordered by an atomic or a barrier, not
// that the kernel's fences are placed right (sim's shuffled runs and the GPUs check that).
constexpr std::memory_order to_std(memory_order o) noexcept {
#if defined(AK_TSAN)
  if (o != memory_order::seq_cst) return std::memory_order_seq_cst;
#endif
  switch (o) {
    case memory_order::relaxed:
      return std::memory_order_relaxed;
    case memory_order::acquire:
      return std::memory_order_acquire;
    case memory_order::release:
      return std::memory_order_release;
    case memory_order::acq_rel:
      return std::memory_order_acq_rel;
    case memory_order::seq_cst:
      return std::memory_order_seq_cst;
  }
  return std::memory_order_seq_cst;
}

// The failure order of a compare-exchange: the success order without its release part.
constexpr std::memory_order failure_order(memory_order o) noexcept {
  switch (o) {
    case memory_order::release:
      return std::memory_order_relaxed;
    case memory_order::acq_rel:
      return std::memory_order_acquire;
    default:
      return to_std(o);
  }
}

template <class T>
concept atomic_value = std::is_trivially_copyable_v<T> &&(sizeof(T) == 4 || sizeof(T) == 8);

template <atomic_value T>
T add(T* p, T v, memory_order o) {
  static_assert(std::is_arithmetic_v<T>, "atomic_add needs an integer or floating-point type");
  return std::atomic_ref<T>(*p).fetch_add(v, to_std(o));
}

// Stores v while replaces(v, *p) holds (a compare-exchange loop); returns the old value.
template <atomic_value T, class Replaces>
T replace_if(T* p, T v, memory_order o, Replaces replaces) {
  std::atomic_ref<T> r(*p);
  T old = r.load(std::memory_order_relaxed);
  while (replaces(v, old) && !r.compare_exchange_weak(old, v, to_std(o), failure_order(o))) {
  }
  return old;
}

// min and max compare with `<` (a NaN never replaces a value, nor is it replaced).
template <atomic_value T>
T min(T* p, T v, memory_order o) {
  static_assert(std::is_arithmetic_v<T>, "atomic_min needs an integer or floating-point type");
  return replace_if(p, v, o, [](T x, T old) { return x < old; });
}

template <atomic_value T>
T max(T* p, T v, memory_order o) {
  static_assert(std::is_arithmetic_v<T>, "atomic_max needs an integer or floating-point type");
  return replace_if(p, v, o, [](T x, T old) { return old < x; });
}

template <atomic_value T>
T exchange(T* p, T v, memory_order o) {
  return std::atomic_ref<T>(*p).exchange(v, to_std(o));
}

template <atomic_value T>
bool compare_exchange(T* p, T& expected, T desired, memory_order o) {
  return std::atomic_ref<T>(*p).compare_exchange_strong(expected, desired, to_std(o),
                                                        failure_order(o));
}

template <atomic_value T>
T load(T* p, memory_order o) {
  return std::atomic_ref<T>(*p).load(o == memory_order::release || o == memory_order::acq_rel
                                         ? std::memory_order_acquire
                                         : to_std(o));
}

template <atomic_value T>
void store(T* p, T v, memory_order o) {
  std::atomic_ref<T>(*p).store(v, o == memory_order::acquire || o == memory_order::acq_rel
                                      ? std::memory_order_release
                                      : to_std(o));
}

inline void fence(memory_order o) {
#if defined(AK_TSAN)
  (void)o;
#else
  if (o != memory_order::relaxed) std::atomic_thread_fence(to_std(o));
#endif
}

}  // namespace ak::kernel::host
