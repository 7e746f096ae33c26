// Selection: findall, copy_if, select_into, partition, partition_inplace, unique, unique_count,
// unique_by_key, run_length_encode (Thrust's copy_if, stable_partition, unique, unique_by_key;
// CUB's DeviceSelect, DevicePartition, DeviceRunLengthEncode; AcceleratedKernels.jl's findall).
//
//   auto idx = ak::findall(v, [](float x) { return x > 0; });   // int64 indices, ascending
//   auto pos = ak::copy_if(v, [](float x) { return x > 0; });   // the elements themselves
//   auto [values, count] = ak::partition(v, pred);              // stable; selected first
//   auto [runs, lengths] = ak::run_length_encode(v);
//
// Arrays of any rank are read in row-major order; results are 1-d, on the device the data is on.
// Every one is stable (selected elements keep their order) and deterministic: the same result on
// every backend, thread count and tuning. Predicates and equalities must be pure: they may be
// called more than once per element. The default equality is ak::isequal (every NaN equals every
// NaN, -0.0 differs from +0.0).
//
// This is the family's front: each call checks its arguments, finds its device and looks its
// tuning up once (the `select` hook), then runs its body on the cpu half (select_cpu.hpp) or the
// GPU half (select_gpu.hpp). A half's `select` allocates the outputs through the body's factory:
// the cpu half with room for every element, then selects in one pass (the result is then cut to
// the selected count in place, or copied where it would waste most of its memory); the GPU half
// counts first and allocates exactly. Where the count must be known before anything is written
// (a partition's split, a destination's size), the body counts first on both halves.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/algorithms/detail/select_common.hpp"
#include "ak/algorithms/precompiled.hpp"
#include "ak/algorithms/select_cpu.hpp"
#include "ak/algorithms/select_gpu.hpp"
#include "ak/core/operators.hpp"

