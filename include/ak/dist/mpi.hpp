// A communicator over any MPI communicator (ak::dist::world() is MPI_COMM_WORLD's). Includes
// mpi.h; the rest of ak::dist does not.
#pragma once

#include <mpi.h>

#include "ak/dist/communicator.hpp"

namespace ak::dist {

// ak's collectives run on a duplicate of `comm` (MPI_Comm_dup, freed with the last copy of the
// communicator), so they never match the program's own messages, and report MPI errors as
// ak::dist_error rather than aborting.
communicator mpi_communicator(MPI_Comm comm);

}  // namespace ak::dist
