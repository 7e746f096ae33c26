#pragma once

#include <string_view>

namespace ak {
// The version of the ak library the program runs against ("0.1.0").
std::string_view version_string() noexcept;
}  // namespace ak
