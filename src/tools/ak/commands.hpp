// The sub-commands of the `ak` tool.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// `ak first-ops`: the first and warm times of eight operations in fresh processes (first_ops.cpp).
struct first_ops_options {
  std::string device = "cpu";
  std::string json;       // where to write the figures, if anywhere
  bool baseline = false;  // also run the std::execution::par program
  int runs = 11;          // fresh processes of each program; the figures are their medians
  std::string argv0;      // the ak command's argv[0]: the probes are found beside it
};
int run_first_ops(const first_ops_options& o);

}  // namespace ak::tool
