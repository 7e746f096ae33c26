// The cpu backend's vector loops (ak/backends/cpu/vector_loops.hpp), compiled once per
// instruction set by Highway's foreach_target (which includes this file again for each, hence
// HWY_TARGET_INCLUDE) and dispatched to the target Highway has chosen (vector_sort.cpp sets it).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "backends/cpu/vector_loops.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// foreach_target.h first
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ak/backends/cpu/prefetch.hpp"
#include "ak/backends/cpu/vector_loops.hpp"  // AK_CPU_VECTOR_LOOP_TYPES
#include "ak/core/operators.hpp"

HWY_BEFORE_NAMESPACE();
namespace ak::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The lanes where ak::isequal(a, b) holds: for integers a == b; for floats equal bits (which
// tells -0.0 from +0.0) or both NaN (every NaN equals every NaN).
template <class D, class V>
HWY_INLINE auto equal_lanes(D d, V a, V b) {
  if constexpr (std::is_floating_point_v<hn::TFromD<D>>) {
    const hn::RebindToUnsigned<D> du;
    return hn::Or(hn::RebindMask(d, hn::Eq(hn::BitCast(du, a), hn::BitCast(du, b))),
                  hn::And(hn::IsNaN(a), hn::IsNaN(b)));
  } else {
    return hn::Eq(a, b);
  }
}

// Bits of a flag over [b, e), as vector_loops.hpp describes them: lanes(d, i) gives the flags of
// the vector of indices from i as a mask, for any i >= first with a whole vector before e;
// one(i) the flag of any index. Words of 64 whole indices take the vector form (64 / Lanes(d)
// masks put in place), others (the last word, one that starts before `first`) the scalar one.
template <class D, class Lanes, class One>
std::int64_t flag_bits(D d, std::int64_t b, std::int64_t e, std::uint64_t* bits, std::int64_t first,
                       const Lanes& lanes, const One& one) {
  const auto n = static_cast<std::int64_t>(hn::Lanes(d));  // 1 to 64, a power of two
  std::int64_t set = 0;
  for (std::int64_t w = 0; b + 64 * w < e; ++w) {
    const std::int64_t base = b + 64 * w, count = std::min<std::int64_t>(64, e - base);
    std::uint64_t word = 0;
    if (count == 64 && base >= first) {
      for (std::int64_t j = 0; j < 64; j += n) {
        std::uint64_t mask = 0;  // StoreMaskBits writes (n + 7) / 8 bytes, at most 8
        hn::StoreMaskBits(d, lanes(d, base + j), reinterpret_cast<std::uint8_t*>(&mask));
        word |= mask << j;
      }
    } else {
      for (std::int64_t j = 0; j < count; ++j) word |= std::uint64_t{one(base + j)} << j;
    }
    bits[w] = word;
    set += static_cast<std::int64_t>(hwy::PopCount(word));
  }
  return set;
}

// Run heads: each vector compared with the one a lane before it (unaligned loads of what the
// last one read).
template <class T>
std::int64_t run_heads(const T* p, std::int64_t b, std::int64_t e, std::uint64_t* bits) {
  return flag_bits(
      hn::ScalableTag<T>(), b, e, bits, 1,
      [p](auto d, std::int64_t i) {
        return hn::Not(equal_lanes(d, hn::LoadU(d, p + i - 1), hn::LoadU(d, p + i)));
      },
      [p](std::int64_t i) { return i == 0 || !isequal{}(p[i - 1], p[i]); });
}

// Nonzero elements (NaN among them; -0.0 is zero): not equal to zero, as an ordered compare
// says on every target (Highway's != of floats is ordered on some and not on others).
template <class T>
std::int64_t nonzero(const T* p, std::int64_t b, std::int64_t e, std::uint64_t* bits) {
  return flag_bits(
      hn::ScalableTag<T>(), b, e, bits, 0,
      [p](auto d, std::int64_t i) { return hn::Not(hn::Eq(hn::LoadU(d, p + i), hn::Zero(d))); },
      [p](std::int64_t i) { return static_cast<bool>(p[i]); });
}

// Threshold tests: x <= t, or !(x < t) (Highway's compares of floats are ordered: false for NaN;
// integers have no <= on every target, and there !(x > t) says it).
template <class T>
std::int64_t threshold(const T* p, std::int64_t b, std::int64_t e, T t, bool at_least,
                       std::uint64_t* bits) {
  const hn::ScalableTag<T> d;
  const auto v = hn::Set(d, t);
  if (at_least)
    return flag_bits(
        d, b, e, bits, 0,
        [p, v](auto dd, std::int64_t i) { return hn::Not(hn::Lt(hn::LoadU(dd, p + i), v)); },
        [p, t](std::int64_t i) { return !(p[i] < t); });
  return flag_bits(
      d, b, e, bits, 0,
      [p, v](auto dd, std::int64_t i) {
        if constexpr (std::is_floating_point_v<T>)
          return hn::Le(hn::LoadU(dd, p + i), v);
        else
          return hn::Not(hn::Gt(hn::LoadU(dd, p + i), v));
      },
      [p, t](std::int64_t i) { return p[i] <= t; });
}

// A vector's elements as integers in ak's order: floats as ak::ordered_key makes them (every bit
// flipped in a negative one, the sign bit in the others: -0.0 before +0.0; NaNs, which the
// callers tell apart by IsNaN, outside the numbers), integers as they are.
template <class V>
HWY_INLINE auto key_of(V x) {
  using D = hn::DFromV<V>;
  if constexpr (std::is_floating_point_v<hn::TFromD<D>>) {
    const hn::RebindToSigned<D> di;
    const hn::RebindToUnsigned<D> du;
    using U = hn::TFromD<decltype(du)>;
    const auto negative = hn::BitCast(du, hn::BroadcastSignBit(hn::BitCast(di, x)));
    return hn::Xor(hn::BitCast(du, x),
                   hn::Or(negative, hn::Set(du, static_cast<U>(U{1} << (8 * sizeof(U) - 1)))));
  } else {
    return x;
  }
}

// The extreme of p[0, n) in ak's order (vector_loops.hpp): the keys' minimum (maximum) on four
// accumulators, the last vector loaded where p ends (an overlap changes no extreme).
template <bool Max, class T>
T extreme(const T* p, std::int64_t n, bool* nan) {
  const auto better = [](T a, T b) { return Max ? isless{}(b, a) : isless{}(a, b); };
  const hn::ScalableTag<T> d;
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
  bool any_nan = false;
  T m = p[0];
  if (n < lanes) {  // too short for one vector
    for (std::int64_t i = 0; i < n; ++i) {
      any_nan = any_nan || p[i] != p[i];
      if (better(p[i], m)) m = p[i];
    }
  } else {
    const auto pick = [](auto a, auto b) { return Max ? hn::Max(a, b) : hn::Min(a, b); };
    auto m0 = key_of(hn::LoadU(d, p)), m1 = m0, m2 = m0, m3 = m0;
    auto seen = hn::FirstN(d, 0);  // the lanes that met a NaN
    std::int64_t i = 0;
    for (; i + 4 * lanes <= n; i += 4 * lanes) {
      const auto x0 = hn::LoadU(d, p + i), x1 = hn::LoadU(d, p + i + lanes),
                 x2 = hn::LoadU(d, p + i + 2 * lanes), x3 = hn::LoadU(d, p + i + 3 * lanes);
      m0 = pick(m0, key_of(x0));
      m1 = pick(m1, key_of(x1));
      m2 = pick(m2, key_of(x2));
      m3 = pick(m3, key_of(x3));
      if constexpr (std::is_floating_point_v<T>)
        seen = hn::Or(seen, hn::Or(hn::Or(hn::IsNaN(x0), hn::IsNaN(x1)),
                                   hn::Or(hn::IsNaN(x2), hn::IsNaN(x3))));
    }
    for (; i < n; i += lanes) {
      const auto x = hn::LoadU(d, p + std::min(i, n - lanes));
      m0 = pick(m0, key_of(x));
      if constexpr (std::is_floating_point_v<T>) seen = hn::Or(seen, hn::IsNaN(x));
    }
    const auto keys = pick(pick(m0, m1), pick(m2, m3));
    using K = hn::TFromV<decltype(keys)>;
    K out[HWY_MAX_BYTES / sizeof(T)];
    hn::StoreU(keys, hn::DFromV<decltype(keys)>(), out);
    for (std::int64_t j = 0; j < lanes; ++j) {
      T x;
      if constexpr (std::is_floating_point_v<T>)
        x = from_ordered_key<T>(out[j]);
      else
        x = out[j];
      if (better(x, m)) m = x;
    }
    any_nan = !hn::AllFalse(d, seen);
  }
  *nan = any_nan;
  return m;
}

// Even bins (vector_loops.hpp): in double, as the scalar bin computes them; the clamp to count -
// 1 before the truncation instead of after it, the same for a whole bound. Separate multiplies
// and subtracts, never fused (CMakeLists.txt: -ffp-contract=off), as the scalar code's are.
template <class T>
std::int64_t even_bin_indices(const T* p, std::int64_t n, T lower, T upper, double scaling,
                              double origin, double scale, std::int64_t count, std::int32_t* bins) {
  const hn::ScalableTag<double> d;
  const hn::Rebind<T, decltype(d)> dt;  // the keys of one vector of doubles
  const hn::Rebind<std::int32_t, decltype(d)> di;
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
  const auto lo = hn::Set(d, static_cast<double>(lower)),
             hi = hn::Set(d, static_cast<double>(upper));
  const auto s = hn::Set(d, scaling), o = hn::Set(d, origin), f = hn::Set(d, scale);
  const auto last = hn::Set(d, static_cast<double>(count - 1)), none = hn::Set(d, -1.0);
  std::int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    hn::Vec<decltype(d)> x;
    fetch_ahead(p + i);  // the keys' loop does many operations a key (prefetch.hpp)
    if constexpr (std::is_same_v<T, double>)
      x = hn::LoadU(d, p + i);
    else
      x = hn::PromoteTo(d, hn::LoadU(dt, p + i));
    const auto j = hn::Min(hn::Mul(hn::Sub(hn::Mul(x, s), o), f), last);
    const auto inside = hn::And(hn::Ge(x, lo), hn::Le(x, hi));  // false for NaN
    hn::StoreU(hn::DemoteTo(di, hn::IfThenElse(inside, j, none)), di, bins + i);
  }
  return i;
}

