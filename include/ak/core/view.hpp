// view<T>: a non-owning n-d window onto elements in a memory space, with any element strides.
// Cheap to copy. It says nothing about lifetime: whoever made it keeps the memory alive.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <ranges>
#include <span>
#include <string_view>
#include <type_traits>

#include "ak/core/error.hpp"
#include "ak/core/memory.hpp"
#include "ak/core/shape.hpp"

namespace ak {

namespace detail {

// Error paths, out of line: they format a message and throw argument_error.
[[noreturn]] void throw_bad_dim(std::string_view function, std::string_view argument,
                                std::int64_t dim, std::size_t rank);
// "expected <low> <= <argument> < <high>" (or <= <high> when high_inclusive).
[[noreturn]] void throw_out_of_range(std::string_view function, std::string_view argument,
                                     std::int64_t value, std::int64_t low, std::int64_t high,
                                     bool high_inclusive);
[[noreturn]] void throw_zero_step(std::string_view function);
[[noreturn]] void throw_index_count(std::string_view function, std::size_t count, std::size_t rank);
[[noreturn]] void throw_index_out_of_range(std::string_view function, std::size_t d,
                                           std::int64_t index, std::int64_t extent);
[[noreturn]] void throw_not_host_accessible(std::string_view function,
                                            std::string_view device_name);
[[noreturn]] void throw_not_contiguous(std::string_view function, const shape& s,
                                       const strides& st);
[[noreturn]] void throw_reshape_size(std::string_view function, const shape& from, const shape& to);
[[noreturn]] void throw_bad_permutation(std::string_view function,
                                        std::span<const std::int64_t> dims, std::size_t rank);
// Throws unless st has the rank of s and sum((max(extent, 1) - 1) * |stride|) fits in int64, so
// that no offset into the view, nor any slice step times a stride, overflows. Empty views are
// held to it too: slicing one still multiplies its strides.
void check_strides(std::string_view function, const shape& s, const strides& st);

// Checks that dim names one of `rank` dimensions and returns it as an index.
inline std::size_t checked_dim(std::string_view function, std::string_view argument,
                               std::int64_t dim, std::size_t rank) {
  if (dim < 0 || dim >= static_cast<std::int64_t>(rank))
    throw_bad_dim(function, argument, dim, rank);
  return static_cast<std::size_t>(dim);
}

// Host ranges that a view<T> can look at: contiguous, sized, and not about to dangle.
// clang-format 14 mangles C++20 requires-clauses and concepts:
// clang-format off
template <class R, class T>
concept contiguous_range_of =
    std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
    std::ranges::borrowed_range<R> &&
    std::is_convertible_v<std::remove_reference_t<std::ranges::range_reference_t<R>> (*)[],
                          T (*)[]>;
// clang-format on

}  // namespace detail

template <class T>
class view {
 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;

  // An empty 1-d view of host memory.
  view() noexcept
      : view(detail::unchecked, nullptr, detail::make_1d<ak::shape>(0),
             detail::make_1d<ak::strides>(1), host_memory()) {}

  // Row-major elements starting at data.
  view(T* data, ak::shape extents, const memory_space& memory = host_memory()) noexcept
      : view(detail::unchecked, data, extents, row_major_strides(extents), memory) {}

  // Elements at data + sum(index[d] * strides[d]). Throws argument_error when strides has
  // another rank than shape, or when sum((max(extent, 1) - 1) * |stride|) overflows int64 (so
  // no offset, nor any slice of the view, can).
  view(T* data, ak::shape extents, ak::strides element_strides,
       const memory_space& memory = host_memory())
      : view(detail::unchecked, data, extents, element_strides, memory) {
    detail::check_strides("ak::view", shape_, strides_);
  }

  // A 1-d view of a host range: std::vector<T>&, std::span<T>, std::array<T, N>&, ...
  // clang-format off
  template <class R>
    requires detail::contiguous_range_of<R, T>
  view(R&& range) noexcept
      : view(detail::unchecked, std::ranges::data(range),
             detail::make_1d<ak::shape>(static_cast<std::int64_t>(std::ranges::size(range))),
             detail::make_1d<ak::strides>(1), host_memory()) {}
  // clang-format on

  // view<T> -> view<const T>.
  // clang-format off
  template <class U>
    requires(std::is_same_v<const U, T> && !std::is_const_v<U>)
  view(const view<U>& other) noexcept
      : view(detail::unchecked, other.data(), other.shape(), other.strides(), other.memory()) {}
  // clang-format on

  // For shape and strides that ak has already checked.
  view(detail::unchecked_t, T* data, ak::shape extents, ak::strides element_strides,
       const memory_space& memory) noexcept
      : data_(data), shape_(extents), strides_(element_strides), memory_(&memory) {}

