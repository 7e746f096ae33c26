// array<T>: an owning, row-major n-d array in one memory space (host memory by default). It knows
// where its bytes live, which is how algorithms pick the device they run on. Move-only.
//
// Beware: array<int> a({1, 2, 3}) makes an uninitialised array of shape (1, 2, 3); to copy the
// elements 1, 2, 3 pass a container: array<int> a(std::vector<int>{1, 2, 3}).
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "ak/core/memory.hpp"
#include "ak/core/shape.hpp"
#include "ak/core/view.hpp"

namespace ak {

namespace detail {

// Bytes of `count` elements of `element_size` bytes; throws argument_error (naming argument)
// when they exceed PTRDIFF_MAX.
std::size_t checked_byte_size(std::string_view function, std::string_view argument, const shape& s,
                              std::size_t element_size);
[[noreturn]] void throw_size_mismatch(std::string_view function, std::string_view argument,
                                      std::int64_t expected, std::int64_t actual,
                                      const shape* expected_shape);

// Host ranges an array<T> can copy its elements from: any sized input range of T, contiguous
// or not (std::vector<bool> is not). Shapes and strides are ranges of int64 too, but never data.
// clang-format 14 mangles C++20 requires-clauses and concepts:
// clang-format off
template <class R, class T>
concept sized_range_of =
    std::ranges::input_range<const R> && std::ranges::sized_range<const R> &&
    std::same_as<std::ranges::range_value_t<const R>, T> && !std::is_base_of_v<int64_list, R>;
// clang-format on

// Host staging buffers for fills of memory the host cannot touch: at most this many bytes.
inline constexpr std::size_t staging_bytes = 64 * 1024;

}  // namespace detail

template <class T>
class array {
  static_assert(std::is_trivially_copyable_v<T>,
                "ak::array<T>: T must be trivially copyable; its bytes are copied between memory "
                "spaces");
  static_assert(!std::is_const_v<T> && !std::is_volatile_v<T>,
                "ak::array<T>: T must not be const or volatile");

 public:
  using value_type = T;

  // An empty 1-d array (shape (0)) in host memory.
  array() noexcept : shape_(detail::make_1d<ak::shape>(0)), memory_(&host_memory()) {}

  // Uninitialised elements (as new memory is on a device). Allocates nothing when empty.
  explicit array(ak::shape extents, const memory_space& memory = host_memory())
      : shape_(extents), memory_(&memory) {
    const std::size_t bytes = detail::checked_byte_size("ak::array", "shape", shape_, sizeof(T));
    if (bytes != 0) {
      data_ = static_cast<T*>(memory_->allocate(bytes, alignof(T)));
      allocated_ = bytes;
    }
  }

  // Every element equal to fill. Memory that the host cannot touch is filled from a host buffer.
  array(ak::shape extents, const T& fill, const memory_space& memory = host_memory())
      : array(extents, memory) {
    // Delegated: the array exists now, so its destructor frees the memory if filling throws.
    fill_with(fill);
  }

  // A 1-d copy of host data (a std::vector, std::span, std::array, ...).
  // clang-format off
  template <class R>
    requires detail::sized_range_of<R, T>
  explicit array(const R& data, const memory_space& memory = host_memory())
      : array(detail::make_1d<ak::shape>(static_cast<std::int64_t>(std::ranges::size(data))),
              memory) {
    // clang-format on
    assign_from(data);
  }

  // A copy of host data with the given shape, whose size must be that of data.
  // clang-format off
  template <class R>
    requires detail::sized_range_of<R, T>
  array(const R& data, ak::shape extents, const memory_space& memory = host_memory())
      : array(checked_data_shape(extents, static_cast<std::int64_t>(std::ranges::size(data))),
              memory) {
    // clang-format on
    assign_from(data);
  }

  array(const array&) = delete;
  array& operator=(const array&) = delete;

  // The source is left empty (shape (0)) in its memory space.
  array(array&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        shape_(std::exchange(other.shape_, detail::make_1d<ak::shape>(0))),
        memory_(other.memory_),
        allocated_(std::exchange(other.allocated_, 0)) {}

  array& operator=(array&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      shape_ = std::exchange(other.shape_, detail::make_1d<ak::shape>(0));
      memory_ = other.memory_;
      allocated_ = std::exchange(other.allocated_, 0);
    }
    return *this;
  }

  ~array() { release(); }

  // A copy in the same memory space.
  array clone() const {
    array copy(shape_, *memory_);
    const std::size_t bytes = byte_size();
    if (bytes == 0) return copy;
    if (memory_->host_accessible()) {
      memory_->copy_from_host(copy.data_, data_, bytes);
    } else {
      // memory_space has no device-to-device copy: go through the host.
      array staging(shape_);
      memory_->copy_to_host(staging.data_, data_, bytes);
      memory_->copy_from_host(copy.data_, staging.data_, bytes);
    }
    return copy;
  }

  // Keeps the first n elements of a 1-d array (0 <= n <= size()) where they are: nothing is moved
  // or reallocated, and the memory of the rest is freed with the array (at once when n is 0).
  // Anything else is an argument_error that changes nothing.
  void truncate(std::int64_t n) {
    if (rank() != 1)
      throw argument_error("ak::array::truncate", "this", "a 1-d array",
                           "rank " + std::to_string(rank()));
    if (n < 0 || n > size())
      throw argument_error("ak::array::truncate", "n", "0 <= n <= " + std::to_string(size()),
                           std::to_string(n));
    shape_ = detail::make_1d<ak::shape>(n);
    if (n == 0) release();
  }

