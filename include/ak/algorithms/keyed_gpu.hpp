// The GPU half of the keyed and segmented family (the front is keyed.hpp): the selection half's
// steps (select_gpu.hpp) and the segmented scan as ak::gpu's device-wide scan of stored items,
// with the scan the front resolved: reduce_by_key, accumulate_by_key and the reductions and scans
// over offsets are all that scan, with a finisher each (detail/keyed_common.hpp).
#pragma once

#include <cstdint>

#include "ak/algorithms/detail/keyed_common.hpp"
#include "ak/algorithms/detail/segment_heads.hpp"
#include "ak/algorithms/select_gpu.hpp"

namespace ak::detail {

class gpu_keyed : public gpu_selection {
 public:
  gpu_keyed(const device& dev, const select_tuning& loops, const resolved_scan& scan)
      : gpu_selection(dev, loops), dev_(dev), scan_(scan) {}

  // Whether the scan of R's items fits the device (local memory), checked before any write.
  template <class R, class Op>
  void check_scan() const {
    gpu::detail::fit_scan<segment_item<R>, segmented_op<Op>>(dev_, scan_);
  }
  // The segmented scan of load(i) for i in [0, n): the items stored in a device buffer, scanned
  // in place by ak::gpu's scan (seeded with the item that stands for no element), then finish
  // called for each element in a loop. Returns how many segments began (the last item's count,
  // one copy to the host).
  template <class R, class Load, class Op, class Finish>
  std::int64_t segmented_scan(std::int64_t n, const Load& load, const segmented_op<Op>& op,
                              const Finish& finish) const {
    if (n == 0) return 0;
    gpu::device_buffer<segment_item<R>> items(dev_, n);
    for_each(n, store_items<R, Load>{load, items.data()});
    gpu::detail::accumulate_run(dev_, scan_, items.data(), items.data(), n, op,
                                segment_item<R>{R{}, 0, segment_item<R>::none}, true);
    for_each(n, finish_items<R, Finish>{items.data(), finish});
    return gpu::detail::read_one(dev_, items.data() + (n - 1)).heads;
  }
  // reduce_by_key's runs: the segmented scan, each run's first key stored where it starts and its
  // value, op(init, value) with an init, where it ends (run_finish). Returns the number of runs.
  template <class R, class K, class V, class Head, class Op>
  std::int64_t reduce_runs(std::int64_t n, const K* keys, const V* values, const Head& head,
                           const Op& op, const R& init, bool has_init, K* keys_out,
                           R* values_out) const {
    return segmented_scan<R>(
        n, item_load<V, R, Head>{values, head}, segmented_op<Op>{op},
        run_finish<K, R, Op, Head>{keys, head, n, keys_out, values_out, op, init, has_init});
  }
  // accumulate_by_key's and the scans over offsets' running values: the segmented scan, each
  // element's result written by scan_finish.
  template <class R, class V, class Head, class Op>
  void accumulate_runs(std::int64_t n, const V* values, const Head& head, const Op& op,
                       const R& init, bool has_init, bool inclusive, R* out) const {
    segmented_scan<R>(n, item_load<V, R, Head>{values, head}, segmented_op<Op>{op},
                      scan_finish<R, Op>{out, op, init, has_init, inclusive});
  }
  // The reductions over the m segments of the offsets o: the segmented scan over the segments'
  // head flags, out[s] = op(init, value) stored where segment s ends (segment_finish), init for
  // an empty one.
  template <class R, class V, class Op>
  void reduce_segments(const std::int64_t* o, std::int64_t m, const V* values, std::int64_t n,
                       const Op& op, const R& init, R* out) const {
    const array<std::uint8_t> heads = segment_heads(*this, o, m, n);
    for_each(m, empty_segments<R>{o, out, init});
    segmented_scan<R>(n, item_load<V, R, array_flag<std::uint8_t>>{values, {heads.data()}},
                      segmented_op<Op>{op},
                      segment_finish<R, Op>{o, m, heads.data(), n, out, op, init});
  }
  // The number of runs of n elements that head starts (a count on the device), so that the
  // outputs are allocated at their size.
  template <class Head>
  std::int64_t run_bound(std::int64_t n, const Head& head) const {
    return count(n, head).total;
  }

 private:
  device dev_;
  resolved_scan scan_;
};

}  // namespace ak::detail
