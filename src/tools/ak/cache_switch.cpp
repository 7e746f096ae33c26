#include "cache_switch.hpp"

#include <stdlib.h>

#include <filesystem>

#include "ak/core/error.hpp"
#include "ak/runtime/tuning.hpp"

namespace ak::tool {

cache_switch::cache_switch() {
  std::string dir = (std::filesystem::temp_directory_path() / "ak-no-cache-XXXXXX").string();
  if (!::mkdtemp(dir.data())) throw ak::error("cannot create a temporary folder in " + dir);
  empty_ = dir;
  if (const char* v = std::getenv("AK_TUNING_CACHE_DIR")) saved_ = v;
}

cache_switch::~cache_switch() {
  try {
    use_cache(true);
  } catch (...) {  // the files were read before; a reread that fails leaves them as they were
  }
  std::error_code ec;
  std::filesystem::remove_all(empty_, ec);
}

void cache_switch::point_at(const std::optional<std::string>& dir) {
  if (dir)
    ::setenv("AK_TUNING_CACHE_DIR", dir->c_str(), 1);
  else
    ::unsetenv("AK_TUNING_CACHE_DIR");
}

bool cache_switch::use_cache(bool on) {
  if (on == on_) return false;
  point_at(on ? saved_ : std::optional<std::string>(empty_));
  on_ = on;
  ak::reload_tuning_files();
  return true;
}

}  // namespace ak::tool
