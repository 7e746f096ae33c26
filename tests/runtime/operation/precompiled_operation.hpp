// Stands in for a precompiled ak operation: compiled once, into its own library, before and
// without any knowledge of the backends that the tests load later.
#pragma once

#include <cstdint>

#include "ak/core/dtype.hpp"
#include "ak/runtime/device.hpp"

namespace ak::test {
std::int64_t precompiled_reduce_block_size(const device& dev, dtype t);
std::int64_t precompiled_reduce_cpu_grain(const device& dev, dtype t);
}  // namespace ak::test
