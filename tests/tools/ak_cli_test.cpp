// The `ak` command as a user runs it: exit codes, messages, and the JSON of `ak info --json`.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace {

struct run_result {
  int exit_code;
  std::string output;  // stdout and stderr together
};

// Runs a shell command line, stdout and stderr together.
run_result run_shell(const std::string& line) {
  const std::string command = "(" + line + ") 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return {-1, "popen failed"};
  std::string out;
  std::array<char, 4096> buf{};
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
  int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// Runs `ak ARGS` through the shell with `env` prepended (e.g. "AK_TUNING=... ").
run_result run_ak(const std::string& args, const std::string& env = "") {
  return run_shell(env + " '" AK_TOOL_PATH "' " + args);
}

// Tests must not see the user's own overrides or plugins.
const std::string clean = "AK_TUNING= AK_BACKEND_PATH= AK_TUNING_CACHE_DIR=" AK_TEST_CACHE_DIR;

TEST(AkCli, InfoJsonHasEveryHookDtypeAndFieldWithItsSource) {
  auto r = run_ak("info --json", clean);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["backends"][0]["name"], "cpu");
  ASSERT_EQ(j["devices"].size(), 1u);
  const auto& d = j["devices"][0];
  EXPECT_EQ(d["name"], "cpu:0");
  EXPECT_TRUE(d["capabilities"]["host_accessible"].get<bool>());
  const std::vector<std::string> hooks{"reduce", "scan", "sort", "map", "search", "select"};
  ASSERT_EQ(d["tunings"].size(), hooks.size());
  for (const auto& h : hooks) {
    ASSERT_EQ(d["tunings"][h].size(), 11u) << h;
    for (const auto& [dtype, fields] : d["tunings"][h].items())
      for (const auto& [field, v] : fields.items()) {
        EXPECT_TRUE(v.contains("value")) << h << "/" << dtype << "/" << field;
        EXPECT_TRUE(v["source"] == "generic" || v["source"] == "backend")
            << h << "/" << dtype << "/" << field << ": " << v["source"];
        EXPECT_FALSE(v["detail"].get<std::string>().empty());
      }
  }
  EXPECT_EQ(d["tunings"]["sort"]["float32"]["algorithm"]["value"], "radix");
}

TEST(AkCli, InfoShowsAnOverrideAndWhereItCameFrom) {
  auto r = run_ak("info --json",
                  clean + " AK_TUNING='{\"cpu\": {\"map\": {\"int8\": {\"cpu_grain\": 77}}}}'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto v = nlohmann::json::parse(r.output)["devices"][0]["tunings"]["map"]["int8"]["cpu_grain"];
  EXPECT_EQ(v["value"], 77);
  EXPECT_EQ(v["source"], "user");
  EXPECT_NE(v["detail"].get<std::string>().find("cpu/map/int8"), std::string::npos);
}

TEST(AkCli, InfoListsPluginDevicesWithAll) {
  auto r = run_ak("info --all --json", clean + " AK_BACKEND_PATH=" AK_TEST_PLUGIN_DIR);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto j = nlohmann::json::parse(r.output);
  std::vector<std::string> names;
  for (const auto& d : j["devices"]) names.push_back(d["name"]);
  EXPECT_NE(std::find(names.begin(), names.end(), "testgpu:1"), names.end());
  // The broken test plugins are reported, not fatal.
  std::string errors = j["load_errors"].dump();
  EXPECT_NE(errors.find("badabi"), std::string::npos) << errors;
}

TEST(AkCli, BadOverrideIsAnErrorNamingTheKey) {
  auto r = run_ak("info", clean + " AK_TUNING='{\"cpu\": {\"map\": {\"*\": {\"grain\": 1}}}}'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("key \"cpu/map/*/grain\""), std::string::npos) << r.output;
}