  std::size_t rank() const noexcept { return shape_.rank(); }
  const ak::shape& shape() const noexcept { return shape_; }
  std::int64_t size() const noexcept { return shape_.size(); }
  bool empty() const noexcept { return size() == 0; }
  // nullptr when empty.
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  const memory_space& memory() const noexcept { return *memory_; }
  std::string_view device_name() const noexcept { return memory_->device_name(); }

  ak::view<T> view() noexcept {
    return ak::view<T>(detail::unchecked, data_, shape_, row_major_strides(shape_), *memory_);
  }
  ak::view<const T> view() const noexcept {
    return ak::view<const T>(detail::unchecked, data_, shape_, row_major_strides(shape_), *memory_);
  }
  operator ak::view<T>() noexcept { return view(); }
  operator ak::view<const T>() const noexcept { return view(); }

  // Element access for host-accessible memory: unchecked, and checked (see view::at).
  template <std::integral... I>
  T& operator()(I... indices) noexcept {
    return view()(indices...);
  }
  template <std::integral... I>
  const T& operator()(I... indices) const noexcept {
    return view()(indices...);
  }
  template <std::integral... I>
  T& at(I... indices) {
    return view().at(indices...);
  }
  template <std::integral... I>
  const T& at(I... indices) const {
    return view().at(indices...);
  }

  // The elements in row-major order, copied to the host.
  std::vector<T> to_vector() const {
    const std::size_t n = static_cast<std::size_t>(size());
    if constexpr (std::is_same_v<T, bool>) {
      // std::vector<bool> packs bits: copy to host bools first.
      if (memory_->host_accessible()) return std::vector<bool>(data_, data_ + n);
      array staging(shape_);
      memory_->copy_to_host(staging.data_, data_, byte_size());
      return std::vector<bool>(staging.data_, staging.data_ + n);
    } else {
      std::vector<T> out(n);
      if (n != 0) memory_->copy_to_host(out.data(), data_, byte_size());
      return out;
    }
  }

  // Copies the elements in row-major order to host memory of exactly size() elements. Throws
  // argument_error, writing nothing, when the sizes differ.
  void copy_to(std::span<T> destination) const {
    check_host_size("ak::array::copy_to", "destination", destination.size());
    if (!destination.empty()) memory_->copy_to_host(destination.data(), data_, byte_size());
  }

  // Replaces the elements, in row-major order, by host memory of exactly size() elements.
  // Throws argument_error, changing nothing, when the sizes differ.
  void copy_from(std::span<const T> source) {
    check_host_size("ak::array::copy_from", "source", source.size());
    if (!source.empty()) memory_->copy_from_host(data_, source.data(), byte_size());
  }

 private:
  std::size_t byte_size() const noexcept { return static_cast<std::size_t>(size()) * sizeof(T); }

  void release() noexcept {
    if (data_ != nullptr) memory_->deallocate(data_, allocated_, alignof(T));
    data_ = nullptr;
    allocated_ = 0;
  }

  static ak::shape checked_data_shape(const ak::shape& extents, std::int64_t count) {
    if (extents.size() != count)
      detail::throw_size_mismatch("ak::array", "data", extents.size(), count, &extents);
    return extents;
  }

  void check_host_size(std::string_view function, std::string_view argument,
                       std::size_t count) const {
    if (static_cast<std::int64_t>(count) != size())
      detail::throw_size_mismatch(function, argument, size(), static_cast<std::int64_t>(count),
                                  nullptr);
  }

  template <class R>
  void assign_from(const R& data) {
    if (empty()) return;
    if constexpr (std::ranges::contiguous_range<const R>) {
      memory_->copy_from_host(data_, std::ranges::data(data), byte_size());
    } else if (memory_->host_accessible()) {
      T* out = data_;
      for (auto&& element : data) std::construct_at(out++, element);
    } else {
      array staging(shape_);
      staging.assign_from(data);
      memory_->copy_from_host(data_, staging.data_, byte_size());
    }
  }

  void fill_with(const T& value) {
    const std::int64_t n = size();
    if (n == 0) return;
    if (memory_->host_accessible()) {
      std::uninitialized_fill_n(data_, n, value);
      return;
    }
    // Send one host chunk of copies repeatedly: bounded host memory for any size.
    constexpr std::int64_t chunk_elements =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(detail::staging_bytes / sizeof(T)));
    const std::int64_t chunk = std::min(n, chunk_elements);
    const array staging(detail::make_1d<ak::shape>(chunk), value);
    for (std::int64_t done = 0; done < n; done += chunk) {
      const std::int64_t count = std::min(chunk, n - done);
      memory_->copy_from_host(data_ + done, staging.data_,
                              static_cast<std::size_t>(count) * sizeof(T));
    }
  }

  T* data_ = nullptr;
  ak::shape shape_;
  const memory_space* memory_;
  std::size_t allocated_ = 0;  // bytes at data_: size() * sizeof(T), or more after truncate
};

// clang-format off
template <class R>
  requires detail::sized_range_of<R, std::ranges::range_value_t<const R>>
array(const R&) -> array<std::ranges::range_value_t<const R>>;
template <class R>
  requires detail::sized_range_of<R, std::ranges::range_value_t<const R>>
array(const R&, const memory_space&) -> array<std::ranges::range_value_t<const R>>;
template <class R>
  requires detail::sized_range_of<R, std::ranges::range_value_t<const R>>
array(const R&, shape) -> array<std::ranges::range_value_t<const R>>;
template <class R>
  requires detail::sized_range_of<R, std::ranges::range_value_t<const R>>
array(const R&, shape, const memory_space&) -> array<std::ranges::range_value_t<const R>>;
// clang-format on

template <class T>
view(array<T>&) -> view<T>;
template <class T>
view(const array<T>&) -> view<const T>;

}  // namespace ak
