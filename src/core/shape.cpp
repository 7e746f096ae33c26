#include "ak/core/shape.hpp"

#include <limits>
#include <ostream>

#include "ak/core/error.hpp"

namespace ak {

namespace {

std::string list_to_string(std::span<const std::int64_t> values) {
  std::string s = "(";
  for (std::size_t d = 0; d < values.size(); ++d) {
    if (d > 0) s += ", ";
    s += std::to_string(values[d]);
  }
  s += ')';
  return s;
}

void check_rank(std::string_view function, std::string_view argument,
                std::span<const std::int64_t> values) {
  if (values.size() > max_rank)
    throw argument_error(function, argument, "rank <= " + std::to_string(max_rank),
                         "rank " + std::to_string(values.size()) + " " + list_to_string(values));
}

}  // namespace

std::string detail::int64_list::to_string() const {
  return list_to_string(values());
}

shape::shape(std::span<const std::int64_t> extents) {
  constexpr std::string_view function = "ak::shape";
  check_rank(function, "extents", extents);
  constexpr std::int64_t limit = std::numeric_limits<std::int64_t>::max();
  std::int64_t product = 1;
  bool overflow = false;
  for (std::size_t d = 0; d < extents.size(); ++d) {
    const std::int64_t extent = extents[d];
    if (extent < 0)
      throw argument_error(function, "extents[" + std::to_string(d) + "]", "an extent >= 0",
                           std::to_string(extent));
    // Zeros count as ones: an empty array's strides and offsets must not overflow either.
    if (extent > 0) {
      if (product > limit / extent)
        overflow = true;
      else
        product *= extent;
    }
  }
  if (overflow)
    throw argument_error(
        function, "extents",
        "extents whose product fits in int64 (at most " + std::to_string(limit) + ")",
        list_to_string(extents));
  *this = shape(detail::unchecked, extents);
}

strides::strides(std::span<const std::int64_t> values) {
  check_rank("ak::strides", "strides", values);
  *this = strides(detail::unchecked, values);
}

std::ostream& operator<<(std::ostream& out, const shape& s) {
  return out << s.to_string();
}
std::ostream& operator<<(std::ostream& out, const strides& s) {
  return out << s.to_string();
}

}  // namespace ak
