// Stable merge sort on GPU-style devices, with any comparator: windows of the array sorted in
// local memory by each group, then merge passes whose work-items each find their outputs by a
// merge-path search. Keys alone, keys with values (sort_by_key), or a permutation (sortperm).
#pragma once

#include <cstdint>
#include <utility>

#include "ak/gpu/algorithms.hpp"
#include "ak/gpu/segmented_sort.hpp"

namespace ak::gpu {

namespace detail {

// Keys (and values, when not null) passed back and forth between the caller's arrays and
// temporaries by sort passes: each pass reads kin/vin and writes kout/vout, then swap().
template <class K, class V>
struct ping_pong {
  device_buffer<K> keys_tmp;
  device_buffer<V> values_tmp;
  K* keys;
  V* values;
  std::int64_t n;
  K* kin;
  K* kout;
  V* vin;
  V* vout;

  ping_pong(const ak::device& dev, K* keys_, V* values_, std::int64_t n_)
      : keys_tmp(dev, n_),
        values_tmp(dev, values_ ? n_ : 0),
        keys(keys_),
        values(values_),
        n(n_),
        kin(keys_),
        kout(keys_tmp.data()),
        vin(values_),
        vout(values_ ? values_tmp.data() : nullptr) {}

  void swap() {
    std::swap(kin, kout);
    std::swap(vin, vout);
  }

  // Copies the result back to the caller's arrays when the last pass left it in the temporaries.
  void finish(const ak::device& dev, const map_tuning& call = {}) const {
    if (kin != keys) foreachindex(dev, n, kernels::copy_body<K>{kin, keys}, call);
    if (values && vin != values) foreachindex(dev, n, kernels::copy_body<V>{vin, values}, call);
  }
};

// Sorts keys[0, n) (and values, when not null) stably by lt: the merge sort of one segment
// (segmented_sort.hpp: windows of block x merge_tile_size / block elements sorted in local
// memory, then merge passes over them). With a resolved tuning `t` (every field set), on a
// device check_call has accepted: what the public algorithms call once they have resolved.
template <class K, class V, class Lt>
void merge_sort_run(const ak::device& dev, K* keys, V* values, std::int64_t n, Lt lt,
                    const sort_tuning& t) {
  segmented_sort_run(dev, keys, values, n, kernels::whole_array{n}, lt, t);
}

template <class K, class V, class Lt>
void merge_sort_impl(const ak::device& dev, K* keys, V* values, std::int64_t n, Lt lt,
                     const sort_tuning& call, const char* fn) {
  check_call(dev, n, fn);
  if (n < 2) return;
  merge_sort_run(dev, keys, values, n, lt,
                 ak::tuning(sort_hook{}, dev, tuning_dtype<K>(), call, {n}));
}

// perm[0, n) such that keys[perm[i]] is sorted, with a resolved tuning (see merge_sort_run).
template <class K, class Lt>
void sortperm_run(const ak::device& dev, const K* keys, std::int64_t* perm, std::int64_t n, Lt lt,
                  const sort_tuning& t) {
  device_buffer<K> copy(dev, n);
  foreachindex(dev, n, kernels::copy_body<K>{keys, copy.data()});
  foreachindex(dev, n, kernels::iota_body<std::int64_t>{perm});
  merge_sort_run<K, std::int64_t, Lt>(dev, copy.data(), perm, n, lt, t);
}

}  // namespace detail

// Sorts keys[0, n) stably in the order lt (ak's order by default). Tuning: sort.block_size,
// sort.merge_tile_size (the elements of a window a group sorts in local memory).
template <class K, class Lt = ak::isless>
void merge_sort(const ak::device& dev, K* keys, std::int64_t n, Lt lt = {},
                const sort_tuning& call = {}) {
  detail::merge_sort_impl<K, unsigned char, Lt>(dev, keys, nullptr, n, lt, call,
                                                "ak::gpu::merge_sort");
}

// Sorts keys[0, n) stably and moves values[0, n) with them.
template <class K, class V, class Lt = ak::isless>
void merge_sort_by_key(const ak::device& dev, K* keys, V* values, std::int64_t n, Lt lt = {},
                       const sort_tuning& call = {}) {
  detail::merge_sort_impl<K, V, Lt>(dev, keys, values, n, lt, call, "ak::gpu::merge_sort_by_key");
}

// perm[0, n) such that keys[perm[i]] is sorted (stable: equal keys keep their order); keys are
// left as they are.
template <class K, class Lt = ak::isless>
void sortperm(const ak::device& dev, const K* keys, std::int64_t* perm, std::int64_t n, Lt lt = {},
              const sort_tuning& call = {}) {
  detail::check_call(dev, n, "ak::gpu::sortperm");
  if (n == 0) return;
  detail::sortperm_run(dev, keys, perm, n, lt,
                       ak::tuning(sort_hook{}, dev, tuning_dtype<K>(), call, {n}));
}

}  // namespace ak::gpu
