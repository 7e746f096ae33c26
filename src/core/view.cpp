#include "ak/core/view.hpp"

#include <limits>
#include <string>

namespace ak::detail {

namespace {
std::string dims_to_string(std::span<const std::int64_t> dims) {
  std::string s = "(";
  for (std::size_t k = 0; k < dims.size(); ++k) {
    if (k > 0) s += ", ";
    s += std::to_string(dims[k]);
  }
  s += ')';
  return s;
}
}  // namespace

void throw_bad_dim(std::string_view function, std::string_view argument, std::int64_t dim,
                   std::size_t rank) {
  const std::string arg(argument);
  const std::string expected = rank == 0
                                   ? "a dimension of the view, which has rank 0 and none"
                                   : "0 <= " + arg + " < " + std::to_string(rank) + " (the rank)";
  throw argument_error(function, argument, expected, std::to_string(dim));
}

void throw_out_of_range(std::string_view function, std::string_view argument, std::int64_t value,
                        std::int64_t low, std::int64_t high, bool high_inclusive) {
  const std::string arg(argument);
  throw argument_error(
      function, argument,
      std::to_string(low) + " <= " + arg + (high_inclusive ? " <= " : " < ") + std::to_string(high),
      std::to_string(value));
}

void throw_zero_step(std::string_view function) {
  throw argument_error(function, "step", "a nonzero step", "0");
}

void throw_index_count(std::string_view function, std::size_t count, std::size_t rank) {
  throw argument_error(function, "indices", std::to_string(rank) + " indices (one per dimension)",
                       std::to_string(count));
}

void throw_index_out_of_range(std::string_view function, std::size_t d, std::int64_t index,
                              std::int64_t extent) {
  const std::string arg = "indices[" + std::to_string(d) + "]";
  throw_out_of_range(function, arg, index, 0, extent, false);
}

void throw_not_host_accessible(std::string_view function, std::string_view device_name) {
  throw argument_error(function, "view", "memory that the host can access",
                       "memory of device " + std::string(device_name));
}

void throw_not_contiguous(std::string_view function, const shape& s, const strides& st) {
  throw argument_error(
      function, "view",
      "a contiguous view (row-major strides " + row_major_strides(s).to_string() + ")",
      "strides " + st.to_string() + " for shape " + s.to_string());
}

void throw_reshape_size(std::string_view function, const shape& from, const shape& to) {
  throw argument_error(
      function, "shape",
      "a shape of " + std::to_string(from.size()) + " elements, as " + from.to_string(),
      to.to_string() + " with " + std::to_string(to.size()) + " elements");
}

void throw_bad_permutation(std::string_view function, std::span<const std::int64_t> dims,
                           std::size_t rank) {
  const std::string expected = rank == 0 ? std::string("no dims (the view has rank 0)")
                                         : "a permutation of 0.." + std::to_string(rank - 1) +
                                               " (" + std::to_string(rank) + " distinct dims)";
  throw argument_error(function, "dims", expected, dims_to_string(dims));
}

void check_strides(std::string_view function, const shape& s, const strides& st) {
  if (st.rank() != s.rank())
    throw argument_error(function, "strides",
                         std::to_string(s.rank()) + " strides, as shape " + s.to_string(),
                         std::to_string(st.rank()) + " strides " + st.to_string());
  constexpr std::int64_t limit = std::numeric_limits<std::int64_t>::max();
  std::int64_t span = 0;  // largest |offset| of an element, as if no extent were 0
  for (std::size_t d = 0; d < s.rank(); ++d) {
    const std::int64_t steps = s[d] > 1 ? s[d] - 1 : 0;
    // |INT64_MIN| does not fit: compare in unsigned.
    const std::uint64_t stride =
        st[d] >= 0 ? static_cast<std::uint64_t>(st[d]) : 0 - static_cast<std::uint64_t>(st[d]);
    const std::uint64_t room = static_cast<std::uint64_t>(limit - span);
    if (steps != 0 && stride > room / static_cast<std::uint64_t>(steps))
      throw argument_error(function, "strides",
                           "strides whose offsets fit in int64 for shape " + s.to_string(),
                           st.to_string());
    span += static_cast<std::int64_t>(stride * static_cast<std::uint64_t>(steps));
  }
}

}  // namespace ak::detail
