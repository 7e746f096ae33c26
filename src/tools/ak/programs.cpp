#include "programs.hpp"

#include <system_error>

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

}  // namespace ak::tool
