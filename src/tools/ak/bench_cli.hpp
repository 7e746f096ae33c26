// `ak bench`'s command line, shared by the ak command and the bench program (ak_bench) it runs.
// The bench compiles every peer library for every dtype, minutes of compiling, so it is a
// program of its own: the ak command builds without it, checks `ak bench`'s arguments itself and
// then runs ak_bench from its own folder with the same arguments.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ak::tool {

inline constexpr const char* bench_description =
    "ak and peer libraries (std::execution::par, TBB, ips4o, Boost.Sort, pdqsort) side by side, "
    "with the memory bandwidth measured in the same run";

// `ak bench`: empty lists take the defaults. Exit status 4 when a peer's result differs from
// ak's.
struct bench_options {
  std::vector<std::string> ops;     // op names, or "all"
  std::vector<std::string> dtypes;  // dtype names; empty: each op's own defaults
  std::vector<std::string> n;       // sizes: "1e7", "10000000"
  std::string json;                 // where to write the rows, if anywhere
  bool vs_defaults = false;         // also time ak without its autotune cache ("ak (defaults)")
  std::vector<std::string> dists;   // key distributions of the sorts; empty: uniform
  std::vector<std::string> runs;    // mean lengths of the runs of equal keys: "1e6"; empty: 4
};

// The options of `ak bench`, checked as they are parsed, on `cmd` (the ak command's subcommand or
// the bench program's own app).
void add_bench_options(CLI::App* cmd, bench_options& o);

// The op names `ak bench --ops` takes, in the order of the table (the one list of them), and the
// parser of --n's sizes (whole numbers, scientific notation allowed).
const std::vector<std::string>& bench_op_names();
std::optional<std::int64_t> parse_bench_size(std::string_view s);

// The ak command's `ak bench ARGS`: replaces this process with `ak_bench ARGS` from the ak
// command's folder, or returns 1 with how to build it when it is not there.
int exec_bench(int argc, char** argv);

// The bench program's work (bench.cpp).
int run_bench(const bench_options& o);

}  // namespace ak::tool
