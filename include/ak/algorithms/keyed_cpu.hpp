// The cpu half of the keyed and segmented family (the front is keyed.hpp): the selection half's
// steps (select_cpu.hpp: loops, counts, packed views) and the segmented scan in one pass, with the
// tunings the front resolved.
#pragma once

#include <cstdint>
#include <optional>

#include "ak/algorithms/detail/keyed_common.hpp"
#include "ak/algorithms/select_cpu.hpp"
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
  // Room for the runs of n elements that head starts: one per element (the scan tells how many).
  template <class Head>
  std::int64_t run_bound(std::int64_t n, const Head&) const {
    return n;
  }

 private:
  scan_tuning scan_;
};

}  // namespace ak::detail