// The cpu's vector code: `ak info` names its instruction set, AK_CPU_TARGET chooses it (EMU128,
// the portable one, is on every machine), and a name ak does not know fails with the list.
TEST(AkCli, InfoShowsTheVectorTargetThatAkCpuTargetChooses) {
  auto best = run_ak("info --json", clean);
  ASSERT_EQ(best.exit_code, 0) << best.output;
  const auto j = nlohmann::json::parse(best.output);
  ASSERT_TRUE(j["devices"][0].contains("vector_target")) << best.output;
  EXPECT_FALSE(j["devices"][0]["vector_target"].get<std::string>().empty());
  auto forced = run_ak("info", clean + " AK_CPU_TARGET=baseline");
  ASSERT_EQ(forced.exit_code, 0) << forced.output;
  EXPECT_NE(forced.output.find("vector code: EMU128"), std::string::npos) << forced.output;
  auto bad = run_ak("info", clean + " AK_CPU_TARGET=avx9");
  EXPECT_EQ(bad.exit_code, 1) << bad.output;
  EXPECT_NE(bad.output.find("AK_CPU_TARGET"), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("AVX2"), std::string::npos) << bad.output;
}

// `ak info` checks everything before it prints: a bad override leaves no half-printed table.
TEST(AkCli, BadOverridePrintsTheErrorAlone) {
  auto r = run_ak("info", clean + " AK_TUNING='{\"cpu\": {\"map\": {\"*\": {\"grain\": 1}}}}'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.output.rfind("ak: error: ", 0), 0u) << r.output;
  EXPECT_EQ(r.output.find("backends loaded"), std::string::npos) << r.output;
}

// A hostile tuning file through `ak info`: an error naming the file, not a crash.
TEST(AkCli, DeeplyNestedTuningFileIsAnError) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("ak-cli-deep-" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << std::string(100000, '[') << std::string(100000, ']');
  auto r = run_ak("info", clean + " AK_TUNING='" + path.string() + "'");
  std::filesystem::remove(path);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find(path.string()), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("nested deeper than"), std::string::npos) << r.output;
}

// A backend that no build has (not cuda: .ci/run builds libak_cuda.so into the same build/, and
// on a machine with a GPU cuda:0 would be there).
TEST(AkCli, AbsentBackendIsAnErrorSayingWhy) {
  auto r = run_ak("info --device absent:0", clean);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("backend 'absent' is not available: no libak_absent.so"),
            std::string::npos)
      << r.output;
}

TEST(AkCli, BadArgumentsPrintUsageAndFail) {
  for (const char* args : {"", "frobnicate", "info --bogus", "demo --device"}) {
    auto r = run_ak(args, clean);
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_NE(r.output.find("Usage"), std::string::npos) << args << ": " << r.output;
  }
  EXPECT_EQ(run_ak("--help", clean).exit_code, 0);
}

TEST(AkCli, Demo) {
  auto r = run_ak("demo", clean);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("round trip exact"), std::string::npos) << r.output;
}

// `ak bench` as the docs run it: ak and its peers, checked against each other, and the memory
// bandwidth, as JSON rows.
TEST(AkCli, BenchWritesRowsForAkPeersAndBandwidth) {
  const std::string path =
      ::testing::TempDir() + "ak_bench_" + std::to_string(::getpid()) + ".json";
  auto r = run_ak("bench --ops reduce,sort --dtypes int64 --n 100000 --json '" + path + "'", clean);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("memory bandwidth"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("peak memory"), std::string::npos) << r.output;
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  const auto rows = nlohmann::json::parse(in);
  std::remove(path.c_str());
  ASSERT_TRUE(rows.is_array());
  std::set<std::pair<std::string, std::string>> seen;  // (op, impl)
  for (const auto& row : rows) {
    for (const char* key : {"op", "dtype", "n", "impl", "median_s"})
      ASSERT_TRUE(row.contains(key)) << key << " missing in " << row.dump();
    EXPECT_EQ(row["dtype"], "int64") << row.dump();
    EXPECT_EQ(row["n"], 100000) << row.dump();
    EXPECT_GT(row["median_s"].get<double>(), 0) << row.dump();
    EXPECT_GT(row["gb_s"].get<double>(), 0) << row.dump();
    const std::string op = row["op"], impl = row["impl"];
    seen.insert({op, impl});
    if (impl == "bandwidth") {
      EXPECT_TRUE(op == "read" || op == "copy") << row.dump();
    } else {
      EXPECT_TRUE(op == "reduce" || op == "sort") << row.dump();
      // %bw compares with a bandwidth probe timed beside the case.
      ASSERT_TRUE(row.contains("bw_gb_s")) << row.dump();
      EXPECT_GT(row["bw_gb_s"].get<double>(), 0) << row.dump();
      EXPECT_GT(row["bw_fraction"].get<double>(), 0) << row.dump();
      if (impl != "ak") {
        EXPECT_EQ(row["check"], "ok") << row.dump();
        EXPECT_GT(row["ratio"].get<double>(), 0) << row.dump();
      }
    }
    if (op == "sort") {
      EXPECT_TRUE(row.contains("peak_rss_ratio")) << row.dump();
    }
  }
  for (const char* op : {"reduce", "sort"}) {
    EXPECT_TRUE(seen.count({op, "ak"})) << op;
    EXPECT_TRUE(seen.count({op, "tbb"})) << op;  // TBB is a dependency of ak: always a peer
  }
  EXPECT_TRUE(seen.count({"read", "bandwidth"}));
  EXPECT_TRUE(seen.count({"copy", "bandwidth"}));
}

