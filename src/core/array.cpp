#include "ak/core/array.hpp"

#include <cstddef>
#include <limits>
#include <string>

namespace ak::detail {

std::size_t checked_byte_size(std::string_view function, std::string_view argument, const shape& s,
                              std::size_t element_size) {
  // PTRDIFF_MAX, not SIZE_MAX: pointer differences across the array must be defined.
  constexpr auto limit = static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());
  const auto count = static_cast<std::size_t>(s.size());
  if (element_size != 0 && count > limit / element_size)
    throw argument_error(function, argument,
                         "at most " + std::to_string(limit / element_size) + " elements of " +
                             std::to_string(element_size) + " bytes",
                         s.to_string() + " with " + std::to_string(s.size()) + " elements");
  return count * element_size;
}

void throw_size_mismatch(std::string_view function, std::string_view argument,
                         std::int64_t expected, std::int64_t actual, const shape* expected_shape) {
  std::string expected_text = std::to_string(expected) + " elements";
  if (expected_shape != nullptr) expected_text += " (shape " + expected_shape->to_string() + ")";
  throw argument_error(function, argument, expected_text, std::to_string(actual) + " elements");
}

}  // namespace ak::detail