  std::size_t rank() const noexcept { return shape_.rank(); }
  const ak::shape& shape() const noexcept { return shape_; }
  const ak::strides& strides() const noexcept { return strides_; }
  std::int64_t size() const noexcept { return shape_.size(); }
  bool empty() const noexcept { return size() == 0; }
  T* data() const noexcept { return data_; }
  const memory_space& memory() const noexcept { return *memory_; }
  std::string_view device_name() const noexcept { return memory_->device_name(); }

  // Row-major contiguous: strides are those of a row-major array, ignoring dimensions of
  // extent 1. An empty view is contiguous.
  bool is_contiguous() const noexcept {
    if (empty()) return true;
    std::int64_t expected = 1;
    for (std::size_t d = rank(); d-- > 0;) {
      if (shape_[d] == 1) continue;
      if (strides_[d] != expected) return false;
      expected *= shape_[d];
    }
    return true;
  }

  // Element access for host-accessible memory, one index per dimension. Unchecked.
  template <std::integral... I>
  T& operator()(I... indices) const noexcept {
    static_assert(sizeof...(I) <= max_rank, "ak::view: more indices than max_rank");
    return data_[offset_of(indices...)];
  }

  // Element access that checks the number of indices, each index and that the host may touch
  // the memory; throws argument_error.
  template <std::integral... I>
  T& at(I... indices) const {
    constexpr std::string_view function = "ak::view::at";
    if (sizeof...(I) != rank()) detail::throw_index_count(function, sizeof...(I), rank());
    if (!memory_->host_accessible()) detail::throw_not_host_accessible(function, device_name());
    if constexpr (sizeof...(I) > 0) {
      const std::array<std::int64_t, sizeof...(I)> index{static_cast<std::int64_t>(indices)...};
      for (std::size_t d = 0; d < index.size(); ++d)
        if (index[d] < 0 || index[d] >= shape_[d])
          detail::throw_index_out_of_range(function, d, index[d], shape_[d]);
    }
    return (*this)(indices...);
  }

  // The elements of dimension dim in [begin, end), every step-th: with step > 0 they are
  // begin, begin + step, ... (< end); with step < 0 they are end - 1, end - 1 + step, ...
  // (>= begin), in that order, as Python's a[begin:end][::step]. Requires
  // 0 <= begin <= end <= extent and step != 0.
  view slice(std::int64_t dim, std::int64_t begin, std::int64_t end, std::int64_t step = 1) const {
    constexpr std::string_view function = "ak::view::slice";
    const std::size_t d = detail::checked_dim(function, "dim", dim, rank());
    const std::int64_t extent = shape_[d];
    if (begin < 0 || begin > extent)
      detail::throw_out_of_range(function, "begin", begin, 0, extent, true);
    if (end < begin || end > extent)
      detail::throw_out_of_range(function, "end", end, begin, extent, true);
    if (step == 0) detail::throw_zero_step(function);
    // Unsigned: |INT64_MIN| does not fit in int64.
    const std::uint64_t abs_step =
        step > 0 ? static_cast<std::uint64_t>(step) : 0 - static_cast<std::uint64_t>(step);
    const std::uint64_t length = static_cast<std::uint64_t>(end - begin);
    const std::int64_t count =
        length == 0 ? 0 : static_cast<std::int64_t>(1 + (length - 1) / abs_step);
    std::array<std::int64_t, max_rank> extents{};
    std::array<std::int64_t, max_rank> steps{};
    copy_dims(extents, steps);
    extents[d] = count;
    // With two or more elements |step| < extent, so step * stride fits (check_strides).
    if (count >= 2) steps[d] = strides_[d] * step;
    const ak::shape result_shape(detail::unchecked, {extents.data(), rank()});
    const std::int64_t first = step > 0 ? begin : end - 1;
    // An empty view keeps its pointer: offsetting it could leave the allocation (or null).
    T* result_data = result_shape.size() == 0 ? data_ : data_ + first * strides_[d];
    return view(detail::unchecked, result_data, result_shape,
                ak::strides(detail::unchecked, {steps.data(), rank()}), *memory_);
  }

  // The (rank - 1)-d view at position i of dimension dim. Requires 0 <= i < extent.
  view index(std::int64_t dim, std::int64_t i) const {
    constexpr std::string_view function = "ak::view::index";
    const std::size_t d = detail::checked_dim(function, "dim", dim, rank());
    if (i < 0 || i >= shape_[d]) detail::throw_out_of_range(function, "i", i, 0, shape_[d], false);
    std::array<std::int64_t, max_rank> extents{};
    std::array<std::int64_t, max_rank> steps{};
    std::size_t kept = 0;
    for (std::size_t k = 0; k < rank(); ++k) {
      if (k == d) continue;
      extents[kept] = shape_[k];
      steps[kept] = strides_[k];
      ++kept;
    }
    const ak::shape result_shape(detail::unchecked, {extents.data(), kept});
    T* result_data = result_shape.size() == 0 ? data_ : data_ + i * strides_[d];
    return view(detail::unchecked, result_data, result_shape,
                ak::strides(detail::unchecked, {steps.data(), kept}), *memory_);
  }

