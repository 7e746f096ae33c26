// Loops of the cpu backend written with Highway's vector operations, compiled for every
// instruction set of vector_sort.hpp and run on the one chosen there (the best the machine has,
// or AK_CPU_TARGET's): the loops g++ cannot vectorise on the x86-64 baseline, where the chosen
// target's wider vectors and 64-bit compares win.
#pragma once

#include <cstdint>
#include <type_traits>

// The element types of the loops, each with the suffix of its per-target names (vector_loops.cpp).
// clang-format off
#define AK_CPU_VECTOR_LOOP_TYPES(X)                                                             \
  X(std::int8_t, i8) X(std::uint8_t, u8) X(std::int16_t, i16) X(std::uint16_t, u16)             \
  X(std::int32_t, i32) X(std::uint32_t, u32) X(std::int64_t, i64) X(std::uint64_t, u64)         \
  X(float, f32) X(double, f64)
// clang-format on

namespace ak::cpu {

// The run heads in [b, e) of p as bits: bit j of bits[w] is set when i = b + 64 w + j is the
// first index of a run of equal consecutive elements, i == 0 or !ak::isequal(p[i - 1], p[i]) (the
// flags of unique and run_length_encode in the default equality). Writes (e - b + 63) / 64 words;
// the bits past e are zero. Returns the number of run heads in [b, e). 0 <= b <= e.
//
// nonzero_bits: the same for the nonzero elements (p[i] converts to true: NaN does, -0.0 does
// not; the flags of findall without a predicate and of copy_if's flags). For bool, pass the
// bytes.
//
// threshold_bits: the same for p[i] <= t, or with at_least !(p[i] < t) (true for NaN): the
// plain threshold tests of partialsort's selection.
//
// extreme_in_order: the smallest element of p[0, n) (max: the largest) in ak's order (-0.0
// before +0.0; its bits), n >= 1, and in *nan whether p holds a NaN (then the result is of no
// use: the callers take their NaN rule elsewhere). For integers *nan is false.
#define AK_CPU_VECTOR_LOOPS(T, suffix)                                                         \
  std::int64_t run_head_bits(const T* p, std::int64_t b, std::int64_t e, std::uint64_t* bits); \
  std::int64_t nonzero_bits(const T* p, std::int64_t b, std::int64_t e, std::uint64_t* bits);  \
  std::int64_t threshold_bits(const T* p, std::int64_t b, std::int64_t e, T t, bool at_least,  \
                              std::uint64_t* bits);                                            \
  T extreme_in_order(const T* p, std::int64_t n, bool max, bool* nan);
AK_CPU_VECTOR_LOOP_TYPES(AK_CPU_VECTOR_LOOPS)
#undef AK_CPU_VECTOR_LOOPS

// The even bins of p[0, n) for float and double keys, as the histogram's even bins compute them
// (ak/algorithms/detail/histogram_common.hpp: j = (x * scaling - origin) * scale in double,
// truncated, at most count - 1; -1 for x outside [lower, upper] and for NaN), count < 2^31:
// bins[k] for k below the number returned, a whole number of vectors; the caller bins the rest.
#define AK_CPU_VECTOR_BINS(T)                                                                 \
  std::int64_t even_bin_indices(const T* p, std::int64_t n, T lower, T upper, double scaling, \
                                double origin, double scale, std::int64_t count,              \
                                std::int32_t* bins);
AK_CPU_VECTOR_BINS(float)
AK_CPU_VECTOR_BINS(double)
#undef AK_CPU_VECTOR_BINS

// The same for integer keys of 4 and 8 bytes, exactly (histogram_common.hpp: j = floor((x -
// lower) * count / width), width = upper - lower >= 1 as an unsigned number, at most count - 1; -1
// outside), count < 2^31: in double, and where that is near an edge between bins, the scalar
// bin's exact test of the neighbouring bins.
#define AK_CPU_VECTOR_INT_BINS(T)                                                         \
  std::int64_t even_bin_indices(const T* p, std::int64_t n, T lower, std::uint64_t width, \
                                std::int64_t count, std::int32_t* bins);
AK_CPU_VECTOR_INT_BINS(std::int32_t)
AK_CPU_VECTOR_INT_BINS(std::uint32_t)
AK_CPU_VECTOR_INT_BINS(std::int64_t)
AK_CPU_VECTOR_INT_BINS(std::uint64_t)
#undef AK_CPU_VECTOR_INT_BINS

// The element types the vector loops take (exactly those of the list above).
#define AK_CPU_VECTOR_LOOP_TYPE(T, suffix) std::is_same_v<T, Element> ||
template <class Element>
inline constexpr bool vector_loop_type_v = AK_CPU_VECTOR_LOOP_TYPES(AK_CPU_VECTOR_LOOP_TYPE) false;
#undef AK_CPU_VECTOR_LOOP_TYPE

}  // namespace ak::cpu
