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
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>

#include "ak/algorithms/algorithm_values.hpp"
#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/algorithms/elementwise.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/algorithms/precompiled.hpp"
#include "ak/backends/cpu/comparison_sort.hpp"
#include "ak/backends/cpu/radix_sort.hpp"
#include "ak/backends/cpu/scratch.hpp"

namespace ak {

namespace detail {

// The strict weak order a sort uses: lt(by(a), by(b)), reversed when rev.
template <class By, class Lt>
struct sort_less {
  const By& by;
  const Lt& lt;
  bool rev;
  template <class A, class B>
  bool operator()(const A& a, const B& b) const {
    return rev ? static_cast<bool>(lt(by(b), by(a))) : static_cast<bool>(lt(by(a), by(b)));
  }
};

// The key a sort orders T by (by(x)), and whether radix sort can order by it: the default lt and
// a numeric key (the element itself, or a number that `by` picks, such as a struct's field).
template <class T, class By>
using sort_key_t = cpu::radix_key_of_t<T, By>;
template <class T, class By, class Lt>
inline constexpr bool radix_order_v =
    std::is_same_v<Lt, isless>&& cpu::radix_sortable_v<sort_key_t<T, By>>;

// A scratch buffer of n elements: the caller's temp storage when given, else memory from the cpu
// scratch allocator (trivially copyable types) or the heap.
template <class T>
class scratch {
 public:
  scratch(std::int64_t n, temp_storage temp, std::string_view function) {
    const std::size_t need = bytes(n);
    if (!temp.empty()) {
      if (temp.size() < need) throw_temp_too_small(function, need, temp.size());
      void* p = temp.data();
      std::size_t space = temp.size();
      data_ = static_cast<T*>(
          std::align(alignof(T), static_cast<std::size_t>(n) * sizeof(T), p, space));
    } else if (n > 0) {
      if constexpr (std::is_trivially_copyable_v<T>) {
        pooled_.allocate(n);
        data_ = pooled_.data();
      } else {
        owned_.reset(new T[static_cast<std::size_t>(n)]);
        data_ = owned_.get();
      }
    }
  }
  static std::size_t bytes(std::int64_t n) {
    return static_cast<std::size_t>(n) * sizeof(T) + alignof(T);
  }
  T* data() const noexcept { return data_; }

