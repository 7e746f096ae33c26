// The kernel language on sim, on every profile under several shuffle seeds. Its portable tests
// (ids, barriers, local memory, every sub-group operation at the profile's width (16, 32, 64),
// atomics and fences, empty and bad launches) are written once in
// tests/kernel/kernel_language_bodies.hpp and made TEST_Ps here; nvcc compiles the same bodies for
// cuda:0 (tests/cuda/kernel_language_test.cu). The tests of sim's own rule checks (divergence,
// overruns, exceptions in kernels, aborted launches, the watchdog) are sim-only and stay here.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "../kernel/kernel_language_bodies.hpp"
#include "ak/core/sanitizers.hpp"
#include "ak/runtime/tuning.hpp"
#include "sim_test_support.hpp"

namespace {

using ak::kernel::memory_order;
using ak::kernel::memory_scope;
using ak::kernel::range_1d;
using ak_sim_test::kernel_error_of;

using KernelLanguage = ak_sim_test::sim_test;

// ---- the portable bodies, on each (profile, seed) ---------------------------------------------

#define AK_KL_ON_SIM(name)       \
  TEST_P(KernelLanguage, name) { \
    ak_kl_test::name(dev());     \
  }
AK_KERNEL_LANGUAGE_PORTABLE_TESTS(AK_KL_ON_SIM)
#undef AK_KL_ON_SIM

// ---- what sim rejects ------------------------------------------------------------------------

TEST_P(KernelLanguage, BarrierInDivergentBranchIsAnError) {
  auto m = kernel_error_of([&] {
    run(range_1d(128, 64), 0, "bad_barrier", [](auto& ctx) {
      if (ctx.local_id(0) < 16) ctx.barrier();
    });
  });
  EXPECT_NE(m.find("kernel 'bad_barrier'"), std::string::npos) << m;
  EXPECT_NE(m.find("barrier divergence"), std::string::npos) << m;
}

TEST_P(KernelLanguage, DifferentBarriersAreAnError) {
  auto m = kernel_error_of([&] {
    run(range_1d(64, 64), 0, "two_barriers", [](auto& ctx) {
      if (ctx.local_id(0) % 2)
        ctx.barrier();
      else
        ctx.barrier();
    });
  });
  EXPECT_NE(m.find("kernel 'two_barriers'"), std::string::npos) << m;
  EXPECT_NE(m.find("barrier divergence"), std::string::npos) << m;
  EXPECT_NE(m.find("kernel_language_test.cpp"), std::string::npos) << m;
}

TEST_P(KernelLanguage, EarlyReturnBeforeBarrierIsAnError) {
  std::vector<int> data(100, 1);
  auto m = kernel_error_of([&] {
    run(range_1d(128, 128), 0, "early_return", [&](auto& ctx) {
      const auto i = ctx.global_id(0);
      if (i >= 100) return;  // the classic bug: the barrier below is not reached by all
      ctx.barrier();
      data[i] = 2;
    });
  });
  EXPECT_NE(m.find("returned without reaching the barrier"), std::string::npos) << m;
}

TEST_P(KernelLanguage, DivergentSubGroupOperationIsAnError) {
  const int w = width();
  auto m = kernel_error_of([&] {
    run(range_1d(2 * w, 2 * w), 0, "bad_shuffle", [](auto& ctx) {
      int v = 1;
      if (ctx.sub_group_lane() < 4)
        v = ctx.shuffle(v, 0);
      else
        v = ctx.shuffle_xor(v, 1);
    });
  });
  EXPECT_NE(m.find("kernel 'bad_shuffle'"), std::string::npos) << m;
  EXPECT_NE(m.find("sub-group divergence"), std::string::npos) << m;
}

TEST_P(KernelLanguage, SubGroupOperationNotReachedByAllLanesIsAnError) {
  const int w = width();
  auto m = kernel_error_of([&] {
    run(range_1d(w, w), 0, "partial_ballot", [](auto& ctx) {
      if (ctx.sub_group_lane() != 1) (void)ctx.ballot(true);
    });
  });
  EXPECT_NE(m.find("sub-group divergence"), std::string::npos) << m;
}

TEST_P(KernelLanguage, SubGroupOperationInPartialSubGroupIsAnError) {
  const int w = width();
  auto m = kernel_error_of([&] {
    run(range_1d(w + 8, w + 8), 0, "partial_sub_group", [](auto& ctx) { (void)ctx.shuffle(1, 0); });
  });
  EXPECT_NE(m.find("partial sub-group"), std::string::npos) << m;
}

TEST_P(KernelLanguage, LocalMemoryOverrunIsAnError) {
  auto m = kernel_error_of([&] {
    run(range_1d(64, 64), 64 * sizeof(float), "overrun", [](auto& ctx) {
      auto s = ak::kernel::local_array<float>(ctx, 0, 64);
      s[ctx.local_id(0) + 1] = 1.0f;  // item 63 writes s[64]
    });
  });
  EXPECT_NE(m.find("kernel 'overrun'"), std::string::npos) << m;
  EXPECT_NE(m.find("local memory overrun"), std::string::npos) << m;
  EXPECT_NE(m.find("index 64"), std::string::npos) << m;
}

TEST_P(KernelLanguage, LocalArrayPastTheLaunchSizeIsAnError) {
  auto m = kernel_error_of([&] {
    run(range_1d(32, 32), 128, "too_big", [](auto& ctx) {
      auto s = ak::kernel::local_array<double>(ctx, 64, 9);  // bytes 64..136 of 128
      s[0] = 1.0;
    });
  });
  EXPECT_NE(m.find("exceeds the launch's 128 bytes"), std::string::npos) << m;
}

TEST_P(KernelLanguage, ExceptionInKernelIsAKernelError) {
  auto m = kernel_error_of([&] {
    run(range_1d(256, 64), 0, "throws", [](auto& ctx) {
      if (ctx.global_id(0) == 77) throw std::runtime_error("item 77 gives up");
      ctx.barrier();
    });
  });
  EXPECT_NE(m.find("item 77 gives up"), std::string::npos) << m;
  EXPECT_NE(m.find("work-item (13) of group (1)"), std::string::npos) << m;
}

TEST_P(KernelLanguage, AbortedLaunchUnblocksWaitingGroups) {
  // Group 0 fails; the other groups wait for a flag it never sets and must be unwound.
  int flag = 0;
  auto m = kernel_error_of([&] {
    run(range_1d(8 * 32, 32), 0, "abandoned", [&](auto& ctx) {
      if (ctx.group_id(0) == 0) throw std::runtime_error("group 0 fails");
      while (ctx.atomic_load(&flag, memory_order::relaxed, memory_scope::device) == 0) {
      }
    });
  });
  EXPECT_NE(m.find("group 0 fails"), std::string::npos) << m;
}

// AK_LOG=launch: one line per launch with what a group did (barriers met, local and global
// atomics called) and what a sub-group did (operations, by kind), here of a kernel whose counts
// are known: 2 barriers, 3 ballots and 1 match per sub-group, 5 local atomics per item, 1 global
// atomic per sub-group.
TEST_P(KernelLanguage, LaunchLogCountsWhatEachGroupDid) {
  const int w = width();
  ::setenv("AK_LOG", "launch", 1);
  ak::reload_tuning_files();  // rereads AK_LOG
  testing::internal::CaptureStderr();
  std::vector<int> global(1, 0);
  run(range_1d(4 * w, 2 * w), sizeof(int), "counted", [&](auto& ctx) {
    auto local = ak::kernel::local_array<int>(ctx, 0, 1);
    if (ctx.local_id(0) == 0) local[0] = 0;
    ctx.barrier();
    for (int i = 0; i < 5; ++i)
      ctx.atomic_add(&local[0], 1, memory_order::relaxed, memory_scope::work_group);
    for (int i = 0; i < 3; ++i) (void)ctx.ballot(i == ctx.sub_group_lane());
    (void)ctx.sub_group_match_any(ctx.sub_group_lane() % 3);
    if (ctx.sub_group_lane() == 0)
      ctx.atomic_add(global.data(), 1, memory_order::relaxed, memory_scope::device);
    ctx.barrier();
  });
  const std::string out = testing::internal::GetCapturedStderr();
  ::unsetenv("AK_LOG");
  ak::reload_tuning_files();
  EXPECT_EQ(global[0], 4);
  const std::string want = "ak launch: kernel 'counted' on " + dev().name() + ", 2 groups of " +
                           std::to_string(2 * w) + " work-items (sub-groups of " +
                           std::to_string(w) + "); per group: 2 barriers, " +
                           std::to_string(10 * w) +
                           " local and 2 global atomics; per sub-group: 4 operations (ballot 3, "
                           "sub_group_match_any 1)\n";
  EXPECT_EQ(out, want);
}

// A work-item that waits for one blocked at a barrier can never proceed: sim fails the launch
// after AK_SIM_SPIN_TIMEOUT (5 s in these tests) instead of hanging.
TEST(SimWatchdog, StuckLaunchFails) {
  int flag = 0;
  auto m = kernel_error_of([&] {
    ak::sim::launch(ak::device("sim:0"), {range_1d(32, 32), 0, "stuck"}, [&](auto& ctx) {
      if (ctx.local_id(0) == 0)
        while (ctx.atomic_load(&flag, memory_order::acquire, memory_scope::device) == 0) {
        }
      ctx.barrier();
      if (ctx.local_id(0) == 1)
        ctx.atomic_store(&flag, 1, memory_order::release, memory_scope::device);
    });
  });
  EXPECT_NE(m.find("kernel 'stuck'"), std::string::npos) << m;
  EXPECT_NE(m.find("no progress"), std::string::npos) << m;
}

// sim keeps its worker threads from launch to launch; a child of fork() has none of them and
// must start its own rather than wait for the parent's (the launch would hang). The parent waits
// at most 60 s for the child. (Not under ThreadSanitizer, which stops a child of a threaded
// process that starts threads.)
TEST(SimEngine, LaunchesInAForkedChild) {
#if defined(AK_TSAN)
  GTEST_SKIP() << "ThreadSanitizer does not let a forked child of a threaded process start threads";
#else
  const auto count_items = [] {
    int counter = 0;
    ak::sim::launch(ak::device("sim:0"), {range_1d(8 * 64, 64), 0, "count"}, [&](auto& ctx) {
      ctx.atomic_add(&counter, 1, memory_order::relaxed, memory_scope::device);
    });
    return counter;
  };
  ASSERT_EQ(count_items(), 8 * 64);  // the parent's threads are started
  const pid_t child = fork();
  ASSERT_NE(child, -1) << "fork failed";
  if (child == 0) _exit(count_items() == 8 * 64 ? 0 : 1);
  int status = 0;
  pid_t done = 0;
  for (int i = 0; i < 600 && (done = waitpid(child, &status, WNOHANG)) == 0; ++i) usleep(100000);
  if (done == 0) {
    kill(child, SIGKILL);
    waitpid(child, &status, 0);
    FAIL() << "the child's launch did not finish in 60 s";
  }
  ASSERT_EQ(done, child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  EXPECT_EQ(count_items(), 8 * 64);  // and the parent's pool still works
#endif
}

INSTANTIATE_TEST_SUITE_P(Profiles, KernelLanguage, testing::ValuesIn(ak_sim_test::all_params()),
                         ak_sim_test::param_name);

}  // namespace
