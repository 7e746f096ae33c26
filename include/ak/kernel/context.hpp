// What a kernel sees: the context that the backend passes to it, once per work-item.
//
// A kernel is a functor (or lambda) called per work-item with a context:
//
//   struct scale {
//     float* x; float a; std::int64_t n;
//     template <class Ctx> AK_KERNEL_FN void operator()(Ctx& ctx) const {
//       auto i = ctx.global_id(0);
//       if (i < n) x[i] *= a;
//     }
//   };
//
// The context's type is the backend's (ak::sim::context, and the cuda backend's), so one kernel
// source serves every backend: kernels are templates over it. Each backend's context provides
// the primitives listed in `kernel_context` below; `context_base` derives the rest (sub-group
// reductions, scans, any/all) from them, the same way on every backend (sim combines in the same
// order from one exchange, ak/backends/sim/context.hpp). docs/kernel_language.md
// describes the rules (convergence, local memory, memory orders) that every backend holds
// kernels to and that sim checks.
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

#include "ak/kernel/config.hpp"
#include "ak/kernel/types.hpp"

namespace ak::kernel {

// Derived operations, in terms of the backend's primitives. CRTP: a backend's context derives
// from context_base<itself>.
template <class Derived>
class context_base {
 public:
  // The sub-group's reduction by an associative operator (it need not be commutative: values are
  // combined in lane order), returned to every lane.
  template <class T, class Op>
  AK_KERNEL_FN T sub_group_reduce(T v, Op op, site s = site::current()) {
    auto& c = self();
    const int w = c.sub_group_size();
    const int lane = c.sub_group_lane();
    for (int o = 1; o < w; o *= 2) {
      T t = c.shuffle_down(v, o, s);
      if (lane % (2 * o) == 0 && lane + o < w) v = op(v, t);
    }
    return c.shuffle(v, 0, s);
  }

  // Lane i gets v[0] op ... op v[i].
  template <class T, class Op>
  AK_KERNEL_FN T sub_group_inclusive_scan(T v, Op op, site s = site::current()) {
    auto& c = self();
    const int w = c.sub_group_size();
    const int lane = c.sub_group_lane();
    for (int d = 1; d < w; d *= 2) {
      T t = c.shuffle_up(v, d, s);
      if (lane >= d) v = op(t, v);
    }
    return v;
  }

  // Lane i gets init op v[0] op ... op v[i-1]; lane 0 gets init.
  template <class T, class Op>
  AK_KERNEL_FN T sub_group_exclusive_scan(T v, Op op, T init, site s = site::current()) {
    auto& c = self();
    T inc = sub_group_inclusive_scan(v, op, s);
    T prev = c.shuffle_up(inc, 1, s);
    return c.sub_group_lane() == 0 ? init : op(init, prev);
  }

  AK_KERNEL_FN bool sub_group_any(bool p, site s = site::current()) {
    return self().ballot(p, s) != 0;
  }

  AK_KERNEL_FN bool sub_group_all(bool p, site s = site::current()) {
    return self().ballot(p, s) == every_lane();
  }

  // The lanes that hold the same value as this one (bit i for lane i; this lane's own bit is set),
  // from one ballot per bit: the portable form of sub_group_match_any, which backends with a
  // native one (cuda's __match_any_sync, sim's one exchange) replace. Only the low `bits` bits of
  // `v` are compared: a caller whose values differ in no others (radix digits) passes their
  // width, and pays that many ballots.
  template <class T>
  AK_KERNEL_FN std::uint64_t sub_group_match_any_by_ballots(T v, int bits = 8 * sizeof(T),
                                                            site s = site::current()) {
    static_assert(std::is_integral_v<T> && sizeof(T) <= 8, "match an integer of at most 8 bytes");
    auto& c = self();
    const auto u = static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(v));
    std::uint64_t peers = every_lane();
    for (int b = 0; b < bits; ++b) {
      const bool set = (u >> b) & 1u;
      const std::uint64_t lanes = c.ballot(set, s);
      peers &= set ? lanes : ~lanes;
    }
    return peers;
  }
  template <class T>
  AK_KERNEL_FN std::uint64_t sub_group_match_any(T v, site s = site::current()) {
    return sub_group_match_any_by_ballots(v, 8 * sizeof(T), s);
  }

  // The value of `lane` to every lane.
  template <class T>
  AK_KERNEL_FN T sub_group_broadcast(T v, int lane, site s = site::current()) {
    return self().shuffle(v, lane, s);
  }