namespace ak {

// Options of the selection family.
struct select_options {
  select_tuning tuning{};  // per-call tuning: block_size, items_per_thread, cpu_grain
};

// ak::partition: the elements, those for which the predicate holds first (`count` of them), each
// part in input order.
template <class T>
struct partition_result {
  array<T> values;
  std::int64_t count = 0;
};
// ak::unique_by_key: the first key of each run of equal consecutive keys and its value.
template <class K, class V>
struct unique_by_key_result {
  array<K> keys;
  array<V> values;
};
// ak::run_length_encode: the first element of each run of equal consecutive elements and the
// run's length.
template <class T>
struct run_length_result {
  array<T> values;
  array<std::int64_t> lengths;
};

namespace detail {

// pred(x) for the elements of a range, as the selection's overloads tell a predicate from an
// array of flags.
template <class P, class T>
concept select_predicate = std::predicate<const P&, const T&> && !array_like<P>;
template <class E, class T>
concept select_equality = std::predicate<const E&, const T&, const T&>;

// What a call resolves once: the device of src (checked) and the tuning.
struct select_call {
  device dev;
  select_tuning t;
};
template <class T>
select_call select_resolve(view<const T> src, const select_options& o, const char* function) {
  const device dev = algorithm_device(function, "src", src.memory());
  if (on_gpu(dev)) check_gpu_types<T>(function, dev);
  return {dev, tuning(select_hook{}, dev, tuning_dtype<T>(), o.tuning, {src.size()})};
}
// body(device, selection) on the half of the call's device.
template <class Body>
auto on_half(const select_call& c, const Body& body) {
  if (on_gpu(c.dev)) return body(c.dev, gpu_selection(c.dev, c.t));
  return body(c.dev, cpu_selection(c.t));
}
template <class T, class Body>
auto select_front(view<const T> src, const select_options& o, const char* function,
                  const Body& body) {
  return on_half(select_resolve(src, o, function), body);
}

// An output allocated for `bound` elements, cut to the first `count`: in place, or copied to an
// array of its own where it would hold more than eight times the memory it needs.
template <class T, class S>
void fit(array<T>& a, std::int64_t count, const S& s) {
  if (count == a.size()) return;
  if (count >= a.size() / 8) {
    a.truncate(count);
    return;
  }
  array<T> b(shape{count}, s.memory());
  if (count > 0) s.copy_into(b.view(), view<const T>(a.data(), shape{count}, s.memory()));
  a = std::move(b);
}

// The elements of src in row-major order for which flag holds, in a new array.
template <class T, class S, class Flag>
array<T> select_copy(const S& s, const T* in, std::int64_t n, const Flag& flag) {
  array<T> out;
  const std::int64_t k = s.select(n, flag, [&](std::int64_t bound) {
    out = array<T>(shape{bound}, s.memory());
    return write_selected<T>{in, out.data(), 1};
  });
  fit(out, k, s);
  return out;
}

template <class T, class Flag, class S>
partition_result<T> partition_with(const S& s, const T* in, std::int64_t n, const Flag& flag) {
  const auto c = s.count(n, flag);
  partition_result<T> r{array<T>(shape{n}, s.memory()), c.total};
  s.write(c, n, flag, write_partition<T>{in, r.values.data(), c.total});
  return r;
}

// The bodies that libak's entries also run (precompiled.hpp: for every dtype with the default
// predicate or equality, in select_entries.cpp and each GPU backend's table), on either half.
template <class S, class T, class Pred>
array<std::int64_t> findall_body(const S& s, view<const T> v, const Pred& pred) {
  const auto d = s.dense_of(v);
  array<std::int64_t> out;
  const std::int64_t k =
      s.select(v.size(), pred_flag<T, Pred>{d.data(), pred}, [&](std::int64_t bound) {
        out = array<std::int64_t>(shape{bound}, s.memory());
        return write_index{out.data()};
      });
  fit(out, k, s);
  return out;
}

// copy_if with an array of flags (checked by the front: on src's device, of src's shape).
template <class S, class T, class F>
array<T> copy_if_body(const S& s, view<const T> v, view<const F> flags) {
  const auto d = s.dense_of(v);
  const auto df = s.dense_of(flags);
  return select_copy(s, d.data(), v.size(), array_flag<F>{df.data()});
}

template <class S, class T, class Eq>
array<T> unique_body(const S& s, view<const T> v, const Eq& eq) {
  const auto d = s.dense_of(v);
  return select_copy(s, d.data(), v.size(), run_head_flag<T, Eq>{d.data(), eq});
}

template <class S, class T, class Eq>
std::int64_t unique_count_body(const S& s, view<const T> v, const Eq& eq) {
  const auto d = s.dense_of(v);
  return s.count(v.size(), run_head_flag<T, Eq>{d.data(), eq}).total;
}

template <class S, class T, class Eq>
run_length_result<T> run_length_body(const S& s, view<const T> v, const Eq& eq) {
  const auto d = s.dense_of(v);
  const std::int64_t n = v.size();
  run_length_result<T> r;
  array<std::int64_t> starts;
  const std::int64_t runs =
      s.select(n, run_head_flag<T, Eq>{d.data(), eq}, [&](std::int64_t bound) {
        r.values = array<T>(shape{bound}, s.memory());
        starts = array<std::int64_t>(shape{bound}, s.memory());
        return write_run_start<T>{d.data(), r.values.data(), starts.data()};
      });
  fit(r.values, runs, s);
  r.lengths = array<std::int64_t>(shape{runs}, s.memory());
  s.for_each(runs, run_lengths{starts.data(), r.lengths.data(), runs, n});
  return r;
}

// Whether a call takes libak's entry: a dtype with the default predicate (equality).
template <class T, class F, class Default>
inline constexpr bool select_entry_v = precompiled_sort_type_v<T>&& std::is_same_v<F, Default>;

template <class T, class Eq>
array<T> unique_front(view<const T> v, const Eq& eq, const select_options& o) {
  const select_call c = select_resolve(v, o, "ak::unique");
  if constexpr (select_entry_v<T, Eq, isequal>)
    return unique_entry(c.dev, c.t, v);
  else
    return on_half(c, [&](const device&, const auto& s) { return unique_body(s, v, eq); });
}

template <class T, class Eq>
std::int64_t unique_count_front(view<const T> v, const Eq& eq, const select_options& o) {
  const select_call c = select_resolve(v, o, "ak::unique_count");
  if constexpr (select_entry_v<T, Eq, isequal>)
    return unique_count_entry(c.dev, c.t, v);
  else
    return on_half(c, [&](const device&, const auto& s) { return unique_count_body(s, v, eq); });
}

template <class K, class V, class Eq>
unique_by_key_result<K, V> unique_by_key_front(view<const K> k, view<const V> v, const Eq& eq,
                                               const select_options& o) {
  constexpr const char* function = "ak::unique_by_key";
  return select_front(k, o, function, [&](const device& dev, const auto& s) {
    check_same_device(function, "values", dev, v.memory());
    if (on_gpu(dev)) check_gpu_types<V>(function, dev);
    if (v.shape() != k.shape()) throw_shape_mismatch(function, "values", k.shape(), v.shape());
    const auto dk = s.dense_of(k);
    const auto dv = s.dense_of(v);
    const std::int64_t n = k.size();
    unique_by_key_result<K, V> r;
    const std::int64_t runs =
        s.select(n, run_head_flag<K, Eq>{dk.data(), eq}, [&](std::int64_t bound) {
          r.keys = array<K>(shape{bound}, s.memory());
          r.values = array<V>(shape{bound}, s.memory());
          return write_selected_pair<K, V>{dk.data(), dv.data(), r.keys.data(), r.values.data()};
        });
    fit(r.keys, runs, s);
    fit(r.values, runs, s);
    return r;
  });
}

template <class T, class Eq>
run_length_result<T> run_length_front(view<const T> v, const Eq& eq, const select_options& o) {
  const select_call c = select_resolve(v, o, "ak::run_length_encode");
  if constexpr (select_entry_v<T, Eq, isequal>)
    return run_length_entry(c.dev, c.t, v);
  else
    return on_half(c, [&](const device&, const auto& s) { return run_length_body(s, v, eq); });
}

}  // namespace detail

// ---- findall ----------------------------------------------------------------------------------

// The indices (int64, 0-based, ascending; row-major for n-d arrays) of the elements for which
// pred holds.
template <class Src, class Pred>
requires detail::select_predicate<Pred, detail::element_t<const Src>> array<std::int64_t> findall(
    const Src& src, Pred pred, const select_options& o = {}) {
  using T = detail::element_t<const Src>;
  const view<const T> v = detail::as_const_view(src);
  const detail::select_call c = detail::select_resolve(v, o, "ak::findall");
  if constexpr (detail::select_entry_v<T, Pred, detail::truthy>)
    return detail::findall_entry(c.dev, c.t, v);
  else
    return detail::on_half(
        c, [&](const device&, const auto& s) { return detail::findall_body(s, v, pred); });
}

// The indices of the nonzero (true) elements; NaN is nonzero.
template <class Src>
array<std::int64_t> findall(const Src& src, const select_options& o = {}) {
  return findall(src, detail::truthy{}, o);
}

// ---- copy_if, select_into ---------------------------------------------------------------------

// The elements for which pred holds, in order, as a new 1-d array.
template <class Src, class Pred>
requires detail::select_predicate<Pred, detail::element_t<const Src>>
auto copy_if(const Src& src, Pred pred, const select_options& o = {}) {
  using T = detail::element_t<const Src>;
  const view<const T> v = detail::as_const_view(src);
  return detail::select_front(v, o, "ak::copy_if", [&](const device&, const auto& s) {
    const auto d = s.dense_of(v);
    return detail::select_copy(s, d.data(), v.size(), detail::pred_flag<T, Pred>{d.data(), pred});
  });
}

// The elements whose flag (an array of src's shape, converted to bool) is set, in order.
template <class Src, class Flags>
requires detail::array_like<Flags>
auto copy_if(const Src& src, const Flags& flags, const select_options& o = {}) {
  using T = detail::element_t<const Src>;
  using F = detail::element_t<const Flags>;
  constexpr const char* function = "ak::copy_if";
  const view<const T> v = detail::as_const_view(src);
  const view<const F> f = detail::as_const_view(flags);
  const detail::select_call c = detail::select_resolve(v, o, function);
  detail::check_same_device(function, "flags", c.dev, f.memory());
  if (detail::on_gpu(c.dev)) detail::check_gpu_types<F>(function, c.dev);
  if (f.shape() != v.shape()) detail::throw_shape_mismatch(function, "flags", v.shape(), f.shape());
  if constexpr (detail::select_entry_v<T, F, bool>)
    return detail::copy_if_entry(c.dev, c.t, v, f);
  else
    return detail::on_half(
        c, [&](const device&, const auto& s) { return detail::copy_if_body(s, v, f); });
}

// Writes the elements of src for which pred holds, in order, to dst[0, count) (a 1-d array, any
// stride, on src's device, not overlapping src) and returns count. A dst shorter than count, or
// one that overlaps src, is an ak::argument_error raised before anything is written; dst's
// elements from count on are left as they were.
template <class Dst, class Src, class Pred>
requires detail::select_predicate<Pred, detail::element_t<const Src>> std::int64_t select_into(
    Dst&& dst, const Src& src, Pred pred, const select_options& o = {}) {
  using T = detail::element_t<const Src>;
  constexpr const char* function = "ak::select_into";
  const view<const T> v = detail::as_const_view(src);
  const auto out = detail::as_view(dst);
  static_assert(std::is_same_v<typename decltype(out)::element_type, T>,
                "ak::select_into: dst must have src's element type, and be writable");
  return detail::select_front(v, o, function, [&](const device& dev, const auto& s) {
    detail::check_same_device(function, "dst", dev, out.memory());
    if (out.rank() != 1) detail::throw_rank(function, "dst", "a 1-d array", out.rank());
    if (detail::spans_overlap(out, v)) detail::throw_overlap(function, "dst", "src");
    const auto d = s.dense_of(v);
    const detail::pred_flag<T, Pred> flag{d.data(), pred};
    const detail::write_selected<T> write{d.data(), out.data(), out.strides()[0]};
    // Room for every element: one pass. Otherwise the count first, checked before any write.
    if (out.size() >= v.size())
      return s.select(v.size(), flag, [&](std::int64_t) { return write; });
    const auto c = s.count(v.size(), flag);
    if (c.total > out.size())
      throw argument_error(function, "dst",
                           "at least " + std::to_string(c.total) + " elements (the selected count)",
                           std::to_string(out.size()) + " elements");
    if (c.total > 0) s.write(c, v.size(), flag, write);
    return c.total;
  });
}

// ---- partition --------------------------------------------------------------------------------

// Stable partition into a new 1-d array: the elements for which pred holds first, then the
// others, each in input order; `.count` is how many hold.
template <class Src, class Pred>
requires detail::select_predicate<Pred, detail::element_t<const Src>>
auto partition(const Src& src, Pred pred, const select_options& o = {}) {
  using T = detail::element_t<const Src>;
  const view<const T> v = detail::as_const_view(src);
  return detail::select_front(v, o, "ak::partition", [&](const device&, const auto& s) {
    const auto d = s.dense_of(v);
    return detail::partition_with(s, d.data(), v.size(),
                                  detail::pred_flag<T, Pred>{d.data(), pred});
  });
}

// The same in place (row-major order for n-d arrays, any strides); returns how many hold.
template <class Range, class Pred>
requires detail::select_predicate<Pred, detail::element_t<Range>> std::int64_t partition_inplace(
    Range&& data, Pred pred, const select_options& o = {}) {
  using T = detail::element_t<Range>;
  const auto w = detail::as_view(data);
  static_assert(!std::is_const_v<typename decltype(w)::element_type>,
                "ak::partition_inplace needs writable data");
  const view<const T> v(w);
  return detail::select_front(v, o, "ak::partition_inplace", [&](const device&, const auto& s) {
    const auto d = s.dense_of(v);
    partition_result<T> r =
        detail::partition_with(s, d.data(), v.size(), detail::pred_flag<T, Pred>{d.data(), pred});
    if (v.size() > 0) s.copy_into(w, view<const T>(r.values.view().reshape(v.shape())));
    return r.count;
  });
}

// ---- unique, unique_count, unique_by_key, run_length_encode -----------------------------------

// The first element of each run of equal consecutive elements (eq; ak::isequal by default), in a
// new 1-d array: std::unique's result.
template <class Src, class Eq>
requires detail::select_equality<Eq, detail::element_t<const Src>>
auto unique(const Src& src, Eq eq, const select_options& o = {}) {
  return detail::unique_front(detail::as_const_view(src), eq, o);
}
template <class Src>
auto unique(const Src& src, const select_options& o = {}) {
  return detail::unique_front(detail::as_const_view(src), isequal{}, o);
}

// How many elements unique would return: the number of runs of equal consecutive elements.
template <class Src, class Eq>
requires detail::select_equality<Eq, detail::element_t<const Src>> std::int64_t unique_count(
    const Src& src, Eq eq, const select_options& o = {}) {
  return detail::unique_count_front(detail::as_const_view(src), eq, o);
}
template <class Src>
std::int64_t unique_count(const Src& src, const select_options& o = {}) {
  return detail::unique_count_front(detail::as_const_view(src), isequal{}, o);
}

// The first key of each run of equal consecutive keys and the value beside it (keys and values
// of the same shape, on the same device).
template <class Keys, class Values, class Eq>
requires detail::select_equality<Eq, detail::element_t<const Keys>>
auto unique_by_key(const Keys& keys, const Values& values, Eq eq, const select_options& o = {}) {
  return detail::unique_by_key_front(detail::as_const_view(keys), detail::as_const_view(values), eq,
                                     o);
}
template <class Keys, class Values>
auto unique_by_key(const Keys& keys, const Values& values, const select_options& o = {}) {
  return detail::unique_by_key_front(detail::as_const_view(keys), detail::as_const_view(values),
                                     isequal{}, o);
}

// Each run of equal consecutive elements as its first element and its length (int64).
template <class Src, class Eq>
requires detail::select_equality<Eq, detail::element_t<const Src>>
auto run_length_encode(const Src& src, Eq eq, const select_options& o = {}) {
  return detail::run_length_front(detail::as_const_view(src), eq, o);
}
template <class Src>
auto run_length_encode(const Src& src, const select_options& o = {}) {
  return detail::run_length_front(detail::as_const_view(src), isequal{}, o);
}

}  // namespace ak
