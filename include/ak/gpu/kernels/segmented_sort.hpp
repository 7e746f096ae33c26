// The kernels of the GPU merge sorts of segments and of whole arrays (ak/gpu/segmented_sort.hpp,
// ak/gpu/sort.hpp), in the kernel language only.
//
// The array is cut into windows of `tile` = block x ipt elements, one group each. A group sorts
// the part of every segment that lies in its window, each part on its own, in local memory
// (window_sort_kernel): the segments that a window holds whole, however many share it, are done
// there in one read and one write. A segment that crosses window borders is left as sorted
// pieces, one per window it touches; merge passes (piece_merge_body) merge its pieces pairwise,
// 2^p pieces per run at pass p, until one run holds it: ceil(log2(pieces)) passes for that
// segment, none for the others, so the work of each segment follows its own length (CUB bins
// segments by length for the same reason).
//
// Segments are any `Seg` with `count`, start(s) for s in [0, count] (start(count) is the length of
// the array) and segment_of(i), the segment that holds element i (never an empty one):
// ak::detail::sort_segments is one, whole_array another.
#pragma once

#include <cstdint>

#include "ak/kernel/kernel.hpp"
#include "ak/kernel/merge_path.hpp"

namespace ak::gpu::kernels {

// The whole array of n elements as one segment: the merge sort's (ak/gpu/sort.hpp).
struct whole_array {
  std::int64_t n;
  std::int64_t count = 1;
  AK_KERNEL_FN std::int64_t start(std::int64_t s) const { return s == 0 ? 0 : n; }
  AK_KERNEL_FN std::int64_t segment_of(std::int64_t) const { return 0; }
};

// The windows of `tile` elements that the segment [b, e) (not empty) touches.
AK_KERNEL_INLINE std::int64_t segment_pieces(std::int64_t b, std::int64_t e, std::int64_t tile) {
  return (e - 1) / tile - b / tile + 1;
}

// The merge passes that join `pieces` pieces into one run: the smallest c with 2^c >= pieces.
AK_KERNEL_INLINE int piece_passes(std::int64_t pieces) {
  int c = 0;
  while ((std::int64_t{1} << c) < pieces) ++c;
  return c;
}

// f(x, x1, b, e) for each part [x, x1) of [o0, o1) that lies in one segment [b, e), in order.
template <class Seg, class F>
AK_KERNEL_FN void for_each_segment_part(const Seg& seg, std::int64_t o0, std::int64_t o1,
                                        const F& f) {
  for (std::int64_t x = o0; x < o1;) {
    const std::int64_t s = seg.segment_of(x);
    const std::int64_t b = seg.start(s), e = seg.start(s + 1);
    const std::int64_t x1 = e < o1 ? e : o1;
    f(x, x1, b, e);
    x = x1;
  }
}

// a[at + i]: a range that starts inside another (local arrays have no pointer arithmetic on
// every backend).
template <class A>
struct shifted {
  const A& a;
  std::int64_t at;
  AK_KERNEL_FN decltype(auto) operator[](std::int64_t i) const { return a[at + i]; }
};

// The runs [a0, a1) and [b0, b1) that a merge of width w joins for output x of a segment [sb, se),
// runs being aligned to multiples of w from `origin` and cut at the segment's ends.
struct run_pair {
  std::int64_t a0, na, b0, nb;
  AK_KERNEL_FN run_pair(std::int64_t x, std::int64_t sb, std::int64_t se, std::int64_t origin,
                        std::int64_t w) {
    const std::int64_t pair = origin + (x - origin) / (2 * w) * (2 * w);
    const std::int64_t a1 = se < pair + w ? se : pair + w;
    const std::int64_t b1 = se < pair + 2 * w ? se : pair + 2 * w;
    a0 = sb > pair ? sb : pair;
    b0 = sb > pair + w ? sb : pair + w;
    na = a1 > a0 ? a1 - a0 : 0;
    nb = b1 > b0 ? b1 - b0 : 0;
  }
};

// Sorts keys[x, x1) (and values with them when with_values) stably by lt, by insertion: the
// short runs the window sorts begin from. keys and values are anything indexable.
template <class K, class V, class Keys, class Values, class Lt>
AK_KERNEL_FN void insertion_sort_part(const Keys& keys, const Values& values, std::int64_t x,
                                      std::int64_t x1, bool with_values, const Lt& lt) {
  for (std::int64_t i = x + 1; i < x1; ++i) {
    const K k = keys[i];
    V v{};
    if (with_values) v = values[i];
    std::int64_t j = i;
    for (; j > x && lt(k, keys[j - 1]); --j) {
      keys[j] = keys[j - 1];
      if (with_values) values[j] = values[j - 1];
    }
    keys[j] = k;
    if (with_values) values[j] = v;
  }
}

// One group per window: sorts the part of each segment in its window (stably by lt, with values
// when not null) in local memory: each work-item insertion-sorts the parts of its ipt elements,
// then merge levels of doubling width, each work-item finding its ipt outputs by merge path.
// Local memory: 2 x tile keys, then (aligned) 2 x tile values when there are values.
template <class K, class V, class Seg, class Lt>
struct window_sort_kernel {
  K* keys;
  V* values;  // null: keys alone
  std::int64_t n;
  Seg seg;
  int ipt;
  Lt lt;