// `all` in a list of ops is the op ak::all, not every op; alone it is every op.
TEST(AkCli, BenchOpsListWithAllRunsOnlyTheNamedOps) {
  const std::string path =
      ::testing::TempDir() + "ak_bench_all_" + std::to_string(::getpid()) + ".json";
  auto r = run_ak("bench --ops any,all --dtypes int64 --n 1000 --json '" + path + "'", clean);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  const auto rows = nlohmann::json::parse(in);
  std::remove(path.c_str());
  std::set<std::string> ops;
  for (const auto& row : rows)
    if (row["impl"] != "bandwidth") ops.insert(row["op"].get<std::string>());
  EXPECT_EQ(ops, (std::set<std::string>{"any", "all"}));
}

// The keyed ops and merge, each checked against its peers (a mismatch fails the command): TBB
// always, Thrust's TBB backend and std::merge(par) where this build has them.
TEST(AkCli, BenchKeyedAndSegmentedOpsAgreeWithTheirPeers) {
  const std::string path =
      ::testing::TempDir() + "ak_bench_keyed_" + std::to_string(::getpid()) + ".json";
  auto r = run_ak(
      "bench --ops reduce_by_key,accumulate_by_key,segmented_reduce,merge,partialsort,sort_rows,"
      "sort_tiny_rows "
      "--dtypes int64 "
      "--n 100003 "
      "--json '" +
          path + "'",
      clean);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  const auto rows = nlohmann::json::parse(in);
  std::remove(path.c_str());
  std::map<std::string, int> peers;  // op -> peers checked
  for (const auto& row : rows) {
    if (row["impl"] == "bandwidth" || row["impl"] == "ak") continue;
    EXPECT_EQ(row["check"], "ok") << row.dump();
    ++peers[row["op"].get<std::string>()];
  }
  EXPECT_GE(peers["reduce_by_key"], 1) << r.output;  // tbb
  EXPECT_GE(peers["accumulate_by_key"], 1) << r.output;
  EXPECT_GE(peers["segmented_reduce"], 1) << r.output;  // tbb
  EXPECT_GE(peers["merge"], 1) << r.output;             // std::merge(par) or thrust
  EXPECT_GE(peers["sort_rows"], 1) << r.output;         // the row loops
  EXPECT_GE(peers["sort_tiny_rows"], 1) << r.output;
}