// x * y as a 128-bit number (hi, lo) in each 64-bit lane, for y < 2^32: two 32 x 32-bit products.
template <class D, class V>
HWY_INLINE void product_64_32(D du, V x, V y, V& hi, V& lo) {
  const hn::Repartition<std::uint32_t, D> d32;
  const V low = hn::MulEven(hn::BitCast(d32, x), hn::BitCast(d32, y));
  const V high = hn::MulEven(hn::BitCast(d32, hn::ShiftRight<32>(x)), hn::BitCast(d32, y));
  lo = hn::Add(low, hn::ShiftLeft<32>(high));
  hi = hn::Sub(hn::ShiftRight<32>(high), hn::VecFromMask(du, hn::Lt(lo, low)));  // + the carry
}

// The lanes where the 128-bit (ah, al) > (bh, bl).
template <class V>
HWY_INLINE auto greater_128(V ah, V al, V bh, V bl) {
  return hn::Or(hn::Gt(ah, bh), hn::And(hn::Eq(ah, bh), hn::Gt(al, bl)));
}

// Even bins of integer keys (vector_loops.hpp): the offset x - lower as an unsigned 64-bit number
// (exact, wrapping for keys below lower, which then lie past the width) and t = off * (count /
// width) in double, within 2^-20 of the exact off * count / width (four roundings of at most
// 2^-53 of t < 2^31). Where no key inside the bins has t within 2^-16 of a whole number (most
// vectors of most data), each bin is floor(t), at most count - 1. Elsewhere that estimate j is
// moved down one bin where j * width > off * count and up one where j + 1 < count and (j + 1) *
// width <= off * count, in exact 128-bit products: the scalar bin's test (histogram_common.hpp).
template <class T>
std::int64_t even_int_bin_indices(const T* p, std::int64_t n, T lower, std::uint64_t width,
                                  std::int64_t count, std::int32_t* bins) {
#if HWY_TARGET == HWY_SCALAR
  // One lane has no 32-bit halves to multiply: the caller bins every key.
  (void)p, (void)n, (void)lower, (void)width, (void)count, (void)bins;
  return 0;
#else
  using Wide = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
  const hn::ScalableTag<std::uint64_t> du;
  const hn::RebindToSigned<decltype(du)> di;
  const hn::Rebind<double, decltype(du)> dd;
  const hn::Rebind<Wide, decltype(du)> dw;
  const hn::Rebind<T, decltype(du)> dt;  // the keys of one vector of offsets
  const hn::Rebind<std::uint32_t, decltype(du)> du32;
  const hn::Rebind<std::int32_t, decltype(du)> di32;
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(du));
  const auto lo = hn::Set(du, static_cast<std::uint64_t>(static_cast<Wide>(lower)));
  const auto w = hn::Set(du, width);
  const auto c = hn::Set(du, static_cast<std::uint64_t>(count));
  const auto f = hn::Set(dd, static_cast<double>(count) / static_cast<double>(width));
  const auto last = hn::Set(dd, static_cast<double>(count - 1));
  const auto margin = hn::Set(dd, 0x1p-16), far_below_next = hn::Set(dd, 1 - 0x1p-16);
  const auto none = hn::Set(du, ~std::uint64_t{0});
  std::int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    hn::Vec<decltype(du)> x;
    fetch_ahead(p + i);  // the keys' loop does many operations a key (prefetch.hpp)
    if constexpr (sizeof(T) == 8)
      x = hn::BitCast(du, hn::LoadU(dt, p + i));
    else
      x = hn::BitCast(du, hn::PromoteTo(dw, hn::LoadU(dt, p + i)));
    const auto off = hn::Sub(x, lo);
    const auto outside = hn::Gt(off, w);
    const auto t = hn::Mul(hn::ConvertTo(dd, off), f);
    const auto whole = hn::Floor(hn::Min(t, last));
    const auto frac = hn::Sub(t, whole);  // 1 or more where t is past count - 1
    const auto near = hn::AndNot(hn::RebindMask(dd, outside),
                                 hn::Or(hn::Lt(frac, margin), hn::Gt(frac, far_below_next)));
    auto j = hn::BitCast(du, hn::ConvertTo(di, whole));
    if (!hn::AllFalse(dd, near)) {
      hn::Vec<decltype(du)> th, tl, eh, el;
      product_64_32(du, off, c, th, tl);  // off * count
      product_64_32(du, w, j, eh, el);    // j * width
      const auto el1 = hn::Add(el, w);    // (j + 1) * width
      const auto eh1 = hn::Sub(eh, hn::VecFromMask(du, hn::Lt(el1, el)));
      const auto down = greater_128(eh, el, th, tl);
      const auto up =
          hn::AndNot(greater_128(eh1, el1, th, tl), hn::Lt(hn::Add(j, hn::Set(du, 1)), c));
      // A mask's vector is all ones, -1: subtracting it adds one.
      j = hn::Sub(hn::Add(j, hn::VecFromMask(du, down)), hn::VecFromMask(du, up));
    }
    j = hn::IfThenElse(outside, none, j);
    hn::StoreU(hn::BitCast(di32, hn::TruncateTo(du32, j)), di32, bins + i);
  }
  return i;
