// What every algorithm does with its arguments before touching data: turn them into views, find
// the device their memory is on, check shapes, and look up the tuning.
#pragma once

#include <cstdint>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ak/core/array.hpp"
#include "ak/core/dtype.hpp"
#include "ak/core/error.hpp"
#include "ak/core/shape.hpp"
#include "ak/core/view.hpp"
#include "ak/runtime/device.hpp"
#include "ak/runtime/tuning.hpp"

namespace ak::detail {

// ---- Ranges as views --------------------------------------------------------------------------
// An algorithm's array arguments may be an ak::view, an ak::array, or a contiguous host range
// (std::vector, std::span, std::array, ...); all become views.

template <class T>
view<T> as_view(view<T> v) noexcept {
  return v;
}
template <class T>
view<T> as_view(array<T>& a) noexcept {
  return a.view();
}
template <class T>
view<const T> as_view(const array<T>& a) noexcept {
  return a.view();
}
// clang-format off
template <class R>
  requires(std::ranges::contiguous_range<R> && std::ranges::sized_range<R>)
auto as_view(R&& r) noexcept {
  // clang-format on
  using T = std::remove_reference_t<std::ranges::range_reference_t<R>>;
  return view<T>(r);
}

template <class R>
using view_of_t = decltype(as_view(std::declval<R&>()));
template <class R>
using element_t = std::remove_cv_t<typename view_of_t<R>::element_type>;

template <class R>
view<const element_t<R>> as_const_view(R&& r) {
  return view<const element_t<R>>(as_view(r));
}

// An array argument (a view, an array, a contiguous range), which a predicate is not (a view is
// callable with indices, so callability alone does not tell them apart).
template <class A>
concept array_like = requires(const A& a) {
  as_view(a);
};
// ---- Devices -----------------------------------------------------------------------------------

// The device that runs an algorithm on data in `memory`: the cpu, or a GPU-style device whose
// kernels this build can launch (sim); throws ak::capability_error for any other.
device algorithm_device(std::string_view function, std::string_view argument,
                        const memory_space& memory);

// Whether an algorithm on `dev` takes the GPU path (one branch at the top of each call).
inline bool on_gpu(const device& dev) noexcept {
  return dev.info().kind != device_kind::cpu;
}
// The same from the memory alone; host memory is decided by one comparison.
bool on_gpu_memory(const memory_space& memory);

// ---- Errors ------------------------------------------------------------------------------------

[[noreturn]] void throw_shape_mismatch(std::string_view function, std::string_view argument,
                                       const shape& expected, const shape& actual);
[[noreturn]] void throw_not_broadcastable(std::string_view function, const shape& a,
                                          const shape& b);
[[noreturn]] void throw_bad_dims(std::string_view function, std::span<const std::int64_t> dims,
                                 std::size_t rank);
[[noreturn]] void throw_no_init(std::string_view function, std::string_view why);
[[noreturn]] void throw_temp_too_small(std::string_view function, std::size_t need,
                                       std::size_t got);
[[noreturn]] void throw_rank(std::string_view function, std::string_view argument,
                             std::string_view expected, std::size_t rank);
[[noreturn]] void throw_index_out_of_range(std::string_view function, std::int64_t position,
                                           std::int64_t index, std::int64_t size);
[[noreturn]] void throw_overlap(std::string_view function, std::string_view a, std::string_view b);

// Whether the memory two views span (from their lowest to their highest element) overlaps; empty
// views overlap nothing.
template <class A, class B>
bool spans_overlap(const view<A>& a, const view<B>& b) noexcept {
  if (a.empty() || b.empty()) return false;
  auto span = [](const auto& v, const char*& lo, const char*& hi) {
    std::int64_t first = 0, last = 0;
    for (std::size_t d = 0; d < v.rank(); ++d) {
      const std::int64_t reach = (v.shape()[d] - 1) * v.strides()[d];
      (reach < 0 ? first : last) += reach;
    }
    using E = typename std::remove_reference_t<decltype(v)>::element_type;
    lo = reinterpret_cast<const char*>(v.data() + first);
    hi = reinterpret_cast<const char*>(v.data() + last) + sizeof(E);
  };
  const char *alo, *ahi, *blo, *bhi;
  span(a, alo, ahi);
  span(b, blo, bhi);
  return alo < bhi && blo < ahi;
}

// A reduction's dimensions as a mask over `rank` dimensions (a repeated dim counts once).
std::uint32_t dims_mask(std::string_view function, std::span<const std::int64_t> dims,
                        std::size_t rank);

}  // namespace ak::detail
