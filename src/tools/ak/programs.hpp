// The programs installed next to the ak command (the first-ops probes, the bench), found from a
// running `ak`.
#pragma once

#include <filesystem>
#include <string>

namespace ak::tool {

// `name` in the folder of this executable, or of argv[0] when a loader runs it
// (`ld-linux.so ak first-ops`, as scripts/gpu_check.sh may); where it is in neither, the path it
// would have beside this executable, and `found` is false.
struct program_path {
  std::filesystem::path path;
  bool found = false;
};
program_path program_beside_ak(const std::string& name, const std::string& argv0);

// `ak SUBCOMMAND ARGS` run as `PROGRAM ARGS`: replaces this process with `program` from the ak
// command's folder, passing the arguments after `subcommand` as they came; when the program is
// not there (or cannot start), prints `not_built` (how to build it) and returns 1.
int exec_beside_ak(int argc, char** argv, const char* subcommand, const std::string& program,
                   const std::string& not_built);

}  // namespace ak::tool
