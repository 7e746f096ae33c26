// The cpu half of the keyed and segmented family (the front is keyed.hpp): the selection half's
// steps (select_cpu.hpp: loops, counts, packed views) and the passes over runs and segments
// (cpu/runs.hpp: reduce_by_key, the running values of accumulate_by_key and the scans over
// offsets, and the reductions over offsets), with the tunings the front resolved.
#pragma once

#include <cstdint>
#include <optional>

#include "ak/algorithms/select_cpu.hpp"
#include "ak/backends/cpu/runs.hpp"

namespace ak::detail {

class cpu_keyed : public cpu_selection {
 public:
  cpu_keyed(const select_tuning& loops, const scan_tuning& scan)
      : cpu_selection(loops), scan_(scan) {}

  template <class R, class Op>
  void check_scan() const {}  // any tile fits host memory

  // reduce_by_key's runs: each run's first key and its values folded (cpu::reduce_runs: one pass
  // over the scan's tiles, no segmented items; the run heads as bits where cpu_flag gives them).
  // Returns the number of runs.
  template <class R, class K, class V, class Head, class Op>
  std::int64_t reduce_runs(std::int64_t n, const K* keys, const V* values, const Head& head,
                           const Op& op, const R& init, bool has_init, K* keys_out,
                           R* values_out) const {
    return cpu::reduce_runs<R>(n, keys, values, cpu_flag(head), op,
                               has_init ? std::optional<R>(init) : std::nullopt, keys_out,
                               values_out, scan_.cpu_grain);
  }
  // accumulate_by_key's and the scans over offsets' running values (cpu::accumulate_runs; an
  // exclusive scan starts each run from init, given or neutral; the heads as in reduce_runs).
  template <class R, class V, class Head, class Op>
  void accumulate_runs(std::int64_t n, const V* values, const Head& head, const Op& op,
                       const R& init, bool has_init, bool inclusive, R* out) const {
    cpu::accumulate_runs<R>(n, values, cpu_flag(head), op,
                            has_init || !inclusive ? std::optional<R>(init) : std::nullopt,
                            inclusive, out, scan_.cpu_grain);
  }
  // The reductions over the m segments of the offsets o: out[s] = the fold of segment s from init
  // (cpu::reduce_segments: each tile folds the segments that start in it).
  template <class R, class V, class Op>
  void reduce_segments(const std::int64_t* o, std::int64_t m, const V* values, std::int64_t n,
                       const Op& op, const R& init, R* out) const {
    cpu::reduce_segments<R>(o, m, values, n, op, init, out, scan_.cpu_grain);
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
