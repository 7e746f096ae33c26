// Every GPU algorithm of ak written in the kernel language (docs/kernel_language.md).
#pragma once

#include "ak/gpu/algorithms.hpp"
#include "ak/gpu/buffer.hpp"
#include "ak/gpu/dims.hpp"
#include "ak/gpu/elementwise.hpp"
#include "ak/gpu/histogram.hpp"
#include "ak/gpu/radix_select.hpp"
#include "ak/gpu/radix_sort.hpp"
#include "ak/gpu/search.hpp"
#include "ak/gpu/segmented_sort.hpp"
#include "ak/gpu/select.hpp"
#include "ak/gpu/sort.hpp"
