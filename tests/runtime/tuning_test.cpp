// The tuning registry's layers, overrides, errors and thread safety (DESIGN.md section 2).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ak/algorithms/sort.hpp"
#include "ak/core/error.hpp"
#include "ak/runtime/tuning.hpp"
#include "ak/version.hpp"
#include "test_support.hpp"

namespace {

using ak::test::scoped_env;
using ak::test::scoped_user_tuning;
using ak::test::temp_file;

ak::device cpu() {
  return ak::device("cpu");
}

TEST(Tuning, GenericAndBackendLayersWithSources) {
  // The cpu backend registers cpu_grain for reduce; block_size is left to the generic default.
  auto e = ak::explain_tuning(ak::reduce_hook{}, cpu(), ak::dtype::float32);
  EXPECT_EQ(e.origins.size(), ak::field_count_v<ak::reduce_tuning>);
  EXPECT_EQ(e.origins[5].source, ak::tuning_source::backend);  // cpu_grain
  EXPECT_NE(e.origins[5].detail.find("backend cpu"), std::string::npos) << e.origins[5].detail;
  EXPECT_EQ(e.origins[0].source, ak::tuning_source::generic);  // block_size
  // Every field of every hook resolves to a set value for every dtype.
  for (const auto& hook : ak::tuning_hooks())
    for (ak::dtype t : ak::all_dtypes)
      for (const auto& f : ak::explain_tuning(hook.name, cpu(), t))
        EXPECT_NE(f.value, ak::unset) << hook.name << "." << f.field;
  // The fast lookup agrees with the explained one.
  auto fast = ak::tuning(ak::reduce_hook{}, cpu(), ak::dtype::float32);
  EXPECT_EQ(fast.cpu_grain, e.value.cpu_grain);
  EXPECT_EQ(fast.block_size, e.value.block_size);
}

TEST(Tuning, BackendDefaultsPerDtypeClass) {
  // cpu registers radix_digit_bits 1 for bool only.
  EXPECT_EQ(ak::tuning(ak::sort_hook{}, cpu(), ak::dtype::bool_).radix_digit_bits, 1);
  EXPECT_EQ(ak::tuning(ak::sort_hook{}, cpu(), ak::dtype::int32).radix_digit_bits, 11);
}

TEST(Tuning, CallOptionsWinAndAreChecked) {
  auto t = ak::tuning(ak::reduce_hook{}, cpu(), ak::dtype::int32, {.cpu_grain = 777});
  EXPECT_EQ(t.cpu_grain, 777);
  auto e = ak::explain_tuning(ak::reduce_hook{}, cpu(), ak::dtype::int32, {.cpu_grain = 777});
  EXPECT_EQ(e.origins[5].source, ak::tuning_source::call);
  try {
    (void)ak::tuning(ak::reduce_hook{}, cpu(), ak::dtype::int32, {.block_size = 1000});
    FAIL() << "expected an error";
  } catch (const ak::argument_error& err) {
    std::string m = err.what();
    EXPECT_NE(m.find("reduce.block_size"), std::string::npos) << m;
    EXPECT_NE(m.find("power of two"), std::string::npos) << m;
    EXPECT_NE(m.find("1000"), std::string::npos) << m;
  }
}

TEST(Tuning, OverrideFileChangesLookupAtRunTime) {
  auto before = ak::tuning(ak::reduce_hook{}, cpu(), ak::dtype::float32);
  temp_file f("override.json", R"({"cpu": {"reduce": {"float32": {"cpu_grain": 12345},
                                                          "*": {"cpu_tasks": 7}}},
                                   "*": {"scan": {"float": {"algorithm": "decoupled_lookback"}}}})");
  {
    scoped_user_tuning user(f.path());
    ASSERT_EQ(user.reload(), "");
    auto after = ak::tuning(ak::reduce_hook{}, cpu(), ak::dtype::float32);
    EXPECT_EQ(after.cpu_grain, 12345);
    EXPECT_EQ(after.cpu_tasks, 7);
    EXPECT_EQ(ak::tuning(ak::reduce_hook{}, cpu(), ak::dtype::int8).cpu_grain, before.cpu_grain);
    EXPECT_EQ(ak::tuning(ak::reduce_hook{}, cpu(), ak::dtype::int8).cpu_tasks, 7);
    EXPECT_EQ(ak::tuning(ak::scan_hook{}, cpu(), ak::dtype::float64).algorithm,
              ak::scan_algorithm::decoupled_lookback);
    EXPECT_EQ(ak::tuning(ak::scan_hook{}, cpu(), ak::dtype::int64).algorithm,
              ak::scan_algorithm::reduce_then_scan);
    auto e = ak::explain_tuning(ak::reduce_hook{}, cpu(), ak::dtype::float32);
    EXPECT_EQ(e.origins[5].source, ak::tuning_source::user);
    EXPECT_NE(e.origins[5].detail.find(f.path()), std::string::npos) << e.origins[5].detail;
    EXPECT_NE(e.origins[5].detail.find("cpu/reduce/float32"), std::string::npos);
  }
  EXPECT_EQ(ak::tuning(ak::reduce_hook{}, cpu(), ak::dtype::float32).cpu_grain, before.cpu_grain);
}

