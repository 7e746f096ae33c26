// The standard operators, the order of DESIGN.md section 6, and what ak knows about them.
//
// ak::plus, ak::multiplies, ak::minimum, ak::maximum, ak::bit_and, ak::bit_or, ak::bit_xor,
// ak::logical_and and ak::logical_or are the operators the precompiled entry points cover (the
// std functors std::plus<> etc. map onto them). Any other callable works through the header
// templates. An operator passed to reduce or accumulate must be associative; it need not be
// commutative: ak combines partial results in the order of the elements.
#pragma once

#include <bit>
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

// ---- the order of DESIGN.md section 6, written once ---------------------------------------------
//
// -Inf < ... < -0.0 < +0.0 < ... < +Inf < NaN for floats, every NaN equal to every other and last;
// integers (and bool) by value. ordered_key(x) is an unsigned integer of T's size whose order is
// that order: signed integers flip their sign bit; floats flip every bit when negative and the
// sign bit otherwise (so -0.0 < +0.0), and every NaN maps to the largest key. The cpu and GPU
// radix sorts sort by it, and ak::isless compares by it; constexpr, so kernels call it too.

// The unsigned integer of T's size.
template <class T>
using ordered_key_t = std::conditional_t<
    sizeof(T) == 1, std::uint8_t,
    std::conditional_t<sizeof(T) == 2, std::uint16_t,
                       std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

// The arithmetic types the order's keys are defined for.
template <class T>
inline constexpr bool has_ordered_key_v = std::is_arithmetic_v<T> &&
                                          (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 ||
                                           sizeof(T) == 8);

template <class T>
constexpr ordered_key_t<T> ordered_key(T x) noexcept {
  static_assert(has_ordered_key_v<T>, "ordered_key takes integers and floating-point types");
  using U = ordered_key_t<T>;
  constexpr U sign = static_cast<U>(U{1} << (8 * sizeof(T) - 1));
  if constexpr (std::is_same_v<T, bool>) {
    return static_cast<U>(x ? 1 : 0);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (x != x) return static_cast<U>(~U{0});
    // Without a branch on the sign (random signs would mispredict half of the time): flip all
    // bits (mask ~0) when negative, the sign bit (mask `sign`) otherwise.
    const U bits = std::bit_cast<U>(x);
    const U negative = static_cast<U>(0 - static_cast<U>(bits >> (8 * sizeof(T) - 1)));
    return static_cast<U>(bits ^ static_cast<U>(negative | sign));
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<U>(static_cast<U>(x) ^ sign);
  } else {
    return static_cast<U>(x);
  }
}

// The value whose ordered_key is u: ordered_key's inverse. A float's NaNs share one key, which
// gives back one NaN (its payload and sign are lost); every other float comes back bit for bit.
// clang-format off
template <class T>
  requires has_ordered_key_v<T>
constexpr T from_ordered_key(ordered_key_t<T> u) noexcept {
  // clang-format on
  using U = ordered_key_t<T>;
  if constexpr (std::is_same_v<T, bool>) {
    return u != 0;
  } else if constexpr (std::is_floating_point_v<T>) {
    constexpr U sign = static_cast<U>(U{1} << (8 * sizeof(T) - 1));
    // Branch-free as ordered_key: clear the sign bit when set, flip every bit otherwise.
    const U positive = static_cast<U>(static_cast<U>(u >> (8 * sizeof(T) - 1)) - 1);
    return std::bit_cast<T>(static_cast<U>(u ^ static_cast<U>(positive | sign)));
  } else if constexpr (std::is_signed_v<T>) {
    constexpr U sign = static_cast<U>(U{1} << (8 * sizeof(T) - 1));
    return static_cast<T>(static_cast<U>(u ^ sign));
  } else {
    return static_cast<T>(u);
  }
}

// The default `lt` of sorts and searches, AK's `isless`: a < b in the order above (two floats of
// different types in their common type); other types use operator<. A floating-point type with no
// key of its size (long double) takes the same order from comparisons.
struct isless {
  template <class A, class B>
  constexpr bool operator()(const A& a, const B& b) const {
    if constexpr (std::is_floating_point_v<A> && std::is_floating_point_v<B>) {
      using C = std::common_type_t<A, B>;
      const C x = static_cast<C>(a), y = static_cast<C>(b);
      if constexpr (has_ordered_key_v<C>) {
        return ordered_key(x) < ordered_key(y);
      } else {
        if (y != y) return x == x;  // anything but NaN is less than NaN
        if (x != x) return false;
        if (x == y) return std::signbit(x) && !std::signbit(y);
        return x < y;
      }
    } else if constexpr (std::is_same_v<A, B> && has_ordered_key_v<A>) {
      return ordered_key(a) < ordered_key(b);
    } else {
      return a < b;
    }
  }
};

// Equality in the same order, AK's `isequal`: a and b are equal when neither is less than the
// other (every NaN equals every NaN; -0.0 differs from +0.0); other types use operator==. The
// default equality of unique and run_length_encode.
struct isequal {
  template <class A, class B>
  constexpr bool operator()(const A& a, const B& b) const {
    if constexpr (std::is_floating_point_v<A> && std::is_floating_point_v<B>) {
      // What !isless(a, b) && !isless(b, a) gives, in two comparisons.
      using C = std::common_type_t<A, B>;
      const C x = static_cast<C>(a), y = static_cast<C>(b);
      return x == y ? std::signbit(x) == std::signbit(y) : (x != x && y != y);
    } else {
      return a == b;
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

// A neutral element e of op with op(e, x) equal to x bit for bit for every x, if ak knows one: a
// fold may then start from e in place of its first element. neutral_element for integers and
// bool; for floating point, -0.0 for plus (0.0 + -0.0 is +0.0) and 1 for multiplies, and none for
// the others (minimum and maximum order NaN). A signalling NaN comes out quiet, as from any
// arithmetic on it.
template <class T, class Op>
constexpr std::optional<T> exact_neutral_element() {
  if constexpr (std::is_floating_point_v<T>) {
    if constexpr (op_kind_v<Op> == op_kind::plus)
      return -T(0);
    else if constexpr (op_kind_v<Op> == op_kind::multiplies)
      return T(1);
    else
      return std::nullopt;
  } else {
    return neutral_element<T, Op>();
  }
}

}  // namespace ak
