#include "ak/core/dtype.hpp"

namespace ak {

namespace {
constexpr std::array<std::string_view, 4> category_names{"bool", "signed", "unsigned", "float"};
}  // namespace

std::string_view name_of(dtype_category c) noexcept {
  return category_names[static_cast<std::size_t>(c)];
}

std::optional<dtype> parse_dtype(std::string_view name) noexcept {
  for (dtype t : all_dtypes)
    if (name_of(t) == name) return t;
  return std::nullopt;
}

std::optional<dtype_category> parse_dtype_category(std::string_view name) noexcept {
  for (std::size_t i = 0; i < category_names.size(); ++i)
    if (category_names[i] == name) return static_cast<dtype_category>(i);
  return std::nullopt;
}

}  // namespace ak
