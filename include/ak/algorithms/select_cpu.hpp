// The cpu half of the selection family (the front is select.hpp): the steps the front's bodies
// are written in, on host memory, with the tuning the front resolved.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ak/algorithms/detail/select_common.hpp"
#include "ak/algorithms/elementwise_cpu.hpp"
#include "ak/backends/cpu/parallel.hpp"
#include "ak/backends/cpu/select.hpp"
#include "ak/backends/cpu/vector_loops.hpp"
#include "ak/core/array.hpp"
#include "ak/core/memory.hpp"
#include "ak/core/view.hpp"
#include "ak/runtime/hooks.hpp"

namespace ak::detail {

// Flags the cpu half computes with the vector loops (cpu/vector_loops.hpp), a range at a time as
// bits (the selection's passes read a flag's bits where it has them), where g++ does not
// vectorise the flag on the x86-64 baseline: the run heads of the default equality, and
// nonzero elements (findall without a predicate, copy_if's flags), for numbers and bool (whose
// bytes are 0 or 1); partialsort's threshold test, for numbers.
template <class T>
inline constexpr bool vector_flag_type_v = cpu::vector_loop_type_v<T> || std::is_same_v<T, bool>;

template <class T>
const auto* vector_elements(const T* p) {
  if constexpr (std::is_same_v<T, bool>)
    return reinterpret_cast<const std::uint8_t*>(p);
  else
    return p;
}

template <class T>
struct vector_run_head_flag : run_head_flag<T, isequal> {
  std::int64_t bits(std::int64_t b, std::int64_t e, std::uint64_t* words) const {
    return cpu::run_head_bits(vector_elements(this->in), b, e, words);
  }
};

// Flag (pred_flag with truthy, or array_flag) whose elements are `elements`.
template <class Flag, class T>
struct vector_nonzero_flag : Flag {
  const T* elements;
  std::int64_t bits(std::int64_t b, std::int64_t e, std::uint64_t* words) const {
    return cpu::nonzero_bits(vector_elements(elements), b, e, words);
  }
};

// partialsort's threshold (not_after), as bits by the vector loops where a plain comparison
// says it, else one flag at a time.
template <class T, class Less>
struct vector_threshold_flag : pred_flag<T, not_after<T, Less>> {
  std::int64_t bits(std::int64_t b, std::int64_t e, std::uint64_t* words) const {
    const not_after<T, Less>& p = this->pred;
    if (p.plain == 0)
      return cpu::bits_one_by_one(static_cast<const pred_flag<T, not_after<T, Less>>&>(*this), b, e,
                                  words);
    return cpu::threshold_bits(this->in, b, e, p.t, p.plain < 0, words);
  }
};

// The flag the cpu half runs for a flag of the front: one of the above where it applies, else
// the flag itself.
template <class Flag>
Flag cpu_flag(const Flag& f) {
  return f;
}
// clang-format off
template <class T>
  requires vector_flag_type_v<T>
vector_run_head_flag<T> cpu_flag(const run_head_flag<T, isequal>& f) {
  return {f};
}
template <class T>
  requires vector_flag_type_v<T>
vector_nonzero_flag<pred_flag<T, truthy>, T> cpu_flag(const pred_flag<T, truthy>& f) {
  return {f, f.in};
}
template <class F>
  requires vector_flag_type_v<F>
vector_nonzero_flag<array_flag<F>, F> cpu_flag(const array_flag<F>& f) {
  return {f, f.flags};
}
template <class T, class Less>
  requires cpu::vector_loop_type_v<T>
vector_threshold_flag<T, Less> cpu_flag(const pred_flag<T, not_after<T, Less>>& f) {
  // clang-format on
  return {f};
}

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
    return cpu::select_chained(n, cpu_flag(flag), make_writer(n), t_.cpu_grain);
  }
  // Two passes: the count, then the writes.
  template <class Flag>
  cpu::select_plan count(std::int64_t n, const Flag& flag) const {
    return cpu::select_count(n, cpu_flag(flag), t_.cpu_grain);
  }
  template <class Flag, class Write>
  void write(const cpu::select_plan& p, std::int64_t, const Flag& flag, const Write& w) const {
    cpu::select_write(p, cpu_flag(flag), w);
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