TEST(Tuning, InlineJsonOverride) {
  scoped_user_tuning user(std::string(R"( {"cpu:0": {"map": {"*": {"cpu_grain": 99}}}} )"));
  ASSERT_EQ(user.reload(), "");
  EXPECT_EQ(ak::tuning(ak::map_hook{}, cpu(), ak::dtype::uint16).cpu_grain, 99);
  auto e = ak::explain_tuning(ak::map_hook{}, cpu(), ak::dtype::uint16);
  EXPECT_NE(e.origins[2].detail.find("inline"), std::string::npos);
}

TEST(Tuning, MoreSpecificSelectorsWin) {
  scoped_user_tuning user(std::string(R"({
      "*":     {"map": {"*": {"cpu_grain": 1}, "float32": {"cpu_grain": 3}}},
      "cpu":   {"map": {"*": {"cpu_grain": 10}, "signed": {"cpu_grain": 20}}},
      "cpu:0": {"map": {"int64": {"cpu_grain": 40}}}})"));
  ASSERT_EQ(user.reload(), "");
  EXPECT_EQ(ak::tuning(ak::map_hook{}, cpu(), ak::dtype::uint8).cpu_grain, 10);
  EXPECT_EQ(ak::tuning(ak::map_hook{}, cpu(), ak::dtype::int8).cpu_grain, 20);
  EXPECT_EQ(ak::tuning(ak::map_hook{}, cpu(), ak::dtype::int64).cpu_grain, 40);
  // A more specific device beats a more specific dtype.
  EXPECT_EQ(ak::tuning(ak::map_hook{}, cpu(), ak::dtype::float32).cpu_grain, 10);
}

TEST(Tuning, ScopedOverrideIsScopedAndNewestWins) {
  auto base = ak::tuning(ak::search_hook{}, cpu(), ak::dtype::int32).cpu_grain;
  {
    ak::scoped_tuning a(ak::search_hook{}, {.cpu_grain = 111});
    EXPECT_EQ(ak::tuning(ak::search_hook{}, cpu(), ak::dtype::int32).cpu_grain, 111);
    {
      ak::scoped_tuning b(ak::search_hook{}, {.cpu_grain = 222},
                          {.device = "cpu", .dtype = "signed"});
      EXPECT_EQ(ak::tuning(ak::search_hook{}, cpu(), ak::dtype::int32).cpu_grain, 222);
      EXPECT_EQ(ak::tuning(ak::search_hook{}, cpu(), ak::dtype::uint32).cpu_grain, 111);
      auto e = ak::explain_tuning(ak::search_hook{}, cpu(), ak::dtype::int32);
      EXPECT_EQ(e.origins[1].source, ak::tuning_source::scoped);
    }
    EXPECT_EQ(ak::tuning(ak::search_hook{}, cpu(), ak::dtype::int32).cpu_grain, 111);
  }
  EXPECT_EQ(ak::tuning(ak::search_hook{}, cpu(), ak::dtype::int32).cpu_grain, base);
}

TEST(Tuning, ScopedOverrideChecksItsValues) {
  EXPECT_THROW(ak::scoped_tuning(ak::reduce_hook{}, {.block_size = 3}), ak::argument_error);
  EXPECT_THROW(ak::scoped_tuning(ak::reduce_hook{}, {.cpu_grain = 1}, {.dtype = "float16"}),
               ak::argument_error);
  EXPECT_THROW(ak::scoped_tuning(ak::reduce_hook{}, {.cpu_grain = 1}, {.device = ""}),
               ak::argument_error);
}

TEST(Tuning, ScopedOverridesBeatUserOverrides) {
  scoped_user_tuning user(std::string(R"({"cpu": {"map": {"*": {"cpu_grain": 5}}}})"));
  ASSERT_EQ(user.reload(), "");
  ak::scoped_tuning s(ak::map_hook{}, {.cpu_grain = 6});
  EXPECT_EQ(ak::tuning(ak::map_hook{}, cpu(), ak::dtype::int8).cpu_grain, 6);
  EXPECT_EQ(ak::tuning(ak::map_hook{}, cpu(), ak::dtype::int8, {.cpu_grain = 8}).cpu_grain, 8);
}

