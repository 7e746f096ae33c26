#include "programs.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <system_error>
#include <vector>

namespace ak::tool {

namespace fs = std::filesystem;

program_path program_beside_ak(const std::string& name, const std::string& argv0) {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const fs::path p = (ec ? fs::path(".") : self.parent_path()) / name;
  if (fs::exists(p, ec)) return {p, true};
  if (!argv0.empty()) {
    const fs::path beside_argv0 = fs::path(argv0).parent_path() / name;
    if (fs::exists(beside_argv0, ec)) return {beside_argv0, true};
  }
  return {p, false};
}

int exec_beside_ak(int argc, char** argv, const char* subcommand, const std::string& program,
                   const std::string& not_built) {
  const program_path p = program_beside_ak(program, argc > 0 ? argv[0] : "");
  if (!p.found) {
    std::cerr << "ak: error: ak " << subcommand << ": the program '" << p.path.string()
              << "' is not built. " << not_built;
    return 1;
  }
  int first = 1;
  while (first < argc && std::strcmp(argv[first], subcommand) != 0) ++first;
  std::vector<std::string> args{p.path.string()};
  for (int i = first + 1; i < argc; ++i) args.emplace_back(argv[i]);
  std::vector<char*> cargs;
  for (auto& a : args) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  std::cout.flush();
  ::execv(p.path.c_str(), cargs.data());
  std::cerr << "ak: error: ak " << subcommand << ": cannot run '" << p.path.string()
            << "': " << std::strerror(errno) << "\n";
  return 1;
}

}  // namespace ak::tool
