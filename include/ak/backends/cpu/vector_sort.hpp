// The cpu backend's vector code, compiled for several instruction sets with the best one the
// machine has chosen at run time: the vectorised quicksort of Highway (vqsort, Debian's
// libhwy-dev), which radix sort uses for its in-cache buckets (radix_sort.hpp), and the loops of
// vector_loops.hpp.
//
// The instruction set is chosen once, when the cpu backend loads: the best the machine has, or
// the one AK_CPU_TARGET names (and those below it), for tests and comparisons. Names are
// Highway's: AVX3 (AVX-512), AVX2, SSE4, SSSE3, EMU128 (portable code for the x86-64 baseline;
// `baseline` names it too). A name the build does not know, or a target this machine lacks, is
// an ak::backend_error when the backend loads. `ak info` shows the choice. The choice is
// Highway's process-wide state: it applies to every user of Highway's dispatch in the process
// (`ak bench`'s vqsort peers too); without AK_CPU_TARGET ak leaves it alone.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace ak::cpu {

// The instruction set the vector code runs on now ("AVX2").
std::string vector_target();

// The instruction sets the build has vector code for, best first, and whether this machine has
// each: a test runs its vector code on every one the machine has and says which it skips.
struct vector_target_info {
  std::string name;
  bool supported;
};
std::vector<vector_target_info> vector_targets();

// Runs the vector code on `name` (as AK_CPU_TARGET does at load) from now on, process-wide;
// "" goes back to the best the machine has. Throws ak::backend_error for a name the build does
// not know or a target the machine lacks. For tests and benchmarks; not thread-safe against
// vector code running at the same time (each thread makes its sorter again on its next call).
void set_vector_target(const std::string& name);

// Sorts keys[0, n) ascending (descending with `descending`) with the vector code. Keys equal in
// value are equal in bits for these types, so the result is the one stable sort gives.
void vector_sort(std::uint16_t* keys, std::int64_t n, bool descending);
void vector_sort(std::uint32_t* keys, std::int64_t n, bool descending);
void vector_sort(std::uint64_t* keys, std::int64_t n, bool descending);
void vector_sort(std::int16_t* keys, std::int64_t n, bool descending);
void vector_sort(std::int32_t* keys, std::int64_t n, bool descending);
void vector_sort(std::int64_t* keys, std::int64_t n, bool descending);

// The key types vector_sort takes.
template <class T>
inline constexpr bool vector_sortable_v =
    std::is_same_v<T, std::uint16_t> || std::is_same_v<T, std::uint32_t> ||
    std::is_same_v<T, std::uint64_t> || std::is_same_v<T, std::int16_t> ||
    std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t>;

}  // namespace ak::cpu
