// The GPU half of sort, sort_inplace, sortperm and sort_by_key (the front is sort.hpp), on
// GPU-style devices: each function takes the device and the algorithm the front resolved, and
// runs the ak::gpu sorts with that tuning, looking neither up again.
//
// Radix sort on the GPU orders the elements themselves (numeric, ak's order); rev sorts by
// complemented digits (descending, equal keys still in input order). Merge sort takes the whole
// order, lt(by(a), by(b)) reversed when rev, as its comparator.
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
resolved_sort resolve_gpu_sort(const sort_options<By, Lt>& o, const device& dev, std::int64_t n,
                               std::string_view function) {
  check_gpu_types<T>(function, dev);
  if (std::holds_alternative<radix_sort>(o.alg) && !gpu_radix_order_v<T, By, Lt>)
    throw_gpu_unsupported(function, dev,
                          "radix_sort on GPU-style devices orders numeric elements themselves in "
                          "ak's order; a `by`, a custom `lt` or a non-numeric element needs "
                          "ak::merge_sort or ak::auto_alg");
  const sort_facts facts{.custom_order = !gpu_radix_order_v<T, By, Lt>, .stable = o.stable};
  return resolve(o.alg, dev, tuning_dtype<T>(), facts, {n});
}

inline void gpu_check_temp(std::string_view function, std::size_t need, const temp_storage& temp) {
  if (!temp.empty() && temp.size() < need) throw_temp_too_small(function, need, temp.size());
}

// What sortperm's radix sort starts from, in one pass: k[i] = keys[i], perm[i] = i.
template <class T>
struct gpu_sortperm_start {
  const T* keys;
  T* k;
  std::int64_t* perm;
  AK_KERNEL_FN void operator()(std::int64_t i) const {
    k[i] = keys[i];
    perm[i] = i;
  }
};

// Sorts keys[0, n) (and values, when not null) on the device by the resolved algorithm.
template <class K, class V, class By, class Lt>
void gpu_sort_run(const device& dev, K* keys, V* values, std::int64_t n, const resolved_sort& r,
                  const sort_options<By, Lt>& o) {
  if (n < 2) return;
  if constexpr (gpu_radix_order_v<K, By, Lt>) {
    if (r.algorithm == sort_algorithm::radix) {
      gpu::detail::radix_sort_run(dev, keys, values, n, r.tuning,
                                  values ? "ak::gpu::radix_sort_by_key" : "ak::gpu::radix_sort",
                                  o.rev);
      return;
    }
  }
  gpu::detail::merge_sort_run(dev, keys, values, n, sort_less<By, Lt>{o.by, o.lt, o.rev}, r.tuning);
}

// perm[0, n) = the stable permutation that sorts keys[0, n) (indices into keys), on the device.
template <class T, class By, class Lt>
void gpu_sortperm_run(const device& dev, const T* keys, std::int64_t* perm, std::int64_t n,
                      const resolved_sort& r, const sort_options<By, Lt>& o) {
  if (n == 0) return;
  if constexpr (gpu_radix_order_v<T, By, Lt>) {
    if (r.algorithm == sort_algorithm::radix) {
      gpu::device_buffer<T> k(dev, n);
      gpu::foreachindex(dev, n, gpu_sortperm_start<T>{keys, k.data(), perm});
      if (n > 1)
        gpu::detail::radix_sort_run(dev, k.data(), perm, n, r.tuning, "ak::gpu::radix_sort_by_key",
                                    o.rev);
      return;
    }
  }
  gpu::detail::sortperm_run(dev, keys, perm, n, sort_less<By, Lt>{o.by, o.lt, o.rev}, r.tuning);
}

// perm[i] = i - the start of the segment that holds element i: each segment's own indices.
struct segment_iota {
  sort_segments seg;
  std::int64_t* perm;
  AK_KERNEL_FN void operator()(std::int64_t i) const { perm[i] = i - seg.start(seg.segment_of(i)); }
};

// Sorts each segment of v (any shape and strides; its elements in row-major order make the
// segments) in place.
template <class T, class By, class Lt>
void gpu_sort(const device& dev, const resolved_sort& r, view<T> v, const sort_segments& seg,
              const sort_options<By, Lt>& o, std::string_view function) {
  gpu_check_temp(function, sort_scratch_bytes<T>(v.size()), o.temp);
  const std::int64_t n = v.size();
  if (n <= 1) return;
  gpu_work<T> w(dev, v, true);
  if (seg.count <= 1)
    gpu_sort_run<T, unsigned char>(dev, w.data(), nullptr, n, r, o);
  else
    gpu::detail::segmented_sort_run(dev, w.data(), static_cast<unsigned char*>(nullptr), n, seg,
                                    sort_less<By, Lt>{o.by, o.lt, o.rev}, r.tuning);
  w.write_back();
}

// A copy of v (row-major, v's shape, on the device) with the segments of its slices along dim
// sorted.
template <class T, class By, class Lt>
array<T> gpu_sort_copy(const device& dev, const resolved_sort& r, view<const T> v, std::size_t dim,
                       const sort_segments& seg, const sort_options<By, Lt>& o,
                       std::string_view function) {
  array<T> out(v.shape(), dev.memory());
  gpu_map_strided(dev, out.view(), v, gpu_same{});
  gpu_sort(dev, r, slices_last(out.view(), dim), seg, o, function);
  return out;
}

// perm (v's shape, any strides) = the stable permutation that sorts each segment of v, as indices
// within the segment.
template <class T, class By, class Lt>
void gpu_sortperm(const device& dev, const resolved_sort& r, view<const T> v,
                  view<std::int64_t> perm, const sort_segments& seg, const sort_options<By, Lt>& o,
                  std::string_view function) {
  gpu_check_temp(function, sort_scratch_bytes<T>(v.size()), o.temp);
  const std::int64_t n = v.size();
  if (n == 0) return;
  const gpu_dense<T> keys(dev, v);
  gpu_work<std::int64_t> p(dev, perm, false);
  if (seg.count <= 1) {
    gpu_sortperm_run(dev, keys.data(), p.data(), n, r, o);
  } else {
    gpu::device_buffer<T> k(dev, n);
    gpu::foreachindex(dev, n, gpu::kernels::copy_body<T>{keys.data(), k.data()});
    gpu::foreachindex(dev, n, segment_iota{seg, p.data()});
    gpu::detail::segmented_sort_run(dev, k.data(), p.data(), n, seg,
                                    sort_less<By, Lt>{o.by, o.lt, o.rev}, r.tuning);
  }
  p.write_back();
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
