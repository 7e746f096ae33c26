#include "precompiled_operation.hpp"

#include "ak/runtime/tuning.hpp"

namespace ak::test {
std::int64_t precompiled_reduce_block_size(const device& dev, dtype t) {
  return tuning(reduce_hook{}, dev, t).block_size;
}
std::int64_t precompiled_reduce_cpu_grain(const device& dev, dtype t) {
  return tuning(reduce_hook{}, dev, t).cpu_grain;
}
}  // namespace ak::test