// `--dist`: the sort runs once per distribution, every peer (vqsort's two arrangements where the
// build has Highway) agreeing with ak on each; the rows name the distribution.
TEST(AkCli, BenchSortsEachDistributionAgainstItsPeers) {
  const std::string path =
      ::testing::TempDir() + "ak_bench_dist_" + std::to_string(::getpid()) + ".json";
  // Three of the ten (each case times ak and nine peers): skewed, few distinct keys, descending.
  const std::set<std::string> dists{"exponential", "root_dup", "reverse_sorted"};
  std::string list;
  for (const std::string& d : dists) list += (list.empty() ? "" : ",") + d;
  auto r = run_ak(
      "bench --ops sort --dtypes int64 --n 20011 --dist " + list + " --json '" + path + "'", clean);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("sort exponential"), std::string::npos) << r.output;
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  const auto rows = nlohmann::json::parse(in);
  std::remove(path.c_str());
  std::map<std::string, int> peers;  // dist -> peers that agreed with ak
  for (const auto& row : rows) {
    if (row["impl"] == "bandwidth") continue;
    ASSERT_TRUE(row.contains("dist")) << row.dump();
    if (row["impl"] == "ak") continue;
    EXPECT_EQ(row["check"], "ok") << row.dump();
    ++peers[row["dist"].get<std::string>()];
  }
  for (const std::string& d : dists) EXPECT_GE(peers[d], 2) << d << ": " << r.output;
}

// `--runs`: the ops over runs of equal keys run once per mean run length, every peer agreeing with
// ak on each; the rows name the length as given. Runs of 1 (every key a run of its own) and runs
// longer than ak's tiles (a few runs in the whole input).
TEST(AkCli, BenchOpsOverRunsEachMeanRunLengthAgainstTheirPeers) {
  const std::string path =
      ::testing::TempDir() + "ak_bench_runs_" + std::to_string(::getpid()) + ".json";
  const std::set<std::string> ops{"reduce_by_key", "accumulate_by_key", "segmented_reduce",
                                  "unique", "run_length_encode"};
  std::string list;
  for (const std::string& op : ops) list += (list.empty() ? "" : ",") + op;
  auto r =
      run_ak("bench --ops " + list + " --dtypes int64 --n 20011 --runs 1,7e3 --json '" + path + "'",
             clean);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("reduce_by_key runs 7e3"), std::string::npos) << r.output;
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  const auto rows = nlohmann::json::parse(in);
  std::remove(path.c_str());
  std::map<std::pair<std::string, std::string>, int> peers;  // (op, runs) -> peers that agreed
  for (const auto& row : rows) {
    if (row["impl"] == "bandwidth") continue;
    ASSERT_TRUE(row.contains("dist")) << row.dump();
    if (row["impl"] == "ak") continue;
    EXPECT_EQ(row["check"], "ok") << row.dump();
    ++peers[{row["op"].get<std::string>(), row["dist"].get<std::string>()}];
  }
  for (const std::string& op : ops)
    for (const char* runs : {"runs 1", "runs 7e3"})
      EXPECT_GE((peers[{op, runs}]), 1) << op << " " << runs << ": " << r.output;
}

TEST(AkCli, BenchRejectsBadArguments) {
  for (const char* args : {"bench --ops frobnicate", "bench --n 1e", "bench --n 0", "bench --n 2.5",
                           "bench --dtypes bool", "bench --dtypes float16", "bench --dist pareto",
                           "bench --dist", "bench --runs 0", "bench --runs 2.5", "bench --runs"}) {
    auto r = run_ak(args, clean);
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_NE(r.output.find("Usage"), std::string::npos) << args << ": " << r.output;
  }
}

