// The cpu half of accumulate (the front is accumulate.hpp): it takes the device and the scan
// tuning the front resolved, and looks neither up again.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/elementwise.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/backends/cpu/scan.hpp"

namespace ak::detail {

// src scanned along `dim` into dst (the same shape). The tuning is the result type's: tiles hold
// R values, and accumulate_temp_bytes<R> sizes the temp storage from the same lookup.
template <class T, class R, class Op>
void cpu_accumulate(const device& dev, const scan_tuning& t, view<const T> src, view<R> dst,
                    std::size_t dim, const Op& op, const accumulate_options<R>& o,
                    std::string_view function) {
  const std::optional<R> init = o.init ? o.init : neutral_element<R, Op>();
  std::int64_t outer = 1, inner = 1;
  for (std::size_t k = 0; k < src.rank(); ++k) {
    if (k < dim) outer *= src.shape()[k];
    if (k > dim) inner *= src.shape()[k];
  }
  const std::int64_t len = src.rank() == 0 ? 1 : src.shape()[dim];
  // Caller temp storage holds the 1-d scan's tile states.
  void* state = nullptr;
  if (!o.temp.empty()) {
    const std::size_t need = cpu::scan_state_bytes<R>(len, t.cpu_grain);
    if (o.temp.size() < need) throw_temp_too_small(function, need, o.temp.size());
    state = o.temp.data();
  }
  const std::int64_t l1 = dev.info().l1_cache_bytes > 0 ? dev.info().l1_cache_bytes : 32 * 1024;
  const std::int64_t block =
      std::max<std::int64_t>(16, l1 / 2 / static_cast<std::int64_t>(sizeof(R)));
  const std::optional<R> carry = o.init ? o.init : (o.inclusive ? std::nullopt : init);
  if (src.is_contiguous() && dst.is_contiguous()) {
    cpu::scan_middle(src.data(), dst.data(), outer, len, inner, op, carry, o.inclusive, t.cpu_grain,
                     block, state);
    return;
  }
  // Strided views: scan a row-major copy, then write it back.
  array<R> tmp(src.shape());
  identity_copy id;
  elementwise(tmp.view(), id, t.cpu_grain, src);
  cpu::scan_middle(tmp.data(), tmp.data(), outer, len, inner, op, carry, o.inclusive, t.cpu_grain,
                   block, state);
  elementwise(dst, id, t.cpu_grain, view<const R>(tmp.view()));
}

}  // namespace ak::detail
