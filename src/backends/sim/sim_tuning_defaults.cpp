// Every tuning value of the sim backend, per device profile. Nothing includes this file: changing
// a value recompiles it alone. Values follow the GPUs each profile stands in for, so that the
// GPU algorithms' tuned paths (block sizes, sub-group widths, the scan algorithm) are exercised
// on every profile. The radix tiles differ per profile (2, 4 or 8 keys per work-item) so that
// every tile shape is tested in CI.
#include "ak/runtime/backend_defaults.hpp"
#include "profiles.hpp"

namespace ak::sim_backend {

const char* register_tuning_defaults(const ak_host_v1* host) {
  ak::plugin::tuning_defaults d(host);
  using ak::scan_algorithm;
  using ak::sort_algorithm;

  // NVIDIA-like: 256-wide blocks, decoupled look-back.
  d.add(ak::reduce_hook{}, "sim_nvidia", "*",
        {.block_size = 256, .items_per_thread = 8, .vector_width = 4, .switch_below = 4096});
  d.add(ak::scan_hook{}, "sim_nvidia", "*",
        {.block_size = 256,
         .items_per_thread = 8,
         .algorithm = scan_algorithm::decoupled_lookback,
         .sub_group_width = 32});
  d.add(ak::sort_hook{}, "sim_nvidia", "*",
        {.algorithm = sort_algorithm::radix,
         .radix_digit_bits = 8,
         .block_size = 256,
         .merge_tile_size = 2048,
         .radix_items_per_thread = 4});
  d.add(ak::map_hook{}, "sim_nvidia", "*", {.block_size = 256, .items_per_thread = 4});
  d.add(ak::search_hook{}, "sim_nvidia", "*", {.block_size = 256});
  d.add(ak::select_hook{}, "sim_nvidia", "*", {.block_size = 256, .items_per_thread = 8});

  // AMD-like: wave64, wider blocks.
  d.add(ak::reduce_hook{}, "sim_amd", "*",
        {.block_size = 512, .items_per_thread = 8, .vector_width = 4, .switch_below = 8192});
  d.add(ak::scan_hook{}, "sim_amd", "*",
        {.block_size = 512,
         .items_per_thread = 4,
         .algorithm = scan_algorithm::decoupled_lookback,
         .sub_group_width = 64});
  d.add(ak::sort_hook{}, "sim_amd", "*",
        {.algorithm = sort_algorithm::radix,
         .radix_digit_bits = 8,
         .block_size = 512,
         .merge_tile_size = 4096,
         .radix_items_per_thread = 8});
  d.add(ak::map_hook{}, "sim_amd", "*", {.block_size = 256, .items_per_thread = 4});
  d.add(ak::search_hook{}, "sim_amd", "*", {.block_size = 256});
  d.add(ak::select_hook{}, "sim_amd", "*", {.block_size = 512, .items_per_thread = 8});

  // Intel-like: sub-group 16, smaller blocks.
  d.add(ak::reduce_hook{}, "sim_intel", "*",
        {.block_size = 256, .items_per_thread = 4, .vector_width = 2, .switch_below = 4096});
  d.add(ak::scan_hook{}, "sim_intel", "*",
        {.block_size = 256,
         .items_per_thread = 4,
         .algorithm = scan_algorithm::decoupled_lookback,
         .sub_group_width = 16});
  d.add(ak::sort_hook{}, "sim_intel", "*",
        {.algorithm = sort_algorithm::radix,
         .radix_digit_bits = 4,
         .block_size = 256,
         .merge_tile_size = 2048,
         .radix_items_per_thread = 2});
  d.add(ak::map_hook{}, "sim_intel", "*", {.block_size = 128, .items_per_thread = 4});
  d.add(ak::search_hook{}, "sim_intel", "*", {.block_size = 128});
  d.add(ak::select_hook{}, "sim_intel", "*", {.block_size = 128, .items_per_thread = 8});

  // Apple-like: no device-scope fence, so the scan is reduce-then-scan; merge sort for floats.
  d.add(ak::reduce_hook{}, "sim_apple", "*",
        {.block_size = 256, .items_per_thread = 4, .vector_width = 4, .switch_below = 2048});
  d.add(ak::scan_hook{}, "sim_apple", "*",
        {.block_size = 256,
         .items_per_thread = 4,
         .algorithm = scan_algorithm::reduce_then_scan,
         .sub_group_width = 32});
  d.add(ak::sort_hook{}, "sim_apple", "*",
        {.algorithm = sort_algorithm::radix,
         .radix_digit_bits = 4,
         .block_size = 256,
         .merge_tile_size = 1024,
         .radix_items_per_thread = 4});
  d.add(ak::sort_hook{}, "sim_apple", "float", {.algorithm = sort_algorithm::merge});
  d.add(ak::map_hook{}, "sim_apple", "*", {.block_size = 128, .items_per_thread = 8});
  d.add(ak::search_hook{}, "sim_apple", "*", {.block_size = 128});
  d.add(ak::select_hook{}, "sim_apple", "*", {.block_size = 128, .items_per_thread = 8});
  return d.status();
}

}  // namespace ak::sim_backend
