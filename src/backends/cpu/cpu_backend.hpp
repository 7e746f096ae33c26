// Internals of the cpu backend shared by its translation units.
#pragma once

#include <string>

#include "ak/plugin/backend_api.h"

namespace ak::cpu::detail {

// Registers the cpu backend's tuning defaults (cpu_tuning_defaults.cpp).
const char* register_tuning_defaults(const ak_host_v1* host);

// Chooses the vector code's instruction set from AK_CPU_TARGET (vector_sort.cpp); returns what is
// wrong with its value, or "".
std::string apply_vector_target_env();

}  // namespace ak::cpu::detail
