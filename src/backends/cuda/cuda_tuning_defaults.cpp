// Every tuning value of the cuda backend, per compute capability ("sm_80", "sm_89", "sm_90": the
// device class the plugin gives each GPU) with a default for any other ("*"). Nothing includes
// this file: changing a value recompiles it alone, and a program picks the new values up when
// it loads the rebuilt plugin.
#include "cuda_tuning_defaults.hpp"
#include "ak/runtime/backend_defaults.hpp"

namespace ak::cuda_backend {

const char* register_tuning_defaults(const ak_host_v1* host) {
  ak::plugin::tuning_defaults d(host);
  using ak::scan_algorithm;
  using ak::sort_algorithm;

  // Any NVIDIA GPU (Volta and later): 256-wide blocks, decoupled look-back (every such GPU has
  // the device-scope fence and forward progress it needs), 8-bit radix digits. Reductions read
  // one element a load (vector_width 1): the figures in docs/benchmarks were measured so, and
  // vector loads have not been measured on a GPU yet (scripts/gpu_sweep.sh sweeps them).
  d.add(ak::reduce_hook{}, "*", "*",
        {.block_size = 256, .items_per_thread = 16, .vector_width = 1, .switch_below = 4096});
  d.add(ak::scan_hook{}, "*", "*",
        {.block_size = 256,
         .items_per_thread = 8,
         .algorithm = scan_algorithm::decoupled_lookback,
         .sub_group_width = 32});
  d.add(ak::sort_hook{}, "*", "*",
        {.algorithm = sort_algorithm::radix,
         .radix_digit_bits = 8,
         .block_size = 256,
         .merge_tile_size = 2048,
         .radix_items_per_thread = 4});
  d.add(ak::map_hook{}, "*", "*", {.block_size = 256, .items_per_thread = 4});
  d.add(ak::search_hook{}, "*", "*", {.block_size = 256});
  d.add(ak::select_hook{}, "*", "*", {.block_size = 256, .items_per_thread = 8});

  // Hopper (H100, H200): more bytes in flight per multiprocessor to cover its bandwidth.
  d.add(ak::reduce_hook{}, "sm_90", "*",
        {.block_size = 512, .items_per_thread = 16, .vector_width = 1, .switch_below = 8192});
  d.add(ak::scan_hook{}, "sm_90", "*",
        {.block_size = 512,
         .items_per_thread = 16,  // halved for 8-byte types, whose tile would not fit 48 KiB
         .algorithm = scan_algorithm::decoupled_lookback,
         .sub_group_width = 32});
  // 8-byte scans: 256-wide tiles of 16 items (0.68 of CUB's int64 scan at 2^28, against 0.60 with
  // 512 x 8; scripts/gpu_sweep.sh on an H200).
  for (const char* eight_bytes : {"int64", "uint64", "float64"})
    d.add(ak::scan_hook{}, "sm_90", eight_bytes,
          {.block_size = 256,
           .items_per_thread = 16,
           .algorithm = scan_algorithm::decoupled_lookback,
           .sub_group_width = 32});
  d.add(ak::map_hook{}, "sm_90", "*", {.block_size = 256, .items_per_thread = 8});
  // Radix tiles of 512 x 4 keys (about 1.15x faster than 256 x 4 there; 1024 x 4 was slower) and
  // merge runs of 1024 elements per group (1.2x to 1.4x faster than 2048).
  d.add(ak::sort_hook{}, "sm_90", "*",
        {.algorithm = sort_algorithm::radix,
         .radix_digit_bits = 8,
         .block_size = 512,
         .merge_tile_size = 1024,
         .radix_items_per_thread = 4});

  // Ampere A100 (sm_80) and Ada (sm_89) keep the generic values above.
  return d.status();
}

}  // namespace ak::cuda_backend