  // The byte offset of the values in local memory.
  AK_KERNEL_FN static std::size_t values_at(int tile) {
    const std::size_t key_bytes = 2 * static_cast<std::size_t>(tile) * sizeof(K);
    return (key_bytes + alignof(V) - 1) / alignof(V) * alignof(V);
  }

  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const int block = ctx.local_size(0), item = ctx.local_id(0);
    const int tile = block * ipt;
    const std::int64_t w0 = ctx.group_id(0) * tile;
    const int m = n - w0 < tile ? static_cast<int>(n - w0) : tile;
    const bool with_values = values != nullptr;
    const auto vt = static_cast<std::size_t>(with_values ? tile : 0);
    const std::size_t vat = with_values ? values_at(tile) : 0;
    auto k0 = kernel::local_array<K>(ctx, 0, static_cast<std::size_t>(tile));
    auto k1 = kernel::local_array<K>(ctx, tile * sizeof(K), static_cast<std::size_t>(tile));
    auto v0 = kernel::local_array<V>(ctx, vat, vt);
    auto v1 = kernel::local_array<V>(ctx, vat + vt * sizeof(V), vt);
    for (int i = item; i < m; i += block) {
      k0[i] = keys[w0 + i];
      if (with_values) v0[i] = values[w0 + i];
    }
    ctx.barrier();
    // This work-item's outputs, window-local, and each part of them in one segment, cut to the
    // window: [x, x1) of the segment's [sb, se).
    const int o0 = item * ipt < m ? item * ipt : m, o1 = o0 + ipt < m ? o0 + ipt : m;
    auto parts = [&](const auto& f) {
      for_each_segment_part(seg, w0 + o0, w0 + o1,
                            [&](std::int64_t x, std::int64_t x1, std::int64_t b, std::int64_t e) {
                              f(x - w0, x1 - w0, b - w0 > 0 ? b - w0 : 0, e - w0 < m ? e - w0 : m);
                            });
    };
    parts([&](std::int64_t x, std::int64_t x1, std::int64_t, std::int64_t) {
      insertion_sort_part<K, V>(k0, v0, x, x1, with_values, lt);
    });
    ctx.barrier();
    bool in1 = false;  // the sorted runs are in k1/v1
    for (int w = ipt; w < tile; w *= 2) {
      const auto ki = in1 ? k1 : k0, ko = in1 ? k0 : k1;
      const auto vi = in1 ? v1 : v0, vo = in1 ? v0 : v1;
      parts([&](std::int64_t x, std::int64_t x1, std::int64_t sb, std::int64_t se) {
        const run_pair r(x, sb, se, 0, w);
        kernel::merge_range(shifted<decltype(ki)>{ki, r.a0}, r.na, shifted<decltype(ki)>{ki, r.b0},
                            r.nb, x - r.a0, x1 - r.a0, lt,
                            [&](std::int64_t k, bool from_a, std::int64_t at) {
                              const std::int64_t src = (from_a ? r.a0 : r.b0) + at;
                              ko[r.a0 + k] = ki[src];
                              if (with_values) vo[r.a0 + k] = vi[src];
                            });
      });
      ctx.barrier();
      in1 = !in1;
    }
    const auto ks = in1 ? k1 : k0;
    const auto vs = in1 ? v1 : v0;
    for (int i = item; i < m; i += block) {
      keys[w0 + i] = ks[i];
      if (with_values) values[w0 + i] = vs[i];
    }
  }
};

