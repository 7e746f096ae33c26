// The cpu half of the keyed and segmented family (the front is keyed.hpp): the selection half's
// steps (select_cpu.hpp: loops, counts, packed views), the passes over runs (cpu/runs.hpp:
// reduce_by_key, and the running values of accumulate_by_key and the scans over offsets), and
// the segmented scan in one pass (the reductions over offsets), with the tunings the front
// resolved.
#pragma once

#include <cstdint>
#include <optional>

#include "ak/algorithms/detail/keyed_common.hpp"
#include "ak/algorithms/select_cpu.hpp"
#include "ak/backends/cpu/runs.hpp"
#include "ak/backends/cpu/scan.hpp"

namespace ak::detail {

class cpu_keyed : public cpu_selection {
 public:
  cpu_keyed(const select_tuning& loops, const scan_tuning& scan)
      : cpu_selection(loops), scan_(scan) {}

  template <class R, class Op>
  void check_scan() const {}  // any tile fits host memory

  // The segmented scan of load(i) for i in [0, n), each element's result handed to finish: one
  // pass over chained tiles, no items stored (cpu::scan_loaded: the same bits on any number of
  // threads). Returns how many segments began.
  template <class R, class Load, class Op, class Finish>
  std::int64_t segmented_scan(std::int64_t n, const Load& load, const segmented_op<Op>& op,
                              const Finish& finish) const {
    const auto all = cpu::scan_loaded<segment_item<R>>(n, load, op, finish, scan_.cpu_grain);
    return all ? all->heads : 0;
  }
  // reduce_by_key's runs: each run's first key and its values folded (cpu::reduce_runs: one pass
  // over the scan's tiles, no segmented items). Returns the number of runs.
  template <class R, class K, class V, class Head, class Op>
  std::int64_t reduce_runs(std::int64_t n, const K* keys, const V* values, const Head& head,
                           const Op& op, const R& init, bool has_init, K* keys_out,
                           R* values_out) const {
    return cpu::reduce_runs<R>(n, keys, values, head, op,
                               has_init ? std::optional<R>(init) : std::nullopt, keys_out,
                               values_out, scan_.cpu_grain);
  }
  // accumulate_by_key's and the scans over offsets' running values (cpu::accumulate_runs; an
  // exclusive scan starts each run from init, given or neutral).
  template <class R, class V, class Head, class Op>
  void accumulate_runs(std::int64_t n, const V* values, const Head& head, const Op& op,
                       const R& init, bool has_init, bool inclusive, R* out) const {
    cpu::accumulate_runs<R>(n, values, head, op,
                            has_init || !inclusive ? std::optional<R>(init) : std::nullopt,
                            inclusive, out, scan_.cpu_grain);
  }
  // Room for the runs of n elements that head starts: one per element (the pass tells how many).
  template <class Head>
  std::int64_t run_bound(std::int64_t n, const Head&) const {
    return n;
  }

 private:
  scan_tuning scan_;
};

}  // namespace ak::detail
