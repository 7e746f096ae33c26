// The cpu backend's vector loops (ak/backends/cpu/vector_loops.hpp), compiled once per
// instruction set by Highway's foreach_target (which includes this file again for each, hence
// HWY_TARGET_INCLUDE) and dispatched to the target Highway has chosen (vector_sort.cpp sets it).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "backends/cpu/vector_loops.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// foreach_target.h first
#include <hwy/highway.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

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

}  // namespace ak::cpu
#endif  // HWY_ONCE
