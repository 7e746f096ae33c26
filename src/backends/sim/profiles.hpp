// The devices sim pretends to be. Each is a device of the sim backend (sim:<index>) with its
// own device class, so that each registers and looks up its own tunings.
#pragma once

#include <cstdint>

#include "ak/plugin/backend_api.h"

namespace ak::sim_backend {

struct profile {
  const char* device_class;
  const char* description;
  std::int64_t sub_group_width;
  std::int64_t local_memory_bytes;
  std::int64_t max_group_size;
  std::int64_t compute_units;
  std::uint64_t capabilities;
};

inline constexpr std::uint64_t full_caps = AK_CAP_DEVICE_SCOPE_FENCE | AK_CAP_FORWARD_PROGRESS |
                                           AK_CAP_ATOMICS64 | AK_CAP_FLOAT64 | AK_CAP_SUB_GROUPS;

// sim:0 .. sim:3, in this order.
inline constexpr profile profiles[] = {
    {"sim_nvidia", "NVIDIA-like GPU (simulated)", 32, 48 << 10, 1024, 132, full_caps},
    {"sim_amd", "AMD-like GPU (simulated)", 64, 64 << 10, 1024, 104, full_caps},
    {"sim_intel", "Intel-like GPU (simulated)", 16, 64 << 10, 1024, 64, full_caps},
    // Metal: relaxed atomics only, no device-scope fence, no forward-progress guarantee between
    // threadgroups, no double precision, no 64-bit atomics.
    {"sim_apple", "Apple-like GPU (simulated)", 32, 32 << 10, 1024, 38, AK_CAP_SUB_GROUPS},
};

inline constexpr std::int64_t profile_count = sizeof(profiles) / sizeof(profiles[0]);

// Registers every profile's tuning defaults (sim_tuning_defaults.cpp, the one file that holds
// sim's tuning values).
const char* register_tuning_defaults(const ak_host_v1* host);

}  // namespace ak::sim_backend
