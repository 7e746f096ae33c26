// `ak first-ops`: how long a fresh process takes to load a backend and run its first operations,
// the measurement AcceleratedKernels.jl made of its own design. Each run starts a probe program
// (src/tools/first_ops) in a new process and times it from the spawn to its exit; the probe times
// each operation's first and warm calls itself. With --baseline, the same operations written with
// the std algorithms and std::execution::par (on cuda devices: with Thrust/CUB) run the same way,
// alternating with ak's runs so that both see the same noise. Everything reported is a median over
// the runs.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "../first_ops/first_ops_protocol.hpp"
#include "ak/core/error.hpp"
#include "commands.hpp"
#include "median.hpp"
#include "programs.hpp"

extern char** environ;

namespace ak::tool {

namespace {

namespace fs = std::filesystem;
namespace fo = ak::first_ops;

// One run of a probe: the device it reported, its wall time from spawn to exit, and its ops.
struct probe_run {
  std::string device;
  double total_s = 0;
  std::array<fo::op_time, fo::op_names.size()> ops{};
};

// The probes are installed next to the ak command.
fs::path probe_path(const std::string& name, const char* built_with, const std::string& argv0) {
  const program_path p = program_beside_ak(name, argv0);
  if (!p.found)
    throw error("ak first-ops: the probe program '" + p.path.string() +
                "' is missing (it is built " + built_with + ")");
  return p.path;
}

// The programs for a device: on cuda, the ak probe compiled by nvcc and the Thrust/CUB baseline;
// elsewhere the g++ probe and the std::execution::par baseline (which runs on the CPU).
struct probe_programs {
  fs::path ak;
  fs::path baseline;
  std::string baseline_name;
  std::vector<std::string> baseline_args;
};

probe_programs programs_for(const first_ops_options& o) {
  const bool cuda = o.device == "cuda" || o.device.rfind("cuda:", 0) == 0;
  const char* with_cuda = "with the cuda plugin (the cuda preset)";
  probe_programs p;
  p.ak = cuda ? probe_path("ak_first_ops_probe_cuda", with_cuda, o.argv0)
              : probe_path("ak_first_ops_probe", "and installed with the ak command", o.argv0);
  if (!o.baseline) return p;
  if (cuda) {
    p.baseline = probe_path("ak_first_ops_thrust", with_cuda, o.argv0);
    p.baseline_name = "Thrust/CUB";
    p.baseline_args = {o.device};
  } else {
    p.baseline =
        probe_path("ak_first_ops_std", "where std::execution::par builds with oneTBB", o.argv0);
    p.baseline_name = "std::execution::par";
  }
  return p;
}

probe_run run_probe(const fs::path& exe, const std::vector<std::string>& args) {
  int out[2];
  if (pipe(out) != 0) throw error(std::string("ak first-ops: pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  std::vector<std::string> argv_s{exe.string()};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_t pid = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  if (rc != 0) {
    close(out[0]);
    throw error("ak first-ops: cannot start '" + exe.string() + "': " + std::strerror(rc));
  }
  std::string text;
  char buf[4096];
  for (ssize_t got; (got = read(out[0], buf, sizeof buf)) != 0;) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    text.append(buf, static_cast<std::size_t>(got));
  }
  close(out[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const auto t1 = std::chrono::steady_clock::now();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw error("ak first-ops: '" + exe.filename().string() + "' failed (" +
                (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                   : "signal " + std::to_string(WTERMSIG(status))) +
                "); its messages are above");

  probe_run r;
  r.total_s = std::chrono::duration<double>(t1 - t0).count();
  std::istringstream lines(text);
  std::size_t seen = 0;
  for (std::string word; lines >> word;) {
    if (word == "device") {
      lines >> r.device;
    } else if (word == "first_op") {
      std::string op;
      fo::op_time t;
      lines >> op >> t.first_s >> t.warm_s;
      auto it = std::find(fo::op_names.begin(), fo::op_names.end(), op);
      if (!lines || it == fo::op_names.end()) break;
      r.ops[static_cast<std::size_t>(it - fo::op_names.begin())] = t;
      ++seen;
    } else {
      break;
    }
  }
  if (seen != fo::op_names.size() || r.device.empty())
    throw error("ak first-ops: '" + exe.filename().string() + "' printed something else:\n" + text);
  return r;
}

// The medians over runs, per field.
probe_run medians(const std::vector<probe_run>& runs) {
  probe_run m;
  m.device = runs.front().device;
  std::vector<double> v;
  auto med = [&](auto get) {
    v.clear();
    for (const auto& r : runs) v.push_back(get(r));
    return median(v);
  };
  m.total_s = med([](const probe_run& r) { return r.total_s; });
  for (std::size_t i = 0; i < m.ops.size(); ++i) {
    m.ops[i].first_s = med([i](const probe_run& r) { return r.ops[i].first_s; });
    m.ops[i].warm_s = med([i](const probe_run& r) { return r.ops[i].warm_s; });
  }
  return m;
}

nlohmann::ordered_json to_json(const probe_run& r) {
  nlohmann::ordered_json ops = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < r.ops.size(); ++i)
    ops.push_back(
        {{"op", fo::op_names[i]}, {"first_s", r.ops[i].first_s}, {"warm_s", r.ops[i].warm_s}});
  return {{"device", r.device}, {"total_wall_s", r.total_s}, {"ops", ops}};
}

std::string ms(double s) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(s < 0.001 ? 3 : 2) << s * 1e3;
  return o.str();
}

std::string ratio(double a, double b) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(2) << a / b;
  return o.str();
}

}  // namespace

