// Option structs: AcceleratedKernels.jl's keyword arguments as designated initialisers.
//
//   ak::sort_inplace(v, {.rev = true});
//   ak::reduce(a, ak::plus{}, ak::dims{1}, {.init = 0.0});
//   ak::sort_inplace(v, ak::sort_options{.by = key_of, .alg = ak::merge_sort{}});
//
// Designated initialisers must follow the order in which the fields are declared here.
// Every tuning field a call leaves unset comes from the tuning registry (docs/tuning.md).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>

#include "ak/core/operators.hpp"
#include "ak/core/shape.hpp"
#include "ak/kernel/config.hpp"
#include "ak/runtime/algorithm_values.hpp"
#include "ak/runtime/hooks.hpp"

namespace ak {

// The dimensions a reduction runs along: ak::dims{0}, ak::dims{0, 2}. Order and repeats do not
// matter; each must name a dimension of the array.
class dims {
 public:
  dims(std::initializer_list<std::int64_t> list) : count_(list.size()) {
    if (count_ > max_rank) count_ = max_rank + 1;  // too many: reported by the algorithm
    std::copy_n(list.begin(), std::min(list.size(), max_rank), values_.begin());
  }
  dims(std::int64_t dim) : count_(1) { values_[0] = dim; }  // NOLINT: ak::dims d = 1 reads well
  std::size_t size() const noexcept { return count_; }
  std::span<const std::int64_t> values() const noexcept {
    return {values_.data(), std::min(count_, max_rank)};
  }

 private:
  std::array<std::int64_t, max_rank> values_{};
  std::size_t count_;
};

// Caller-provided scratch memory, reused across calls (AK's `temp`). Each algorithm that takes
// it says how many bytes it needs (ak::sort_temp_bytes, ...); too little is an argument_error.
// Its contents on return are unspecified.
using temp_storage = std::span<std::byte>;

// foreachindex, foraxes, map, broadcast, take, reverse.
struct loop_options {
  map_tuning tuning{};  // per-call tuning: cpu_grain (elements per task at least)
};

// reduce and mapreduce. Init is the result type.
//  - init: combined once with the reduction of the elements, op(init, r); the result for no
//    elements. May be omitted when op has a known neutral element (ak::neutral_element).
//  - neutral: an element with op(neutral, x) == x, used to seed partial results (vectorised
//    accumulators). Defaults to the operator's known neutral element; a custom operator without
//    one is reduced from each part's first element.
template <class Init>
struct reduce_options {
  std::optional<Init> init{};
  std::optional<Init> neutral{};
  reduce_tuning tuning{};  // per-call tuning: cpu_tasks, cpu_grain
};

// accumulate (scan). Init is the result element type.
//  - inclusive: out[i] = init op x[0] op ... op x[i]; exclusive: out[i] = init op x[0] op ...
//    op x[i-1], so out[0] = init. init may be omitted when op has a known neutral element.
//  - dim: the dimension to scan along; may be omitted for 1-d arrays.
template <class Init>
struct accumulate_options {
  std::optional<Init> init{};
  bool inclusive = true;
  std::optional<std::int64_t> dim{};
  scan_tuning tuning{};  // per-call tuning: cpu_grain (elements per tile)
  temp_storage temp{};   // at least ak::accumulate_temp_bytes(...) bytes, or empty
};

// sort, sort_inplace, sortperm, sort_by_key. Elements are ordered by lt(by(a), by(b)).
//  - by: a key function (identity by default); lt: a strict weak order on keys (ak::isless, the
//    float order of DESIGN.md, by default; with any other comparator the order is unspecified
//    and only the cpu sorts keep every element, docs/algorithms.md); rev: descending (equal keys
//    keep their order when stable).
//  - stable: equal keys keep their input order (the default).
//  - alg: ak::auto_alg{} (the tuning chooses), ak::radix_sort{} (numeric keys, the element or
//    what `by` returns, with the default lt), ak::merge_sort{} (stable, any order),
//    ak::sample_sort{} (any order; stable on cpu). An algorithm that cannot honour the options
//    is an error, never replaced.
//  - temp: at least ak::sort_temp_bytes(...) bytes, or empty.
//  - dim: the dimension to sort along (sort, sort_inplace, sortperm): each slice along it is
//    sorted on its own (ak::sort(m, {.dim = 1}) sorts each row of a matrix); may be omitted for
//    1-d arrays.
template <class By = identity, class Lt = isless>
struct sort_options {
  By by{};
  Lt lt{};
  bool rev = false;
  bool stable = true;
  sort_alg alg = auto_alg{};
  temp_storage temp{};
  std::optional<std::int64_t> dim{};
};

// searchsortedfirst and searchsortedlast: the sorted array must be ordered by lt(by(.), by(.))
// (descending when rev).
template <class By = identity, class Lt = isless>
struct search_options {
  By by{};
  Lt lt{};
  bool rev = false;
  search_tuning tuning{};  // per-call tuning: cpu_grain (queries per task at least)
};

namespace detail {

// The strict weak order a sort or search uses: lt(by(a), by(b)), reversed when rev. The cpu
// halves hold by and lt by reference (sort_less<const By&, const Lt&>); a kernel cannot hold
// references to host objects, so the GPU halves hold them by value (sort_less<By, Lt>).
template <class By, class Lt>
struct sort_less {
  By by;
  Lt lt;
  bool rev;
  template <class A, class B>
  AK_KERNEL_FN bool operator()(const A& a, const B& b) const {
    return rev ? static_cast<bool>(lt(by(b), by(a))) : static_cast<bool>(lt(by(a), by(b)));
  }
};

}  // namespace detail

}  // namespace ak