// A hook that claims another hook's name with a different type: the lookup must refuse it.
struct mislabelled_hook {
  using type = ak::scan_tuning;
  static constexpr std::string_view name = "reduce";
};

TEST(Tuning, WrongTypeForHookNamesHookBackendAndTypes) {
  try {
    (void)ak::tuning(mislabelled_hook{}, cpu(), ak::dtype::float32);
    FAIL() << "expected an error";
  } catch (const ak::tuning_error& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("'reduce'"), std::string::npos) << m;
    EXPECT_NE(m.find("'cpu'"), std::string::npos) << m;
    EXPECT_NE(m.find("ak::scan_tuning"), std::string::npos) << m;
    EXPECT_NE(m.find("ak::reduce_tuning"), std::string::npos) << m;
  }
}

struct unknown_hook {
  using type = ak::map_tuning;
  static constexpr std::string_view name = "no_such_hook";
};

TEST(Tuning, UnknownHookIsAnError) {
  EXPECT_THROW((void)ak::tuning(unknown_hook{}, cpu(), ak::dtype::float32), ak::tuning_error);
  EXPECT_THROW((void)ak::explain_tuning("nope", cpu(), ak::dtype::float32), ak::tuning_error);
}

// Each bad file: the error names the file and the key, and every lookup fails until it is fixed.
struct bad_file_case {
  const char* name;
  const char* text;
  const char* key;     // expected in the message ("" when the file is not valid JSON)
  const char* detail;  // another piece of the message
  friend void PrintTo(const bad_file_case& c, std::ostream* os) { *os << c.name; }
};

class BadOverrideFile : public ::testing::TestWithParam<bad_file_case> {};

// Nested far past any tuning document (a recursive reader would run out of stack).
const std::string deep_in_object =
    R"({"cpu": )" + std::string(100000, '[') + std::string(100000, ']') + "}";
const std::string deep_at_top = std::string(100000, '[') + std::string(100000, ']');

