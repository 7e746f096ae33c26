// The cpu backend's tuning defaults: the only place its tuning values live. Nothing includes this
// file, so changing a value here recompiles this file alone; the runtime reads the values when the
// backend loads (DESIGN.md section 2).
#include "ak/runtime/backend_defaults.hpp"
#include "cpu_backend.hpp"

namespace ak::cpu::detail {

const char* register_tuning_defaults(const ak_host_v1* host) {
  plugin::tuning_defaults d(host);
  // CPU tasks want enough work to hide scheduling (~10 us) and to stream whole pages.
  d.add(reduce_hook{}, "*", "*", {.cpu_tasks = 0, .cpu_grain = 1 << 16});
  d.add(scan_hook{}, "*", "*", {.cpu_grain = 1 << 16});
  d.add(map_hook{}, "*", "*", {.cpu_grain = 1 << 15});
  d.add(search_hook{}, "*", "*", {.cpu_grain = 1 << 12});
  d.add(select_hook{}, "*", "*", {.cpu_grain = 1 << 16});
  // Radix sort for numbers, merge sort where a comparison sort is needed. Radix digits of up to
  // 11 bits: a 32-bit key takes an MSD pass and two in-cache passes, a 64-bit key five (8-bit
  // digits measured 1.4x slower on uint32 and int64 at n = 1e7, docs/benchmarks/README.md).
  d.add(sort_hook{}, "*", "*",
        {.algorithm = sort_algorithm::radix,
         .radix_digit_bits = 11,
         .sample_oversampling = 16,
         .cpu_grain = 1 << 14,
         .radix_vector_run = 64});
  d.add(sort_hook{}, "*", "bool", {.algorithm = sort_algorithm::radix, .radix_digit_bits = 1});
  // In-cache runs go to the vector sort (Highway's vqsort) from 64 keys: int64 58.5 ms against
  // 83.3 with LSD passes, float64 66.1 against 123.8 (1e7, AMD EPYC with AVX-512); and since the
  // float prefix and the prefetched passes of 2026-12-07, 4-byte keys too (1e7 uniform, 2 threads:
  // float32 52.6 against 62.1 ms, uint32 26.7 against 31.5, int32 43.4 against 56.2; the same
  // within the noise where few keys differ), though two 11-bit LSD passes had been faster for
  // them before (docs/benchmarks/README.md, issue 25).
  // sortperm of 4-byte keys sorts each key packed with its index in one 64-bit number, with the
  // vector sort for in-cache runs from 64: float32 1.47x (1e7) and 1.43x (1e8) faster on 2
  // threads, 1.39x on one, than moving keys and 8-byte indices side by side (Xeon VM with
  // AVX-512, docs/benchmarks/README.md, issue 25).
  for (const char* four_bytes : {"uint32", "int32", "float32"})
    d.add(sort_hook{}, "*", four_bytes, {.radix_packed_run = 64});
  return d.status();
}

}  // namespace ak::cpu::detail
