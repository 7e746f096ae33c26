// Keyed and segmented reductions and scans: reduce_by_key, accumulate_by_key (Thrust's
// reduce_by_key and inclusive/exclusive_scan_by_key; CUB's DeviceReduce::ReduceByKey,
// DeviceScan::*ByKey), and reduce and accumulate over segments given by ak::offsets (CUB's
// DeviceSegmentedReduce).
//
//   auto [keys, sums] = ak::reduce_by_key(k, v, ak::plus{});       // one sum per run of keys
//   auto c = ak::accumulate_by_key(k, v, ak::plus{});              // scans restart at each run
//   auto s = ak::reduce(v, ak::plus{}, ak::offsets{o});            // o: CSR offsets, m + 1
//   auto e = ak::accumulate(v, ak::plus{}, ak::offsets{o}, {.init = 0, .inclusive = false});
//
// A run is a maximal stretch of equal consecutive keys (eq; ak::isequal by default, so every NaN
// equals every NaN and -0.0 differs from +0.0). Offsets are CSR row pointers: m + 1 int64 values,
// o[0] == 0, o[m] == n, never decreasing; segment s is [o[s], o[s + 1]), empty segments allowed.
// Keys, values and src are read in row-major order; results are 1-d, on the device of the data.
//
// op must be associative (it is applied in element order within each run or segment; it need not
// be commutative), and any op works on every device, with or without a known neutral element.
// All four are one segmented scan on GPU-style devices (detail/keyed_common.hpp); on the cpu,
// reduce_by_key and the accumulates fold each run in one pass over the scan's tiles, and the
// reduce over offsets folds each segment between its offsets (cpu/runs.hpp). They are as
// deterministic as ak::accumulate: on the cpu the same bits for any thread count (tiles are fixed
// by the tuning); on GPU-style devices the same bits run to run with reduce-then-scan, while
// decoupled look-back may round float results differently from run to run. Exact operators
// (integers, min, max, the first or last value) give the same result everywhere.
// `init`: accumulate_by_key and the segmented accumulate start each run (segment) from it, and
// reduce_by_key and the segmented reduce give op(init, reduction of the run) (on the cpu they
// fold each run or segment from init: op(op(init, v0), v1) ..., the same for an associative op
// but for rounding); an exclusive scan and a segmented reduce (whose empty segments give init)
// need it unless op has a known neutral element (ak::neutral_element). Tuning: `.tuning` is the
// scan's (the scan hook's fields); the loops and the selection of runs take the select hook's
// tuning from the registry.
//
// This is the family's front: each call checks its arguments (before anything is written), finds
// its device and looks its tunings up once, then runs its body on the cpu half (keyed_cpu.hpp:
// passes over tiles) or the GPU half (keyed_gpu.hpp: items stored, scanned, finished in a
// loop). None of these calls has a precompiled entry yet: they are instantiated in the caller's
// translation unit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "ak/algorithms/detail/keyed_common.hpp"
#include "ak/algorithms/detail/segment_heads.hpp"
#include "ak/algorithms/detail/segments.hpp"
#include "ak/algorithms/keyed_cpu.hpp"
#include "ak/algorithms/keyed_gpu.hpp"
#include "ak/algorithms/select.hpp"