TEST_P(BadOverrideFile, IsAnErrorNamingFileAndKey) {
  const auto& c = GetParam();
  temp_file f(std::string(c.name) + ".json", c.text);
  scoped_user_tuning user(f.path());
  std::string m = user.reload();
  ASSERT_NE(m, "") << "accepted: " << c.text;
  EXPECT_NE(m.find(f.path()), std::string::npos) << m;
  if (*c.key)
    EXPECT_NE(m.find("key \"" + std::string(c.key) + "\""), std::string::npos) << m;
  else  // not JSON, or not an object at the top: there is no key to name
    EXPECT_EQ(m.find("key \""), std::string::npos) << m;
  EXPECT_NE(m.find(c.detail), std::string::npos) << m;
  // Never ignored: lookups fail with the same message.
  try {
    (void)ak::tuning(ak::reduce_hook{}, cpu(), ak::dtype::float32);
    FAIL() << "lookup ignored a bad override file";
  } catch (const ak::tuning_error& e) {
    EXPECT_EQ(std::string(e.what()), m);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Tuning, BadOverrideFile,
    ::testing::Values(
        bad_file_case{"malformed", R"({"cpu": {"reduce": )", "", "malformed JSON"},
        bad_file_case{"not_object", R"([1, 2])", "", "expected an object"},
        bad_file_case{"unknown_hook", R"({"cpu": {"reduse": {"*": {}}}})", "cpu/reduse",
                      "unknown hook"},
        bad_file_case{"unknown_field", R"({"cpu": {"reduce": {"*": {"blocksize": 64}}}})",
                      "cpu/reduce/*/blocksize", "unknown field"},
        bad_file_case{"unknown_dtype", R"({"cpu": {"reduce": {"float16": {"cpu_grain": 64}}}})",
                      "cpu/reduce/float16", "a dtype"},
        bad_file_case{"wrong_type", R"({"cpu": {"reduce": {"*": {"cpu_grain": "big"}}}})",
                      "cpu/reduce/*/cpu_grain", "string"},
        bad_file_case{"float_value", R"({"cpu": {"reduce": {"*": {"cpu_grain": 1.5}}}})",
                      "cpu/reduce/*/cpu_grain", "number"},
        bad_file_case{"out_of_range", R"({"cpu": {"reduce": {"*": {"block_size": 4096}}}})",
                      "cpu/reduce/*/block_size", "4096"},
        bad_file_case{"not_power_of_two", R"({"*": {"scan": {"int32": {"block_size": 96}}}})",
                      "*/scan/int32/block_size", "power of two"},
        bad_file_case{"negative", R"({"*": {"map": {"*": {"cpu_grain": -1}}}})",
                      "*/map/*/cpu_grain", "-1"},
        bad_file_case{"bad_enum", R"({"*": {"scan": {"*": {"algorithm": "fastest"}}}})",
                      "*/scan/*/algorithm", "reduce_then_scan"},
        bad_file_case{"enum_as_number", R"({"*": {"sort": {"*": {"algorithm": 1}}}})",
                      "*/sort/*/algorithm", "radix"},
        bad_file_case{"fields_not_object", R"({"*": {"sort": {"*": 5}}})", "*/sort/*", "an object"},
        bad_file_case{"deep_nesting", deep_in_object.c_str(), "cpu", "nested deeper than 32"},
        bad_file_case{"deep_nesting_at_top", deep_at_top.c_str(), "", "nested deeper than 32"},
        bad_file_case{"number_overflow", R"({"cpu": {"reduce": {"*": {"cpu_grain": 1e400}}}})",
                      "cpu/reduce/*/cpu_grain", "out of range"},
        bad_file_case{"duplicate_field",
                      R"({"cpu": {"reduce": {"*": {"cpu_grain": 64, "cpu_grain": 128}}}})",
                      "cpu/reduce/*/cpu_grain", "appears twice"},
        bad_file_case{"duplicate_device", R"({"cpu": {}, "*": {}, "cpu": {}})", "cpu",
                      "appears twice"},
        bad_file_case{"size_not_a_number",
                      R"({"cpu": {"map": {"*": {"by_size": {"1e6": {"cpu_grain": 8}}}}}})",
                      "cpu/map/*/by_size/1e6", "a number of elements"},
        bad_file_case{"size_leading_zero",
                      R"({"cpu": {"map": {"*": {"by_size": {"0100": {"cpu_grain": 8}}}}}})",
                      "cpu/map/*/by_size/0100", "a number of elements"},
        bad_file_case{"size_zero",
                      R"({"cpu": {"map": {"*": {"by_size": {"0": {"cpu_grain": 8}}}}}})",
                      "cpu/map/*/by_size/0", "at least 1"},
        bad_file_case{"sizes_not_object", R"({"cpu": {"map": {"*": {"by_size": [1]}}}})",
                      "cpu/map/*/by_size", "an object of sizes"},
        bad_file_case{"sized_field_unknown",
                      R"({"cpu": {"map": {"*": {"by_size": {"100": {"grain": 8}}}}}})",
                      "cpu/map/*/by_size/100/grain", "unknown field"},
        bad_file_case{"sized_value_out_of_range",
                      R"({"cpu": {"map": {"*": {"by_size": {"100": {"cpu_grain": 0}}}}}})",
                      "cpu/map/*/by_size/100/cpu_grain", "0"}),
    [](const auto& p) { return std::string(p.param.name); });

TEST(Tuning, MissingOverrideFileIsAnError) {
  scoped_user_tuning user(std::string("/nonexistent/ak-tuning.json"));
  std::string m = user.reload();
  EXPECT_NE(m.find("/nonexistent/ak-tuning.json"), std::string::npos) << m;
}

// A private autotune cache folder for one test; on exit it is removed and the files reread.
class scoped_cache_dir {
 public:
  scoped_cache_dir()
      : dir_(std::filesystem::temp_directory_path() / ("ak-cache-" + std::to_string(::getpid()))),
        env_("AK_TUNING_CACHE_DIR", dir_.string()) {
    std::filesystem::create_directories(dir_);
  }
  ~scoped_cache_dir() {
    std::filesystem::remove_all(dir_);
    (void)ak::test::reload_error();
  }
  const std::filesystem::path& dir() const { return dir_; }
  // Writes the cpu device's cache file as `ak tune` does (its stamp, then `tunings`, the text of
  // { hook: { dtype: { field: value } } }) and rereads it; returns why it is ignored, or "".
  std::string write(const std::string& tunings) {
    std::string stamp = ak::tuning_cache_stamp(cpu());
    stamp.pop_back();  // the closing brace
    return write_raw(stamp + R"(, "tunings": )" + tunings + "}");
  }
  // The same with the whole text given.
  std::string write_raw(const std::string& text) {
    std::ofstream(ak::tuning_cache_path(cpu())) << text;
    if (std::string e = ak::test::reload_error(); !e.empty()) return "reload threw: " + e;
    return ak::tuning_cache_problem(cpu());
  }

 private:
  std::filesystem::path dir_;
  scoped_env env_;
};

TEST(Tuning, AutotuneCacheIsALayerBetweenBackendAndUser) {
  scoped_cache_dir cache;
  std::string path = ak::tuning_cache_path(cpu());
  EXPECT_EQ(std::filesystem::path(path).parent_path(), cache.dir());
  ASSERT_EQ(cache.write(R"({"reduce": {"float64": {"cpu_grain": 4242, "cpu_tasks": 3}}})"), "");
  EXPECT_EQ(ak::tuning(ak::reduce_hook{}, cpu(), ak::dtype::float64).cpu_grain, 4242);
  auto e = ak::explain_tuning(ak::reduce_hook{}, cpu(), ak::dtype::float64);
  EXPECT_EQ(e.origins[5].source, ak::tuning_source::autotune);
  EXPECT_NE(e.origins[5].detail.find(path), std::string::npos);
  {
    // The user's overrides sit above the cache.
    scoped_user_tuning user(std::string(R"({"cpu": {"reduce": {"*": {"cpu_tasks": 9}}}})"));
    ASSERT_EQ(user.reload(), "");
    EXPECT_EQ(ak::tuning(ak::reduce_hook{}, cpu(), ak::dtype::float64).cpu_tasks, 9);
    EXPECT_EQ(ak::tuning(ak::reduce_hook{}, cpu(), ak::dtype::float64).cpu_grain, 4242);
  }
}

// Entries measured at sizes ("by_size"): a lookup of n elements takes the size nearest to n by
// power-of-two class (a tie: the larger), a lookup of no size takes the entries for every size,
// and fields a size does not give come from the layers as before. Each size class keeps its own
// cached values, so that lookups of alternating sizes stay right.
TEST(Tuning, EntriesMeasuredAtSizesApplyByTheNearestSize) {
  scoped_cache_dir cache;
  ASSERT_EQ(cache.write(R"({"map": {"int32": {"cpu_grain": 5000, "by_size": {
      "1000": {"cpu_grain": 1000, "items_per_thread": 2},
      "1000000": {"cpu_grain": 1000000}}}}})"),
            "");
  const auto grain = [](ak::tuning_size n) {
    return ak::tuning(ak::map_hook{}, cpu(), ak::dtype::int32, n).cpu_grain;
  };
  for (int round = 0; round < 2; ++round) {  // the second round from the per-thread cache
    EXPECT_EQ(grain(ak::tuning_size::any()), 5000);
    EXPECT_EQ(grain(0), 1000);
    EXPECT_EQ(grain(1), 1000);
    EXPECT_EQ(grain(1000), 1000);
    EXPECT_EQ(grain(1 << 20), 1000000);
    EXPECT_EQ(grain(std::int64_t{1} << 40), 1000000);
  }
  // Classes: 1000 is 10, 1e6 is 20; 2^14 (class 15) is as near to both: the larger wins.
  EXPECT_EQ(grain(1 << 14), 1000000);
  EXPECT_EQ(grain((1 << 14) - 1), 1000);  // class 14
  // Each field takes the nearest size that gives it: items_per_thread is 1000's everywhere, and
  // a lookup of no size takes the layers below.
  EXPECT_EQ(ak::tuning(ak::map_hook{}, cpu(), ak::dtype::int32, 999).items_per_thread, 2);
  EXPECT_EQ(ak::tuning(ak::map_hook{}, cpu(), ak::dtype::int32, 1 << 20).items_per_thread, 2);
  EXPECT_NE(ak::tuning(ak::map_hook{}, cpu(), ak::dtype::int32).items_per_thread, 2);
  // Other dtypes and hooks have no sizes.
  EXPECT_TRUE(ak::tuned_sizes("map", cpu(), ak::dtype::int64).empty());
  EXPECT_EQ(ak::tuned_sizes("map", cpu(), ak::dtype::int32),
            (std::vector<std::int64_t>{1000, 1000000}));
  // Origins name the size's key; the call's options still win over it.
  auto e = ak::explain_tuning(ak::map_hook{}, cpu(), ak::dtype::int32, {}, 1000);
  EXPECT_EQ(e.origins[2].source, ak::tuning_source::autotune);
  EXPECT_NE(e.origins[2].detail.find("by_size/1000"), std::string::npos) << e.origins[2].detail;
  EXPECT_EQ(ak::tuning(ak::map_hook{}, cpu(), ak::dtype::int32, {.cpu_grain = 7}, 1000).cpu_grain,
            7);
  {
    // AK_TUNING's entries for every size sit above the cache's sized ones.
    scoped_user_tuning user(std::string(R"({"cpu": {"map": {"int32": {"cpu_grain": 3}}}})"));
    ASSERT_EQ(user.reload(), "");
    EXPECT_EQ(grain(1 << 20), 3);
    EXPECT_EQ(grain(ak::tuning_size::any()), 3);
  }
  {
    // It may hold sized entries of its own; within its layer the nearest size wins, whatever
    // the distance (one size applies to every size).
    scoped_user_tuning user(
        std::string(R"({"cpu": {"map": {"int32": {"by_size": {"64": {"cpu_grain": 64}}}}}})"));
    ASSERT_EQ(user.reload(), "");
    EXPECT_EQ(grain(50), 64);
    EXPECT_EQ(grain(1 << 20), 64);
    EXPECT_EQ(grain(ak::tuning_size::any()), 5000);
    EXPECT_EQ(ak::tuned_sizes("map", cpu(), ak::dtype::int32),
              (std::vector<std::int64_t>{64, 1000, 1000000}));
  }
  EXPECT_EQ(grain(1 << 20), 1000000);
  // Two sizes of one power-of-two class: the larger serves the class, whatever the order.
  ASSERT_EQ(cache.write(R"({"map": {"int32": {"by_size": {"1000": {"cpu_grain": 1000},
      "600": {"cpu_grain": 600}}}}})"),
            "");
  EXPECT_EQ(grain(600), 1000);
  EXPECT_EQ(grain(1000), 1000);
}

