#include "ak/version.hpp"

namespace ak {
std::string_view version_string() noexcept {
  return AK_VERSION_STRING;
}
}  // namespace ak