// `ak first-ops` as the docs run it: both programs, fresh processes, the JSON the issue names.
TEST(AkCli, FirstOpsWritesEveryOpForAkAndTheBaseline) {
  const std::string path =
      ::testing::TempDir() + "ak_first_ops_" + std::to_string(::getpid()) + ".json";
  auto r = run_ak("first-ops --baseline --runs 3 --json '" + path + "'", clean);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("total wall from process start to exit: ak "), std::string::npos)
      << r.output;
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  const auto j = nlohmann::json::parse(in);
  std::remove(path.c_str());
  const std::vector<std::string> ops{"broadcast",  "gather", "sum", "sum_dims",
                                     "accumulate", "sort",   "any", "broadcast_4d"};
  EXPECT_EQ(j["runs"], 3);
  ASSERT_TRUE(j.contains("baseline")) << j.dump();
  EXPECT_EQ(j["device"], "cpu:0");
  EXPECT_EQ(j["baseline"]["program"], "std::execution::par");
  for (const auto* part : {&j, &j["baseline"]}) {
    const auto& p = *part;
    EXPECT_GT(p["total_wall_s"].get<double>(), 0) << p.dump();
    ASSERT_EQ(p["ops"].size(), ops.size()) << p.dump();
    double sum_of_firsts = 0;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const auto& o = p["ops"][i];
      EXPECT_EQ(o["op"], ops[i]) << o.dump();
      EXPECT_GT(o["first_s"].get<double>(), 0) << o.dump();
      EXPECT_GT(o["warm_s"].get<double>(), 0) << o.dump();
      sum_of_firsts += o["first_s"].get<double>();
    }
    // The process's wall time holds every first call (medians of each, so only roughly).
    EXPECT_GT(p["total_wall_s"].get<double>(), 0.5 * sum_of_firsts) << p.dump();
  }
}

TEST(AkCli, FirstOpsOnTheSimBackend) {
  auto r = run_ak("first-ops --device sim:1 --runs 1", clean);
  if (r.output.find("backend 'sim' is not available") != std::string::npos)
    GTEST_SKIP() << "the sim backend is not built here (it needs Boost.Context): " << r.output;
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("ak first-ops on sim:1"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("std::execution::par"), std::string::npos) << "no --baseline";
}

TEST(AkCli, FirstOpsShowsTheTuningLogOfItsPrecompiledOperations) {
  auto r = run_ak("first-ops --runs 1", clean + " AK_LOG=tuning");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // Each lookup names the call's size.
  const auto sort_line =
      r.output.find("ak tuning: hook sort, device cpu:0 (class cpu), dtype float32, n ");
  ASSERT_NE(sort_line, std::string::npos) << r.output;
  EXPECT_NE(r.output.find(": algorithm=radix (backend", sort_line), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("ak tuning: hook reduce, device cpu:0 (class cpu), dtype float32, n "),
            std::string::npos)
      << r.output;
}

TEST(AkCli, FirstOpsRejectsBadArguments) {
  auto r = run_ak("first-ops --runs 0", clean);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("--runs"), std::string::npos) << r.output;
  r = run_ak("first-ops --device nosuch --runs 1", clean);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("'nosuch'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("ak_first_ops_probe"), std::string::npos) << r.output;
  // Nothing half-written: a failed run leaves no JSON file.
  const std::string path =
      ::testing::TempDir() + "ak_first_ops_bad_" + std::to_string(::getpid()) + ".json";
  r = run_ak("first-ops --device nosuch --runs 1 --json '" + path + "'", clean);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_FALSE(std::ifstream(path).good());
}

}  // namespace

// ---- ak tune ------------------------------------------------------------------------------------

namespace {

// A private cache folder for one test, and the environment that points ak at it.
class tune_dir {
 public:
  explicit tune_dir(const std::string& name)
      : dir_(std::filesystem::temp_directory_path() /
             ("ak-tune-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~tune_dir() { std::filesystem::remove_all(dir_); }
  std::string env() const {
    return "AK_TUNING= AK_BACKEND_PATH= AK_TUNING_CACHE_DIR=" + dir_.string();
  }
  // The cache files in the folder (and anything else left there).
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir_))
      out.push_back(e.path().string());
    return out;
  }
  // `ak info --json`'s view of the cpu device's cache: its path and why it is ignored ("").
  std::pair<std::string, std::string> cache() const {
    const auto r = run_ak("info --json", env());
    const auto j = nlohmann::json::parse(r.output);
    return {j["devices"][0]["tuning_cache"], j["devices"][0]["tuning_cache_problem"]};
  }
  // Where the tests have `ak tune --json` write its report: beside the cache.
  std::string report_path() const { return cache().first + ".report.json"; }

 private:
  std::filesystem::path dir_;
};

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST(AkTune, DryRunPrintsTheCacheAndWritesNothing) {
  tune_dir d("dry");
  auto r = run_ak("tune --ops reduce --dtypes int8 --n 1e4 --budget 5 --dry-run --min-speedup 0",
                  d.env());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("dry run; would write " + d.cache().first), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("\"format\": \"ak-tuning-cache-1\""), std::string::npos) << r.output;
  EXPECT_TRUE(d.files().empty());
}

