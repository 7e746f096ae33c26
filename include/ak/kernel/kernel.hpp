// The portable kernel language: include this to write kernels (docs/kernel_language.md).
#pragma once

#include "ak/kernel/config.hpp"
#include "ak/kernel/context.hpp"
#include "ak/kernel/types.hpp"
