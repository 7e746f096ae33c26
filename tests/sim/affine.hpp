// Shared by the sim tests: a non-commutative associative operator, composition of affine maps
// x -> a*x + b (mod 2^32), with the identity as its neutral element. Callable in kernels compiled
// by nvcc as well (tests/kernel/kernel_language_bodies.hpp).
#pragma once

#include <cstdint>

#include "ak/kernel/config.hpp"

namespace ak_sim_test {

struct affine {
  std::uint32_t a, b;
  friend bool operator==(const affine&, const affine&) = default;
};
struct compose {
  // First f, then g.
  AK_KERNEL_FN affine operator()(affine f, affine g) const { return {g.a * f.a, g.a * f.b + g.b}; }
};
constexpr affine identity{1, 0};

}  // namespace ak_sim_test