// sortperm is an op of its own: it searches the packing of keys of at most 4 bytes with their
// indices (radix_packed_run, 64 by default for float32 on cpu), which no other op uses.
TEST(AkTune, SortpermSearchesItsPackingField) {
  tune_dir d("sortperm");
  const std::string report_path = d.report_path();
  auto r = run_ak(
      "tune --ops sortperm --dtypes float32 --n 2e4 --budget 10 --dry-run "
      "--min-speedup 0 --json " +
          report_path,
      d.env());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto report = read_json(report_path);
  bool searched = false;
  for (const auto& t : report.at("targets"))
    if (t.at("op") == "sortperm")
      for (const auto& f : t.at("fields"))
        searched = searched || (f.at("field") == "radix_packed_run" && f.at("default") == "64" &&
                                f.at("rejected").empty());
  EXPECT_TRUE(searched) << report.dump(2);
}

// The promise of the tuner: a program built before it ran resolves differently afterwards, with
// no rebuild, and the tuning log says where the value came from. --min-speedup 0 keeps the
// fastest correct value even where it gains nothing, so that the test does not depend on speed.
TEST(AkTune, ACacheItWritesChangesWhatAProgramBuiltBeforeResolves) {
  tune_dir d("probe");
  const std::string probe = std::string("'") + AK_TUNE_PROBE_PATH + "'";
  auto before = run_shell(d.env() + " AK_LOG=tuning " + probe);
  ASSERT_EQ(before.exit_code, 0) << before.output;
  EXPECT_EQ(before.output.find("(autotune"), std::string::npos) << before.output;

  auto r = run_ak("tune --ops sort --dtypes uint16 --n 5000 --budget 20 --min-speedup 0 --json " +
                      d.report_path(),
                  d.env());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto [path, problem] = d.cache();
  EXPECT_EQ(problem, "");
  const auto doc = read_json(path);
  ASSERT_TRUE(doc["tunings"]["sort"].contains("uint16")) << doc.dump(2);
  const auto report = read_json(d.report_path());
  EXPECT_EQ(report["targets"][0]["op"], "sort");
  EXPECT_TRUE(report["targets"][0]["kept"].get<bool>());

  auto after = run_shell(d.env() + " AK_LOG=tuning " + probe);
  ASSERT_EQ(after.exit_code, 0) << after.output;
  EXPECT_NE(after.output.find("sorted"), std::string::npos);
  for (const auto& [field, value] : doc["tunings"]["sort"]["uint16"].items()) {
    const std::string want = " " + field + "=" +
                             (value.is_string() ? value.get<std::string>() : value.dump()) +
                             " (autotune: autotune cache '" + path + "', key tunings/sort/uint16";
    EXPECT_NE(after.output.find(want), std::string::npos) << want << "\n" << after.output;
  }
}

TEST(AkTune, TwoAtOnceLeaveAValidFile) {
  tune_dir d("two");
  const std::string tune =
      "'" AK_TOOL_PATH "' tune --dtypes int16 --n 2e4 --budget 6 --min-speedup 0";
  auto r = run_shell("export " + d.env() + "; " + tune + " --ops reduce >/dev/null & " + tune +
                     " --ops select >/dev/null & wait");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto [path, problem] = d.cache();
  EXPECT_EQ(problem, "");
  ASSERT_TRUE(std::filesystem::exists(path));
  const auto doc = read_json(path);
  EXPECT_TRUE(doc["tunings"].contains("reduce") || doc["tunings"].contains("select")) << doc;
  EXPECT_EQ(d.files().size(), 1u) << "a temporary file was left behind";
}

