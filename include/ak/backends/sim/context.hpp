// The sim backend's kernel context: what a kernel gets when sim runs it (one per work-item, on
// the item's fiber). Every synchronising operation calls into the engine (sim_api.h), which
// yields the fiber and checks that the items meeting there agree; every access to local memory
// is bounds-checked; atomics and fences are checked against the device's capabilities.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "ak/backends/sim/sim_api.h"
#include "ak/kernel/context.hpp"
#include "ak/kernel/host_atomics.hpp"
#include "ak/plugin/backend_api.h"

namespace ak::sim {

namespace detail {
// Thrown to unwind an item whose launch is being aborted; caught by the body.
struct unwind {};
// Thrown by a failed check inside a kernel; the body reports it to the engine.
struct failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void fail(const std::string& message) {
  throw failure(message);
}

inline std::string where(const kernel::site& s) {
  return std::string(s.file) + ":" + std::to_string(s.line);
}
}  // namespace detail

// Local memory on sim: every index is checked against the span, and the span against the
// launch's local memory size.
template <class T>
class checked_span {
 public:
  checked_span(T* data, std::size_t size) : data_(data), size_(size) {}
  T& operator[](std::size_t i) const {
    if (i >= size_)
      detail::fail("local memory overrun: index " + std::to_string(i) + " of a local array of " +
                   std::to_string(size_) + " elements");
    return data_[i];
  }
  T* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  T* data_;
  std::size_t size_;
};

class context : public kernel::context_base<context> {
 public:
  context(ak_sim_item_v1* item, const ak_sim_api_v1* api) : it_(item), api_(api) {}
  context(const context&) = delete;
  context& operator=(const context&) = delete;

  // ---- ids and sizes -------------------------------------------------------------------------
  int rank() const { return it_->rank; }
  std::int64_t global_id(int d) const { return it_->global_id[dim(d)]; }
  std::int64_t global_size(int d) const { return it_->global_size[dim(d)]; }
  std::int64_t group_id(int d) const { return it_->group_id[dim(d)]; }
  std::int64_t num_groups(int d) const { return it_->num_groups[dim(d)]; }
  int local_id(int d) const { return it_->local_id[dim(d)]; }
  int local_size(int d) const { return it_->local_size[dim(d)]; }
  std::size_t local_bytes() const { return static_cast<std::size_t>(it_->local_bytes); }
  int sub_group_size() const { return it_->sub_group_width; }
  int sub_group_lane() const { return it_->sub_group_lane; }
  int sub_group_id() const { return it_->sub_group_id; }
  int num_sub_groups() const { return it_->num_sub_groups; }

  // ---- synchronisation -----------------------------------------------------------------------
  // Every work-item of the group waits here until all have arrived, at the same barrier; orders
  // local and global memory within the group.
  void barrier(kernel::site s = kernel::site::current()) {
    if (api_->barrier(it_, s.file, s.line)) throw detail::unwind{};
  }

  // ---- local memory ---------------------------------------------------------------------------
  template <class T>
  checked_span<T> local_array(std::size_t byte_offset, std::size_t count) {
    static_assert(std::is_trivially_copyable_v<T>, "local memory holds trivially copyable types");
    if (byte_offset % alignof(T) != 0)
      detail::fail("local_array: byte offset " + std::to_string(byte_offset) +
                   " is not a multiple of the element's alignment " + std::to_string(alignof(T)));
    if (count > it_->local_bytes / sizeof(T) || byte_offset > it_->local_bytes - count * sizeof(T))
      detail::fail("local memory overrun: a local array of " + std::to_string(count) + " x " +
                   std::to_string(sizeof(T)) + " bytes at byte offset " +
                   std::to_string(byte_offset) + " exceeds the launch's " +
                   std::to_string(it_->local_bytes) + " bytes of local memory");
    return checked_span<T>(reinterpret_cast<T*>(it_->local_memory + byte_offset), count);
  }

