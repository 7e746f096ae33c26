// Every GPU kernel of the library, in the kernel language only (they compile as CUDA device code:
// tests/sim/nvcc/gpu_kernels_check.cuh instantiates each): the group-level collectives
// (ak/gpu/group/) and one kernel file per algorithm (ak/gpu/kernels/). The host side that sizes,
// resolves and launches them is ak/gpu/algorithms.hpp and the algorithms' own headers.
//
// Operators must be associative (not necessarily commutative: values combine in element order),
// and `init` must be their neutral element: it pads partial tiles and starts every carry.
#pragma once

#include "ak/gpu/group/reduce.hpp"
#include "ak/gpu/group/scan.hpp"
#include "ak/gpu/kernels/dims.hpp"
#include "ak/gpu/kernels/foreach.hpp"
#include "ak/gpu/kernels/histogram.hpp"
#include "ak/gpu/kernels/radix_sort.hpp"
#include "ak/gpu/kernels/reduce.hpp"
#include "ak/gpu/kernels/scan.hpp"
#include "ak/gpu/kernels/search.hpp"
#include "ak/gpu/kernels/segmented_sort.hpp"
#include "ak/gpu/kernels/select.hpp"
