// The kernel language's vocabulary: memory orders and scopes, n-d ranges, launch parameters and
// call sites. Backend-neutral; nothing here needs a GPU runtime.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include "ak/kernel/config.hpp"

namespace ak::kernel {

// The C++ memory orders; every atomic and fence names one explicitly.
enum class memory_order : std::uint8_t { relaxed, acquire, release, acq_rel, seq_cst };

// Which work-items an atomic or fence orders memory for. `work_group`: the items of one group
// (local memory, or global memory shared within a group). `device`: every item of the launch,
// across groups (what decoupled look-back needs; a device without a device-scope fence, such as
// sim's Apple-like profile, rejects device scope with any order but relaxed).
enum class memory_scope : std::uint8_t { work_group, device };

// Bit counts of sub-group masks (ballot, sub_group_match_any), one instruction on every backend
// (nvcc compiles std::popcount in device code as a loop).
AK_KERNEL_INLINE int popcount(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#else
  return std::popcount(x);
#endif
}
// The lowest set bit's index; x must not be 0.
AK_KERNEL_INLINE int lowest_bit(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(x)) - 1;
#else
  return std::countr_zero(x);
#endif
}

// An n-d launch of rank 1 to 3: `global` work-items in each dimension, in groups of `group`.
// Each global extent must be a multiple of the group's. Dimension 0 varies fastest in linear ids
// (as CUDA's x): linear = id[0] + size[0] * (id[1] + size[1] * id[2]).
struct nd_range {
  int rank = 1;
  std::int64_t global[3] = {1, 1, 1};
  std::int64_t group[3] = {1, 1, 1};
};

AK_KERNEL_INLINE constexpr nd_range range_1d(std::int64_t n, std::int64_t group) {
  return nd_range{1, {n, 1, 1}, {group, 1, 1}};
}
AK_KERNEL_INLINE constexpr nd_range range_2d(std::int64_t n0, std::int64_t n1, std::int64_t g0,
                                             std::int64_t g1) {
  return nd_range{2, {n0, n1, 1}, {g0, g1, 1}};
}
AK_KERNEL_INLINE constexpr nd_range range_3d(std::int64_t n0, std::int64_t n1, std::int64_t n2,
                                             std::int64_t g0, std::int64_t g1, std::int64_t g2) {
  return nd_range{3, {n0, n1, n2}, {g0, g1, g2}};
}

// Everything a launch needs besides the kernel: the range, the bytes of local (shared) memory
// each group gets (fixed for the launch), and a name that errors and profiles show.
struct launch_params {
  nd_range range;
  std::size_t local_bytes = 0;
  const char* name = "kernel";
};

// Where a synchronising call was made. Backends that check convergence (sim) compare the call
// sites of the work-items that meet at a barrier or sub-group operation; others ignore it.
struct site {
  const char* file = "";
  int line = 0;
  static AK_KERNEL_INLINE constexpr site current(const char* file = __builtin_FILE(),
                                                 int line = __builtin_LINE()) {
    return site{file, line};
  }
};

// Local (shared) memory as a kernel sees it on backends that do not check bounds.
template <class T>
class span {
 public:
  constexpr span() = default;
  AK_KERNEL_FN constexpr span(T* data, std::size_t size) : data_(data), size_(size) {}
  AK_KERNEL_FN constexpr T& operator[](std::size_t i) const { return data_[i]; }
  AK_KERNEL_FN constexpr T* data() const { return data_; }
  AK_KERNEL_FN constexpr std::size_t size() const { return size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace ak::kernel