 private:
  struct no_pool {};
  std::conditional_t<std::is_trivially_copyable_v<T>, cpu::scratch_buffer<T>, no_pool> pooled_;
  std::unique_ptr<T[]> owned_;
  T* data_ = nullptr;
};

// ---- GPU-style devices ----------------------------------------------------------------------
// Radix sort on the GPU orders the elements themselves (numeric, ak's order); rev runs it on the
// reversed input and reverses the result (descending, equal keys still in input order). Merge
// sort takes the whole order, lt(by(a), by(b)) reversed when rev, as its comparator.
template <class T, class By, class Lt>
inline constexpr bool gpu_radix_order_v =
    std::is_same_v<By, identity>&& std::is_same_v<Lt, isless>&& std::is_arithmetic_v<T>;

template <class T, class By, class Lt>
resolved_sort gpu_resolve_sort(const sort_options<By, Lt>& o, const device& dev,
                               std::string_view function) {
  check_gpu_types<T>(function, dev);
  if (std::holds_alternative<radix_sort>(o.alg) && !gpu_radix_order_v<T, By, Lt>)
    throw_gpu_unsupported(function, dev,
                          "radix_sort on GPU-style devices orders numeric elements themselves in "
                          "ak's order; a `by`, a custom `lt` or a non-numeric element needs "
                          "ak::merge_sort or ak::auto_alg");
  const sort_facts facts{.custom_order = !gpu_radix_order_v<T, By, Lt>, .stable = o.stable};
  return resolve(o.alg, dev, tuning_dtype<T>(), facts);
}

inline void gpu_check_temp(std::string_view function, std::size_t need, const temp_storage& temp) {
  if (!temp.empty() && temp.size() < need) throw_temp_too_small(function, need, temp.size());
}

// p[i] = n - 1 - i.
struct gpu_reversed_iota {
  std::int64_t* p;
  std::int64_t n;
  AK_KERNEL_FN void operator()(std::int64_t i) const { p[i] = n - 1 - i; }
};

// Sorts keys[0, n) (and values, when not null) on the device by the resolved algorithm.
template <class K, class V, class By, class Lt>
void gpu_sort_run(const device& dev, K* keys, V* values, std::int64_t n, const resolved_sort& r,
                  const sort_options<By, Lt>& o) {
  if (n < 2) return;
  if constexpr (gpu_radix_order_v<K, By, Lt>) {
    if (r.algorithm == sort_algorithm::radix) {
      if (o.rev) {
        gpu::reverse(dev, keys, n);
        if (values) gpu::reverse(dev, values, n);
      }
      if (values)
        gpu::radix_sort_by_key(dev, keys, values, n, r.tuning);
      else
        gpu::radix_sort(dev, keys, n, r.tuning);
      if (o.rev) {
        gpu::reverse(dev, keys, n);
        if (values) gpu::reverse(dev, values, n);
      }
      return;
    }
  }
  const gpu_less<By, Lt> less{o.by, o.lt, o.rev};
  if (values)
    gpu::merge_sort_by_key(dev, keys, values, n, less, r.tuning);
  else
    gpu::merge_sort(dev, keys, n, less, r.tuning);
}

template <class T, class By, class Lt>
void gpu_sort(const device& dev, view<T> v, const sort_options<By, Lt>& o,
              std::string_view function) {
  const resolved_sort r = gpu_resolve_sort<T>(o, dev, function);
  gpu_check_temp(function, scratch<T>::bytes(v.size()), o.temp);
  if (v.size() <= 1) return;
  gpu_work<T> w(dev, v, true);
  gpu_sort_run<T, unsigned char>(dev, w.data(), nullptr, v.size(), r, o);
  w.write_back();
}

template <class T, class By, class Lt>
array<std::int64_t> gpu_sortperm(const device& dev, view<const T> v, const sort_options<By, Lt>& o,
                                 std::string_view function) {
  const resolved_sort r = gpu_resolve_sort<T>(o, dev, function);
  gpu_check_temp(function, scratch<T>::bytes(v.size()), o.temp);
  const std::int64_t n = v.size();
  array<std::int64_t> perm(v.shape(), dev.memory());
  if (n == 0) return perm;
  const gpu_dense<T> keys(dev, v);
  if constexpr (gpu_radix_order_v<T, By, Lt>) {
    if (r.algorithm == sort_algorithm::radix) {
      gpu::device_buffer<T> k(dev, n);
      if (o.rev) {
        gpu::reverse_copy(dev, keys.data(), k.data(), n);
        gpu::foreachindex(dev, n, gpu_reversed_iota{perm.data(), n});
      } else {
        gpu::foreachindex(dev, n, gpu::kernels::copy_body<T>{keys.data(), k.data()});
        gpu::foreachindex(dev, n, gpu::kernels::iota_body<std::int64_t>{perm.data()});
      }
      if (n > 1) gpu::radix_sort_by_key(dev, k.data(), perm.data(), n, r.tuning);
      if (o.rev) gpu::reverse(dev, perm.data(), n);
      return perm;
    }
  }
  gpu::sortperm(dev, keys.data(), perm.data(), n, gpu_less<By, Lt>{o.by, o.lt, o.rev}, r.tuning);
  return perm;
}

template <class T, class By, class Lt>
resolved_sort resolve_sort(const sort_options<By, Lt>& o, const device& dev,
                           std::string_view function) {
  if (on_gpu(dev)) return gpu_resolve_sort<T>(o, dev, function);
  if (std::holds_alternative<radix_sort>(o.alg) && !cpu::radix_sortable_v<sort_key_t<T, By>>)
    throw capability_error(std::string(function) +
                           ": radix_sort orders numeric keys (integers, floats, bool) by their "
                           "bits; the key here (the element, or what `by` returns) is not one. Use "
                           "ak::merge_sort, ak::sample_sort or ak::auto_alg");
  const sort_facts facts{.custom_order = !radix_order_v<T, By, Lt>, .stable = o.stable};
  return resolve(o.alg, dev, tuning_dtype<T>(), facts);
}

// The bytes radix sort treats as fitting in cache: the L2 caches of the workers (1 MiB when
// the device does not say).
inline std::int64_t sort_cache_bytes(const device& dev) {
  const std::int64_t l2 = dev.info().l2_cache_bytes;
  return l2 > 0 ? l2 * cpu::num_threads() : std::int64_t{1} << 20;
}

// Sorts a contiguous run with a resolved algorithm; tmp holds n elements.
template <class T, class By, class Lt>
void sort_run(T* p, T* tmp, std::int64_t n, const resolved_sort& r, const sort_options<By, Lt>& o,
              std::int64_t cache_bytes) {
  const sort_less<By, Lt> less{o.by, o.lt, o.rev};
  switch (r.algorithm) {
    case sort_algorithm::radix:
      if constexpr (radix_order_v<T, By, Lt>)
        cpu::radix_sort<T, void, By>(p, tmp, nullptr, nullptr, n,
                                     static_cast<int>(r.tuning.radix_digit_bits), o.rev,
                                     r.tuning.cpu_grain, cache_bytes, o.by);
      break;
    case sort_algorithm::sample:
      cpu::sample_sort(p, tmp, n, r.tuning.cpu_grain, r.tuning.sample_oversampling, less,
                       cache_bytes / cpu::num_threads());
      break;
    default:
      cpu::merge_sort(p, tmp, n, r.tuning.cpu_grain, less, cache_bytes / cpu::num_threads());
      break;
  }
}

template <class T, class By, class Lt>
void sort_cpu(const device& dev, view<T> v, const sort_options<By, Lt>& o,
              std::string_view function) {
  const resolved_sort r = resolve_sort<T>(o, dev, function);
  const std::int64_t n = v.size();
  scratch<T> tmp(n, o.temp, function);
  if (n <= 1) return;
  if (v.is_contiguous()) {
    sort_run(v.data(), tmp.data(), n, r, o, sort_cache_bytes(dev));
    return;
  }
  array<T> packed = copy_on_cpu(dev, view<const T>(v), loop_options{});
  sort_run(packed.data(), tmp.data(), n, r, o, sort_cache_bytes(dev));
  identity_copy id;
  elementwise(v, id, r.tuning.cpu_grain, view<const T>(packed.view()));
}

template <paths P = paths::both, class T, class By, class Lt>
void sort_impl(view<T> v, const sort_options<By, Lt>& o, std::string_view function) {
  const device dev = algorithm_device(function, "v", v.memory());
  if (v.rank() != 1) throw_rank(function, "v", "a 1-d array", v.rank());
  if constexpr (P != paths::cpu)
    if (P == paths::gpu || on_gpu(dev)) return gpu_sort(dev, v, o, function);
  if constexpr (P != paths::gpu) sort_cpu(dev, v, o, function);
}

// The stable permutation that sorts v (indices into v), by the resolved algorithm.
template <class T, class By, class Lt>
array<std::int64_t> sortperm_cpu(const device& dev, view<const T> v, const sort_options<By, Lt>& o,
                                 std::string_view function) {
  const resolved_sort r = resolve_sort<T>(o, dev, function);
  const std::int64_t n = v.size();
  scratch<T> tmp(n, o.temp, function);
  array<std::int64_t> perm(v.shape());
  std::int64_t* idx = perm.data();
  foreachindex(n, [&](std::int64_t i) { idx[i] = i; });
  if (n <= 1) return perm;
  cpu::scratch_buffer<std::int64_t> idx_tmp(n);
  array<T> keys = copy(v);
  if constexpr (radix_order_v<T, By, Lt>) {
    if (r.algorithm == sort_algorithm::radix) {
      cpu::radix_sort<T, std::int64_t, By>(keys.data(), tmp.data(), idx, idx_tmp.data(), n,
                                           static_cast<int>(r.tuning.radix_digit_bits), o.rev,
                                           r.tuning.cpu_grain, sort_cache_bytes(dev), o.by);
      return perm;
    }
  }
  const T* k = keys.data();
  const sort_less<By, Lt> less{o.by, o.lt, o.rev};
  auto by_index = [&](std::int64_t a, std::int64_t b) { return less(k[a], k[b]); };
  if (r.algorithm == sort_algorithm::sample)
    cpu::sample_sort(idx, idx_tmp.data(), n, r.tuning.cpu_grain, r.tuning.sample_oversampling,
                     by_index, sort_cache_bytes(dev) / cpu::num_threads());
  else
    cpu::merge_sort(idx, idx_tmp.data(), n, r.tuning.cpu_grain, by_index,
                    sort_cache_bytes(dev) / cpu::num_threads());
  return perm;
}

template <paths P = paths::both, class T, class By, class Lt>
array<std::int64_t> sortperm_impl(view<const T> v, const sort_options<By, Lt>& o,
                                  std::string_view function) {
  const device dev = algorithm_device(function, "v", v.memory());
  if (v.rank() != 1) throw_rank(function, "v", "a 1-d array", v.rank());
  if constexpr (P == paths::gpu)
    return gpu_sortperm(dev, v, o, function);
  else if constexpr (P == paths::cpu)
    return sortperm_cpu(dev, v, o, function);
  else
    return on_gpu(dev) ? gpu_sortperm(dev, v, o, function) : sortperm_cpu(dev, v, o, function);
}

template <class T, class By, class Lt>
inline constexpr bool precompiled_sort_v =
    precompiled_sort_type_v<T>&& std::is_same_v<By, identity>&& std::is_same_v<Lt, isless>;

template <class T, class By, class Lt>
void sort_dispatch(view<T> v, const sort_options<By, Lt>& o, const char* function) {
  if constexpr (precompiled_sort_v<T, By, Lt>)
    sort_entry(v, o, function);
  else
    sort_impl(v, o, function);
}

}  // namespace detail

// Sorts v in place.
template <class Dst, class By = identity, class Lt = isless>
void sort_inplace(Dst&& v, const sort_options<By, Lt>& o = {}) {
  auto w = detail::as_view(v);
  static_assert(!std::is_const_v<typename decltype(w)::element_type>,
                "ak::sort_inplace: the array must be writable");
  detail::sort_dispatch(w, o, "ak::sort_inplace");
}

// A sorted copy of src; src is left as it is.
template <class Src, class By = identity, class Lt = isless>
auto sort(const Src& src, const sort_options<By, Lt>& o = {}) {
  const auto v = detail::as_const_view(src);
  using T = detail::element_t<const Src>;
  const device dev = detail::algorithm_device("ak::sort", "v", v.memory());
  if (v.rank() != 1) detail::throw_rank("ak::sort", "v", "a 1-d array", v.rank());
  // Resolve before copying so that a bad option leaves nothing allocated or written.
  detail::resolve_sort<T>(o, dev, "ak::sort");
  array<T> out;
  if (detail::on_gpu(dev)) {
    out = array<T>(v.shape(), dev.memory());
    detail::gpu_map_strided(dev, out.view(), v, detail::gpu_same{});
  } else {
    out = copy(v);
  }
  detail::sort_dispatch(out.view(), o, "ak::sort");
  return out;
}

// The stable permutation p (int64, 0-based) with src[p[0]] <= src[p[1]] <= ... in the order.
template <class Src, class By = identity, class Lt = isless>
array<std::int64_t> sortperm(const Src& src, const sort_options<By, Lt>& o = {}) {
  using T = detail::element_t<const Src>;
  const view<const T> v = detail::as_const_view(src);
  if constexpr (detail::precompiled_sort_v<T, By, Lt>)
    return detail::sortperm_entry(v, o);
  else
    return detail::sortperm_impl(v, o, "ak::sortperm");
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
    const resolved_sort r = detail::gpu_resolve_sort<K>(o, dev, function);
    detail::gpu_check_temp(function, detail::scratch<K>::bytes(k.size()), o.temp);
    if (k.size() <= 1) return;
    detail::gpu_work<K> wk(dev, k, true);
    detail::gpu_work<V> wv(dev, v, true);
    detail::gpu_sort_run(dev, wk.data(), wv.data(), k.size(), r, o);
    wk.write_back();
    wv.write_back();
    return;
  }
  const resolved_sort r = detail::resolve_sort<K>(o, dev, function);
  const std::int64_t n = k.size();
  detail::scratch<K> tmp(n, o.temp, function);
  if (n <= 1) return;
  if constexpr (detail::radix_order_v<K, By, Lt>) {
    if (r.algorithm == sort_algorithm::radix && k.is_contiguous() && v.is_contiguous()) {
      cpu::scratch_buffer<V> vtmp(n);
      cpu::radix_sort<K, V, By>(k.data(), tmp.data(), v.data(), vtmp.data(), n,
                                static_cast<int>(r.tuning.radix_digit_bits), o.rev,
                                r.tuning.cpu_grain, detail::sort_cache_bytes(dev), o.by);
      return;
    }
  }
  // Otherwise: the stable permutation, then both arrays gathered through it.
  const array<std::int64_t> perm = detail::sortperm_impl(view<const K>(k), o, function);
  array<K> sorted_keys = take(view<const K>(k), perm);
  array<V> sorted_values = take(view<const V>(v), perm);
  detail::identity_copy id;
  detail::elementwise(k, id, r.tuning.cpu_grain, view<const K>(sorted_keys.view()));
  detail::elementwise(v, id, r.tuning.cpu_grain, view<const V>(sorted_values.view()));
}

// Bytes of temp storage (sort_options::temp) for sorting n elements of T.
template <class T>
std::size_t sort_temp_bytes(std::int64_t n) {
  return detail::scratch<T>::bytes(n);
}

}  // namespace ak
