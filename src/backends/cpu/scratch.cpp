// The cpu algorithms' scratch allocator (see ak/backends/cpu/scratch.hpp): host memory, whose
// cache keeps freed blocks of 2 MiB and more for the next call (ak/core/memory.hpp).
#include "ak/backends/cpu/scratch.hpp"

#include <algorithm>

#include "ak/core/memory.hpp"

namespace ak::cpu {

void* acquire_scratch(std::size_t bytes) {
  return host_memory().allocate(std::max<std::size_t>(bytes, 1), host_alignment);
}

void release_scratch(void* block, std::size_t bytes) noexcept {
  host_memory().deallocate(block, std::max<std::size_t>(bytes, 1), host_alignment);
}

}  // namespace ak::cpu
