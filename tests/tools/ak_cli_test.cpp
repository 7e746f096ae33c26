// The `ak` command as a user runs it: exit codes, messages, and the JSON of `ak info --json`.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

namespace {

struct run_result {
  int exit_code;
  std::string output;  // stdout and stderr together
};

// Runs `ak ARGS` through the shell with `env` prepended (e.g. "AK_TUNING=... ").
run_result run_ak(const std::string& args, const std::string& env = "") {
  std::string command = env + " '" AK_TOOL_PATH "' " + args + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return {-1, "popen failed"};
  std::string out;
  std::array<char, 4096> buf{};
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
  int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
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
  const std::vector<std::string> hooks{"reduce", "scan", "sort", "map", "search"};
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

TEST(AkCli, AbsentBackendIsAnErrorSayingWhy) {
  auto r = run_ak("info --device cuda:0", clean);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("no libak_cuda.so"), std::string::npos) << r.output;
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

}  // namespace
