// merge and merge_by_key: two sorted arrays into one sorted array (std::merge, thrust::merge,
// thrust::merge_by_key, CUB's DeviceMerge).
//
//   auto m = ak::merge(a, b);                                // a, b sorted in ak's order
//   auto [k, v] = ak::merge_by_key(ka, va, kb, vb, {.rev = true});
//
// a and b are 1-d arrays (any strides) on one device, each sorted by lt(by(.), by(.)) (descending
// with rev), as ak::sort leaves them; the result is sorted the same way and stable: equal elements
// keep their order, those of a first. Inputs that are not sorted are not detected, and then the
// result is unspecified (chunks may disagree on where they start: elements may be lost or
// repeated). Deterministic: the same result on every backend, thread count and tuning.
//
// This is the family's front: it checks the arguments, finds the device and looks the tuning up
// once (the map hook's: the merge is a loop over chunks of the output), then runs the one body
// (detail/merge_common.hpp, merge path) over chunks of `cpu_grain` outputs on the cpu half or of
// `items_per_thread` outputs per work-item on a GPU-style device. No precompiled entries yet.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/algorithms/detail/merge_common.hpp"
#include "ak/algorithms/elementwise.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/algorithms/select.hpp"
#include "ak/backends/cpu/parallel.hpp"

namespace ak {

// Options of merge and merge_by_key: the order the inputs are sorted in (as sort_options), and
// the tuning of the loop over output chunks.
template <class By = identity, class Lt = isless>
struct merge_options {
  By by{};
  Lt lt{};
  bool rev = false;
  map_tuning tuning{};  // cpu_grain: outputs per cpu task; items_per_thread: per GPU work-item
};

// merge_by_key's result: the merged keys and the values beside them.
template <class K, class V>
using merge_by_key_result = unique_by_key_result<K, V>;

namespace detail {

// The merge of the dense a, b (and their values where vout is set) into out, on dev: body's
// chunks sized from the tuning.
template <class K, class V, class Less>
void merge_run(const device& dev, const map_tuning& t, merge_chunks<K, V, Less> body) {
  const std::int64_t n = body.na + body.nb;
  if (n == 0) return;
  if (on_gpu(dev)) {
    body.chunk = t.items_per_thread;  // one chunk of outputs per work-item
    gpu::detail::foreachindex_run(dev, {.block_size = t.block_size, .items_per_thread = 1},
                                  (n + body.chunk - 1) / body.chunk, body);
    return;
  }
  body.chunk = t.cpu_grain;
  cpu::parallel_for((n + body.chunk - 1) / body.chunk, 1, body);
}

// The checks and the call: keys ka, kb (and values va, vb when With_values), into new arrays.
template <bool With_values, class K, class V, class By, class Lt>
merge_by_key_result<K, V> merge_front(view<const K> ka, view<const V> va, view<const K> kb,
                                      view<const V> vb, const merge_options<By, Lt>& o,
                                      const char* function) {
  const device dev = algorithm_device(function, With_values ? "keys_a" : "a", ka.memory());
  check_same_device(function, With_values ? "keys_b" : "b", dev, kb.memory());
  if (ka.rank() != 1) throw_rank(function, With_values ? "keys_a" : "a", "a 1-d array", ka.rank());
  if (kb.rank() != 1) throw_rank(function, With_values ? "keys_b" : "b", "a 1-d array", kb.rank());
  if constexpr (With_values) {
    check_same_device(function, "values_a", dev, va.memory());
    check_same_device(function, "values_b", dev, vb.memory());
    if (va.shape() != ka.shape())
      throw_shape_mismatch(function, "values_a", ka.shape(), va.shape());
    if (vb.shape() != kb.shape())
      throw_shape_mismatch(function, "values_b", kb.shape(), vb.shape());
  }
  if (on_gpu(dev)) check_gpu_types<K, V>(function, dev);
  const std::int64_t n = ka.size() + kb.size();
  const map_tuning t = tuning(map_hook{}, dev, tuning_dtype<K>(), o.tuning, {n});
  const memory_space& memory = on_gpu(dev) ? dev.memory() : host_memory();
  merge_by_key_result<K, V> r{array<K>(shape{n}, memory),
                              array<V>(shape{With_values ? n : 0}, memory)};
  auto run = [&](const auto& da, const auto& db, const V* pva, const V* pvb) {
    merge_run(dev, t,
              merge_chunks<K, V, sort_less<By, Lt>>{da.data(), ka.size(), db.data(), kb.size(), pva,
                                                    pvb, r.keys.data(),
                                                    With_values ? r.values.data() : nullptr, 0,
                                                    sort_less<By, Lt>{o.by, o.lt, o.rev}});
  };
  auto with_dense = [&](auto dense_of) {
    const auto da = dense_of(ka), db = dense_of(kb);
    if constexpr (With_values) {
      const auto dva = dense_of(va), dvb = dense_of(vb);
      run(da, db, dva.data(), dvb.data());
    } else {
      run(da, db, nullptr, nullptr);
    }
  };
  if (on_gpu(dev))
    with_dense([&](auto v) { return gpu_dense<typename decltype(v)::value_type>(dev, v); });
  else
    with_dense([&](auto v) { return cpu_dense<typename decltype(v)::value_type>(t.cpu_grain, v); });
  return r;
}

}  // namespace detail

// The stable merge of the sorted 1-d arrays a and b (of one element type, on one device) into a
// new 1-d array.
template <class A, class B, class By = identity, class Lt = isless>
auto merge(const A& a, const B& b, const merge_options<By, Lt>& o = {}) {
  using K = detail::element_t<const A>;
  static_assert(std::is_same_v<K, detail::element_t<const B>>,
                "ak::merge: a and b must have the same element type");
  const view<const K> none;
  return std::move(detail::merge_front<false, K, K>(detail::as_const_view(a), none,
                                                    detail::as_const_view(b), none, o, "ak::merge")
                       .keys);
}

// The stable merge of the sorted keys ka and kb, each key's value (va beside ka, vb beside kb,
// of the keys' shapes) moving with it: `.keys` and `.values`.
template <class KA, class VA, class KB, class VB, class By = identity, class Lt = isless>
auto merge_by_key(const KA& keys_a, const VA& values_a, const KB& keys_b, const VB& values_b,
                  const merge_options<By, Lt>& o = {}) {
  using K = detail::element_t<const KA>;
  using V = detail::element_t<const VA>;
  static_assert(std::is_same_v<K, detail::element_t<const KB>>,
                "ak::merge_by_key: keys_a and keys_b must have the same element type");
  static_assert(std::is_same_v<V, detail::element_t<const VB>>,
                "ak::merge_by_key: values_a and values_b must have the same element type");
  return detail::merge_front<true, K, V>(
      detail::as_const_view(keys_a), detail::as_const_view(values_a), detail::as_const_view(keys_b),
      detail::as_const_view(values_b), o, "ak::merge_by_key");
}

}  // namespace ak
