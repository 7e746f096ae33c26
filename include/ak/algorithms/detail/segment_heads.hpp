// Where the nonempty segments of CSR offsets start, as a flag per element (1 at each start, 0
// elsewhere), made by the loops of either half of the keyed family: for the scans over offsets
// (keyed.hpp) and for the GPU half's reduce over them (keyed_gpu.hpp), which are segmented scans.
#pragma once

#include <cstdint>

#include "ak/algorithms/detail/keyed_common.hpp"
#include "ak/core/array.hpp"
#include "ak/gpu/kernels/foreach.hpp"

namespace ak::detail {

// The flags of the n elements for the m segments of the offsets o (o[0] = 0, o[m] = n), in the
// memory of the half s, by its loops.
template <class S>
array<std::uint8_t> segment_heads(const S& s, const std::int64_t* o, std::int64_t m,
                                  std::int64_t n) {
  array<std::uint8_t> heads(shape{n}, s.memory());
  s.for_each(n, gpu::kernels::fill_body<std::uint8_t>{heads.data(), 0});
  s.for_each(m, mark_heads{o, heads.data()});
  return heads;
}

}  // namespace ak::detail