int run_first_ops(const first_ops_options& o) {
  if (o.runs < 1) throw argument_error("ak first-ops: --runs must be at least 1");
  const probe_programs p = programs_for(o);
  std::vector<probe_run> ak_runs, baseline_runs;
  // Alternating, the baseline first in odd rounds: neither always follows the other.
  for (int i = 0; i < o.runs; ++i) {
    if (o.baseline && i % 2) baseline_runs.push_back(run_probe(p.baseline, p.baseline_args));
    ak_runs.push_back(run_probe(p.ak, {o.device}));
    if (o.baseline && !(i % 2)) baseline_runs.push_back(run_probe(p.baseline, p.baseline_args));
  }
  const probe_run a = medians(ak_runs);
  const std::optional<probe_run> b =
      o.baseline ? std::optional<probe_run>(medians(baseline_runs)) : std::nullopt;

  std::cout << "ak first-ops on " << a.device << ": " << fo::op_names.size()
            << " operations on small arrays (" << fo::n << " floats), each run in a fresh process; "
            << "medians of " << o.runs << " runs\n";
  if (b)
    std::cout << "baseline: the same operations with " << p.baseline_name
              << ", also fresh processes\n";
  std::cout << "\n  op              ak first ms   warm ms  first/warm";
  if (b) std::cout << "  base first ms   warm ms  first/warm  ak/base first";
  std::cout << "\n";
  for (std::size_t i = 0; i < a.ops.size(); ++i) {
    const auto& t = a.ops[i];
    std::cout << "  " << std::left << std::setw(14) << fo::op_names[i] << std::right
              << std::setw(13) << ms(t.first_s) << std::setw(10) << ms(t.warm_s) << std::setw(12)
              << ratio(t.first_s, t.warm_s);
    if (b) {
      const auto& s = b->ops[i];
      std::cout << std::setw(15) << ms(s.first_s) << std::setw(10) << ms(s.warm_s) << std::setw(12)
                << ratio(s.first_s, s.warm_s) << std::setw(15) << ratio(t.first_s, s.first_s);
    }
    std::cout << "\n";
  }
  std::cout << "\n  total wall from process start to exit: ak " << ms(a.total_s) << " ms";
  if (b)
    std::cout << ", " << p.baseline_name << " " << ms(b->total_s) << " ms (ak/baseline "
              << ratio(a.total_s, b->total_s) << ")";
  std::cout << "\n";

  if (!o.json.empty()) {
    nlohmann::ordered_json j = to_json(a);
    j["runs"] = o.runs;
    if (b) {
      j["baseline"] = to_json(*b);
      j["baseline"]["program"] = p.baseline_name;
    }
    const fs::path tmp = o.json + ".tmp";
    {
      std::ofstream f(tmp);
      f << j.dump(2) << "\n";
      if (!f) {
        f.close();
        std::error_code ec;
        fs::remove(tmp, ec);
        throw error("ak first-ops: cannot write '" + tmp.string() + "'");
      }
    }
    fs::rename(tmp, o.json);  // whole or not at all
    std::cout << "wrote " << o.json << "\n";
  }
  return 0;
}

}  // namespace ak::tool
