// The sub-commands of the `ak` tool.
#pragma once

#include <string>

namespace ak::tool {

struct info_options {
  bool json = false;
  bool all = false;  // also load every discoverable backend plugin
  std::string device;
};
int run_info(const info_options& o);

struct demo_options {
  std::string device = "cpu";
};
int run_demo(const demo_options& o);

}  // namespace ak::tool
