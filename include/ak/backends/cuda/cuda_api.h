/* The cuda backend's extension table: what kernels compiled in other translation units (the
 * plugin's precompiled entry points, a user's own nvcc-compiled code) need from the plugin
 * libak_cuda.so to run on its devices. The plugin exports `ak_cuda_api_table_v1` (a const
 * ak_cuda_api_v1); ak/backends/cuda/launch.cuh finds it through
 * ak::backend_extension("cuda", AK_CUDA_API_SYMBOL). Plain C, as the backend table is. */
#ifndef AK_BACKENDS_CUDA_CUDA_API_H
#define AK_BACKENDS_CUDA_CUDA_API_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AK_CUDA_API_VERSION 1u
#define AK_CUDA_API_SYMBOL "ak_cuda_api_table_v1"

typedef struct ak_cuda_api_v1 {
  uint32_t version; /* AK_CUDA_API_VERSION */
  /* The stream (a cudaStream_t) of device `ordinal` on which ak orders all its work on that
   * device: launches, allocations from the stream-ordered pool, copies. NULL: no such device. */
  void* (*stream)(int64_t ordinal);
  /* Remembers the kernel launched last on a device, so that an error that surfaces later (at the
   * next wait) can name it. */
  void (*note_launch)(int64_t ordinal, const char* kernel);
  /* Waits for every piece of work enqueued on the device's stream; NULL on success, else a
   * message naming the CUDA error and the last kernel launched. */
  const char* (*wait)(int64_t ordinal);
} ak_cuda_api_v1;

#ifdef __cplusplus
}
#endif

#endif /* AK_BACKENDS_CUDA_CUDA_API_H */
