// ak_bench: the program behind `ak bench` (bench_cli.hpp), which runs it with its own arguments.
// It also runs on its own: `build/bin/ak_bench --ops sort`.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "ak/core/error.hpp"
#include "bench_cli.hpp"

int main(int argc, char** argv) {
  CLI::App app{ak::tool::bench_description, "ak bench"};
  ak::tool::bench_options bench;
  ak::tool::add_bench_options(&app, bench);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0) std::cerr << app.help();
    return app.exit(e);
  }
  try {
    return ak::tool::run_bench(bench);
  } catch (const ak::error& e) {
    std::cerr << "ak: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "ak: internal error: " << e.what() << "\n";
    return 3;
  }
}
