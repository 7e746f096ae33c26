// ak: information about backends, devices and tunings; demos; (later) benchmarks and tuning.
#include <CLI/CLI.hpp>
#include <iostream>

#include "ak/core/error.hpp"
#include "commands.hpp"

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

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0) std::cerr << app.help();
    return app.exit(e);
  }
  try {
    if (*info_cmd) return ak::tool::run_info(info);
    if (*demo_cmd) return ak::tool::run_demo(demo);
  } catch (const ak::error& e) {
    std::cerr << "ak: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "ak: internal error: " << e.what() << "\n";
    return 3;
  }
  return 2;
}
