// Loops of the cpu backend written with Highway's vector operations, compiled for every
// instruction set of vector_sort.hpp and run on the one chosen there (the best the machine has,
// or AK_CPU_TARGET's): the loops g++ cannot vectorise on the x86-64 baseline, where the chosen
// target's wider vectors and 64-bit compares win.
#pragma once

#include <cstdint>
#include <type_traits>

namespace ak::cpu {

// The run heads in [b, e) of p as bits: bit j of bits[w] is set when i = b + 64 w + j is the
// first index of a run of equal consecutive elements, i == 0 or !ak::isequal(p[i - 1], p[i]) (the
// flags of unique and run_length_encode in the default equality). Writes (e - b + 63) / 64 words;
// the bits past e are zero. Returns the number of run heads in [b, e). 0 <= b <= e.
std::int64_t run_head_bits(const std::int8_t* p, std::int64_t b, std::int64_t e,
                           std::uint64_t* bits);
std::int64_t run_head_bits(const std::uint8_t* p, std::int64_t b, std::int64_t e,
                           std::uint64_t* bits);
std::int64_t run_head_bits(const std::int16_t* p, std::int64_t b, std::int64_t e,
                           std::uint64_t* bits);
std::int64_t run_head_bits(const std::uint16_t* p, std::int64_t b, std::int64_t e,
                           std::uint64_t* bits);
std::int64_t run_head_bits(const std::int32_t* p, std::int64_t b, std::int64_t e,
                           std::uint64_t* bits);
std::int64_t run_head_bits(const std::uint32_t* p, std::int64_t b, std::int64_t e,
                           std::uint64_t* bits);
std::int64_t run_head_bits(const std::int64_t* p, std::int64_t b, std::int64_t e,
                           std::uint64_t* bits);
std::int64_t run_head_bits(const std::uint64_t* p, std::int64_t b, std::int64_t e,
                           std::uint64_t* bits);
std::int64_t run_head_bits(const float* p, std::int64_t b, std::int64_t e, std::uint64_t* bits);
std::int64_t run_head_bits(const double* p, std::int64_t b, std::int64_t e, std::uint64_t* bits);

// The nonzero elements in [b, e) of p as bits (as run_head_bits: bit j of bits[w] is set when
// p[b + 64 w + j] converts to true: NaN does, -0.0 does not; the flags of findall without a
// predicate and of copy_if's flags). Returns how many there are. For bool, pass the bytes.
std::int64_t nonzero_bits(const std::int8_t* p, std::int64_t b, std::int64_t e,
                          std::uint64_t* bits);
std::int64_t nonzero_bits(const std::uint8_t* p, std::int64_t b, std::int64_t e,
                          std::uint64_t* bits);
std::int64_t nonzero_bits(const std::int16_t* p, std::int64_t b, std::int64_t e,
                          std::uint64_t* bits);
std::int64_t nonzero_bits(const std::uint16_t* p, std::int64_t b, std::int64_t e,
                          std::uint64_t* bits);
std::int64_t nonzero_bits(const std::int32_t* p, std::int64_t b, std::int64_t e,
                          std::uint64_t* bits);
std::int64_t nonzero_bits(const std::uint32_t* p, std::int64_t b, std::int64_t e,
                          std::uint64_t* bits);
std::int64_t nonzero_bits(const std::int64_t* p, std::int64_t b, std::int64_t e,
                          std::uint64_t* bits);
std::int64_t nonzero_bits(const std::uint64_t* p, std::int64_t b, std::int64_t e,
                          std::uint64_t* bits);
std::int64_t nonzero_bits(const float* p, std::int64_t b, std::int64_t e, std::uint64_t* bits);
std::int64_t nonzero_bits(const double* p, std::int64_t b, std::int64_t e, std::uint64_t* bits);

// The element types the vector loops take (exactly those of the overloads above).
template <class T>
inline constexpr bool vector_loop_type_v =
    std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t> ||
    std::is_same_v<T, std::int16_t> || std::is_same_v<T, std::uint16_t> ||
    std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> ||
    std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t> ||
    std::is_same_v<T, float> || std::is_same_v<T, double>;

}  // namespace ak::cpu
