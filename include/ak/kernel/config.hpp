// Compiler glue of the kernel language: the same kernel source is compiled as host code (g++,
// clang: the sim backend runs it on the CPU) and as device code (nvcc, for the cuda backend).
#pragma once

#if defined(__CUDACC__)
// Callable from kernels and from the host (nvcc compiles both sides).
#define AK_KERNEL_FN __host__ __device__
#else
#define AK_KERNEL_FN
#endif

// Small helpers of the kernel language that must inline into every kernel.
#define AK_KERNEL_INLINE inline AK_KERNEL_FN