// The algorithms look their tunings up with their sizes: a sorted-by-size override of the sort's
// algorithm is seen by what a precompiled sort resolves at each size.
TEST(Tuning, AlgorithmsLookUpTheirTuningsWithTheirSize) {
  scoped_user_tuning user(std::string(R"({"cpu": {"sort": {"uint32": {"by_size": {
      "100": {"algorithm": "merge"}, "100000": {"algorithm": "radix"}}}}}})"));
  ASSERT_EQ(user.reload(), "");
  EXPECT_EQ(ak::resolve(ak::auto_alg{}, cpu(), ak::dtype::uint32, {}, 90).algorithm,
            ak::sort_algorithm::merge);
  EXPECT_EQ(ak::resolve(ak::auto_alg{}, cpu(), ak::dtype::uint32, {}, 200000).algorithm,
            ak::sort_algorithm::radix);
  scoped_env log("AK_LOG", "tuning");
  ASSERT_EQ(ak::test::reload_error(), "");
  for (const std::int64_t n : {std::int64_t{90}, std::int64_t{200000}}) {
    std::vector<std::uint32_t> h(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<std::uint32_t>(h.size() - i);
    ak::array<std::uint32_t> v(h);
    ::testing::internal::CaptureStderr();
    ak::sort_inplace(v);
    const std::string log_text = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(log_text.find("dtype uint32, n " + std::to_string(n) + ":"), std::string::npos)
        << log_text;
    EXPECT_NE(log_text.find(n == 90 ? "algorithm=merge" : "algorithm=radix"), std::string::npos)
        << log_text;
    const std::vector<std::uint32_t> out = v.to_vector();
    EXPECT_TRUE(std::is_sorted(out.begin(), out.end()));
  }
}

