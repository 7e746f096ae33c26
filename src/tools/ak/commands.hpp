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

// `ak bench`: empty lists take the defaults. Exit status 4 when a peer's result differs from
// ak's.
struct bench_options {
  std::vector<std::string> ops;     // op names, or "all"
  std::vector<std::string> dtypes;  // dtype names; empty: each op's own defaults
  std::vector<std::string> n;       // sizes: "1e7", "10000000"
  std::string json;                 // where to write the rows, if anywhere
};
int run_bench(const bench_options& o);
// For the argument checks: the op names `ak bench --ops` takes, and the parser of --n's sizes
// (whole numbers, scientific notation allowed).
std::vector<std::string> bench_op_names();
std::optional<std::int64_t> parse_bench_size(std::string_view s);

}  // namespace ak::tool