#endif
}

#define AK_LOOPS(T, suffix)                                                                        \
  std::int64_t run_heads_##suffix(const T* p, std::int64_t b, std::int64_t e,                      \
                                  std::uint64_t* bits) {                                           \
    return run_heads(p, b, e, bits);                                                               \
  }                                                                                                \
  std::int64_t nonzero_##suffix(const T* p, std::int64_t b, std::int64_t e, std::uint64_t* bits) { \
    return nonzero(p, b, e, bits);                                                                 \
  }                                                                                                \
  std::int64_t threshold_##suffix(const T* p, std::int64_t b, std::int64_t e, T t, bool at_least,  \
                                  std::uint64_t* bits) {                                           \
    return threshold(p, b, e, t, at_least, bits);                                                  \
  }                                                                                                \
  T extreme_##suffix(const T* p, std::int64_t n, bool max, bool* nan) {                            \
    return max ? extreme<true>(p, n, nan) : extreme<false>(p, n, nan);                             \
  }
AK_CPU_VECTOR_LOOP_TYPES(AK_LOOPS)
#undef AK_LOOPS
#define AK_BINS(T, suffix)                                                                      \
  std::int64_t even_bins_##suffix(const T* p, std::int64_t n, T lower, T upper, double scaling, \
                                  double origin, double scale, std::int64_t count,              \
                                  std::int32_t* bins) {                                         \
    return even_bin_indices(p, n, lower, upper, scaling, origin, scale, count, bins);           \
  }