// Where two copies of a sub-group's window do not fit local memory (large elements): work-item w
// sorts the part of each segment in window w of `tile` elements in place, by insertion.
template <class K, class V, class Seg, class Lt>
struct window_insertion_body {
  K* keys;
  V* values;  // null: keys alone
  std::int64_t n;
  Seg seg;
  std::int64_t tile;
  Lt lt;
  AK_KERNEL_FN void operator()(std::int64_t w) const {
    const std::int64_t o1 = (w + 1) * tile < n ? (w + 1) * tile : n;
    for_each_segment_part(seg, w * tile, o1,
                          [&](std::int64_t x, std::int64_t x1, std::int64_t, std::int64_t) {
                            insertion_sort_part<K, V>(keys, values, x, x1, values != nullptr, lt);
                          });
  }
};

// The pieces of segment s (0 for an empty one): reduced by max to count the merge passes.
template <class Seg>
struct load_segment_pieces {
  Seg seg;
  std::int64_t tile;
  AK_KERNEL_FN std::int64_t operator()(std::int64_t s) const {
    const std::int64_t b = seg.start(s), e = seg.start(s + 1);
    return e > b ? segment_pieces(b, e, tile) : 0;
  }
};

// Work-item r of a merge pass over the pieces that window_sort_kernel left: outputs
// [r * ipt, r * ipt + ipt) (inside one window: ipt divides tile). For pass >= 0, the parts of
// them in segments of more than 2^pass pieces are merged from runs of 2^pass pieces (counted from
// the segment's first window) in *_in into *_out. For pass < 0 (after the last pass), the parts
// in segments whose passes were odd in number, and so ended in *_in, are copied to *_out.
template <class K, class V, class Seg, class Lt>
struct piece_merge_body {
  const K* keys_in;
  K* keys_out;
  const V* values_in;  // null: keys alone
  V* values_out;
  std::int64_t n;
  Seg seg;
  std::int64_t tile;
  int ipt;
  int pass;
  Lt lt;
  AK_KERNEL_FN void operator()(std::int64_t r) const {
    const std::int64_t o0 = r * ipt, o1 = o0 + ipt < n ? o0 + ipt : n;
    const std::int64_t window_end = (o0 / tile + 1) * tile < n ? (o0 / tile + 1) * tile : n;
    for (std::int64_t x = o0; x < o1;) {
      const std::int64_t s = seg.segment_of(x);
      const std::int64_t sb = seg.start(s), se = seg.start(s + 1);
      const std::int64_t x1 = se < o1 ? se : o1;
      const std::int64_t pieces = segment_pieces(sb, se, tile);
      if (pieces == 1) {
        // Whole in this window, as is every segment after it but the one at the window's end.
        const std::int64_t last = seg.start(seg.segment_of(window_end - 1));
        x = x1 > last ? x1 : last;
        continue;
      }
      if (pass < 0) {
        if (piece_passes(pieces) % 2 == 1)
          for (std::int64_t i = x; i < x1; ++i) {
            keys_out[i] = keys_in[i];
            if (values_in) values_out[i] = values_in[i];
          }
      } else if (pieces > (std::int64_t{1} << pass)) {
        const run_pair p(x, sb, se, sb / tile * tile, tile << pass);
        kernel::merge_range(keys_in + p.a0, p.na, keys_in + p.b0, p.nb, x - p.a0, x1 - p.a0, lt,
                            [&](std::int64_t k, bool from_a, std::int64_t at) {
                              const std::int64_t src = (from_a ? p.a0 : p.b0) + at;
                              keys_out[p.a0 + k] = keys_in[src];
                              if (values_in) values_out[p.a0 + k] = values_in[src];
                            });
      }
      x = x1;
    }
  }
};

}  // namespace ak::gpu::kernels