  // ---- sub-group primitives -------------------------------------------------------------------
  // Every lane of the sub-group must call the same operation (sim checks the call site).
  template <class T>
  T shuffle(T v, int src_lane, kernel::site s = kernel::site::current()) {
    const char* all = exchange(v, AK_SIM_SHUFFLE, s);
    if (src_lane < 0 || src_lane >= it_->sub_group_width)
      detail::fail("shuffle at " + detail::where(s) + ": source lane " + std::to_string(src_lane) +
                   " outside [0, " + std::to_string(it_->sub_group_width) + ")");
    return read<T>(all, src_lane);
  }
  // Lane i gets lane i - delta's value; lanes below delta keep their own.
  template <class T>
  T shuffle_up(T v, int delta, kernel::site s = kernel::site::current()) {
    const char* all = exchange(v, AK_SIM_SHUFFLE_UP, s);
    check_delta("shuffle_up", delta, s);
    const int src = it_->sub_group_lane - delta;
    return src >= 0 ? read<T>(all, src) : v;
  }
  // Lane i gets lane i + delta's value; lanes past the end keep their own.
  template <class T>
  T shuffle_down(T v, int delta, kernel::site s = kernel::site::current()) {
    const char* all = exchange(v, AK_SIM_SHUFFLE_DOWN, s);
    check_delta("shuffle_down", delta, s);
    const int src = it_->sub_group_lane + delta;
    return src < it_->sub_group_width ? read<T>(all, src) : v;
  }
  // Lane i gets lane (i xor mask)'s value; lanes whose partner is past the end keep their own.
  template <class T>
  T shuffle_xor(T v, int mask, kernel::site s = kernel::site::current()) {
    const char* all = exchange(v, AK_SIM_SHUFFLE_XOR, s);
    check_delta("shuffle_xor", mask, s);
    const int src = it_->sub_group_lane ^ mask;
    return src < it_->sub_group_width ? read<T>(all, src) : v;
  }
  // The sub-group reductions and scans of kernel::context_base, combining values in the same
  // order (the reduction's tree, the scan's doubling steps), which each lane computes from one
  // exchange of every lane's value instead of one exchange per step: each exchange switches
  // fibers once per lane, and these collectives are much of what sim's kernels do. Values larger
  // than 64 bytes take the base's steps.
  template <class T, class Op>
  T sub_group_reduce(T v, Op op, kernel::site s = kernel::site::current()) {
    if constexpr (sizeof(T) > max_collective_bytes) {
      return kernel::context_base<context>::sub_group_reduce(v, op, s);
    } else {
      T own[max_lanes];
      const T* vals = combined(own, it_->sub_group_width, exchange(v, AK_SIM_COLLECTIVE, s), op,
                               [](T* x, int w, Op& f) {
                                 for (int o = 1; o < w; o *= 2)
                                   for (int l = 0; l + o < w; l += 2 * o) x[l] = f(x[l], x[l + o]);
                               });
      return vals[0];
    }
  }
  template <class T, class Op>
  T sub_group_inclusive_scan(T v, Op op, kernel::site s = kernel::site::current()) {
    if constexpr (sizeof(T) > max_collective_bytes) {
      return kernel::context_base<context>::sub_group_inclusive_scan(v, op, s);
    } else {
      T own[max_lanes];
      return scan_lanes(own, exchange(v, AK_SIM_COLLECTIVE, s), op)[it_->sub_group_lane];
    }
  }
  template <class T, class Op>
  T sub_group_exclusive_scan(T v, Op op, T init, kernel::site s = kernel::site::current()) {
    if constexpr (sizeof(T) > max_collective_bytes) {
      return kernel::context_base<context>::sub_group_exclusive_scan(v, op, init, s);
    } else {
      T own[max_lanes];
      const T* vals = scan_lanes(own, exchange(v, AK_SIM_COLLECTIVE, s), op);
      const int lane = it_->sub_group_lane;
      return lane == 0 ? init : op(init, vals[lane - 1]);
    }
  }