// Ctrl-C: the targets finished are kept, the file is the old one or a valid new one, and the
// exit status says it was interrupted. One SIGINT, as Ctrl-C sends: without --foreground,
// timeout sends it to the command and again to its process group, and a second one ends ak tune
// at once by design (the test failed now and then with exit status 130 and no message).
TEST(AkTune, InterruptKeepsAValidFile) {
  tune_dir d("sigint");
  auto first = run_ak("tune --ops map --dtypes int32 --n 2e4 --budget 3 --min-speedup 0", d.env());
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const auto start = std::chrono::steady_clock::now();
  auto r = run_shell(d.env() + " timeout --foreground --preserve-status -s INT 3 '" AK_TOOL_PATH
                               "' tune --n 2e5 --budget 120 --min-speedup 0");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 130) << r.output;
  EXPECT_LT(seconds, 60) << r.output;
  EXPECT_NE(r.output.find("interrupted"), std::string::npos) << r.output;
  const auto [path, problem] = d.cache();
  EXPECT_EQ(problem, "");
  EXPECT_TRUE(read_json(path)["tunings"].contains("map")) << "the old entry was lost";
  EXPECT_EQ(d.files().size(), 1u);
}

TEST(AkTune, RejectsBadArguments) {
  tune_dir d("args");
  for (const char* args : {"tune --ops nope", "tune --dtypes bool", "tune --dtypes float16",
                           "tune --n 0", "tune --budget -1"}) {
    auto r = run_ak(args, d.env());
    EXPECT_NE(r.exit_code, 0) << args << ": " << r.output;
    EXPECT_TRUE(d.files().empty()) << args;
  }
  auto r = run_ak("tune --ops nope", d.env());
  EXPECT_NE(r.output.find("argument '--ops': expected one of all, sort"), std::string::npos)
      << r.output;
}

// On a GPU-style device the same command searches the GPU fields (sim: tiny sizes, to check the
// machinery, not speed); the file is that device's, and ak info uses it.
TEST(AkTune, OnTheSimBackend) {
  tune_dir d("sim");
  auto r = run_ak(
      "tune --device sim:2 --ops scan,select --dtypes int32 --n 1000 --budget 20 "
      "--min-speedup 0",
      d.env());
  if (r.output.find("backend 'sim' is not available") != std::string::npos)
    GTEST_SKIP() << "the sim backend is not built here (it needs Boost.Context): " << r.output;
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("items_per_thread"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("cpu_grain"), std::string::npos) << r.output;
  auto info = run_ak("info --device sim:2 --json", d.env());
  ASSERT_EQ(info.exit_code, 0) << info.output;
  const auto j = nlohmann::json::parse(info.output);
  const auto& dev = j["devices"][0];
  EXPECT_EQ(dev["tuning_cache_problem"], "");
  const auto doc = read_json(dev["tuning_cache"]);
  EXPECT_EQ(doc["device"]["device_class"], "sim_intel");
  ASSERT_TRUE(doc["tunings"].contains("scan")) << doc.dump(2);
  for (const auto& [field, value] : doc["tunings"]["scan"]["int32"].items())
    EXPECT_EQ(dev["tunings"]["scan"]["int32"][field]["source"], "autotune") << field;
}

// sort and sort_custom tune the same hook and dtype, each its own fields: neither erases the
// other's, in one run or across runs.
TEST(AkTune, TwoOpsOfOneHookKeepEachOthersFields) {
  tune_dir d("ops");
  auto r = run_ak("tune --ops sort,sort_custom --dtypes int32 --n 2e4 --budget 20 --min-speedup 0",
                  d.env());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto doc = read_json(d.cache().first);
  const auto& entry = doc["tunings"]["sort"]["int32"];
  EXPECT_TRUE(entry.contains("radix_digit_bits")) << doc.dump(2);
  EXPECT_TRUE(entry.contains("sample_oversampling")) << doc.dump(2);
  EXPECT_TRUE(doc["measured"]["sort/int32"]["ops"].contains("sort")) << doc.dump(2);
  EXPECT_TRUE(doc["measured"]["sort/int32"]["ops"].contains("sort_custom")) << doc.dump(2);
  EXPECT_TRUE(doc["measured"]["sort/int32"]["speedup"].is_number()) << doc.dump(2);

  r = run_ak("tune --ops sort_custom --dtypes int32 --n 2e4 --budget 10 --min-speedup 0", d.env());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto again = read_json(d.cache().first);
  EXPECT_EQ(again["tunings"]["sort"]["int32"]["radix_digit_bits"], entry["radix_digit_bits"]);
  EXPECT_TRUE(again["tunings"]["sort"]["int32"].contains("sample_oversampling"));
  EXPECT_TRUE(again["measured"]["sort/int32"]["ops"].contains("sort")) << again.dump(2);
}

