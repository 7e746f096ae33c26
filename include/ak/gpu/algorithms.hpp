// GPU algorithms written in the kernel language, for GPU-style devices (sim now, cuda next):
// foreachindex, map, reduce, mapreduce, accumulate. Pointers are device pointers (memory of `dev`,
// e.g. an ak::gpu::device_buffer). Each call resolves its tuning once, on the host, from the
// tuning registry (the call's fields first), and checks the device's capabilities before any
// launch. These are the building blocks that the public ak:: algorithms will dispatch to.
//
// Operators must be associative (they need not be commutative: values combine in element order)
// and `init` must be their neutral element. Determinism: for a given device, tuning and n, the
// order of combination is fixed (the same bits run to run, whatever the shuffle seed), except in
// decoupled look-back, where a tile combines its predecessors' published values as it finds them
// (an order that depends on timing: float results may differ in their last bits run to run).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "ak/core/dtype.hpp"
#include "ak/core/error.hpp"
#include "ak/core/operators.hpp"
#include "ak/gpu/buffer.hpp"
#include "ak/gpu/kernels.hpp"
#include "ak/gpu/launch.hpp"
#include "ak/runtime/algorithm_values.hpp"
#include "ak/runtime/device.hpp"
#include "ak/runtime/hooks.hpp"
#include "ak/runtime/tuning.hpp"