  // Bit i set when lane i's predicate holds.
  std::uint64_t ballot(bool p, kernel::site s = kernel::site::current()) {
    const unsigned char mine = p ? 1 : 0;
    const char* all = exchange(mine, AK_SIM_BALLOT, s);
    std::uint64_t bits = 0;
    for (int i = 0; i < it_->sub_group_width; ++i)
      if (all[i]) bits |= std::uint64_t{1} << i;
    return bits;
  }

  // The lanes whose value equals this lane's, from one exchange (kernel::context_base's by
  // ballots takes one per bit).
  template <class T>
  std::uint64_t sub_group_match_any(T v, kernel::site s = kernel::site::current()) {
    static_assert(std::is_integral_v<T> && sizeof(T) <= 8, "match an integer of at most 8 bytes");
    const char* all = exchange(v, AK_SIM_MATCH, s);
    std::uint64_t peers = 0;
    for (int i = 0; i < it_->sub_group_width; ++i)
      if (read<T>(all, i) == v) peers |= std::uint64_t{1} << i;
    return peers;
  }

  // ---- atomics and fences ---------------------------------------------------------------------
  template <class T>
  T atomic_add(T* p, T v, kernel::memory_order o, kernel::memory_scope sc) {
    check_atomic(p, o, sc, "atomic_add");
    return kernel::host::add(p, v, o);
  }
  template <class T>
  T atomic_min(T* p, T v, kernel::memory_order o, kernel::memory_scope sc) {
    check_atomic(p, o, sc, "atomic_min");
    return kernel::host::min(p, v, o);
  }
  template <class T>
  T atomic_max(T* p, T v, kernel::memory_order o, kernel::memory_scope sc) {
    check_atomic(p, o, sc, "atomic_max");
    return kernel::host::max(p, v, o);
  }
  template <class T>
  T atomic_exchange(T* p, T v, kernel::memory_order o, kernel::memory_scope sc) {
    check_atomic(p, o, sc, "atomic_exchange");
    return kernel::host::exchange(p, v, o);
  }
  // Stores `desired` if *p equals `expected` and returns true; else loads *p into `expected`.
  template <class T>
  bool atomic_compare_exchange(T* p, T& expected, T desired, kernel::memory_order o,
                               kernel::memory_scope sc) {
    check_atomic(p, o, sc, "atomic_compare_exchange");
    return kernel::host::compare_exchange(p, expected, desired, o);
  }
  template <class T>
  T atomic_load(T* p, kernel::memory_order o, kernel::memory_scope sc) {
    if (o == kernel::memory_order::release || o == kernel::memory_order::acq_rel)
      detail::fail("atomic_load with a release order");
    check_atomic(p, o, sc, "atomic_load");
    return kernel::host::load(p, o);
  }
  template <class T>
  void atomic_store(T* p, T v, kernel::memory_order o, kernel::memory_scope sc) {
    if (o == kernel::memory_order::acquire || o == kernel::memory_order::acq_rel)
      detail::fail("atomic_store with an acquire order");
    check_atomic(p, o, sc, "atomic_store");
    kernel::host::store(p, v, o);
  }
  void fence(kernel::memory_order o, kernel::memory_scope sc) {
    if (sc == kernel::memory_scope::device && !(it_->capabilities & AK_CAP_DEVICE_SCOPE_FENCE))
      detail::fail(std::string("a device-scope fence on ") + it_->device_name +
                   ", which has none (its capabilities lack device_scope_fence)");
    kernel::host::fence(o);
  }

 private:
  static int dim(int d) {
    if (d < 0 || d > 2) detail::fail("dimension " + std::to_string(d) + " outside [0, 3)");
    return d;
  }