// Several sizes are tuned each on its own: a field whose best value differs between them is
// written for each size under "by_size" (and ak info shows each size's value), one that agrees
// is written once. Which happens depends on the machine, so both are checked as they come, for
// the ops whose every size finished in the budget. sort_segments (the cpu's run thresholds) is
// tuned too.
TEST(AkTune, SizesTunedApartAreWrittenByTheirSize) {
  tune_dir d("sizes");
  const std::string report_path = d.report_path();
  auto r = run_ak(
      "tune --ops map,sort_segments --dtypes int32 --n 2e4,2e5 --budget 30 "
      "--min-speedup 0 --json " +
          report_path,
      d.env());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("sort_segments  int32    20000"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("map            int32    200000"), std::string::npos) << r.output;
  EXPECT_NE(run_ak("tune --ops map --dtypes int8 --budget 1 --n 600,1000", d.env()).exit_code, 0)
      << "two sizes of one class";
  const auto report = read_json(report_path);
  const auto finished = [&](const std::string& op) {
    int sizes = 0;
    for (const auto& t : report.at("targets"))
      if (t.at("op") == op && t.at("complete").get<bool>()) ++sizes;
    return sizes == 2;
  };
  const auto doc = read_json(d.cache().first);
  auto info = run_ak("info --json", d.env());
  ASSERT_EQ(info.exit_code, 0) << info.output;
  const auto dev = nlohmann::json::parse(info.output).at("devices").at(0);
  EXPECT_EQ(dev.at("tuning_cache_problem"), "");
  const auto& tunings = doc.at("tunings");
  int sized = 0;
  for (const auto& [op, hook, field] :
       {std::tuple<std::string, std::string, std::string>{"map", "map", "cpu_grain"},
        {"sort_segments", "sort", "insertion_run"},
        {"sort_segments", "sort", "radix_min_run"}}) {
    SCOPED_TRACE(op + ": " + hook + "/" + field);
    if (!finished(op)) {
      std::cout << op << " did not finish both sizes in the budget; not checked\n";
      continue;
    }
    EXPECT_EQ(doc.at("measured").at(hook + "/int32").at("ops").at(op).at("n"),
              (nlohmann::json{20000, 200000}))
        << doc.dump(2);
    if (!tunings.contains(hook) || !tunings.at(hook).contains("int32")) continue;  // defaults
    const auto& entry = tunings.at(hook).at("int32");
    const bool by_size = entry.contains("by_size") && entry.at("by_size").contains("20000") &&
                         entry.at("by_size").at("20000").contains(field);
    if (!by_size) {
      // One value for both sizes (or the default, and nothing written).
      if (entry.contains(field)) {
        EXPECT_EQ(dev.at("tunings").at(hook).at("int32").at(field).at("source"), "autotune");
      }
      continue;
    }
    ++sized;
    EXPECT_FALSE(entry.contains(field)) << doc.dump(2);
    const auto& sizes = entry.at("by_size");
    ASSERT_TRUE(sizes.contains("200000") && sizes.at("200000").contains(field)) << doc.dump(2);
    EXPECT_NE(sizes.at("20000").at(field), sizes.at("200000").at(field)) << doc.dump(2);
    for (const char* n : {"20000", "200000"}) {
      const auto& shown = dev.at("tunings").at(hook).at("int32").at("by_size").at(n).at(field);
      EXPECT_EQ(shown.at("value"), sizes.at(n).at(field)) << info.output;
      EXPECT_EQ(shown.at("source"), "autotune") << info.output;
    }
  }
  std::cout << "fields tuned by size: " << sized << " of 3\n";
}
