// Asking for data ahead in the cpu backend's streaming loops.
//
// A loop that does many operations per element keeps few loads in flight, and the machine's own
// prefetching may not run far enough ahead of it: on the 2-core Xeon VM (2026-12-07) histogram's
// integer bins waited for their keys more than half of their time (1e7 int64 keys, one thread:
// 35 ms against 9.5 for a block in cache; asking 512 bytes ahead took 18 ms, 2048 10.6, 4096
// 9.9), radix sort's counting and scatter loops ran 10-40% faster asking 4 KiB ahead, and the
// sorts' look at neighbours (all_neighbours) read sorted float64 keys twice as fast asking for
// the next block while it looks at one (docs/benchmarks/README.md).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ak::cpu {

// How far ahead the loops ask for their data.
inline constexpr std::size_t prefetch_bytes = 4096;

// Asks for the data prefetch_bytes after p. A hint, which never faults: the address may lie past
// the end of p's array, so it is computed as an integer (a pointer there would be undefined).
template <class T>
inline void fetch_ahead(const T* p) noexcept {
  __builtin_prefetch(
      reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(p) + prefetch_bytes));
}

// Asks for every cache line of p[0, count): a block that a vectorised loop reads next, where a
// hint per element would keep the loop from being vectorised.
template <class T>
inline void fetch_block(const T* p, std::size_t count) noexcept {
  for (std::size_t at = 0; at < count * sizeof(T); at += 64)
    __builtin_prefetch(reinterpret_cast<const char*>(p) + at);
}

}  // namespace ak::cpu
