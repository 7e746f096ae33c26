// ak: information about backends, devices and tunings; demos; benchmarks against peer libraries.
#include <CLI/CLI.hpp>
#include <iostream>

#include "ak/core/dtype.hpp"
#include "ak/core/error.hpp"
#include "bench_cli.hpp"
#include "cli_main.hpp"
#include "commands.hpp"
#include "programs.hpp"
#include "tune.hpp"

int main(int argc, char** argv) {
  CLI::App app{"ak: parallel algorithms on CPUs and GPUs"};
  app.require_subcommand(1);

  ak::tool::info_options info;
  auto* info_cmd = app.add_subcommand(
      "info", "Backends, devices, capabilities and every effective tuning with its source");
  info_cmd->add_flag("--json", info.json, "Print JSON instead of text");
  info_cmd->add_flag("--all", info.all, "Also load every backend plugin that can be found");
  info_cmd->add_option("--device", info.device, "Only this device (loads its backend)");

  ak::tool::demo_options demo;
  auto* demo_cmd = app.add_subcommand("demo", "A short tour of ak on one device");
  demo_cmd->add_option("--device", demo.device, "Device to run on")->capture_default_str();

  ak::tool::first_ops_options first;
  auto* first_cmd = app.add_subcommand(
      "first-ops",
      "First and warm times of broadcast, gather, sum, sum along dims, accumulate, sort, any and "
      "4-d broadcast on small arrays, each run in a fresh process, and the total wall time");
  first_cmd->add_option("--device", first.device, "Device to run on")->capture_default_str();
  first_cmd->add_option("--json", first.json, "Also write the figures to FILE as JSON");
  first_cmd->add_flag("--baseline", first.baseline,
                      "Also run the same operations written with std::execution::par");
  first_cmd->add_option("--runs", first.runs, "Fresh processes per program (medians are reported)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));

  ak::tool::tune_options tune;
  std::vector<std::string> tune_n;
  auto* tune_cmd = app.add_subcommand(
      "tune",
      "Measure the fastest tuning values on this machine and write the device's autotune cache, "
      "which every program reads at run time (docs/tuning.md)");
  tune_cmd->add_option("--device", tune.device, "Device to tune")->capture_default_str();
  tune_cmd
      ->add_option("--ops", tune.ops,
                   "Ops to tune: " + ak::tool::tune_op_names() + " or all (default: all)")
      ->delimiter(',');
  tune_cmd
      ->add_option("--dtypes", tune.dtypes,
                   "Element types (default: " + ak::tool::tune_default_dtypes() + ")")
      ->delimiter(',');
  tune_cmd
      ->add_option("--n", tune_n,
                   "Sizes to tune at, each on its own: the cache keeps one value where all agree, "
                   "else each size's (default: each op's size in `ak bench`)")
      ->delimiter(',')
      ->check([](const std::string& s) {
        return ak::tool::parse_bench_size(s) ? std::string() : "not a size: " + s;
      });
  tune_cmd->add_option("--budget", tune.budget_seconds, "Seconds to spend in all")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  tune_cmd->add_flag("--dry-run", tune.dry_run, "Print the cache it would write; write nothing");
  tune_cmd->add_option("--json", tune.json, "Also write the report to FILE as JSON");
  tune_cmd
      ->add_option("--min-speedup", tune.min_speedup,
                   "Keep a value when its speedup, less its spread, reaches this (0 keeps the "
                   "fastest correct value, as tests do)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);

  // `ak bench` runs the bench program beside this one (bench_cli.hpp); its options are checked
  // here too, so that `ak bench --help` and a bad argument answer without it.
  ak::tool::bench_options bench;
  auto* bench_cmd = app.add_subcommand("bench", ak::tool::bench_description);
  ak::tool::add_bench_options(bench_cmd, bench);

  // `ak dist-bench` runs ak_dist_bench (src/tools/ak/dist_bench.cpp, built with ak::dist when
  // CMake finds MPI) under the same mpirun, with its arguments as they came.
  auto* dist_bench_cmd = app.add_subcommand(
      "dist-bench",
      "ak::dist's sort and scan across MPI ranks: per phase time, bytes sent per element and the "
      "largest rank's share (mpirun -np P ak dist-bench [--n LIST] [--dists LIST] [--dtype T] "
      "[--repeats K] [--json FILE]; --help lists them)");
  dist_bench_cmd->prefix_command();
  dist_bench_cmd->set_help_flag();

  return ak::tool::parse_and_run(app, argc, argv, [&] {
    if (*info_cmd) return ak::tool::run_info(info);
    if (*demo_cmd) return ak::tool::run_demo(demo);
    if (*first_cmd) {
      first.argv0 = argv[0];
      return ak::tool::run_first_ops(first);
    }
    if (*tune_cmd) {
      for (const auto& n : tune_n) tune.n.push_back(*ak::tool::parse_bench_size(n));
      return ak::tool::run_tune(tune);
    }
    if (*bench_cmd) return ak::tool::exec_bench(argc, argv);
    if (*dist_bench_cmd)
      return ak::tool::exec_beside_ak(
          argc, argv, "dist-bench", "ak_dist_bench",
          "It is built with ak::dist when CMake finds MPI (Debian: libopenmpi-dev, "
          "openmpi-bin); build it with\n  cmake --build build --target ak_dist_bench\n");
    return 2;
  });
}
