// main() of the algorithm tests: a clean tuning environment (no user overrides or caches), the
// base seed of the randomised tests, from AK_TEST_SEED or chosen at random and printed, and the
// device under test: AKT_DEVICE=sim:N (cpu by default; read by static initialisers, so it is an
// environment variable, not a flag) with AK_SIM_SEED, the shuffle seed of sim, and the tests of
// the run from the tags they carry (AKT_TAG, AKT_ONLY_TAG) and the element types to keep
// (AKT_ONLY_TYPES).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace akt {

namespace {
std::uint64_t choose_seed() {
  const char* s = std::getenv("AK_TEST_SEED");
  if (s != nullptr && *s != '\0') {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s, &end, 0);
    if (end == nullptr || *end != '\0') {
      std::fprintf(stderr, "AK_TEST_SEED: expected an unsigned integer, got \"%s\"\n", s);
      std::exit(2);
    }
    return static_cast<std::uint64_t>(v);
  }
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}
}  // namespace

std::uint64_t base_seed() {
  static const std::uint64_t seed = choose_seed();
  return seed;
}

const std::string& target_name() {
  static const std::string name = [] {
    const char* d = std::getenv("AKT_DEVICE");
    return std::string(d != nullptr && *d != '\0' ? d : "cpu");
  }();
  return name;
}

const ak::device& target() {
  static const ak::device dev(target_name());
  return dev;
}

namespace {
std::vector<std::pair<tag, std::string>>& tagged() {
  static std::vector<std::pair<tag, std::string>> t;
  return t;
}

std::optional<tag> parse_tag(const std::string& name) {
  if (name == "cpu_only") return tag::cpu_only;
  if (name == "cross_group_sync") return tag::cross_group_sync;
  return std::nullopt;
}

std::string patterns_of(tag t) {
  std::string p;
  for (const auto& [u, pattern] : tagged())
    if (u == t) p += (p.empty() ? "" : ":") + pattern;
  return p;
}

// The typed tests' element types (their names' "/int8." part) left out by AKT_ONLY_TYPES, a
// comma-separated list of the dtype names to keep ("int8,uint16,float32,float64"), as gtest's
// negative patterns. Tests that are not typed are kept.
std::string types_left_out() {
  const char* only = std::getenv("AKT_ONLY_TYPES");
  if (only == nullptr || *only == '\0') return {};
  const std::string keep = std::string(",") + only + ",";
  static const char* const names[] = {"bool",   "int8",   "int16",  "int32",   "int64",  "uint8",
                                      "uint16", "uint32", "uint64", "float32", "float64"};
  bool known = false;
  std::string out;
  for (const char* n : names) {
    if (keep.find(std::string(",") + n + ",") != std::string::npos) {
      known = true;
      continue;
    }
    out += (out.empty() ? "" : ":") + std::string("*/") + n + ".*";
  }
  if (!known) {
    std::fprintf(stderr, "AKT_ONLY_TYPES: no dtype name in \"%s\" (bool, int8, ..., float64)\n",
                 only);
    std::exit(2);
  }
  return out;
}

// The filter of this run from the tags (see AKT_TAG) and AKT_ONLY_TYPES; a --gtest_filter that
// names one keeps its own patterns, with AKT_ONLY_TYPES's added to its negative part.
void filter_by_tags() {
  if (const std::string given = GTEST_FLAG_GET(filter); given != "*") {
    if (const std::string types = types_left_out(); !types.empty())
      GTEST_FLAG_SET(filter, given + (given.find('-') == std::string::npos ? "-" : ":") + types);
    return;
  }
  std::string positive = "*";
  if (const char* only = std::getenv("AKT_ONLY_TAG"); only != nullptr && *only != '\0') {
    const std::optional<tag> t = parse_tag(only);
    if (!t) {
      std::fprintf(stderr, "AKT_ONLY_TAG: no such tag \"%s\" (cpu_only, cross_group_sync)\n", only);
      std::exit(2);
    }
    positive = patterns_of(*t);
  }
  std::string negative = on_gpu_style() ? patterns_of(tag::cpu_only) : "";
  if (const std::string types = types_left_out(); !types.empty())
    negative += (negative.empty() ? "" : ":") + types;
  GTEST_FLAG_SET(filter, positive + (negative.empty() ? "" : "-" + negative));
}
}  // namespace

tag_registration::tag_registration(tag t, const char* pattern) {
  tagged().emplace_back(t, pattern);
}

}  // namespace akt

int main(int argc, char** argv) {
  ::unsetenv("AK_TUNING");
  ::setenv("AK_TUNING_CACHE_DIR", AK_TEST_TUNING_CACHE_DIR, 1);
  ::unsetenv("AK_BACKEND_PATH");
  bool listing = false;
  for (int i = 1; i < argc; ++i)
    listing |= std::string(argv[i]).rfind("--gtest_list_tests", 0) == 0;
  ::testing::InitGoogleTest(&argc, argv);
  akt::filter_by_tags();
  // Not while ctest lists the tests: its parser reads every line.
  if (!listing) {
    std::printf("AK_TEST_SEED=%llu\n", static_cast<unsigned long long>(akt::base_seed()));
    if (akt::on_gpu_style()) {
      const char* seed = std::getenv("AK_SIM_SEED");
      std::printf("device under test: %s, AK_SIM_SEED=%s\n", akt::target().name().c_str(),
                  seed != nullptr ? seed : "0");
    }
  }
  return RUN_ALL_TESTS();
}
