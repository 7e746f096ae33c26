// The standard operators, the order of DESIGN.md section 6, and what ak knows about them.
//
// ak::plus, ak::multiplies, ak::minimum, ak::maximum, ak::bit_and, ak::bit_or, ak::bit_xor,
// ak::logical_and and ak::logical_or are the operators the precompiled entry points cover (the
// std functors std::plus<> etc. map onto them). Any other callable works through the header
// templates. An operator passed to reduce or accumulate must be associative; it need not be
// commutative: ak combines partial results in the order of the elements.
#pragma once

#include <cmath>
#include <concepts>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <type_traits>

namespace ak {

namespace detail {
// Integer arithmetic that wraps (as in Julia) without C++'s undefined signed overflow: computed
// in the unsigned type of at least int's width.
template <class T>
using wrapping_t = std::make_unsigned_t<std::common_type_t<T, unsigned>>;
}  // namespace detail

// Same-typed arithmetic keeps its type (int8 + int8 is an int8) rather than promoting to int;
// integers wrap.
struct plus {
  template <class A, class B>
  constexpr auto operator()(const A& a, const B& b) const {
    if constexpr (std::is_same_v<A, B> && std::is_integral_v<A> && !std::is_same_v<A, bool>)
      return static_cast<A>(static_cast<detail::wrapping_t<A>>(a) +
                            static_cast<detail::wrapping_t<A>>(b));
    else if constexpr (std::is_same_v<A, B> && std::is_arithmetic_v<A>)
      return static_cast<A>(a + b);
    else
      return a + b;
  }
};
struct multiplies {
  template <class A, class B>
  constexpr auto operator()(const A& a, const B& b) const {
    if constexpr (std::is_same_v<A, B> && std::is_integral_v<A> && !std::is_same_v<A, bool>)
      return static_cast<A>(static_cast<detail::wrapping_t<A>>(a) *
                            static_cast<detail::wrapping_t<A>>(b));
    else if constexpr (std::is_same_v<A, B> && std::is_arithmetic_v<A>)
      return static_cast<A>(a * b);
    else
      return a * b;
  }
};
// min and max that propagate NaN, as Julia's min/max do: a NaN anywhere makes the result NaN.
struct minimum_op {
  template <class T>
  constexpr T operator()(const T& a, const T& b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (a != a) return a;
      if (b != b) return b;
      // -0.0 is less than +0.0 in ak's order.
      if (a == b) return std::signbit(a) ? a : b;
    }
    return b < a ? b : a;
  }
};
struct maximum_op {
  template <class T>
  constexpr T operator()(const T& a, const T& b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (a != a) return a;
      if (b != b) return b;
      if (a == b) return std::signbit(a) ? b : a;
    }
    return a < b ? b : a;
  }
};
struct bit_and {
  template <class T>
  constexpr T operator()(const T& a, const T& b) const {
    return static_cast<T>(a & b);
  }
};
struct bit_or {
  template <class T>
  constexpr T operator()(const T& a, const T& b) const {
    return static_cast<T>(a | b);
  }
};
struct bit_xor {
  template <class T>
  constexpr T operator()(const T& a, const T& b) const {
    return static_cast<T>(a ^ b);
  }
};
struct logical_and {
  template <class A, class B>
  constexpr bool operator()(const A& a, const B& b) const {
    return static_cast<bool>(a) && static_cast<bool>(b);
  }
};
struct logical_or {
  template <class A, class B>
  constexpr bool operator()(const A& a, const B& b) const {
    return static_cast<bool>(a) || static_cast<bool>(b);
  }
};

// The identity, the default `by`.
struct identity {
  template <class T>
  constexpr T&& operator()(T&& x) const noexcept {
    return static_cast<T&&>(x);
  }
};

// The default `lt`: the total order of DESIGN.md section 6, AK's `isless`. For floats
// -Inf < ... < -0.0 < +0.0 < ... < +Inf < NaN, every NaN equal to every other; other types
// use operator<.
struct isless {
  template <class A, class B>
  constexpr bool operator()(const A& a, const B& b) const {
    if constexpr (std::is_floating_point_v<A> && std::is_floating_point_v<B>) {
      if (b != b) return a == a;  // anything but NaN is less than NaN
      if (a != a) return false;
      if (a == b) return std::signbit(a) && !std::signbit(b);
      return a < b;
    } else {
      return a < b;
    }
  }
};

