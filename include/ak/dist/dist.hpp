// ak::dist: ak's algorithms across processes (MPI). Link ak::dist; docs/distributed.md.
#pragma once

#include "ak/dist/accumulate.hpp"    // IWYU pragma: export
#include "ak/dist/communicator.hpp"  // IWYU pragma: export
#include "ak/dist/redistribute.hpp"  // IWYU pragma: export
#include "ak/dist/reduce.hpp"        // IWYU pragma: export
#include "ak/dist/search.hpp"        // IWYU pragma: export
#include "ak/dist/sort.hpp"          // IWYU pragma: export
