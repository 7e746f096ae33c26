// The frame of the ak command's main() and of the bench program's (bench_main.cpp): parse the
// command line, run, and turn what is thrown into the command's messages and exit statuses.
#pragma once

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "ak/core/error.hpp"

namespace ak::tool {

// Parses argv into `app` and returns run()'s status; a bad command line prints the help and
// CLI11's status, an ak::error "ak: error: ..." and 1, anything else "ak: internal error: ..."
// and 3.
template <class Run>
int parse_and_run(CLI::App& app, int argc, char** argv, Run&& run) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0) std::cerr << app.help();
    return app.exit(e);
  }
  try {
    return run();
  } catch (const ak::error& e) {
    std::cerr << "ak: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "ak: internal error: " << e.what() << "\n";
    return 3;
  }
}

}  // namespace ak::tool