// A cache that cannot be used (malformed, truncated, of another version, schema or device, the
// format before stamps) is ignored with one warning naming the file and why: lookups go on with
// the layers below it, unlike a bad AK_TUNING, which fails them.
TEST(Tuning, UnusableAutotuneCacheIsIgnoredWithOneWarning) {
  scoped_cache_dir cache;
  const std::string path = ak::tuning_cache_path(cpu());
  const std::int64_t backend = ak::tuning(ak::reduce_hook{}, cpu(), ak::dtype::float64).cpu_grain;
  const std::string good = R"({"reduce": {"float64": {"cpu_grain": 4243}}})";
  ASSERT_NE(backend, 4243);
  ASSERT_EQ(cache.write(good), "");
  ASSERT_EQ(ak::tuning(ak::reduce_hook{}, cpu(), ak::dtype::float64).cpu_grain, 4243);
  std::string stamped = ak::tuning_cache_stamp(cpu());
  stamped.pop_back();
  stamped += R"(, "tunings": )" + good + "}";
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = stamped;
    const auto at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? t : t.replace(at, from.size(), to);
  };
  const std::string version = std::string(ak::version_string());
  const std::string model = ak::device("cpu:0").info().description;
  const struct {
    std::string name, text, why;
  } cases[] = {
      {"a bad field value", replaced("4243", R"("x")"), "tunings/reduce/float64/cpu_grain"},
      {"truncated", stamped.substr(0, stamped.size() / 2), "malformed JSON"},
      {"the format before stamps", good, "no \"format\""},
      {"another format", replaced("ak-tuning-cache-1", "ak-tuning-cache-0"), "stale: its format"},
      {"another ak version", replaced("\"" + version + "\"", R"("0.0.0-old")"),
       "stale: its ak_version is \"0.0.0-old\""},
      {"another schema", replaced("fnv1a64:", "fnv1a64:0"), "stale: its schema"},
      {"another device", replaced(model, model + " (another)"), "written for another device"},
      {"not an object", "[1, 2]", "expected an object"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    testing::internal::CaptureStderr();
    const std::string why = cache.write_raw(c.text);
    (void)ak::test::reload_error();  // read again: no second warning
    EXPECT_EQ(ak::tuning(ak::reduce_hook{}, cpu(), ak::dtype::float64).cpu_grain, backend);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(why.find(path), std::string::npos) << why;
    EXPECT_NE(why.find(c.why), std::string::npos) << why;
    EXPECT_EQ(ak::tuning_cache_problem(cpu()), why);
    const std::string warning = "ak: warning: " + why + "; the file is ignored";
    const auto first = err.find(warning);
    EXPECT_NE(first, std::string::npos) << err;
    EXPECT_EQ(err.find(warning, first + 1), std::string::npos) << "warned twice: " << err;
    EXPECT_NE(ak::explain_tuning(ak::reduce_hook{}, cpu(), ak::dtype::float64).origins[5].source,
              ak::tuning_source::autotune);
  }
  // Repaired, the file is used again.
  EXPECT_EQ(cache.write(good), "");
  EXPECT_EQ(ak::tuning(ak::reduce_hook{}, cpu(), ak::dtype::float64).cpu_grain, 4243);
}

