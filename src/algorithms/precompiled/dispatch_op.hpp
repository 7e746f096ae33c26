// Calls f(op) with the standard operator object that an op_kind names, for the precompiled
// entry points. Bitwise operators exist for integers only.
#pragma once

#include <string>
#include <type_traits>

#include "ak/core/error.hpp"
#include "ak/core/operators.hpp"

namespace ak::detail {

template <class T, bool BitwiseToo, class F>
decltype(auto) with_standard_op(op_kind k, const char* function, F&& f) {
  switch (k) {
    case op_kind::plus:
      return f(plus{});
    case op_kind::multiplies:
      return f(multiplies{});
    case op_kind::minimum:
      return f(minimum_op{});
    case op_kind::maximum:
      return f(maximum_op{});
    default:
      break;
  }
  if constexpr (BitwiseToo) {
    switch (k) {
      case op_kind::logical_and:
        return f(logical_and{});
      case op_kind::logical_or:
        return f(logical_or{});
      default:
        break;
    }
    if constexpr (std::is_integral_v<T>) {
      switch (k) {
        case op_kind::bit_and:
          return f(bit_and{});
        case op_kind::bit_or:
          return f(bit_or{});
        case op_kind::bit_xor:
          return f(bit_xor{});
        default:
          break;
      }
    }
  }
  throw argument_error(std::string(function) +
                       ": argument 'op': this standard operator does not apply to the element "
                       "type (bitwise operators need integers)");
}

}  // namespace ak::detail
