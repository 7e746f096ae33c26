// The GPU half of sort, sort_inplace, sortperm and sort_by_key (the front is sort.hpp), on
// GPU-style devices: each function takes the device and the algorithm the front resolved, and
// runs the ak::gpu sorts with that tuning, looking neither up again.
//
// Radix sort on the GPU orders the elements themselves (numeric, ak's order); rev runs it on the
// reversed input and reverses the result (descending, equal keys still in input order). Merge
// sort takes the whole order, lt(by(a), by(b)) reversed when rev, as its comparator.
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/algorithms/detail/sort_common.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/runtime/algorithm_values.hpp"

namespace ak::detail {

// Steps 1 and 4 that only GPU-style devices have, then the resolution (called by the front).
template <class T, class By, class Lt>
resolved_sort resolve_gpu_sort(const sort_options<By, Lt>& o, const device& dev,
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
      gpu::detail::radix_sort_run(dev, keys, values, n, r.tuning,
                                  values ? "ak::gpu::radix_sort_by_key" : "ak::gpu::radix_sort");
      if (o.rev) {
        gpu::reverse(dev, keys, n);
        if (values) gpu::reverse(dev, values, n);
      }
      return;
    }
  }
  gpu::detail::merge_sort_run(dev, keys, values, n, sort_less<By, Lt>{o.by, o.lt, o.rev}, r.tuning);
}

template <class T, class By, class Lt>
void gpu_sort(const device& dev, const resolved_sort& r, view<T> v, const sort_options<By, Lt>& o,
              std::string_view function) {
  gpu_check_temp(function, sort_scratch_bytes<T>(v.size()), o.temp);
  if (v.size() <= 1) return;
  gpu_work<T> w(dev, v, true);
  gpu_sort_run<T, unsigned char>(dev, w.data(), nullptr, v.size(), r, o);
  w.write_back();
}

// A sorted copy of v, on the device.
template <class T, class By, class Lt>
array<T> gpu_sort_copy(const device& dev, const resolved_sort& r, view<const T> v,
                       const sort_options<By, Lt>& o, std::string_view function) {
  array<T> out(v.shape(), dev.memory());
  gpu_map_strided(dev, out.view(), v, gpu_same{});
  gpu_sort(dev, r, out.view(), o, function);
  return out;
}

template <class T, class By, class Lt>
array<std::int64_t> gpu_sortperm(const device& dev, const resolved_sort& r, view<const T> v,
                                 const sort_options<By, Lt>& o, std::string_view function) {
  gpu_check_temp(function, sort_scratch_bytes<T>(v.size()), o.temp);
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
      if (n > 1)
        gpu::detail::radix_sort_run(dev, k.data(), perm.data(), n, r.tuning,
                                    "ak::gpu::radix_sort_by_key");
      if (o.rev) gpu::reverse(dev, perm.data(), n);
      return perm;
    }
  }
  gpu::detail::sortperm_run(dev, keys.data(), perm.data(), n, sort_less<By, Lt>{o.by, o.lt, o.rev},
                            r.tuning);
  return perm;
}

template <class K, class V, class By, class Lt>
void gpu_sort_by_key(const device& dev, const resolved_sort& r, view<K> k, view<V> v,
                     const sort_options<By, Lt>& o, std::string_view function) {
  gpu_check_temp(function, sort_scratch_bytes<K>(k.size()), o.temp);
  if (k.size() <= 1) return;
  gpu_work<K> wk(dev, k, true);
  gpu_work<V> wv(dev, v, true);
  gpu_sort_run(dev, wk.data(), wv.data(), k.size(), r, o);
  wk.write_back();
  wv.write_back();
}

}  // namespace ak::detail