  // The same elements, row-major, with another shape of the same size. Requires a contiguous
  // view (is_contiguous()).
  view reshape(const ak::shape& new_shape) const {
    constexpr std::string_view function = "ak::view::reshape";
    if (new_shape.size() != size()) detail::throw_reshape_size(function, shape_, new_shape);
    if (!is_contiguous()) detail::throw_not_contiguous(function, shape_, strides_);
    return view(detail::unchecked, data_, new_shape, row_major_strides(new_shape), *memory_);
  }

  // Dimension k of the result is dimension dims[k] of this view; dims is a permutation of
  // 0 .. rank - 1.
  view permute(std::span<const std::int64_t> dims) const {
    constexpr std::string_view function = "ak::view::permute";
    if (dims.size() != rank()) detail::throw_bad_permutation(function, dims, rank());
    std::array<bool, max_rank> seen{};
    for (std::size_t k = 0; k < dims.size(); ++k) {
      if (dims[k] < 0 || dims[k] >= static_cast<std::int64_t>(rank()))
        detail::throw_bad_permutation(function, dims, rank());
      if (seen[static_cast<std::size_t>(dims[k])])
        detail::throw_bad_permutation(function, dims, rank());
      seen[static_cast<std::size_t>(dims[k])] = true;
    }
    std::array<std::int64_t, max_rank> extents{};
    std::array<std::int64_t, max_rank> steps{};
    for (std::size_t k = 0; k < dims.size(); ++k) {
      extents[k] = shape_[static_cast<std::size_t>(dims[k])];
      steps[k] = strides_[static_cast<std::size_t>(dims[k])];
    }
    return view(detail::unchecked, data_, ak::shape(detail::unchecked, {extents.data(), rank()}),
                ak::strides(detail::unchecked, {steps.data(), rank()}), *memory_);
  }
  view permute(std::initializer_list<std::int64_t> dims) const {
    return permute(std::span<const std::int64_t>(dims.begin(), dims.size()));
  }

  // All dimensions in reverse order (for rank 2, the matrix transpose).
  view transpose() const noexcept {
    std::array<std::int64_t, max_rank> extents{};
    std::array<std::int64_t, max_rank> steps{};
    for (std::size_t k = 0; k < rank(); ++k) {
      extents[k] = shape_[rank() - 1 - k];
      steps[k] = strides_[rank() - 1 - k];
    }
    return view(detail::unchecked, data_, ak::shape(detail::unchecked, {extents.data(), rank()}),
                ak::strides(detail::unchecked, {steps.data(), rank()}), *memory_);
  }

  // Dimensions dim_a and dim_b swapped.
  view transpose(std::int64_t dim_a, std::int64_t dim_b) const {
    constexpr std::string_view function = "ak::view::transpose";
    const std::size_t a = detail::checked_dim(function, "dim_a", dim_a, rank());
    const std::size_t b = detail::checked_dim(function, "dim_b", dim_b, rank());
    std::array<std::int64_t, max_rank> extents{};
    std::array<std::int64_t, max_rank> steps{};
    copy_dims(extents, steps);
    std::swap(extents[a], extents[b]);
    std::swap(steps[a], steps[b]);
    return view(detail::unchecked, data_, ak::shape(detail::unchecked, {extents.data(), rank()}),
                ak::strides(detail::unchecked, {steps.data(), rank()}), *memory_);
  }

 private:
  template <class... I>
  std::int64_t offset_of(I... indices) const noexcept {
    std::int64_t offset = 0;
    if constexpr (sizeof...(I) > 0) {
      const std::array<std::int64_t, sizeof...(I)> index{static_cast<std::int64_t>(indices)...};
      for (std::size_t d = 0; d < index.size(); ++d) offset += index[d] * strides_[d];
    }
    return offset;
  }

  void copy_dims(std::array<std::int64_t, max_rank>& extents,
                 std::array<std::int64_t, max_rank>& steps) const noexcept {
    for (std::size_t k = 0; k < rank(); ++k) {
      extents[k] = shape_[k];
      steps[k] = strides_[k];
    }
  }

  T* data_;
  ak::shape shape_;
  ak::strides strides_;
  const memory_space* memory_;
};

// clang-format off
template <class R>
  requires std::ranges::contiguous_range<R>
view(R&&) -> view<std::remove_reference_t<std::ranges::range_reference_t<R>>>;
// clang-format on

}  // namespace ak
