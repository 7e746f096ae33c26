// Registers the cuda backend's tuning defaults (cuda_tuning_defaults.cpp, the one file that holds
// them: changing a value recompiles that file alone).
#pragma once

#include "ak/plugin/backend_api.h"

namespace ak::cuda_backend {
const char* register_tuning_defaults(const ak_host_v1* host);
}
