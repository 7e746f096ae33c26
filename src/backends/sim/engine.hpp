// The sim engine's entry points, exported to kernels' headers as the ak_sim_api_v1 table.
#pragma once

#include <cstdint>

#include "ak/backends/sim/sim_api.h"

namespace ak::sim_backend {

std::int32_t launch(std::int64_t device, const ak_sim_launch_v1* launch, const char** message);
std::int32_t barrier(ak_sim_item_v1* item, const char* file, std::int32_t line);
const void* sub_group_exchange(ak_sim_item_v1* item, const void* value, std::uint32_t bytes,
                               std::int32_t op, const char* file, std::int32_t line);
std::int32_t poll(ak_sim_item_v1* item, const void* address);
void fail(ak_sim_item_v1* item, const char* message);
void set_seed(std::uint64_t seed);
std::uint64_t seed();

}  // namespace ak::sim_backend