namespace ak {

// Options of the keyed and segmented family. Init is the result element type.
//  - init: where each run or segment starts (see above); may be omitted when op has a known
//    neutral element, and for inclusive scans and reduce_by_key.
//  - inclusive: for the scans; out[i] includes element i (default) or stops before it, so each
//    run's first output is init. Reductions take the default only.
template <class Init>
struct segment_options {
  std::optional<Init> init{};
  bool inclusive = true;
  scan_tuning tuning{};  // per-call tuning of the segmented scan
};

// reduce_by_key's result: the first key of each run and the reduction of its values.
template <class K, class R>
using reduce_by_key_result = unique_by_key_result<K, R>;

namespace detail {

// body(device, half) with the tunings resolved once: the select hook's for loops and selections,
// the scan hook's (and the call's) for the segmented scan, both for the result's dtype and the
// n elements of the call.
template <class R, class Body>
auto keyed_front(const char* function, const char* argument, const memory_space& memory,
                 std::int64_t n, const segment_options<R>& o, const Body& body) {
  const device dev = algorithm_device(function, argument, memory);
  const select_tuning loops = tuning(select_hook{}, dev, tuning_dtype<R>(), tuning_size(n));
  if (on_gpu(dev))
    return body(dev,
                gpu_keyed(dev, loops, resolve(o.tuning, dev, tuning_dtype<R>(), function, {n})));
  return body(dev, cpu_keyed(loops, tuning(scan_hook{}, dev, tuning_dtype<R>(), o.tuning, {n})));
}

// The init each run starts from: the caller's, else op's neutral element (for an inclusive scan
// or a reduction by key, which need neither, R{} stands in and is never read).
template <class R, class Op>
R init_of(const segment_options<R>& o) {
  if (o.init) return *o.init;
  return neutral_element<R, Op>().value_or(R{});
}

template <class R, class Op>
void check_segment_options(const segment_options<R>& o, const char* function, bool scan,
                           bool needs_init) {
  if (!scan && !o.inclusive)
    throw argument_error(function, "inclusive", "true (inclusive is for the scans)", "false");
  if (needs_init && !o.init && !neutral_element<R, Op>())
    throw_no_init(function, scan ? "for an exclusive scan" : "for empty segments");
}

// The scan of values in the segments that head starts, into a new 1-d array.
template <class R, class S, class V, class Head, class Op>
array<R> segmented_accumulate_body(const S& s, const V* values, std::int64_t n, const Head& head,
                                   const Op& op, const segment_options<R>& o) {
  s.template check_scan<R, Op>();
  array<R> out(shape{n}, s.memory());
  s.template accumulate_runs<R>(n, values, head, op, init_of<R, Op>(o), o.init.has_value(),
                                o.inclusive, out.data());
  return out;
}

template <class K, class V, class R, class Op, class Eq>
reduce_by_key_result<K, R> reduce_by_key_front(view<const K> k, view<const V> v, const Op& op,
                                               const Eq& eq, const segment_options<R>& o) {
  constexpr const char* function = "ak::reduce_by_key";
  return keyed_front(
      function, "keys", k.memory(), k.size(), o, [&](const device& dev, const auto& s) {
        check_same_device(function, "values", dev, v.memory());
        if (on_gpu(dev)) check_gpu_types<K, V, R>(function, dev);
        if (v.shape() != k.shape()) throw_shape_mismatch(function, "values", k.shape(), v.shape());
        check_segment_options<R, Op>(o, function, false, false);
        s.template check_scan<R, Op>();
        const auto dk = s.dense_of(k);
        const auto dv = s.dense_of(v);
        const std::int64_t n = k.size();
        using head_t = run_head_flag<K, Eq>;
        const head_t head{dk.data(), eq};
        const std::int64_t bound = s.run_bound(n, head);
        reduce_by_key_result<K, R> r{array<K>(shape{bound}, s.memory()),
                                     array<R>(shape{bound}, s.memory())};
        const std::int64_t runs =
            s.template reduce_runs<R>(n, dk.data(), dv.data(), head, op, init_of<R, Op>(o),
                                      o.init.has_value(), r.keys.data(), r.values.data());
        fit(r.keys, runs, s);
        fit(r.values, runs, s);
        return r;
      });
}

template <class K, class V, class R, class Op, class Eq>
array<R> accumulate_by_key_front(view<const K> k, view<const V> v, const Op& op, const Eq& eq,
                                 const segment_options<R>& o) {
  constexpr const char* function = "ak::accumulate_by_key";
  return keyed_front(function, "keys", k.memory(), k.size(), o,
                     [&](const device& dev, const auto& s) {
                       check_same_device(function, "values", dev, v.memory());
                       if (on_gpu(dev)) check_gpu_types<K, V, R>(function, dev);
                       if (v.shape() != k.shape())
                         throw_shape_mismatch(function, "values", k.shape(), v.shape());
                       check_segment_options<R, Op>(o, function, true, !o.inclusive);
                       const auto dk = s.dense_of(k);
                       const auto dv = s.dense_of(v);
                       return segmented_accumulate_body(s, dv.data(), k.size(),
                                                        run_head_flag<K, Eq>{dk.data(), eq}, op, o);
                     });
}

// The reduction (scan false) or the scan of each segment of the 1-d v over the offsets seg.
template <class T, class R, class Op>
auto segmented_front(view<const T> v, const Op& op, const offsets& seg, const segment_options<R>& o,
                     const char* function, bool scan) {
  return keyed_front(
      function, "src", v.memory(), v.size(), o, [&](const device& dev, const auto& s) {
        if (on_gpu(dev)) check_gpu_types<T, R>(function, dev);
        if (v.rank() != 1) throw_rank(function, "src", "a 1-d array", v.rank());
        check_segment_options<R, Op>(o, function, scan, !scan || !o.inclusive);
        s.template check_scan<R, Op>();
        const dense_offsets d = checked_offsets(dev, seg, v.size(), function);
        const std::int64_t m = seg.values().size() - 1, n = v.size();
        const auto dv = s.dense_of(v);
        if (scan) {
          const array<std::uint8_t> heads = segment_heads(s, d.data, m, n);
          return segmented_accumulate_body(s, dv.data(), n, array_flag<std::uint8_t>{heads.data()},
                                           op, o);
        }
        array<R> out(shape{m}, s.memory());
        s.template reduce_segments<R>(d.data, m, dv.data(), n, op, init_of<R, Op>(o), out.data());
        return out;
      });
}

}  // namespace detail

// ---- reduce_by_key, accumulate_by_key ---------------------------------------------------------

// For each run of equal consecutive keys (eq), its first key and the reduction of its values by
// op (op(init, ...) with an init); keys and values of the same shape, on the same device.
template <class Keys, class Values, class Op, class Eq,
          class Init = detail::element_t<const Values>>
requires detail::select_equality<Eq, detail::element_t<const Keys>>
auto reduce_by_key(const Keys& keys, const Values& values, Op op, Eq eq,
                   const segment_options<Init>& o = {}) {
  return detail::reduce_by_key_front(detail::as_const_view(keys), detail::as_const_view(values), op,
                                     eq, o);
}
template <class Keys, class Values, class Op, class Init = detail::element_t<const Values>>
auto reduce_by_key(const Keys& keys, const Values& values, Op op,
                   const segment_options<Init>& o = {}) {
  return reduce_by_key(keys, values, op, isequal{}, o);
}

// The scan of values by op that restarts at each run of equal consecutive keys (eq), as a new
// 1-d array: inclusive by default, exclusive with `.inclusive = false` (each run's first output
// is init).
template <class Keys, class Values, class Op, class Eq,
          class Init = detail::element_t<const Values>>
requires detail::select_equality<Eq, detail::element_t<const Keys>> array<Init> accumulate_by_key(
    const Keys& keys, const Values& values, Op op, Eq eq, const segment_options<Init>& o = {}) {
  return detail::accumulate_by_key_front(detail::as_const_view(keys), detail::as_const_view(values),
                                         op, eq, o);
}
template <class Keys, class Values, class Op, class Init = detail::element_t<const Values>>
array<Init> accumulate_by_key(const Keys& keys, const Values& values, Op op,
                              const segment_options<Init>& o = {}) {
  return accumulate_by_key(keys, values, op, isequal{}, o);
}

// ---- reduce and accumulate over segments ------------------------------------------------------

// The reduction of each segment of a 1-d src (m results; init, or op's neutral element, for an
// empty segment and combined first into the others: op(init, ...)).
template <class Src, class Op, class Init = detail::element_t<const Src>>
array<Init> reduce(const Src& src, Op op, const offsets& segments,
                   const segment_options<Init>& o = {}) {
  return detail::segmented_front(detail::as_const_view(src), op, segments, o, "ak::reduce", false);
}

// The scan of a 1-d src by op that restarts at each segment, as a new 1-d array.
template <class Src, class Op, class Init = detail::element_t<const Src>>
array<Init> accumulate(const Src& src, Op op, const offsets& segments,
                       const segment_options<Init>& o = {}) {
  return detail::segmented_front(detail::as_const_view(src), op, segments, o, "ak::accumulate",
                                 true);
}

}  // namespace ak
