// Everything of ak's public API.
#pragma once

#include "ak/algorithms/algorithm_values.hpp"
#include "ak/backends/cpu.hpp"
#include "ak/core/array.hpp"
#include "ak/core/dtype.hpp"
#include "ak/core/error.hpp"
#include "ak/core/memory.hpp"
#include "ak/core/shape.hpp"
#include "ak/core/view.hpp"
#include "ak/runtime/device.hpp"
#include "ak/runtime/hooks.hpp"
#include "ak/runtime/tuning.hpp"
#include "ak/version.hpp"