TEST(Tuning, ReloadInvalidatesEveryThreadsCache) {
  // Each round rewrites the cache file and rereads it; only then may the workers look, and every
  // one of them must see the new value (no thread keeps a stale cached lookup).
  scoped_cache_dir cache;
  constexpr int threads = 4, rounds = 50;
  std::atomic<int> wrong{0};
  std::barrier sync(threads + 1);
  std::atomic<std::int64_t> expected{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < threads; ++w)
    workers.emplace_back([&] {
      for (int r = 0; r < rounds; ++r) {
        sync.arrive_and_wait();  // the file for round r is loaded
        for (int i = 0; i < 100; ++i)
          if (ak::tuning(ak::map_hook{}, cpu(), ak::dtype::int16).cpu_grain != expected) ++wrong;
        sync.arrive_and_wait();  // done looking
      }
    });
  for (int r = 0; r < rounds; ++r) {
    expected = 1000 + r;
    ASSERT_EQ(cache.write(R"({"map": {"*": {"cpu_grain": )" + std::to_string(1000 + r) + "}}}"),
              "");
    sync.arrive_and_wait();
    sync.arrive_and_wait();
  }
  for (auto& t : workers) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(Tuning, ConcurrentLookupsSeeTheirOwnScopesAndConsistentValues) {
  // Many threads look up at once; each has its own scoped override, while another thread keeps
  // reloading the shared layers. Every lookup must give the value its own layers define.
  constexpr int threads = 8;
  constexpr int iterations = 20000;
  scoped_user_tuning user(std::string(R"({"cpu": {"search": {"*": {"block_size": 64}}}})"));
  ASSERT_EQ(user.reload(), "");
  std::atomic<bool> stop{false};
  std::atomic<int> wrong{0};
  std::thread reloader([&] {
    while (!stop) ak::reload_tuning_files();
  });
  std::vector<std::thread> workers;
  for (int w = 0; w < threads; ++w)
    workers.emplace_back([&, w] {
      ak::scoped_tuning mine(ak::search_hook{}, {.cpu_grain = 1000 + w});
      for (int i = 0; i < iterations; ++i) {
        auto t = ak::tuning(ak::search_hook{}, cpu(), ak::all_dtypes[i % ak::dtype_count]);
        if (t.cpu_grain != 1000 + w || t.block_size != 64) ++wrong;
      }
    });
  for (auto& t : workers) t.join();
  stop = true;
  reloader.join();
  EXPECT_EQ(wrong.load(), 0);
}

// AK_LOG=tuning, on from here to the end of the scope (AK_LOG is reread with the tuning files).
class scoped_tuning_log {
 public:
  scoped_tuning_log() : env_("AK_LOG", "tuning") { (void)ak::test::reload_error(); }
  ~scoped_tuning_log() {
    ::unsetenv("AK_LOG");
    (void)ak::test::reload_error();
  }

 private:
  scoped_env env_;
};

// The lines the tuning log printed for the sort hook while `f` ran.
template <class F>
std::vector<std::string> sort_log_lines(F&& f) {
  testing::internal::CaptureStderr();
  f();
  std::istringstream all(testing::internal::GetCapturedStderr());
  std::vector<std::string> lines;
  for (std::string line; std::getline(all, line);)
    if (line.rfind("ak tuning: hook sort, device cpu:0 (class cpu), dtype float32, n 5000:", 0) ==
        0)
      lines.push_back(line);
  return lines;
}

// Item (c) of the first-operations issue: an override file, a scoped override and an autotune
// cache each change, at run time, what libak's precompiled float sort resolves, which the tuning
// log shows with the value's layer and entry. The sort's result is checked each time.
TEST(TuningLog, EachLayerChangesWhatAPrecompiledSortResolves) {
  std::vector<float> v(5000);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1, 1);
  for (auto& x : v) x = dist(rng);
  std::vector<float> want = v;
  std::sort(want.begin(), want.end());
  auto sort_once = [&] {
    auto r = sort_log_lines([&] { EXPECT_EQ(ak::sort(v).to_vector(), want); });
    // ak::sort resolves before it copies (so that a bad option writes nothing), and the sort of
    // the copy resolves again: two lookups, which must agree.
    EXPECT_FALSE(r.empty());
    for (const auto& line : r) EXPECT_EQ(line, r.front());
    return r.empty() ? std::string() : r.front();
  };
  // Off by default.
  EXPECT_TRUE(sort_log_lines([&] { (void)ak::sort(v); }).empty());

  scoped_tuning_log log;
  std::string line = sort_once();
  EXPECT_NE(line.find(" algorithm=radix (backend: backend cpu defaults"), std::string::npos)
      << line;
  for (const char* field : {"radix_digit_bits=", "block_size=", "cpu_grain=", "merge_tile_size="})
    EXPECT_NE(line.find(field), std::string::npos) << field << " missing: " << line;

  temp_file f("log-override.json", R"({"cpu": {"sort": {"float32": {"algorithm": "merge"}}}})");
  {
    scoped_user_tuning user(f.path());
    ASSERT_EQ(user.reload(), "");
    line = sort_once();
    EXPECT_NE(line.find(" algorithm=merge (user: AK_TUNING file '" + f.path() +
                        "', key cpu/sort/float32)"),
              std::string::npos)
        << line;
  }
  {
    ak::scoped_tuning s(ak::sort_hook{}, {.algorithm = ak::sort_algorithm::sample},
                        {.device = "cpu", .dtype = "float32"});
    line = sort_once();
    EXPECT_NE(line.find(" algorithm=sample (scoped"), std::string::npos) << line;
  }
  {
    scoped_cache_dir cache;
    ASSERT_EQ(cache.write(R"({"sort": {"float32": {"algorithm": "merge", "cpu_grain": 3000}}})"),
              "");
    line = sort_once();
    EXPECT_NE(
        line.find(" algorithm=merge (autotune: autotune cache '" + ak::tuning_cache_path(cpu())),
        std::string::npos)
        << line;
    EXPECT_NE(line.find(" cpu_grain=3000 (autotune"), std::string::npos) << line;
  }
  line = sort_once();
  EXPECT_NE(line.find(" algorithm=radix (backend"), std::string::npos) << line;
}

