// sort, sort_inplace, sortperm, sort_by_key.
//
//   ak::sort_inplace(v);                                  // radix sort for numbers
//   ak::sort_inplace(v, {.rev = true});
//   ak::sort_inplace(people, ak::sort_options{.by = [](const person& p) { return p.age; }});
//   auto perm = ak::sortperm(v);                          // int64, 0-based, stable
//
// Elements are ordered by lt(by(a), by(b)); the default lt is ak::isless (NaN last, -0.0 before
// +0.0). Sorts are stable unless .stable = false. The algorithm comes from .alg, resolved once
// before any data is touched: radix sort (numeric keys, the element or what `by` returns, with
// the default lt; the default for them), sample sort (any order, stable on cpu; the cpu's
// default otherwise), merge sort (stable, any order).
// An algorithm that cannot honour the options is a capability_error, never replaced.
// Peak memory: the input plus one scratch copy (plus the indices for sortperm and pairs).
//
// This is the family's front: each call checks its arguments, finds its device and resolves its
// algorithm once, then runs the precompiled entry (the standard types in the default order) or
// the cpu half (sort_cpu.hpp) or GPU half (sort_gpu.hpp) with what it resolved.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/sort_common.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/algorithms/precompiled.hpp"
#include "ak/algorithms/sort_cpu.hpp"
#include "ak/algorithms/sort_gpu.hpp"
#include "ak/runtime/algorithm_values.hpp"

namespace ak {

namespace detail {

// Steps 1 to 4 of the algorithm's resolution for a sort of T on dev (algorithm_values.hpp).
template <class T, class By, class Lt>
resolved_sort resolve_sort(const sort_options<By, Lt>& o, const device& dev,
                           std::string_view function) {
  if (on_gpu(dev)) return resolve_gpu_sort<T>(o, dev, function);
  if (std::holds_alternative<radix_sort>(o.alg) && !has_ordered_key_v<sort_key_t<T, By>>)
    throw capability_error(std::string(function) +
                           ": radix_sort orders numeric keys (integers, floats, bool) by their "
                           "bits; the key here (the element, or what `by` returns) is not one. Use "
                           "ak::merge_sort, ak::sample_sort or ak::auto_alg");
  const sort_facts facts{.custom_order = !radix_order_v<T, By, Lt>, .stable = o.stable};
  return resolve(o.alg, dev, tuning_dtype<T>(), facts);
}

template <class T, class By, class Lt>
inline constexpr bool precompiled_sort_v =
    precompiled_sort_type_v<T>&& std::is_same_v<By, identity>&& std::is_same_v<Lt, isless>;

// The device of a 1-d array to sort, checked.
template <class T>
device sort_device(const view<T>& v, const char* function) {
  const device dev = algorithm_device(function, "v", v.memory());
  if (v.rank() != 1) throw_rank(function, "v", "a 1-d array", v.rank());
  return dev;
}

// Sorts v in place, once its device and algorithm are resolved.
template <class T, class By, class Lt>
void sort_resolved(const device& dev, const resolved_sort& r, view<T> v,
                   const sort_options<By, Lt>& o, const char* function) {
  if constexpr (precompiled_sort_v<T, By, Lt>)
    sort_entry(dev, r, v, o, function);
  else if (on_gpu(dev))
    gpu_sort(dev, r, v, o, function);
  else
    cpu_sort(dev, r, v, o, function);
}

}  // namespace detail

// Sorts v in place.
template <class Dst, class By = identity, class Lt = isless>
void sort_inplace(Dst&& v, const sort_options<By, Lt>& o = {}) {
  constexpr const char* function = "ak::sort_inplace";
  auto w = detail::as_view(v);
  using T = typename decltype(w)::element_type;
  static_assert(!std::is_const_v<T>, "ak::sort_inplace: the array must be writable");
  const device dev = detail::sort_device(w, function);
  detail::sort_resolved(dev, detail::resolve_sort<T>(o, dev, function), w, o, function);
}

// A sorted copy of src; src is left as it is. The algorithm is resolved before the copy is made,
// so that a bad option leaves nothing allocated or written.
template <class Src, class By = identity, class Lt = isless>
auto sort(const Src& src, const sort_options<By, Lt>& o = {}) {
  constexpr const char* function = "ak::sort";
  using T = detail::element_t<const Src>;
  const view<const T> v = detail::as_const_view(src);
  const device dev = detail::sort_device(v, function);
  const resolved_sort r = detail::resolve_sort<T>(o, dev, function);
  if constexpr (detail::precompiled_sort_v<T, By, Lt>)
    return detail::sort_copy_entry(dev, r, v, o, function);
  else if (detail::on_gpu(dev))
    return detail::gpu_sort_copy(dev, r, v, o, function);
  else
    return detail::cpu_sort_copy(dev, r, v, o, function);
}

// The stable permutation p (int64, 0-based) with src[p[0]] <= src[p[1]] <= ... in the order.
template <class Src, class By = identity, class Lt = isless>
array<std::int64_t> sortperm(const Src& src, const sort_options<By, Lt>& o = {}) {
  constexpr const char* function = "ak::sortperm";
  using T = detail::element_t<const Src>;
  const view<const T> v = detail::as_const_view(src);
  const device dev = detail::sort_device(v, function);
  const resolved_sort r = detail::resolve_sort<T>(o, dev, function);
  if constexpr (detail::precompiled_sort_v<T, By, Lt>)
    return detail::sortperm_entry(dev, r, v, o);
  else if (detail::on_gpu(dev))
    return detail::gpu_sortperm(dev, r, v, o, function);
  else
    return detail::cpu_sortperm(dev, r, v, o, function);
}

// Sorts keys in place and applies the same permutation to values (same length).
template <class Keys, class Values, class By = identity, class Lt = isless>
void sort_by_key(Keys&& keys, Values&& values, const sort_options<By, Lt>& o = {}) {
  constexpr const char* function = "ak::sort_by_key";
  auto k = detail::as_view(keys);
  auto v = detail::as_view(values);
  using K = typename decltype(k)::value_type;
  using V = typename decltype(v)::value_type;
  const device dev = detail::algorithm_device(function, "keys", k.memory());
  detail::check_same_device(function, "values", dev, v.memory());
  if (k.rank() != 1) detail::throw_rank(function, "keys", "a 1-d array", k.rank());
  if (v.shape() != k.shape())
    detail::throw_shape_mismatch(function, "values", k.shape(), v.shape());
  if (detail::on_gpu(dev)) {
    detail::check_gpu_types<V>(function, dev);
    detail::gpu_sort_by_key(dev, detail::resolve_sort<K>(o, dev, function), k, v, o, function);
  } else {
    detail::cpu_sort_by_key(dev, detail::resolve_sort<K>(o, dev, function), k, v, o, function);
  }
}

// Bytes of temp storage (sort_options::temp) for sorting n elements of T.
template <class T>
std::size_t sort_temp_bytes(std::int64_t n) {
  return detail::sort_scratch_bytes<T>(n);
}

}  // namespace ak
