// The four-step resolution of algorithm values on the cpu device (see plugin_test.cpp for
// GPU-like devices).
#include <gtest/gtest.h>

#include "ak/core/error.hpp"
#include "ak/runtime/algorithm_values.hpp"
#include "ak/runtime/tuning.hpp"

namespace {

ak::device cpu() {
  return ak::device("cpu");
}

TEST(Resolve, SortAutoTakesTheTuningsChoice) {
  auto r = ak::resolve(ak::auto_alg{}, cpu(), ak::dtype::uint32, {});
  EXPECT_EQ(r.algorithm, ak::sort_algorithm::radix);
  EXPECT_EQ(r.tuning.radix_digit_bits, 11);
  EXPECT_EQ(ak::resolve(ak::auto_alg{}, cpu(), ak::dtype::bool_, {}).tuning.radix_digit_bits, 1);
}

TEST(Resolve, SortAutoNeverPicksWhatCannotHonourTheOptions) {
  // A custom order rules radix sort out; the cpu's sample sort is stable and honours any order.
  auto r = ak::resolve(ak::auto_alg{}, cpu(), ak::dtype::float32, {.custom_order = true});
  EXPECT_EQ(r.algorithm, ak::sort_algorithm::sample);
  ak::scoped_tuning s(ak::sort_hook{}, {.algorithm = ak::sort_algorithm::sample});
  EXPECT_EQ(ak::resolve(ak::auto_alg{}, cpu(), ak::dtype::float32, {}).algorithm,
            ak::sort_algorithm::sample);
  EXPECT_EQ(ak::resolve(ak::auto_alg{}, cpu(), ak::dtype::float32, {.stable = false}).algorithm,
            ak::sort_algorithm::sample);
  ak::scoped_tuning m(ak::sort_hook{}, {.algorithm = ak::sort_algorithm::merge});
  EXPECT_EQ(
      ak::resolve(ak::auto_alg{}, cpu(), ak::dtype::float32, {.custom_order = true}).algorithm,
      ak::sort_algorithm::merge);
}

TEST(Resolve, ExplicitSortIsHonouredOrRejected) {
  EXPECT_EQ(ak::resolve(ak::merge_sort{}, cpu(), ak::dtype::int64, {}).algorithm,
            ak::sort_algorithm::merge);
  try {
    (void)ak::resolve(ak::radix_sort{}, cpu(), ak::dtype::int64, {.custom_order = true});
    FAIL();
  } catch (const ak::capability_error& e) {
    EXPECT_NE(std::string(e.what()).find("radix_sort cannot honour"), std::string::npos);
  }
  // Stable on cpu, so a stable sort (the default) may ask for it.
  EXPECT_EQ(ak::resolve(ak::sample_sort{}, cpu(), ak::dtype::int64, {}).algorithm,
            ak::sort_algorithm::sample);
  auto r = ak::resolve(ak::radix_sort{.radix_digit_bits = 9}, cpu(), ak::dtype::uint64, {});
  EXPECT_EQ(r.tuning.radix_digit_bits, 9);
  EXPECT_THROW(
      (void)ak::resolve(ak::radix_sort{.radix_digit_bits = 17}, cpu(), ak::dtype::uint64, {}),
      ak::argument_error);
  // The GPU radix tile's keys per work-item: a power of two from 1 to 16, 4 unless tuned.
  EXPECT_EQ(ak::resolve(ak::auto_alg{}, cpu(), ak::dtype::uint64, {}).tuning.radix_items_per_thread,
            4);
  EXPECT_EQ(ak::resolve(ak::radix_sort{.radix_items_per_thread = 8}, cpu(), ak::dtype::uint64, {})
                .tuning.radix_items_per_thread,
            8);
  for (std::int64_t bad : {0, 3, 32})
    EXPECT_THROW((void)ak::resolve(ak::radix_sort{.radix_items_per_thread = bad}, cpu(),
                                   ak::dtype::uint64, {}),
                 ak::argument_error)
        << bad;
}

TEST(Resolve, ScanOnCpu) {
  auto r = ak::resolve(ak::auto_alg{}, cpu(), ak::dtype::int64);
  EXPECT_EQ(r.algorithm, ak::scan_algorithm::reduce_then_scan);
  EXPECT_EQ(ak::resolve(ak::decoupled_lookback{}, cpu(), ak::dtype::int64).algorithm,
            ak::scan_algorithm::decoupled_lookback);
  ak::scoped_tuning s(ak::scan_hook{}, {.cpu_grain = 4096});
  EXPECT_EQ(ak::resolve(ak::auto_alg{}, cpu(), ak::dtype::int64).tuning.cpu_grain, 4096);
}

}  // namespace