TEST(TuningLog, UnknownTopicIsReportedOnce) {
  scoped_env env("AK_LOG", "tunings,tuning");
  testing::internal::CaptureStderr();
  (void)ak::test::reload_error();
  (void)ak::tuning(ak::map_hook{}, cpu(), ak::dtype::int8);
  std::string out = testing::internal::GetCapturedStderr();
  ::unsetenv("AK_LOG");
  (void)ak::test::reload_error();
  EXPECT_NE(out.find("AK_LOG: unknown topic 'tunings' ignored"), std::string::npos) << out;
  EXPECT_NE(out.find("ak tuning: hook map, device cpu:0 (class cpu), dtype int8:"),
            std::string::npos)
      << out;
}

TEST(Tuning, SchemasDescribeEveryHook) {
  auto hooks = ak::tuning_hooks();
  std::vector<std::string> names;
  for (const auto& h : hooks) names.push_back(h.name);
  EXPECT_EQ(names, (std::vector<std::string>{"reduce", "scan", "sort", "map", "search", "select"}));
  EXPECT_EQ(hooks[0].fields.size(), ak::field_count_v<ak::reduce_tuning>);
  EXPECT_EQ(hooks[1].fields[2].name, "algorithm");
  EXPECT_EQ(hooks[1].fields[2].enum_names,
            (std::vector<std::string>{"reduce_then_scan", "decoupled_lookback"}));
}

}  // namespace
