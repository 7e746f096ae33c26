// Merge sort of segments on GPU-style devices: each segment of an array sorted on its own, stably,
// by any comparator, with values or without (kernels/segmented_sort.hpp has the design); the
// merge sort of a whole array (sort.hpp) is the case of one segment. One launch
// sorts every window of block x ipt elements in local memory, which finishes the segments that
// fit a window; segments that cross windows take ceil(log2(windows touched)) merge passes more,
// each of them a launch over the array in which the other segments cost a look-up.
#pragma once

#include <algorithm>
#include <cstdint>

#include "ak/gpu/algorithms.hpp"
#include "ak/gpu/kernels/segmented_sort.hpp"

namespace ak::gpu::detail {

// Sorts each segment of keys[0, n) (and values with its keys, when not null) stably by lt, with a
// resolved tuning `t`: windows of t.block_size work-items (fitted to the device) x
// t.merge_tile_size / block elements each, halved until two copies of a window's keys and values
// fit local memory (or, for elements too large for a sub-group's window there, windows of
// t.merge_tile_size / block elements insertion-sorted in global memory by one work-item each).
template <class K, class V, class Seg, class Lt>
void segmented_sort_run(const ak::device& dev, K* keys, V* values, std::int64_t n, const Seg& seg,
                        Lt lt, const sort_tuning& t) {
  if (n < 2) return;
  const std::size_t per_element = 2 * (sizeof(K) + (values ? sizeof(V) : 0));
  const auto local_limit = static_cast<std::size_t>(dev.info().local_memory_bytes);
  std::int64_t block = fit_block(dev, t.block_size);
  const std::int64_t run = std::clamp<std::int64_t>(t.merge_tile_size / block, 1, 32);
  std::int64_t ipt = run;
  auto bytes = [&] {
    return static_cast<std::size_t>(block * ipt) * per_element + (values ? alignof(V) : 0);
  };
  while (bytes() > local_limit && ipt > 1) ipt /= 2;
  while (bytes() > local_limit && block > dev.info().sub_group_width)
    block = fit_block(dev, block / 2);
  block = block_for(dev, block, n, ipt);
  // The element-wise launches (one work-item a window or a merge pass's ipt outputs) take the
  // window's block, which may be narrower than map.block_size's range (a sub-group of 16).
  map_tuning loops = loop_tuning(t);
  loops.block_size = block;
  loops.items_per_thread = 1;
  std::int64_t tile = block * ipt;
  if (bytes() <= local_limit) {
    launch(dev,
           {kernel::range_1d(cdiv(n, tile) * block, block), bytes(),
            "ak::gpu::segmented_sort_windows"},
           kernels::window_sort_kernel<K, V, Seg, Lt>{keys, values, n, seg, static_cast<int>(ipt),
                                                      lt});
  } else {
    // Elements too large for a window of one sub-group in local memory: windows of `run`
    // elements, each insertion-sorted in place by one work-item (the merge passes' work-items
    // take a window each).
    tile = ipt = run;
    foreachindex_run(dev, loops, cdiv(n, tile),
                     kernels::window_insertion_body<K, V, Seg, Lt>{keys, values, n, seg, tile, lt});
  }
  const std::int64_t windows = cdiv(n, tile);
  if (windows == 1) return;

  // The merge passes that the segment of the most pieces needs (a reduction over the segments,
  // where there are several).
  std::int64_t most = windows;
  if (seg.count > 1) {
    device_buffer<std::int64_t> m(dev, 1);
    reduce_into(
        dev,
        ak::tuning(reduce_hook{}, dev, tuning_dtype<std::int64_t>(), reduce_tuning{}, {seg.count}),
        kernels::load_segment_pieces<Seg>{seg, tile}, seg.count, ak::maximum_op{}, std::int64_t{0},
        m.data());
    most = read_one(dev, m.data());
  }
  const int passes = kernels::piece_passes(most);
  if (passes == 0) return;
  device_buffer<K> keys_tmp(dev, n);
  device_buffer<V> values_tmp(dev, values ? n : 0);
  K* const k[2] = {keys, keys_tmp.data()};
  V* const v[2] = {values, values ? values_tmp.data() : nullptr};
  auto pass = [&](int from, int p) {
    foreachindex_run(
        dev, loops, cdiv(n, ipt),
        kernels::piece_merge_body<K, V, Seg, Lt>{k[from], k[1 - from], v[from], v[1 - from], n, seg,
                                                 tile, static_cast<int>(ipt), p, lt});
  };
  for (int p = 0; p < passes; ++p) pass(p % 2, p);
  pass(1, -1);  // the segments whose last pass wrote the temporaries
}

}  // namespace ak::gpu::detail