  template <class T>
  const char* exchange(const T& v, int op, const kernel::site& s) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "sub-group operations move trivially "
                  "copyable values");
    const void* all = api_->sub_group_exchange(it_, &v, sizeof(T), op, s.file, s.line);
    if (!all) throw detail::unwind{};
    return static_cast<const char*>(all);
  }

  static constexpr std::size_t max_collective_bytes = 64;
  static constexpr int max_lanes = 64;  // the widest sub-group of a sim profile

  // The lanes' values after `steps(values, width, op)`, which combines them in place. Every lane
  // of a sub-group computes the same steps from the same values, and the lanes run one after
  // another on one thread: where the op has no state, the first lane to resume keeps the result
  // in a buffer of the thread's, and the others find it there (keyed by the values' bytes: the
  // same values give the same result), once instead of once per lane. With state (a lambda's
  // captures, which each lane holds its own copy of) each lane computes with its own op.
  template <class T, class Op, class Steps>  // Steps: a reduction's and a scan's are two
  struct memo {
    int width = 0;
    alignas(T) unsigned char key[max_lanes * sizeof(T)];
    T values[max_lanes];
  };
  template <class T, class Op, class Steps>
  static const T* combined(T* own, int w, const char* all, Op& op, Steps steps) {
    const std::size_t bytes = static_cast<std::size_t>(w) * sizeof(T);
    T* out = own;
    if constexpr (std::is_empty_v<Op>) {
      thread_local memo<T, Op, Steps> m;
      if (m.width == w && std::memcmp(m.key, all, bytes) == 0) return m.values;
      m.width = 0;  // not valid until filled (op may throw)
      out = m.values;
      for (int i = 0; i < w; ++i) out[i] = read<T>(all, i);
      steps(out, w, op);
      std::memcpy(m.key, all, bytes);
      m.width = w;
    } else {
      for (int i = 0; i < w; ++i) out[i] = read<T>(all, i);
      steps(out, w, op);
    }
    return out;
  }
  // The inclusive scan of every lane, step by step as context_base's: at distance d each lane
  // from d on combines its left neighbour's value at that distance (the old one) with its own.
  template <class T, class Op>
  const T* scan_lanes(T* own, const char* all, Op& op) const {
    return combined(own, it_->sub_group_width, all, op, [](T* x, int w, Op& f) {
      for (int d = 1; d < w; d *= 2)
        for (int l = w - 1; l >= d; --l) x[l] = f(x[l - d], x[l]);
    });
  }

  template <class T>
  static T read(const char* all, int lane) {
    T out;
    std::memcpy(&out, all + static_cast<std::size_t>(lane) * sizeof(T), sizeof(T));
    return out;
  }

  void check_delta(const char* op, int delta, const kernel::site& s) const {
    if (delta < 0 || delta >= it_->sub_group_width)
      detail::fail(std::string(op) + " at " + detail::where(s) + ": " + std::to_string(delta) +
                   " outside [0, " + std::to_string(it_->sub_group_width) + ")");
  }

  template <class T>
  void check_atomic(T* p, kernel::memory_order o, kernel::memory_scope sc, const char* op) {
    static_assert(kernel::host::atomic_value<T>, "atomics work on 4- and 8-byte values");
    if (api_->poll(it_, p)) throw detail::unwind{};
    if (reinterpret_cast<std::uintptr_t>(p) % sizeof(T) != 0)
      detail::fail(std::string(op) + " on a misaligned address");
    if (sizeof(T) == 8 && !(it_->capabilities & AK_CAP_ATOMICS64))
      detail::fail(std::string(op) + " on a 64-bit value on " + it_->device_name +
                   ", which has no 64-bit atomics");
    if (sc == kernel::memory_scope::device && o != kernel::memory_order::relaxed &&
        !(it_->capabilities & AK_CAP_DEVICE_SCOPE_FENCE))
      detail::fail(std::string(op) + " with a non-relaxed order at device scope on " +
                   it_->device_name +
                   ", which orders memory across groups only with relaxed "
                   "atomics (no device_scope_fence)");
  }

  ak_sim_item_v1* it_;
  const ak_sim_api_v1* api_;
};

}  // namespace ak::sim