AK_BINS(float, f32)
AK_BINS(double, f64)
#undef AK_BINS
#define AK_INT_BINS(T, suffix)                                                              \
  std::int64_t even_bins_##suffix(const T* p, std::int64_t n, T lower, std::uint64_t width, \
                                  std::int64_t count, std::int32_t* bins) {                 \
    return even_int_bin_indices(p, n, lower, width, count, bins);                           \
  }
AK_INT_BINS(std::int32_t, i32)
AK_INT_BINS(std::uint32_t, u32)
AK_INT_BINS(std::int64_t, i64)
AK_INT_BINS(std::uint64_t, u64)
#undef AK_INT_BINS

}  // namespace ak::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ak::cpu {

#define AK_LOOPS(T, suffix)                                                                     \
  HWY_EXPORT(run_heads_##suffix);                                                               \
  std::int64_t run_head_bits(const T* p, std::int64_t b, std::int64_t e, std::uint64_t* bits) { \
    return HWY_DYNAMIC_DISPATCH(run_heads_##suffix)(p, b, e, bits);                             \
  }                                                                                             \
  HWY_EXPORT(nonzero_##suffix);                                                                 \
  std::int64_t nonzero_bits(const T* p, std::int64_t b, std::int64_t e, std::uint64_t* bits) {  \
    return HWY_DYNAMIC_DISPATCH(nonzero_##suffix)(p, b, e, bits);                               \
  }                                                                                             \
  HWY_EXPORT(threshold_##suffix);                                                               \
  std::int64_t threshold_bits(const T* p, std::int64_t b, std::int64_t e, T t, bool at_least,   \
                              std::uint64_t* bits) {                                            \
    return HWY_DYNAMIC_DISPATCH(threshold_##suffix)(p, b, e, t, at_least, bits);                \
  }                                                                                             \
  HWY_EXPORT(extreme_##suffix);                                                                 \
  T extreme_in_order(const T* p, std::int64_t n, bool max, bool* nan) {                         \
    return HWY_DYNAMIC_DISPATCH(extreme_##suffix)(p, n, max, nan);                              \
  }
AK_CPU_VECTOR_LOOP_TYPES(AK_LOOPS)
#undef AK_LOOPS
#define AK_BINS(T, suffix)                                                                      \
  HWY_EXPORT(even_bins_##suffix);                                                               \
  std::int64_t even_bin_indices(const T* p, std::int64_t n, T lower, T upper, double scaling,   \
                                double origin, double scale, std::int64_t count,                \
                                std::int32_t* bins) {                                           \
    return HWY_DYNAMIC_DISPATCH(even_bins_##suffix)(p, n, lower, upper, scaling, origin, scale, \
                                                    count, bins);                               \
  }
AK_BINS(float, f32)
AK_BINS(double, f64)
#undef AK_BINS
#define AK_INT_BINS(T, suffix)                                                            \
  HWY_EXPORT(even_bins_##suffix);                                                         \
  std::int64_t even_bin_indices(const T* p, std::int64_t n, T lower, std::uint64_t width, \
                                std::int64_t count, std::int32_t* bins) {                 \
    return HWY_DYNAMIC_DISPATCH(even_bins_##suffix)(p, n, lower, width, count, bins);     \
  }
AK_INT_BINS(std::int32_t, i32)
AK_INT_BINS(std::uint32_t, u32)
AK_INT_BINS(std::int64_t, i64)
AK_INT_BINS(std::uint64_t, u64)
#undef AK_INT_BINS

}  // namespace ak::cpu
#endif  // HWY_ONCE