// Which standard operator an operator is, for the precompiled entry points.
enum class op_kind : std::uint8_t {
  custom,
  plus,
  multiplies,
  minimum,
  maximum,
  bit_and,
  bit_or,
  bit_xor,
  logical_and,
  logical_or
};

namespace detail {
template <class Op>
struct op_kind_of : std::integral_constant<op_kind, op_kind::custom> {};
#define AK_STANDARD_OP(type, kind) \
  template <>                      \
  struct op_kind_of<type> : std::integral_constant<op_kind, op_kind::kind> {}
AK_STANDARD_OP(ak::plus, plus);
AK_STANDARD_OP(std::plus<>, plus);
AK_STANDARD_OP(ak::multiplies, multiplies);
AK_STANDARD_OP(std::multiplies<>, multiplies);
AK_STANDARD_OP(ak::minimum_op, minimum);
AK_STANDARD_OP(ak::maximum_op, maximum);
AK_STANDARD_OP(ak::bit_and, bit_and);
AK_STANDARD_OP(std::bit_and<>, bit_and);
AK_STANDARD_OP(ak::bit_or, bit_or);
AK_STANDARD_OP(std::bit_or<>, bit_or);
AK_STANDARD_OP(ak::bit_xor, bit_xor);
AK_STANDARD_OP(std::bit_xor<>, bit_xor);
AK_STANDARD_OP(ak::logical_and, logical_and);
AK_STANDARD_OP(std::logical_and<>, logical_and);
AK_STANDARD_OP(ak::logical_or, logical_or);
AK_STANDARD_OP(std::logical_or<>, logical_or);
#undef AK_STANDARD_OP
// std::plus<T> and friends for any T act as their transparent forms.
template <class T>
struct op_kind_of<std::plus<T>> : op_kind_of<std::plus<>> {};
template <class T>
struct op_kind_of<std::multiplies<T>> : op_kind_of<std::multiplies<>> {};
template <class T>
struct op_kind_of<std::bit_and<T>> : op_kind_of<std::bit_and<>> {};
template <class T>
struct op_kind_of<std::bit_or<T>> : op_kind_of<std::bit_or<>> {};
template <class T>
struct op_kind_of<std::bit_xor<T>> : op_kind_of<std::bit_xor<>> {};
template <class T>
struct op_kind_of<std::logical_and<T>> : op_kind_of<std::logical_and<>> {};
template <class T>
struct op_kind_of<std::logical_or<T>> : op_kind_of<std::logical_or<>> {};
}  // namespace detail

template <class Op>
inline constexpr op_kind op_kind_v = detail::op_kind_of<std::remove_cvref_t<Op>>::value;

// The neutral element of a standard operator for an arithmetic T, if it has one:
// op(neutral, x) == x.
template <class T, class Op>
constexpr std::optional<T> neutral_element() {
  constexpr op_kind k = op_kind_v<Op>;
  if constexpr (!std::is_arithmetic_v<T>) {
    return std::nullopt;  // ak knows neutral elements of arithmetic types only
  } else if constexpr (k == op_kind::plus || k == op_kind::bit_or || k == op_kind::bit_xor) {
    return T(0);
  } else if constexpr (k == op_kind::multiplies) {
    return T(1);
  } else if constexpr (k == op_kind::logical_and) {
    return T(true);
  } else if constexpr (k == op_kind::logical_or) {
    return T(false);
  } else if constexpr (k == op_kind::bit_and && std::is_same_v<T, bool>) {
    return true;
  } else if constexpr (k == op_kind::bit_and && std::is_integral_v<T>) {
    return static_cast<T>(~T(0));
  } else if constexpr (k == op_kind::minimum && std::numeric_limits<T>::is_specialized) {
    if constexpr (std::numeric_limits<T>::has_infinity)
      return std::numeric_limits<T>::infinity();
    else
      return std::numeric_limits<T>::max();
  } else if constexpr (k == op_kind::maximum && std::numeric_limits<T>::is_specialized) {
    if constexpr (std::numeric_limits<T>::has_infinity)
      return -std::numeric_limits<T>::infinity();
    else
      return std::numeric_limits<T>::lowest();
  } else {
    return std::nullopt;
  }
}

}  // namespace ak
