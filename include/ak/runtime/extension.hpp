// Backend extensions: what a backend plugin offers beyond the backend table, for that backend's
// own headers (the sim backend's kernel launcher, ak/backends/sim/launch.hpp).
#pragma once

#include <string_view>

namespace ak {

// A symbol that a backend plugin exports beyond its entry point, such as the table of the
// backend's own API (`ak_sim_api_table_v1`). Loads the backend if needed (throws
// ak::backend_error as ak::load_backend does); nullptr when the backend is built in or does not
// export the symbol.
const void* backend_extension(std::string_view backend, const char* symbol);

}  // namespace ak
