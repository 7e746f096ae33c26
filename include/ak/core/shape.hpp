// N-d shapes and element strides: small values with room for max_rank entries inline, so that
// views and arrays carry them without allocating and copy them cheaply.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <span>
#include <string>

namespace ak {

inline constexpr std::size_t max_rank = 8;

namespace detail {

// Selects constructors that skip validation, for values that ak has already checked.
struct unchecked_t {
  explicit unchecked_t() = default;
};
inline constexpr unchecked_t unchecked{};

// What shape and strides share: up to max_rank int64 values.
class int64_list {
 public:
  using value_type = std::int64_t;
  using const_iterator = const std::int64_t*;

  std::size_t rank() const noexcept { return rank_; }
  // Unchecked: d < rank().
  std::int64_t operator[](std::size_t d) const noexcept { return values_[d]; }
  const std::int64_t* begin() const noexcept { return values_.data(); }
  const std::int64_t* end() const noexcept { return values_.data() + rank_; }
  std::span<const std::int64_t> values() const noexcept { return {values_.data(), rank_}; }
  // "(3, 4, 5)"; "(3)" for rank 1, "()" for rank 0.
  std::string to_string() const;

 protected:
  constexpr int64_list() noexcept = default;
  constexpr int64_list(unchecked_t, std::span<const std::int64_t> values) noexcept
      : rank_(values.size()) {
    for (std::size_t d = 0; d < rank_; ++d) values_[d] = values[d];
  }
  bool equals(const int64_list& other) const noexcept {
    if (rank_ != other.rank_) return false;
    for (std::size_t d = 0; d < rank_; ++d)
      if (values_[d] != other.values_[d]) return false;
    return true;
  }

 private:
  std::array<std::int64_t, max_rank> values_{};
  std::size_t rank_ = 0;
};

}  // namespace detail

// Extents of an n-d array. Invariants, checked on construction: rank <= max_rank, every extent
// >= 0, and the product of the extents, counting zeros as ones, fits in int64 (so size(),
// row-major strides and every offset into a row-major array do too).
class shape : public detail::int64_list {
 public:
  // Rank 0: a single element.
  constexpr shape() noexcept = default;
  // Throw argument_error when an invariant does not hold.
  shape(std::initializer_list<std::int64_t> extents)
      : shape(std::span<const std::int64_t>(extents.begin(), extents.size())) {}
  explicit shape(std::span<const std::int64_t> extents);
  // For extents that already satisfy the invariants.
  constexpr shape(detail::unchecked_t, std::span<const std::int64_t> extents) noexcept
      : int64_list(detail::unchecked, extents) {}

  // Number of elements: the product of the extents; 1 for rank 0, 0 if any extent is 0.
  std::int64_t size() const noexcept {
    std::int64_t n = 1;
    for (std::int64_t extent : *this) n *= extent;
    return n;
  }

  friend bool operator==(const shape& a, const shape& b) noexcept { return a.equals(b); }
};

// Element strides (not bytes) of an n-d view; any value, negative and zero included.
class strides : public detail::int64_list {
 public:
  constexpr strides() noexcept = default;
  // Throw argument_error for rank > max_rank.
  strides(std::initializer_list<std::int64_t> values)
      : strides(std::span<const std::int64_t>(values.begin(), values.size())) {}
  explicit strides(std::span<const std::int64_t> values);
  constexpr strides(detail::unchecked_t, std::span<const std::int64_t> values) noexcept
      : int64_list(detail::unchecked, values) {}

  friend bool operator==(const strides& a, const strides& b) noexcept { return a.equals(b); }
};

std::ostream& operator<<(std::ostream& out, const shape& s);
std::ostream& operator<<(std::ostream& out, const strides& s);

// Strides of a row-major (C order) array of shape s: the last dimension varies fastest.
// Zero extents count as one, so these never overflow (see shape's invariants).
inline strides row_major_strides(const shape& s) noexcept {
  std::array<std::int64_t, max_rank> values{};
  std::int64_t step = 1;
  for (std::size_t d = s.rank(); d-- > 0;) {
    values[d] = step;
    step *= s[d] > 0 ? s[d] : 1;
  }
  return strides(detail::unchecked, std::span<const std::int64_t>(values.data(), s.rank()));
}

namespace detail {
// A rank-1 shape or strides with one value that ak knows is valid.
template <class List>
constexpr List make_1d(std::int64_t value) noexcept {
  return List(unchecked, std::span<const std::int64_t>(&value, 1));
}
}  // namespace detail

}  // namespace ak
