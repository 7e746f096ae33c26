// What the selection family's front shares with both halves: the flags (which indices a call
// selects) and the writers (what it writes for each index, given its rank among the selected),
// written once over plain pointers so that the cpu half calls them on host memory and the GPU
// half in kernels on device memory. A selection calls flag(i) for every index and then
// write(i, rank, flag(i)), rank being the number of selected indices before i
// (ak/backends/cpu/select.hpp, ak/gpu/select.hpp).
#pragma once

#include <cstdint>
#include <type_traits>

#include "ak/algorithms/detail/reduce_common.hpp"  // truthy, findall's default predicate
#include "ak/kernel/config.hpp"

namespace ak::detail {

// ---- flags ------------------------------------------------------------------------------------

// pred(in[i]).
template <class T, class Pred>
struct pred_flag {
  const T* in;
  Pred pred;
  AK_KERNEL_FN bool operator()(std::int64_t i) const { return static_cast<bool>(pred(in[i])); }
};

// x does not come after the threshold t: !less(t, x). In ak's default order (isless, by
// identity) on numbers, a plain comparison says the same wherever the threshold is not NaN (the
// last of the order) or a zero (-0.0 and +0.0, the only values isless orders apart from `<`):
// `plain` is then 1 (x <= t) or, with rev, -1 (!(x < t): NaN comes first). Compilers vectorise
// it and take the choice out of the loop: float32 in cache on one core, g++ -O3, 0.27 ns an
// element against 1.07 for the general test (2026-12-06); the cpu half computes the plain ones
// with the vector loops (select_cpu.hpp). partialsort's selection (partial_sort.hpp).
template <class T, class Less>
struct not_after {
  T t;
  Less less;
  int plain = 0;
  AK_KERNEL_FN bool operator()(const T& x) const {
    if constexpr (std::is_arithmetic_v<T>) {
      if (plain > 0) return x <= t;
      if (plain < 0) return !(x < t);
    }
    return !less(t, x);
  }
};

// flags[i] converted to bool (copy_if with an array of flags).
template <class F>
struct array_flag {
  const F* flags;
  AK_KERNEL_FN bool operator()(std::int64_t i) const { return static_cast<bool>(flags[i]); }
};

// The first element of each run of equal consecutive elements: i == 0 or !eq(in[i - 1], in[i]).
template <class T, class Eq>
struct run_head_flag {
  const T* in;
  Eq eq;
  AK_KERNEL_FN bool operator()(std::int64_t i) const {
    return i == 0 || !static_cast<bool>(eq(in[i - 1], in[i]));
  }
};

// ---- writers ----------------------------------------------------------------------------------
// A writer's store(i, r) writes index i's output at rank r whether or not i is selected: a
// one-pass selection whose tile still has a selected index to come (which overwrites rank r)
// stores without a branch on the flag (ak/backends/cpu/select.hpp).

// out[rank] = i for each selected i (findall).
struct write_index {
  std::int64_t* out;
  AK_KERNEL_FN void store(std::int64_t i, std::int64_t r) const { out[r] = i; }
  AK_KERNEL_FN void operator()(std::int64_t i, std::int64_t r, bool s) const {
    if (s) store(i, r);
  }
};

// out[rank * stride] = in[i] for each selected i (copy_if, select_into, unique).
template <class T>
struct write_selected {
  const T* in;
  T* out;
  std::int64_t stride;
  AK_KERNEL_FN void store(std::int64_t i, std::int64_t r) const { out[r * stride] = in[i]; }
  AK_KERNEL_FN void operator()(std::int64_t i, std::int64_t r, bool s) const {
    if (s) store(i, r);
  }
};

// Stable partition: the selected in order from out[0], the others in order after the `selected`
// of them (i - r of the others come before i). The destination is chosen by a mask, not by
// `s ? r : ...`, which g++ compiled to a branch on the flag: random flags mispredicted half of
// it, and partition of 1e8 float32 keys (half of them selected) took 305 ms on the cpu against
// copy_if's 52 (2026-12-07, 2-core VM).
template <class T>
struct write_partition {
  const T* in;
  T* out;
  std::int64_t selected;
  AK_KERNEL_FN void operator()(std::int64_t i, std::int64_t r, bool s) const {
    const std::int64_t other = selected + (i - r);
    out[other + ((r - other) & -static_cast<std::int64_t>(s))] = in[i];
  }
};

// The selected keys and their values (unique_by_key).
template <class K, class V>
struct write_selected_pair {
  const K* keys;
  const V* values;
  K* keys_out;
  V* values_out;
  AK_KERNEL_FN void store(std::int64_t i, std::int64_t r) const {
    keys_out[r] = keys[i];
    values_out[r] = values[i];
  }
  AK_KERNEL_FN void operator()(std::int64_t i, std::int64_t r, bool s) const {
    if (s) store(i, r);
  }
};

// The value of each run and where it starts (run_length_encode; run_lengths takes n as the end
// of the last run).
template <class T>
struct write_run_start {
  const T* in;
  T* values;
  std::int64_t* starts;
  AK_KERNEL_FN void store(std::int64_t i, std::int64_t r) const {
    values[r] = in[i];
    starts[r] = i;
  }
  AK_KERNEL_FN void operator()(std::int64_t i, std::int64_t r, bool s) const {
    if (s) store(i, r);
  }
};

// lengths[r] = starts[r + 1] - starts[r] (the body of a loop over the runs).
struct run_lengths {
  const std::int64_t* starts;
  std::int64_t* lengths;
  std::int64_t runs;
  std::int64_t n;
  AK_KERNEL_FN void operator()(std::int64_t r) const {
    lengths[r] = (r + 1 < runs ? starts[r + 1] : n) - starts[r];
  }
};

}  // namespace ak::detail
