// Merge path, written once for host and device code: where a chunk of the stable merge of two
// sorted ranges begins, and the merge of that chunk. The cpu merge sort, the GPU merge sort's
// passes and ak::merge split their outputs with it.
#pragma once

#include <cstdint>

#include "ak/kernel/config.hpp"

namespace ak::kernel {

// How many of the first d outputs of the stable merge of a[0, na) and b[0, nb) (both sorted by
// less; ties take a's elements first) come from a: the smallest i with b[d - i - 1] before
// a[i], found by binary search along the diagonal d. a and b are anything indexable.
template <class A, class B, class Less>
AK_KERNEL_FN std::int64_t merge_corank(const A& a, std::int64_t na, const B& b, std::int64_t nb,
                                       std::int64_t d, const Less& less) {
  std::int64_t lo = d > nb ? d - nb : 0, hi = d < na ? d : na;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (less(b[d - mid - 1], a[mid]))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

// Outputs [d0, d1) of that merge: emit(k, from_a, index) for each output k, from a[index] when
// from_a, else from b[index]. While both ranges have elements left, each step is free of
// data-dependent branches (the comparison moves one index or the other by adding it), so random
// keys cost no mispredicted branch; the rest of the chunk comes from one range.
template <class A, class B, class Less, class Emit>
AK_KERNEL_FN void merge_range(const A& a, std::int64_t na, const B& b, std::int64_t nb,
                              std::int64_t d0, std::int64_t d1, const Less& less,
                              const Emit& emit) {
  std::int64_t i = merge_corank(a, na, b, nb, d0, less), j = d0 - i, k = d0;
  // Both have elements for the next min(na - i, nb - j) outputs at least.
  for (std::int64_t safe = d1 - k; safe > 0; safe = d1 - k) {
    if (na - i < safe) safe = na - i;
    if (nb - j < safe) safe = nb - j;
    if (safe <= 0) break;
    for (const std::int64_t end = k + safe; k < end; ++k) {
      const bool from_a = !less(b[j], a[i]);
      emit(k, from_a, from_a ? i : j);
      i += from_a;
      j += !from_a;
    }
  }
  for (; k < d1 && i < na; ++k) emit(k, true, i++);
  for (; k < d1; ++k) emit(k, false, j++);
}

}  // namespace ak::kernel
