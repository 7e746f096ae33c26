#include "bench_cli.hpp"

#include <charconv>
#include <cmath>

#include "ak/core/dtype.hpp"
#include "key_distributions.hpp"
#include "programs.hpp"

namespace ak::tool {

const std::vector<std::string>& bench_op_names() {
  // The order of the table: reduce-like, element-wise, sorts, sorts with keys, dims.
  static const std::vector<std::string> names{"reduce",
                                              "mapreduce",
                                              "minimum",
                                              "count",
                                              "any",
                                              "all",
                                              "map",
                                              "broadcast",
                                              "accumulate",
                                              "sort",
                                              "sort_custom",
                                              "sort_custom_unstable",
                                              "sort_struct",
                                              "sortperm",
                                              "sort_by_key",
                                              "searchsorted",
                                              "findall",
                                              "copy_if",
                                              "partition",
                                              "unique",
                                              "run_length_encode",
                                              "findmin",
                                              "histogram",
                                              "reduce_by_key",
                                              "accumulate_by_key",
                                              "segmented_reduce",
                                              "merge",
                                              "partialsort",
                                              "sort_rows",
                                              "sort_tiny_rows",
                                              "sum_dims0",
                                              "sum_dims1"};
  return names;
}

// "1e7", "2.5e6", "10000000" -> the size; nullopt unless a whole number in [1, 2^40].
std::optional<std::int64_t> parse_bench_size(std::string_view s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !(v >= 1) || v > 1099511627776.0 ||
      v != std::floor(v))
    return std::nullopt;
  return static_cast<std::int64_t>(v);
}

void add_bench_options(CLI::App* cmd, bench_options& o) {
  std::vector<std::string> op_choices = bench_op_names();
  op_choices.push_back("all");
  cmd->add_option("--ops", o.ops,
                  "Ops, comma-separated, or all alone for every op (in a list, all is the op "
                  "ak::all; default: reduce,mapreduce,map,accumulate,sort)")
      ->delimiter(',')
      ->check(CLI::IsMember(op_choices));
  std::vector<std::string> dtype_choices;
  for (dtype t : all_dtypes)
    if (t != dtype::bool_) dtype_choices.emplace_back(name_of(t));
  cmd->add_option("--dtypes", o.dtypes, "Element types, comma-separated (default: per op)")
      ->delimiter(',')
      ->check(CLI::IsMember(dtype_choices));
  const auto whole_number = [](const char* name) {
    return CLI::Validator(
        [](std::string& s) {
          return parse_bench_size(s) ? std::string() : "not a whole number from 1 to 2^40: " + s;
        },
        name);
  };
  cmd->add_option("--n", o.n, "Sizes, comma-separated: 1e7,1e8 or 10000000 (default: 1e7)")
      ->delimiter(',')
      ->check(whole_number("SIZE"));
  std::vector<std::string> dist_choices(key_dist_names.begin(), key_dist_names.end());
  cmd->add_option("--dist", o.dists,
                  "Key distributions of the sort op, comma-separated (those of the ips4o paper; "
                  "default: uniform)")
      ->delimiter(',')
      ->check(CLI::IsMember(dist_choices));
  cmd->add_option("--runs", o.runs,
                  "Mean lengths of the runs of equal keys of reduce_by_key, accumulate_by_key, "
                  "segmented_reduce (its segments), unique and run_length_encode, "
                  "comma-separated: 1,1e3,1e6 (default: 4)")
      ->delimiter(',')
      ->check(whole_number("LENGTH"));
  cmd->add_option("--json", o.json, "Also write the figures to FILE as JSON rows");
  cmd->add_flag("--vs-defaults", o.vs_defaults,
                "Also time ak without the device's autotune cache, as the peer 'ak (defaults)', "
                "in alternation with ak as tuned (`ak tune`)");
}

int exec_bench(int argc, char** argv) {
  return exec_beside_ak(argc, argv, "bench", "ak_bench",
                        "It compiles every peer library for every dtype (minutes on 2 cores), so "
                        "the quick start leaves it out; build it with\n"
                        "  cmake --build build --target ak_bench\n");
}

}  // namespace ak::tool
