// The cpu half of the selection family (the front is select.hpp): the steps the front's bodies
// are written in, on host memory, with the tuning the front resolved.
#pragma once

#include <cstdint>

#include "ak/algorithms/elementwise_cpu.hpp"
#include "ak/backends/cpu/parallel.hpp"
#include "ak/backends/cpu/select.hpp"
#include "ak/core/array.hpp"
#include "ak/core/memory.hpp"
#include "ak/core/view.hpp"
#include "ak/runtime/hooks.hpp"

namespace ak::detail {

class cpu_selection {
 public:
  explicit cpu_selection(const select_tuning& t) : t_(t) {}

  const memory_space& memory() const { return host_memory(); }

  // The elements of a view, row-major and contiguous.
  template <class T>
  using dense = cpu_dense<T>;
  template <class T>
  dense<T> dense_of(view<const T> v) const {
    return dense<T>(t_.cpu_grain, v);
  }

  // One pass: make_writer(n) gives the writer of outputs with room for n selected indices;
  // returns how many were selected (the front shrinks the outputs to that).
  template <class Flag, class MakeWriter>
  std::int64_t select(std::int64_t n, const Flag& flag, const MakeWriter& make_writer) const {
    return cpu::select_chained(n, flag, make_writer(n), t_.cpu_grain);
  }
  // Two passes: the count, then the writes.
  template <class Flag>
  cpu::select_plan count(std::int64_t n, const Flag& flag) const {
    return cpu::select_count(n, flag, t_.cpu_grain);
  }
  template <class Flag, class Write>
  void write(const cpu::select_plan& p, std::int64_t, const Flag& flag, const Write& w) const {
    cpu::select_write(p, flag, w);
  }
  // body(i) for every i in [0, n).
  template <class Body>
  void for_each(std::int64_t n, const Body& body) const {
    cpu::parallel_for(n, t_.cpu_grain, body);
  }
  // dst = src, element-wise over their (equal) shapes, any strides.
  template <class T>
  void copy_into(view<T> dst, view<const T> src) const {
    cpu_copy_into(loop_tuning(t_), dst, src);
  }

 private:
  select_tuning t_;
};

}  // namespace ak::detail