namespace ak::gpu {

// Whether Op's operands may be swapped (op(a, b) == op(b, a)): then a reduction may combine
// elements in any fixed order, which lets its loads be coalesced across work-items
// (kernels::reduce_striped_kernel); other operators keep element order. True for ak's standard
// operators; specialise it for a custom operator that is commutative.
template <class Op>
struct commutative : std::false_type {};
template <>
struct commutative<ak::plus> : std::true_type {};
template <>
struct commutative<ak::multiplies> : std::true_type {};
template <>
struct commutative<ak::minimum_op> : std::true_type {};
template <>
struct commutative<ak::maximum_op> : std::true_type {};
template <>
struct commutative<ak::logical_and> : std::true_type {};
template <>
struct commutative<ak::logical_or> : std::true_type {};
template <>
struct commutative<ak::bit_and> : std::true_type {};
template <>
struct commutative<ak::bit_or> : std::true_type {};
template <>
struct commutative<ak::bit_xor> : std::true_type {};
template <>
struct commutative<kernels::sum_op> : std::true_type {};

namespace detail {

inline std::int64_t cdiv(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

inline void check_call(const ak::device& dev, std::int64_t n, const char* fn) {
  const auto kind = dev.info().kind;
  if (kind != device_kind::gpu && kind != device_kind::simulator)
    throw ak::argument_error(fn, "device", "a GPU-style device (sim:0 ... sim:3, cuda:N)",
                             dev.name());
  if (n < 0) throw ak::argument_error(fn, "n", "a length >= 0", std::to_string(n));
}

// A group size the device takes: at least one sub-group, a whole number of them, at most the
// device's largest group.
inline std::int64_t fit_block(const ak::device& dev, std::int64_t block) {
  const std::int64_t w = std::max<std::int64_t>(dev.info().sub_group_width, 1);
  const std::int64_t most = std::max(dev.info().max_group_size / w * w, w);
  return std::clamp((std::max(block, w) + w - 1) / w * w, w, most);
}

// The block of a launch over n elements, ipt per work-item: `block` fitted to the device, or for
// an input that one tile would more than hold, the fewest sub-groups that hold it. Each work-item
// of a group takes part in its barriers and collectives (and on sim is a fiber), holding elements
// or not.
inline std::int64_t block_for(const ak::device& dev, std::int64_t block, std::int64_t n,
                              std::int64_t ipt) {
  return std::min(fit_block(dev, block), fit_block(dev, cdiv(n, std::max<std::int64_t>(ipt, 1))));
}

inline int num_sub_groups(const ak::device& dev, std::int64_t block) {
  return static_cast<int>(cdiv(block, std::max<std::int64_t>(dev.info().sub_group_width, 1)));
}

// The element type a load reads by vectors: its array's, when it reads a plain array of numbers;
// void otherwise.
template <class Load>
struct vector_input {
  using type = void;
};
template <class Load>
requires requires(const Load& l) {
  l.in;
} && std::is_arithmetic_v<typename Load::input>
struct vector_input<Load> {
  using type = typename Load::input;
};

// The vector width a reduction reads `load` with: the tuning's vector_width (a menu of 1, 2 and
// 4 elements), at most 16 bytes a load, halved until load.in is aligned to it and it divides
// `divides` (a non-commutative reduction's items_per_thread; 0 for none). 1 for loads that do not
// read a plain array of numbers.
template <class Load>
int vector_width_for(const Load& load, std::int64_t wanted, std::int64_t divides) {
  using In = typename vector_input<Load>::type;
  int vw = 1;
  if constexpr (!std::is_void_v<In>) {
    while (vw < 4 && 2 * vw <= wanted && 2 * vw * sizeof(In) <= 16) vw *= 2;
    const auto address = reinterpret_cast<std::uintptr_t>(load.in);
    while (vw > 1 && (address % (vw * sizeof(In)) != 0 || (divides != 0 && divides % vw != 0)))
      vw /= 2;
  }
  return vw;
}

// Calls f.template operator()<VW>() for vw in the menu 1, 2, 4, instantiating only the widths
// whose loads of In fit 16 bytes (only 1 for In void).
template <class In, class F>
void with_vector_width(int vw, F&& f) {
  if constexpr (!std::is_void_v<In>) {
    if constexpr (4 * sizeof(In) <= 16)
      if (vw == 4) return f.template operator()<4>();
    if constexpr (2 * sizeof(In) <= 16)
      if (vw == 2) return f.template operator()<2>();
  }
  f.template operator()<1>();
}

// Reduces [0, n) of `load` into out[0] (one value) on device memory, in at most two launches.
template <class T, class Load, class Op>
void reduce_into(const ak::device& dev, const reduce_tuning& t, Load load, std::int64_t n, Op op,
                 T init, T* out) {
  const int ipt = static_cast<int>(t.items_per_thread);
  const std::int64_t block = block_for(dev, t.block_size, n, ipt);
  const std::int64_t tile = block * ipt;  // a multiple of every vector width (block is)
  const std::int64_t tiles = cdiv(n, tile);
  const std::int64_t most =
      n <= t.switch_below ? 1 : std::max<std::int64_t>(4 * dev.info().compute_units, 1);
  const std::int64_t chunk = cdiv(tiles, std::min(tiles, most)) * tile;
  const std::int64_t groups = cdiv(n, chunk);
  const std::size_t local = static_cast<std::size_t>(num_sub_groups(dev, block)) * sizeof(T);
  constexpr bool striped = commutative<Op>::value;
  // One pass of `groups` groups over load into dst: coalesced when the operator commutes, with
  // vector loads of width vw.
  auto pass = [&](auto l, int vw, std::int64_t count, std::int64_t per_group, std::int64_t g,
                  T* dst, const char* name) {
    using L = decltype(l);
    using In = std::conditional_t<std::is_same_v<L, Load>, typename vector_input<L>::type, void>;
    with_vector_width<In>(vw, [&]<int VW>() {
      if constexpr (striped)
        launch(dev, {kernel::range_1d(g * block, block), local, name},
               kernels::reduce_striped_kernel<T, L, Op, VW>{l, dst, count, per_group, op, init});
      else
        launch(dev, {kernel::range_1d(g * block, block), local, name},
               kernels::reduce_kernel<T, L, Op, VW>{l, dst, count, per_group, ipt, op, init});
    });
  };
  const int vw = vector_width_for(load, t.vector_width, striped ? 0 : ipt);
  if (groups == 1) return pass(load, vw, n, chunk, 1, out, "ak::gpu::reduce");
  device_buffer<T> partials(dev, groups);
  pass(load, vw, n, chunk, groups, partials.data(), "ak::gpu::reduce");
  // A few values: read one by one (one kernel variant fewer to compile).
  pass(kernels::load_element<T>{partials.data()}, 1, groups, groups, 1, out,
       "ak::gpu::reduce_partials");
}

template <class T>
T read_one(const ak::device& dev, const T* p) {
  T v;
  dev.memory().copy_to_host(&v, p, sizeof(T));
  return v;
}

}  // namespace detail

// ---- foreachindex, map ---------------------------------------------------------------------

// f(i) for every i in [0, n), in parallel, in no particular order. Tuning: map.block_size,
// map.items_per_thread.
namespace detail {
// With a resolved tuning `t` (every field set), on a device check_call has accepted: what the
// public algorithms call once they have resolved.
template <class F>
void foreachindex_run(const ak::device& dev, const map_tuning& t, std::int64_t n, F f) {
  if (n == 0) return;
  const int ipt = static_cast<int>(t.items_per_thread);
  const std::int64_t block = block_for(dev, t.block_size, n, ipt);
  const std::int64_t groups = cdiv(n, block * ipt);
  launch(dev, {kernel::range_1d(groups * block, block), 0, "ak::gpu::foreachindex"},
         kernels::foreach_kernel<F>{f, n, ipt});
}
}  // namespace detail

template <class F>
void foreachindex(const ak::device& dev, std::int64_t n, F f, const map_tuning& call = {}) {
  detail::check_call(dev, n, "ak::gpu::foreachindex");
  if (n == 0) return;
  detail::foreachindex_run(dev, ak::tuning(map_hook{}, dev, dtype::int64, call, {n}), n, f);
}

// out[i] = f(in[i]) for i in [0, n).
template <class In, class Out, class F>
void map(const ak::device& dev, const In* in, Out* out, std::int64_t n, F f,
         const map_tuning& call = {}) {
  detail::check_call(dev, n, "ak::gpu::map");
  if (n == 0) return;
  const auto t = ak::tuning(map_hook{}, dev, tuning_dtype<Out>(), call, {n});
  const int ipt = static_cast<int>(t.items_per_thread);
  const std::int64_t block = detail::block_for(dev, t.block_size, n, ipt);
  const std::int64_t groups = detail::cdiv(n, block * ipt);
  launch(dev, {kernel::range_1d(groups * block, block), 0, "ak::gpu::map"},
         kernels::map_kernel<In, Out, F>{{in, out, f}, n, ipt});
}

// ---- reduce, mapreduce -------------------------------------------------------------------------

// The reduction of in[0, n) by op; init for n == 0. Block reduction (items per thread, then
// sub-group and group reductions), one launch below reduce.switch_below elements and two above.
// Tuning: reduce.block_size, items_per_thread, vector_width, switch_below.
template <class T, class Op>
T reduce(const ak::device& dev, const T* in, std::int64_t n, Op op, T init,
         const reduce_tuning& call = {}) {
  detail::check_call(dev, n, "ak::gpu::reduce");
  if (n == 0) return init;
  const auto t = ak::tuning(reduce_hook{}, dev, tuning_dtype<T>(), call, {n});
  device_buffer<T> result(dev, 1);
  detail::reduce_into(dev, t, kernels::load_element<T>{in}, n, op, init, result.data());
  return detail::read_one(dev, result.data());
}

namespace detail {
// The reduction of f(in[i]) for i in [0, n) (n > 0) with a resolved tuning (every field set), on
// a device check_call has accepted: what the public algorithms call once they have resolved.
template <class T, class In, class F, class Op>
T mapreduce_run(const ak::device& dev, const reduce_tuning& t, const In* in, std::int64_t n, F f,
                Op op, T init) {
  device_buffer<T> result(dev, 1);
  reduce_into(dev, t, kernels::load_mapped<T, In, F>{in, f}, n, op, init, result.data());
  return read_one(dev, result.data());
}
}  // namespace detail

// The reduction of f(in[i]) (converted to T) for i in [0, n).
template <class T, class In, class F, class Op>
T mapreduce(const ak::device& dev, const In* in, std::int64_t n, F f, Op op, T init,
            const reduce_tuning& call = {}) {
  detail::check_call(dev, n, "ak::gpu::mapreduce");
  if (n == 0) return init;
  return detail::mapreduce_run(dev, ak::tuning(reduce_hook{}, dev, tuning_dtype<T>(), call, {n}),
                               in, n, f, op, init);
}

// ---- accumulate ----------------------------------------------------------------------------

namespace detail {

struct scan_shape {
  std::int64_t block;
  int ipt;
};

template <class T, class Op>
scan_shape fit_scan(const ak::device& dev, const resolved_scan& r) {
  const auto& info = dev.info();
  if (r.tuning.sub_group_width != 0 && r.tuning.sub_group_width != info.sub_group_width)
    throw ak::capability_error(std::string(name_of(r.algorithm)) + ": sub_group_width " +
                               std::to_string(r.tuning.sub_group_width) + " on " + dev.name() +
                               ", whose sub-groups are " + std::to_string(info.sub_group_width) +
                               " wide (0 means the native width)");
  scan_shape s{fit_block(dev, r.tuning.block_size), static_cast<int>(r.tuning.items_per_thread)};
  using K = kernels::scan_kernel<T, Op>;
  auto bytes = [&] {
    return K::local_bytes(static_cast<std::size_t>(s.block), static_cast<std::size_t>(s.ipt),
                          static_cast<std::size_t>(num_sub_groups(dev, s.block)));
  };
  while (bytes() > static_cast<std::size_t>(info.local_memory_bytes) && s.ipt > 1) s.ipt /= 2;
  while (bytes() > static_cast<std::size_t>(info.local_memory_bytes) &&
         s.block > info.sub_group_width)
    s.block = fit_block(dev, s.block / 2);
  if (bytes() > static_cast<std::size_t>(info.local_memory_bytes))
    throw ak::capability_error("ak::gpu::accumulate: elements of " + std::to_string(sizeof(T)) +
                               " bytes do not fit the local memory of " + dev.name());
  return s;
}

template <class T, class Op>
void launch_scan(const ak::device& dev, const scan_shape& s, std::int64_t groups,
                 const kernels::scan_kernel<T, Op>& k, const char* name) {
  const auto local = kernels::scan_kernel<T, Op>::local_bytes(
      static_cast<std::size_t>(s.block), static_cast<std::size_t>(s.ipt),
      static_cast<std::size_t>(num_sub_groups(dev, s.block)));
  launch(dev, {kernel::range_1d(groups * s.block, s.block), local, name}, k);
}

// Reduce-then-scan: reduce each tile, scan the tile totals (recursively), scan each tile again
// with its carry.
template <class T, class Op>
void reduce_then_scan_into(const ak::device& dev, const scan_shape& s, const T* in, T* out,
                           std::int64_t n, Op op, T init, bool inclusive) {
  const std::int64_t tile = s.block * s.ipt;
  const std::int64_t tiles = cdiv(n, tile);
  kernels::scan_kernel<T, Op> k{in, out, n, s.ipt, op, init, inclusive, nullptr, {}};
  if (tiles == 1) return launch_scan(dev, s, 1, k, "ak::gpu::accumulate");
  device_buffer<T> totals(dev, tiles), prefixes(dev, tiles);
  const std::size_t local = static_cast<std::size_t>(num_sub_groups(dev, s.block)) * sizeof(T);
  launch(dev, {kernel::range_1d(tiles * s.block, s.block), local, "ak::gpu::accumulate_reduce"},
         kernels::reduce_kernel<T, kernels::load_element<T>, Op>{
             kernels::load_element<T>{in}, totals.data(), n, tile, s.ipt, op, init});
  reduce_then_scan_into(dev, s, totals.data(), prefixes.data(), tiles, op, init, false);
  k.tile_prefix = prefixes.data();
  launch_scan(dev, s, tiles, k, "ak::gpu::accumulate");
}

// Decoupled look-back: one pass; tiles take dynamic ids in the order their groups start and
// chain their prefixes through device memory with release/acquire atomics at device scope.
template <class T, class Op>
void decoupled_lookback_into(const ak::device& dev, const scan_shape& s, const T* in, T* out,
                             std::int64_t n, Op op, T init, bool inclusive) {
  const std::int64_t tiles = cdiv(n, s.block * s.ipt);
  // The tiles' flags and, after them, the counter of tile ids: cleared by one launch.
  device_buffer<int> flags(dev, tiles + 1);
  device_buffer<T> aggregates(dev, tiles), prefixes(dev, tiles);
  const std::int64_t fill_block = fit_block(dev, 256);
  launch(dev,
         {kernel::range_1d(cdiv(tiles + 1, fill_block) * fill_block, fill_block), 0,
          "ak::gpu::accumulate_clear"},
         kernels::fill_kernel<int>{flags.data(), 0, tiles + 1});
  kernels::scan_kernel<T, Op> k{
      in,        out,     n,
      s.ipt,     op,      init,
      inclusive, nullptr, {flags.data() + tiles, flags.data(), aggregates.data(), prefixes.data()}};
  launch_scan(dev, s, tiles, k, "ak::gpu::accumulate_lookback");
}

// The scan with a resolved algorithm, on a device check_call has accepted: what the public
// algorithms call once they have resolved.
template <class T, class Op>
void accumulate_run(const ak::device& dev, const resolved_scan& r, const T* in, T* out,
                    std::int64_t n, Op op, T init, bool inclusive) {
  scan_shape s = fit_scan<T, Op>(dev, r);
  if (n == 0) return;
  s.block = block_for(dev, s.block, n, s.ipt);
  // One tile, whichever algorithm: reduce_then_scan_into's one launch, whose carry is init (the
  // look-back's would add a launch that clears its state, and the same bits come out).
  if (r.algorithm == scan_algorithm::decoupled_lookback && n > s.block * s.ipt)
    decoupled_lookback_into(dev, s, in, out, n, op, init, inclusive);
  else
    reduce_then_scan_into(dev, s, in, out, n, op, init, inclusive);
}

}  // namespace detail

// out[i] = init op in[0] op ... op in[i] (inclusive) or the same up to in[i - 1] (exclusive,
// out[0] = init), for i in [0, n); in may equal out. `alg` is ak::auto_alg{} (the scan tuning's
// algorithm where the device can run it, else reduce_then_scan), ak::reduce_then_scan{} or
// ak::decoupled_lookback{} (an ak::capability_error on devices without a device-scope fence and
// forward progress), with optional block_size / items_per_thread / sub_group_width.
template <class T, class Op>
void accumulate(const ak::device& dev, const T* in, T* out, std::int64_t n, Op op, T init,
                bool inclusive = true, const scan_alg& alg = auto_alg{}) {
  detail::check_call(dev, n, "ak::gpu::accumulate");
  detail::accumulate_run(dev, ak::resolve(alg, dev, tuning_dtype<T>(), {n}), in, out, n, op, init,
                         inclusive);
}

}  // namespace ak::gpu
