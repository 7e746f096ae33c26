// The search of `ak tune` (src/tools/ak/tune_search.cpp) on made-up operations whose speed and
// result depend on a tuning value as the test decides: the fastest correct value wins, a value
// whose result differs never does, equal speeds keep the default, and a stop keeps nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ak/runtime/hooks.hpp"
#include "tune.hpp"

namespace {

using namespace ak::tool::tune;

// A made-up op with one field (slot 0, default 8): a run takes cost(value) microseconds on the
// search's clock (a clock of the test's own, so that the race does not depend on this machine's
// load) and its result is digest(value).
struct fake_op {
  std::function<double(std::int64_t)> cost_us;
  std::function<std::uint64_t(std::int64_t)> digest = [](std::int64_t) { return 42; };
  std::vector<std::int64_t> candidates{1, 2, 4, 16, 32};
  std::int64_t current = 8;  // the value in force: the default unless a config sets it
  std::uint64_t last = 0;
  double clock_us = 0;  // the test's clock

  target make() {
    target t;
    t.op = "fake";
    t.hook = "fake";
    t.dtype = "int32";
    t.sizes = {1000};
    t.slots = 1;
    field_space f;
    f.name = "grain";
    f.slot = 0;
    f.base = 8;
    f.candidates = candidates;
    f.text = [](std::int64_t v) { return std::to_string(v); };
    t.fields.push_back(f);
    t.build = [this](std::int64_t) {
      workload w;
      w.run = [this] {
        clock_us += cost_us(current) * (1 + 0.02 * noise());
        last = digest(current);
      };
      w.digest = [this] { return last; };
      return w;
    };
    t.apply = [this](const config& c) -> std::shared_ptr<void> {
      current = c[0] == ak::unset ? 8 : c[0];
      return std::shared_ptr<void>(nullptr, [this](void*) { current = 8; });
    };
    return t;
  }

  // -1..1, the same sequence every run: a little noise for the race to see through.
  double noise() {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(seed >> 11) * 0x1p-52 - 1.0;
  }
  std::uint64_t seed = 1;

  settings within(double seconds, double min_speedup = 1.03) {
    settings s;
    s.min_speedup = min_speedup;
    s.deadline = std::chrono::steady_clock::now() +
                 std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                     std::chrono::duration<double>(seconds));
    s.clock = [this] { return clock_us * 1e-6; };
    return s;
  }
};

TEST(TuneSearch, TheFastestCorrectValueWinsAndIsKept) {
  fake_op op;
  op.cost_us = [](std::int64_t v) { return v == 16 ? 150.0 : 600.0; };
  const target t = op.make();
  const target_result r = search(t, op.within(30));
  ASSERT_TRUE(r.complete) << r.skipped;
  ASSERT_EQ(r.fields.size(), 1u);
  EXPECT_EQ(r.fields[0].tuned, 16);
  EXPECT_EQ(r.fields[0].tuned_text, "16");
  EXPECT_GT(r.fields[0].measured.median, 2.0);
  EXPECT_GE(r.fields[0].measured.pairs, 8);
  EXPECT_TRUE(r.kept);
  EXPECT_GT(r.total.median, 2.0);
  EXPECT_TRUE(r.fields[0].rejected.empty());
}

TEST(TuneSearch, AValueWhoseResultDiffersNeverWins) {
  fake_op op;
  // 4 is by far the fastest but computes something else; 32 is a little faster than the default.
  op.cost_us = [](std::int64_t v) { return v == 4 ? 50.0 : v == 32 ? 300.0 : 600.0; };
  op.digest = [](std::int64_t v) -> std::uint64_t { return v == 4 ? 7 : 42; };
  const target t = op.make();
  const target_result r = search(t, op.within(30));
  ASSERT_TRUE(r.complete) << r.skipped;
  EXPECT_EQ(r.fields[0].tuned, 32);
  ASSERT_EQ(r.fields[0].rejected.size(), 1u);
  EXPECT_NE(r.fields[0].rejected[0].find("grain = 4: its result differs from the default's"),
            std::string::npos)
      << r.fields[0].rejected[0];
}

TEST(TuneSearch, AValueThatThrowsIsRejectedWithItsMessage) {
  fake_op op;
  op.cost_us = [](std::int64_t v) {
    if (v == 2) throw std::runtime_error("no such width");
    return 300.0;
  };
  const target_result r = search(op.make(), op.within(30));
  ASSERT_TRUE(r.complete) << r.skipped;
  ASSERT_EQ(r.fields[0].rejected.size(), 1u);
  EXPECT_NE(r.fields[0].rejected[0].find("grain = 2: it failed: no such width"), std::string::npos)
      << r.fields[0].rejected[0];
}

TEST(TuneSearch, NoGainKeepsTheDefaults) {
  fake_op op;
  op.cost_us = [](std::int64_t) { return 400.0; };
  const target_result r = search(op.make(), op.within(30));
  ASSERT_TRUE(r.complete) << r.skipped;
  EXPECT_EQ(r.fields[0].tuned, 8);
  EXPECT_FALSE(r.kept);
}

// --min-speedup 0 keeps the fastest correct value even where the noise is larger than any gain.
TEST(TuneSearch, MinSpeedupZeroKeepsAValueWhateverTheNoise) {
  fake_op op;
  // Each run takes 10 or 1000 us at random, whatever the value: every pair's ratio is 0.01, 1 or
  // 100. The first run (5 ms) makes each timed sample one run.
  bool first = true;
  std::mt19937 rng(7);
  op.cost_us = [&](std::int64_t) {
    if (std::exchange(first, false)) return 5000.0;
    return rng() % 2 ? 10.0 : 1000.0;
  };
  const target_result r = search(op.make(), op.within(30, 0));
  ASSERT_TRUE(r.complete) << r.skipped;
  EXPECT_GT(r.fields[0].measured.spread, r.fields[0].measured.median);
  EXPECT_NE(r.fields[0].tuned, 8);
  EXPECT_TRUE(r.kept);
}

TEST(TuneSearch, OutOfTimeOrInterruptedKeepsNothing) {
  fake_op op;
  op.cost_us = [](std::int64_t v) { return v == 16 ? 100.0 : 600.0; };
  const target t = op.make();
  settings s = op.within(30);
  int calls = 0;
  s.interrupted = [&] { return ++calls > 20; };
  target_result r = search(t, s);
  EXPECT_FALSE(r.complete);
  EXPECT_FALSE(r.kept);
  EXPECT_TRUE(r.skipped.empty());
  r = search(t, op.within(0));
  EXPECT_FALSE(r.complete);
  EXPECT_FALSE(r.kept);
}

TEST(TuneSearch, AnOpThatCannotRunIsSkippedSayingWhy) {
  fake_op op;
  op.cost_us = [](std::int64_t) { return 10.0; };
  target t = op.make();
  t.build = [](std::int64_t) -> workload { throw std::runtime_error("no kernel for this op"); };
  const target_result r = search(t, op.within(30));
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.skipped, "no kernel for this op");
}

TEST(TuneSearch, SummariseGivesTheMedianAndHalfTheInterquartileRange) {
  const speedup s = summarise({1.0, 5.0, 2.0, 4.0, 3.0});
  EXPECT_DOUBLE_EQ(s.median, 3.0);
  EXPECT_DOUBLE_EQ(s.spread, 1.0);  // quartiles 2 and 4
  EXPECT_EQ(s.pairs, 5);
  EXPECT_EQ(summarise({}).pairs, 0);
}

}  // namespace