  // Linear ids over every dimension (dimension 0 fastest).
  AK_KERNEL_FN std::int64_t global_linear_id() const {
    auto& c = cself();
    return c.global_id(0) + c.global_size(0) * (c.global_id(1) + c.global_size(1) * c.global_id(2));
  }
  AK_KERNEL_FN std::int64_t group_linear_id() const {
    auto& c = cself();
    return c.group_id(0) + c.num_groups(0) * (c.group_id(1) + c.num_groups(1) * c.group_id(2));
  }
  AK_KERNEL_FN int local_linear_id() const {
    auto& c = cself();
    return c.local_id(0) + c.local_size(0) * (c.local_id(1) + c.local_size(1) * c.local_id(2));
  }
  AK_KERNEL_FN int local_linear_size() const {
    auto& c = cself();
    return c.local_size(0) * c.local_size(1) * c.local_size(2);
  }

 private:
  // The ballot mask of every lane of the sub-group.
  AK_KERNEL_FN std::uint64_t every_lane() {
    const int w = self().sub_group_size();
    return w >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
  }
  AK_KERNEL_FN Derived& self() { return static_cast<Derived&>(*this); }
  AK_KERNEL_FN const Derived& cself() const { return static_cast<const Derived&>(*this); }
};

// The primitives every backend's context provides. Ids and sizes of dimensions past the launch's
// rank are 0 and 1. Group-local quantities are int: a group holds at most a few thousand items.
// clang-format off
template <class C>
concept kernel_context = requires(C& c, const C& cc, int d, int* pi, std::uint32_t* pu,
                                  std::int64_t* pl, float* pf, bool p) {
  { cc.rank() } -> std::convertible_to<int>;
  { cc.global_id(d) } -> std::convertible_to<std::int64_t>;
  { cc.global_size(d) } -> std::convertible_to<std::int64_t>;
  { cc.group_id(d) } -> std::convertible_to<std::int64_t>;
  { cc.num_groups(d) } -> std::convertible_to<std::int64_t>;
  { cc.local_id(d) } -> std::convertible_to<int>;
  { cc.local_size(d) } -> std::convertible_to<int>;
  { cc.local_bytes() } -> std::convertible_to<std::size_t>;
  { cc.sub_group_size() } -> std::convertible_to<int>;
  { cc.sub_group_lane() } -> std::convertible_to<int>;
  { cc.sub_group_id() } -> std::convertible_to<int>;
  { cc.num_sub_groups() } -> std::convertible_to<int>;
  c.barrier();
  c.template local_array<float>(std::size_t{0}, std::size_t{1});
  { c.shuffle(1, d) } -> std::same_as<int>;
  { c.shuffle_up(1, d) } -> std::same_as<int>;
  { c.shuffle_down(1, d) } -> std::same_as<int>;
  { c.shuffle_xor(1, d) } -> std::same_as<int>;
  { c.ballot(p) } -> std::same_as<std::uint64_t>;
  { c.sub_group_match_any(1u) } -> std::same_as<std::uint64_t>;
  { c.sub_group_reduce(1, [](int a, int b) { return a + b; }) } -> std::same_as<int>;
  { c.atomic_add(pi, 1, memory_order::relaxed, memory_scope::device) } -> std::same_as<int>;
  { c.atomic_min(pu, 1u, memory_order::relaxed, memory_scope::device) } -> std::same_as<std::uint32_t>;
  { c.atomic_max(pl, std::int64_t{1}, memory_order::relaxed, memory_scope::device) } -> std::same_as<std::int64_t>;
  { c.atomic_add(pf, 1.0f, memory_order::relaxed, memory_scope::device) } -> std::same_as<float>;
  { c.atomic_exchange(pi, 1, memory_order::relaxed, memory_scope::device) } -> std::same_as<int>;
  { c.atomic_compare_exchange(pi, *pi, 1, memory_order::relaxed, memory_scope::device) } -> std::same_as<bool>;
  { c.atomic_load(pi, memory_order::acquire, memory_scope::device) } -> std::same_as<int>;
  c.atomic_store(pi, 1, memory_order::release, memory_scope::device);
  c.fence(memory_order::acq_rel, memory_scope::device);
};
// clang-format on

// Local memory of the launch's size, as a span of `count` T from `byte_offset` (which must be a
// multiple of alignof(T)). The same for every work-item of a group. Checked on sim.
template <class T, class Ctx>
AK_KERNEL_INLINE auto local_array(Ctx& ctx, std::size_t byte_offset, std::size_t count) {
  return ctx.template local_array<T>(byte_offset, count);
}

}  // namespace ak::kernel
