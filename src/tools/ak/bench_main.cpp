// ak_bench: the program behind `ak bench` (bench_cli.hpp), which runs it with its own arguments.
// It also runs on its own: `build/bin/ak_bench --ops sort`.
#include <CLI/CLI.hpp>

#include "bench_cli.hpp"
#include "cli_main.hpp"

int main(int argc, char** argv) {
  CLI::App app{ak::tool::bench_description, "ak bench"};
  ak::tool::bench_options bench;
  ak::tool::add_bench_options(&app, bench);
  return ak::tool::parse_and_run(app, argc, argv, [&] { return ak::tool::run_bench(bench); });
}
