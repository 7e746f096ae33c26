// The keyed and segmented family's segmented scan, its GPU half (keyed_gpu.hpp). Every element
// becomes an item (its value converted to the result type, and whether it starts a segment);
// items are scanned by segmented_op, which restarts at each segment's first item and counts the
// segments begun so far; a finisher gets each element's scanned item (and the one before it) and
// writes the results. reduce_by_key, accumulate_by_key and the reductions and scans over
// ak::offsets are all this one scan there, with segment starts found from runs of equal keys or
// from offsets, and a finisher each. Written over plain pointers, in the kernel language: the
// GPU half stores the items, scans them with ak::gpu's scan and finishes in a loop. (The cpu half
// folds runs and segments in passes of its own: cpu/runs.hpp.)
#pragma once

#include <cstdint>

#include "ak/kernel/config.hpp"

namespace ak::detail {

// An element of a segmented scan: its value (combined with those before it in its segment, once
// scanned), how many segments have begun up to it (so that a scanned item knows its segment's
// rank: heads - 1), and flags: `head` (the first element of a segment) and `none` (the scan's
// identity, which the GPU scan seeds its tiles with: no element at all).
template <class R>
struct segment_item {
  R value;
  std::int64_t heads;
  std::uint8_t flags;
  static constexpr std::uint8_t head = 1, none = 2;
};

// The segmented scan's operator: a op b is b's value where b starts a segment, else op(a, b)'s;
// the segment counts add. Associative when op is; `none` is its identity, so any op may be
// scanned on a GPU-style device, neutral element or not.
template <class Op>
struct segmented_op {
  Op op;
  template <class R>
  AK_KERNEL_FN segment_item<R> operator()(const segment_item<R>& a,
                                          const segment_item<R>& b) const {
    using item = segment_item<R>;
    if (a.flags & item::none) return b;
    if (b.flags & item::none) return a;
    if (b.flags & item::head) return {b.value, a.heads + b.heads, b.flags};
    return {static_cast<R>(op(a.value, b.value)), a.heads + b.heads, a.flags};
  }
};

// Element i's item: {values[i] as R, head(i)}.
template <class V, class R, class Head>
struct item_load {
  const V* values;
  Head head;
  AK_KERNEL_FN segment_item<R> operator()(std::int64_t i) const {
    const bool h = head(i);
    return {static_cast<R>(values[i]), h ? 1 : 0, h ? segment_item<R>::head : std::uint8_t(0)};
  }
};

// Whether element i starts a segment, from its scanned item and the one before it (null for the
// first element): the segment count grew.
template <class R>
AK_KERNEL_FN bool starts_segment(const segment_item<R>* before, const segment_item<R>& after) {
  return before == nullptr || after.heads != before->heads;
}

// ---- finishers: finish(i, before, after) with element i's scanned item and the one before ----

// accumulate_by_key and the segmented accumulate. Inclusive: the item's value, op(init, value)
// with an init. Exclusive: init for a segment's first element, else op(init, the value before)
// (the front makes sure there is an init: the caller's or op's neutral element).
template <class R, class Op>
struct scan_finish {
  R* out;
  Op op;
  R init;
  bool has_init;
  bool inclusive;
  AK_KERNEL_FN void operator()(std::int64_t i, const segment_item<R>* before,
                               const segment_item<R>& after) const {
    if (inclusive)
      out[i] = has_init ? static_cast<R>(op(init, after.value)) : after.value;
    else
      out[i] = starts_segment(before, after) ? init : static_cast<R>(op(init, before->value));
  }
};

// reduce_by_key: run r = heads - 1 gets its first key where it starts and its value where it
// ends (the next element starts a run, or there is none), op(init, value) with an init.
template <class K, class R, class Op, class Head>
struct run_finish {
  const K* keys;
  Head head;
  std::int64_t n;
  K* keys_out;
  R* values_out;
  Op op;
  R init;
  bool has_init;
  AK_KERNEL_FN void operator()(std::int64_t i, const segment_item<R>* before,
                               const segment_item<R>& after) const {
    if (starts_segment(before, after)) keys_out[after.heads - 1] = keys[i];
    if (i + 1 == n || head(i + 1))
      values_out[after.heads - 1] = has_init ? static_cast<R>(op(init, after.value)) : after.value;
  }
};

// The segmented reduce: where a segment ends (the next element starts one, or there is none),
// out[s] = op(init, value) for the segment s that holds element i (found among the m + 1 offsets:
// the last s with offsets[s] <= i; the empty segments before it end at the same offset). Empty
// segments are given init by empty_segments.
template <class R, class Op>
struct segment_finish {
  const std::int64_t* offsets;
  std::int64_t m;
  const std::uint8_t* heads;
  std::int64_t n;
  R* out;
  Op op;
  R init;
  AK_KERNEL_FN void operator()(std::int64_t i, const segment_item<R>*,
                               const segment_item<R>& after) const {
    if (i + 1 < n && !heads[i + 1]) return;
    std::int64_t lo = 0, hi = m;  // the first s with offsets[s + 1] > i
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (offsets[mid + 1] > i)
        hi = mid;
      else
        lo = mid + 1;
    }
    out[lo] = static_cast<R>(op(init, after.value));
  }
};

// out[s] = init for each empty segment s (the body of a loop over the m segments).
template <class R>
struct empty_segments {
  const std::int64_t* offsets;
  R* out;
  R init;
  AK_KERNEL_FN void operator()(std::int64_t s) const {
    if (offsets[s] == offsets[s + 1]) out[s] = init;
  }
};

// ---- the GPU half's loops around its scan of stored items ------------------------------------

// items[i] = load(i).
template <class R, class Load>
struct store_items {
  Load load;
  segment_item<R>* items;
  AK_KERNEL_FN void operator()(std::int64_t i) const { items[i] = load(i); }
};

// finish(i, before, after) from the scanned items.
template <class R, class Finish>
struct finish_items {
  const segment_item<R>* items;
  Finish finish;
  AK_KERNEL_FN void operator()(std::int64_t i) const {
    finish(i, i > 0 ? items + (i - 1) : nullptr, items[i]);
  }
};

// ---- segment starts from offsets --------------------------------------------------------------

// The first index of each segment given by offsets (o[s] < o[s + 1]; empty segments start
// nothing): heads[o[s]] = 1 (the body of a loop over the m segments, after one that zeroes heads).
struct mark_heads {
  const std::int64_t* offsets;
  std::uint8_t* heads;
  AK_KERNEL_FN void operator()(std::int64_t s) const {
    if (offsets[s] < offsets[s + 1]) heads[offsets[s]] = 1;
  }
};

}  // namespace ak::detail
