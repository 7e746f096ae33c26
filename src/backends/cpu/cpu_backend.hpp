// Internals of the cpu backend shared by its translation units.
#pragma once

#include "ak/plugin/backend_api.h"

namespace ak::cpu::detail {

// Registers the cpu backend's tuning defaults (cpu_tuning_defaults.cpp).
const char* register_tuning_defaults(const ak_host_v1* host);

}  // namespace ak::cpu::detail
