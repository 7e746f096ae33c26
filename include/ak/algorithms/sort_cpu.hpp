// The cpu half of sort, sort_inplace, sortperm and sort_by_key (the front is sort.hpp): each
// function takes the device and the algorithm the front resolved, and looks neither up again.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/sort_common.hpp"
#include "ak/algorithms/elementwise.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/backends/cpu/comparison_sort.hpp"
#include "ak/backends/cpu/radix_sort.hpp"
#include "ak/backends/cpu/scratch.hpp"
#include "ak/runtime/algorithm_values.hpp"

namespace ak::detail {

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
  static std::size_t bytes(std::int64_t n) { return sort_scratch_bytes<T>(n); }
  T* data() const noexcept { return data_; }

 private:
  struct no_pool {};
  std::conditional_t<std::is_trivially_copyable_v<T>, cpu::scratch_buffer<T>, no_pool> pooled_;
  std::unique_ptr<T[]> owned_;
  T* data_ = nullptr;
};

// The bytes radix sort treats as fitting in cache: the L2 caches of the workers (1 MiB when
// the device does not say).
inline std::int64_t sort_cache_bytes(const device& dev) {
  const std::int64_t l2 = dev.info().l2_cache_bytes;
  return l2 > 0 ? l2 * cpu::num_threads() : std::int64_t{1} << 20;
}

// The cpu radix sort's in-cache MSD rule from the resolved tuning.
inline cpu::radix_rules radix_rules_of(const resolved_sort& r) {
  return {static_cast<int>(r.tuning.radix_msd_passes), static_cast<int>(r.tuning.radix_msd_run)};
}

// Sorts a contiguous run with a resolved algorithm; tmp holds n elements.
template <class T, class By, class Lt>
void sort_run(T* p, T* tmp, std::int64_t n, const resolved_sort& r, const sort_options<By, Lt>& o,
              std::int64_t cache_bytes) {
  const sort_less<const By&, const Lt&> less{o.by, o.lt, o.rev};
  switch (r.algorithm) {
    case sort_algorithm::radix:
      if constexpr (radix_order_v<T, By, Lt>)
        cpu::radix_sort<T, void, By>(p, tmp, nullptr, nullptr, n,
                                     static_cast<int>(r.tuning.radix_digit_bits), o.rev,
                                     r.tuning.cpu_grain, cache_bytes, o.by, radix_rules_of(r));
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
void cpu_sort(const device& dev, const resolved_sort& r, view<T> v, const sort_options<By, Lt>& o,
              std::string_view function) {
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

// A sorted copy of v.
template <class T, class By, class Lt>
array<T> cpu_sort_copy(const device& dev, const resolved_sort& r, view<const T> v,
                       const sort_options<By, Lt>& o, std::string_view function) {
  array<T> out = copy_on_cpu(dev, v, loop_options{});
  cpu_sort(dev, r, out.view(), o, function);
  return out;
}

// The stable permutation that sorts v (indices into v).
template <class T, class By, class Lt>
array<std::int64_t> cpu_sortperm(const device& dev, const resolved_sort& r, view<const T> v,
                                 const sort_options<By, Lt>& o, std::string_view function) {
  const std::int64_t n = v.size();
  scratch<T> tmp(n, o.temp, function);
  array<std::int64_t> perm(v.shape());
  std::int64_t* idx = perm.data();
  foreachindex(n, [&](std::int64_t i) { idx[i] = i; });
  if (n <= 1) return perm;
  cpu::scratch_buffer<std::int64_t> idx_tmp(n);
  array<T> keys = copy_on_cpu(dev, v, loop_options{});
  if constexpr (radix_order_v<T, By, Lt>) {
    if (r.algorithm == sort_algorithm::radix) {
      cpu::radix_sort<T, std::int64_t, By>(keys.data(), tmp.data(), idx, idx_tmp.data(), n,
                                           static_cast<int>(r.tuning.radix_digit_bits), o.rev,
                                           r.tuning.cpu_grain, sort_cache_bytes(dev), o.by,
                                           radix_rules_of(r));
      return perm;
    }
  }
  const T* k = keys.data();
  const sort_less<const By&, const Lt&> less{o.by, o.lt, o.rev};
  auto by_index = [&](std::int64_t a, std::int64_t b) { return less(k[a], k[b]); };
  if (r.algorithm == sort_algorithm::sample)
    cpu::sample_sort(idx, idx_tmp.data(), n, r.tuning.cpu_grain, r.tuning.sample_oversampling,
                     by_index, sort_cache_bytes(dev) / cpu::num_threads());
  else
    cpu::merge_sort(idx, idx_tmp.data(), n, r.tuning.cpu_grain, by_index,
                    sort_cache_bytes(dev) / cpu::num_threads());
  return perm;
}

// Sorts k in place and applies the same permutation to v (same shape).
template <class K, class V, class By, class Lt>
void cpu_sort_by_key(const device& dev, const resolved_sort& r, view<K> k, view<V> v,
                     const sort_options<By, Lt>& o, std::string_view function) {
  const std::int64_t n = k.size();
  scratch<K> tmp(n, o.temp, function);
  if (n <= 1) return;
  if constexpr (radix_order_v<K, By, Lt>) {
    if (r.algorithm == sort_algorithm::radix && k.is_contiguous() && v.is_contiguous()) {
      cpu::scratch_buffer<V> vtmp(n);
      cpu::radix_sort<K, V, By>(k.data(), tmp.data(), v.data(), vtmp.data(), n,
                                static_cast<int>(r.tuning.radix_digit_bits), o.rev,
                                r.tuning.cpu_grain, sort_cache_bytes(dev), o.by, radix_rules_of(r));
      return;
    }
  }
  // Otherwise: the stable permutation, then both arrays gathered through it.
  const array<std::int64_t> perm = cpu_sortperm(dev, r, view<const K>(k), o, function);
  array<K> sorted_keys = take(view<const K>(k), perm);
  array<V> sorted_values = take(view<const V>(v), perm);
  identity_copy id;
  elementwise(k, id, r.tuning.cpu_grain, view<const K>(sorted_keys.view()));
  elementwise(v, id, r.tuning.cpu_grain, view<const V>(sorted_values.view()));
}

}  // namespace ak::detail
