// The kernel language on sim: ids, barriers, local memory, every sub-group operation at the
// profile's width (16, 32, 64), atomics and fences, and the rule checks (divergence, overruns,
// capabilities), on every profile under several shuffle seeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <numeric>
#include <vector>

#include "affine.hpp"
#include "sim_test_support.hpp"

namespace {

using ak::kernel::memory_order;
using ak::kernel::memory_scope;
using ak::kernel::range_1d;
using ak::kernel::range_2d;
using ak::kernel::range_3d;
using ak_sim_test::kernel_error_of;
using ak_sim_test::sim_param;

using KernelLanguage = ak_sim_test::sim_test;

// ---- ids ------------------------------------------------------------------------------------

TEST_P(KernelLanguage, OneDimensionalIds) {
  const std::int64_t n = 1024, g = 128;
  std::vector<std::int64_t> gid(n, -1), grp(n, -1), lid(n, -1), sizes(n, -1);
  run(range_1d(n, g), 0, "ids1", [&](auto& ctx) {
    const auto i = ctx.global_id(0);
    gid[i] = i;
    grp[i] = ctx.group_id(0);
    lid[i] = ctx.local_id(0);
    sizes[i] = ctx.global_size(0) * 1000000 + ctx.num_groups(0) * 1000 + ctx.local_size(0) +
               (ctx.rank() == 1 ? 0 : 1);
  });
  for (std::int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(gid[i], i);
    ASSERT_EQ(grp[i], i / g);
    ASSERT_EQ(lid[i], i % g);
    ASSERT_EQ(sizes[i], n * 1000000 + (n / g) * 1000 + g);
  }
}

TEST_P(KernelLanguage, ThreeDimensionalIdsAndLinearIds) {
  const std::int64_t n0 = 8, n1 = 6, n2 = 4, g0 = 4, g1 = 3, g2 = 2;
  std::vector<int> hits(n0 * n1 * n2, 0);
  std::atomic<int> bad{0};
  run(range_3d(n0, n1, n2, g0, g1, g2), 0, "ids3", [&](auto& ctx) {
    std::int64_t x = ctx.global_id(0), y = ctx.global_id(1), z = ctx.global_id(2);
    const auto lin = ctx.global_linear_id();
    if (lin != x + n0 * (y + n1 * z)) ++bad;
    for (int d = 0; d < 3; ++d)
      if (ctx.global_id(d) != ctx.group_id(d) * ctx.local_size(d) + ctx.local_id(d)) ++bad;
    if (ctx.local_linear_size() != g0 * g1 * g2) ++bad;
    if (ctx.group_linear_id() !=
        ctx.group_id(0) + (n0 / g0) * (ctx.group_id(1) + (n1 / g1) * ctx.group_id(2)))
      ++bad;
    ++hits[lin];
  });
  EXPECT_EQ(bad.load(), 0);
  EXPECT_TRUE(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
}

TEST_P(KernelLanguage, TwoDimensionalRangePastRankIsUnit) {
  std::vector<int> ok(64 * 4, 0);
  run(range_2d(64, 4, 32, 2), 0, "ids2", [&](auto& ctx) {
    ok[ctx.global_linear_id()] = ctx.rank() == 2 && ctx.global_size(2) == 1 &&
                                 ctx.global_id(2) == 0 && ctx.local_size(2) == 1;
  });
  EXPECT_EQ(std::count(ok.begin(), ok.end(), 1), 64 * 4);
}

// ---- barriers and local memory --------------------------------------------------------------

// Each round, every item writes its slot, meets the others, and reads its neighbour's: a read
// before the neighbour's write (an item running past the barrier) shows as a wrong value.
TEST_P(KernelLanguage, BarrierOrdersLocalMemory) {
  const int g = 256, rounds = 5;
  const std::int64_t n = 4 * g;
  std::vector<int> wrong(n, 0);
  run(range_1d(n, g), g * sizeof(int), "barrier_rounds", [&](auto& ctx) {
    auto tile = ak::kernel::local_array<int>(ctx, 0, g);
    const int l = ctx.local_id(0);
    for (int r = 0; r < rounds; ++r) {
      tile[l] = l * 100 + r;
      ctx.barrier();
      if (tile[(l + 1) % g] != ((l + 1) % g) * 100 + r) ++wrong[ctx.global_id(0)];
      ctx.barrier();
    }
  });
  EXPECT_EQ(std::accumulate(wrong.begin(), wrong.end(), 0), 0);
}

// A tree reduction in local memory: needs a barrier between each level.
TEST_P(KernelLanguage, LocalMemoryTreeReduction) {
  const int g = 128;
  const std::int64_t groups = 6;
  std::vector<std::int64_t> in(groups * g), out(groups, 0);
  std::iota(in.begin(), in.end(), 1);
  run(range_1d(groups * g, g), g * sizeof(std::int64_t), "tree_sum", [&](auto& ctx) {
    auto s = ak::kernel::local_array<std::int64_t>(ctx, 0, g);
    const int l = ctx.local_id(0);
    s[l] = in[ctx.global_id(0)];
    ctx.barrier();
    for (int half = g / 2; half > 0; half /= 2) {
      if (l < half) s[l] += s[l + half];
      ctx.barrier();
    }
    if (l == 0) out[ctx.group_id(0)] = s[0];
  });
  for (std::int64_t b = 0; b < groups; ++b) {
    std::int64_t expect = 0;
    for (int i = 0; i < g; ++i) expect += in[b * g + i];
    EXPECT_EQ(out[b], expect) << "group " << b;
  }
}

// ---- sub-group operations ---------------------------------------------------------------------

TEST_P(KernelLanguage, SubGroupIds) {
  const int w = width(), g = 4 * w;
  std::vector<int> lane(g * 2), sg(g * 2), size(g * 2), count(g * 2);
  run(range_1d(2 * g, g), 0, "sg_ids", [&](auto& ctx) {
    const auto i = ctx.global_id(0);
    lane[i] = ctx.sub_group_lane();
    sg[i] = ctx.sub_group_id();
    size[i] = ctx.sub_group_size();
    count[i] = ctx.num_sub_groups();
  });
  for (int i = 0; i < 2 * g; ++i) {
    ASSERT_EQ(size[i], w);
    ASSERT_EQ(lane[i], (i % g) % w);
    ASSERT_EQ(sg[i], (i % g) / w);
    ASSERT_EQ(count[i], 4);
  }
}

TEST_P(KernelLanguage, Shuffles) {
  const int w = width(), g = 2 * w;
  const std::int64_t n = 2 * g;
  std::vector<int> bcast(n), rot(n), up(n), down(n), xr(n);
  std::vector<double> dbl(n);
  run(range_1d(n, g), 0, "shuffles", [&](auto& ctx) {
    const auto i = ctx.global_id(0);
    const int lane = ctx.sub_group_lane();
    const int v = static_cast<int>(i) * 10;
    bcast[i] = ctx.shuffle(v, 3);
    rot[i] = ctx.shuffle(v, (lane + 1) % w);
    up[i] = ctx.shuffle_up(v, 5);
    down[i] = ctx.shuffle_down(v, 7);
    xr[i] = ctx.shuffle_xor(v, 6);
    dbl[i] = ctx.shuffle(static_cast<double>(i) + 0.5, w - 1 - lane);
  });
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t base = i - i % w;
    const int lane = static_cast<int>(i % w);
    ASSERT_EQ(bcast[i], (base + 3) * 10);
    ASSERT_EQ(rot[i], (base + (lane + 1) % w) * 10);
    ASSERT_EQ(up[i], (lane >= 5 ? i - 5 : i) * 10);
    ASSERT_EQ(down[i], (lane + 7 < w ? i + 7 : i) * 10);
    ASSERT_EQ(xr[i], (base + (lane ^ 6)) * 10);
    ASSERT_EQ(dbl[i], static_cast<double>(base + w - 1 - lane) + 0.5);
  }
}

TEST_P(KernelLanguage, BallotAnyAll) {
  const int w = width(), g = 2 * w;
  std::vector<std::uint64_t> ballot(g);
  std::vector<int> any_some(g), any_none(g), all_every(g), all_most(g);
  run(range_1d(g, g), 0, "ballot", [&](auto& ctx) {
    const auto i = ctx.global_id(0);
    const int lane = ctx.sub_group_lane();
    ballot[i] = ctx.ballot(lane % 3 == 0);
    any_some[i] = ctx.sub_group_any(lane == w - 1 && ctx.sub_group_id() == 1);
    any_none[i] = ctx.sub_group_any(false);
    all_every[i] = ctx.sub_group_all(true);
    all_most[i] = ctx.sub_group_all(lane != 2);
  });
  std::uint64_t expect = 0;
  for (int l = 0; l < w; l += 3) expect |= std::uint64_t{1} << l;
  for (int i = 0; i < g; ++i) {
    ASSERT_EQ(ballot[i], expect) << "item " << i;
    ASSERT_EQ(any_some[i], i / w == 1 ? 1 : 0);
    ASSERT_EQ(any_none[i], 0);
    ASSERT_EQ(all_every[i], 1);
    ASSERT_EQ(all_most[i], 0);
  }
}

using ak_sim_test::affine;  // a non-commutative operator (affine.hpp)
using ak_sim_test::compose;

TEST_P(KernelLanguage, SubGroupReduceAndScans) {
  const int w = width(), g = 4 * w;
  const std::int64_t n = 2 * g;
  std::vector<std::int64_t> sum(n), inc(n), exc(n);
  std::vector<affine> fred(n), finc(n);
  auto value = [](std::int64_t i) { return (i * 7919) % 1000 - 300; };
  auto map_of = [](std::int64_t i) {
    return affine{static_cast<std::uint32_t>(2 * i + 1), static_cast<std::uint32_t>(i * 13 + 5)};
  };
  run(range_1d(n, g), 0, "sg_reduce_scan", [&](auto& ctx) {
    const auto i = ctx.global_id(0);
    const std::int64_t v = value(i);
    sum[i] = ctx.sub_group_reduce(v, [](std::int64_t a, std::int64_t b) { return a + b; });
    inc[i] = ctx.sub_group_inclusive_scan(v, [](std::int64_t a, std::int64_t b) { return a + b; });
    exc[i] = ctx.sub_group_exclusive_scan(
        v, [](std::int64_t a, std::int64_t b) { return a + b; }, std::int64_t{1000});
    fred[i] = ctx.sub_group_reduce(map_of(i), compose{});
    finc[i] = ctx.sub_group_inclusive_scan(map_of(i), compose{});
  });
  for (std::int64_t base = 0; base < n; base += w) {
    std::int64_t total = 0;
    affine ftotal{1, 0};
    for (int l = 0; l < w; ++l) {
      total += value(base + l);
      ftotal = compose{}(ftotal, map_of(base + l));
    }
    std::int64_t run_sum = 0;
    affine frun{1, 0};
    for (int l = 0; l < w; ++l) {
      const std::int64_t i = base + l;
      ASSERT_EQ(exc[i], 1000 + run_sum) << "item " << i;
      run_sum += value(i);
      frun = compose{}(frun, map_of(i));
      ASSERT_EQ(sum[i], total) << "item " << i;
      ASSERT_EQ(inc[i], run_sum) << "item " << i;
      ASSERT_EQ(fred[i].a, ftotal.a);
      ASSERT_EQ(fred[i].b, ftotal.b) << "item " << i;
      ASSERT_EQ(finc[i].a, frun.a);
      ASSERT_EQ(finc[i].b, frun.b) << "item " << i;
    }
  }
}

// ---- atomics and fences -----------------------------------------------------------------------

TEST_P(KernelLanguage, GlobalAtomics) {
  const std::int64_t n = 2048, g = 256;
  int counter = 0, mn = 1 << 30, mx = -1, cas_counter = 0;
  unsigned last = 0;
  float fsum = 0.0f;
  run(range_1d(n, g), 0, "global_atomics", [&](auto& ctx) {
    const auto i = static_cast<int>(ctx.global_id(0));
    ctx.atomic_add(&counter, 1, memory_order::relaxed, memory_scope::device);
    ctx.atomic_min(&mn, (i * 37) % 1999 + 3, memory_order::relaxed, memory_scope::device);
    ctx.atomic_max(&mx, (i * 37) % 1999 + 3, memory_order::relaxed, memory_scope::device);
    ctx.atomic_exchange(&last, 7u, memory_order::relaxed, memory_scope::device);
    ctx.atomic_add(&fsum, 0.5f, memory_order::relaxed, memory_scope::device);
    int seen = ctx.atomic_load(&cas_counter, memory_order::relaxed, memory_scope::device);
    while (!ctx.atomic_compare_exchange(&cas_counter, seen, seen + 1, memory_order::relaxed,
                                        memory_scope::device)) {
    }
  });
  EXPECT_EQ(counter, n);
  EXPECT_EQ(cas_counter, n);
  EXPECT_EQ(mn, 3);
  int expect_max = 0;
  for (int i = 0; i < n; ++i) expect_max = std::max(expect_max, (i * 37) % 1999 + 3);
  EXPECT_EQ(mx, expect_max);
  EXPECT_EQ(last, 7u);
  EXPECT_EQ(fsum, 0.5f * n);
}

TEST_P(KernelLanguage, LocalAtomicsHistogram) {
  const int g = 256, bins = 16;
  const std::int64_t groups = 4;
  std::vector<int> in(groups * g), hist(groups * bins, 0);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>((i * i + 3 * i) % bins);
  run(range_1d(groups * g, g), bins * sizeof(int), "local_histogram", [&](auto& ctx) {
    auto h = ak::kernel::local_array<int>(ctx, 0, bins);
    const int l = ctx.local_id(0);
    if (l < bins) ctx.atomic_store(&h[l], 0, memory_order::relaxed, memory_scope::work_group);
    ctx.barrier();
    ctx.atomic_add(&h[in[ctx.global_id(0)]], 1, memory_order::relaxed, memory_scope::work_group);
    ctx.barrier();
    if (l < bins)
      hist[ctx.group_id(0) * bins + l] =
          ctx.atomic_load(&h[l], memory_order::relaxed, memory_scope::work_group);
  });
  for (std::int64_t b = 0; b < groups; ++b)
    for (int k = 0; k < bins; ++k) {
      int expect = 0;
      for (int i = 0; i < g; ++i) expect += in[b * g + i] == k;
      ASSERT_EQ(hist[b * bins + k], expect) << "group " << b << " bin " << k;
    }
}

// Each group waits for the one before it (a chain, as decoupled look-back waits on earlier
// tiles), publishing with a release store after a device-scope fence. It needs forward progress
// of earlier groups, which sim keeps under every seed, and a device-scope fence, which the
// Apple-like profile lacks.
TEST_P(KernelLanguage, CrossGroupChainWithDeviceFence) {
  const std::int64_t groups = 24, g = 64;
  std::vector<std::int64_t> payload(groups, 0);
  std::vector<int> flag(groups, 0);
  auto kernel = [&](auto& ctx) {
    const auto b = ctx.group_id(0);
    if (ctx.local_id(0) != 0) return;
    std::int64_t prev = 0;
    if (b > 0) {
      while (ctx.atomic_load(&flag[b - 1], memory_order::acquire, memory_scope::device) == 0) {
      }
      prev = payload[b - 1];
    }
    payload[b] = prev + b + 1;
    ctx.fence(memory_order::release, memory_scope::device);
    ctx.atomic_store(&flag[b], 1, memory_order::relaxed, memory_scope::device);
  };
  if (apple()) {
    auto m = kernel_error_of([&] { run(range_1d(groups * g, g), 0, "chain", kernel); });
    EXPECT_NE(m.find("'chain'"), std::string::npos) << m;
    EXPECT_NE(m.find("device_scope_fence"), std::string::npos) << m;
    return;
  }
  run(range_1d(groups * g, g), 0, "chain", kernel);
  for (std::int64_t b = 0; b < groups; ++b) EXPECT_EQ(payload[b], (b + 1) * (b + 2) / 2);
}

// A dynamic tile id from an atomic counter: every group gets a distinct one.
TEST_P(KernelLanguage, DynamicTileIds) {
  const std::int64_t groups = 40, g = 32;
  unsigned next = 0;
  std::vector<int> taken(groups, 0);
  run(range_1d(groups * g, g), sizeof(unsigned), "tile_ids", [&](auto& ctx) {
    auto tile = ak::kernel::local_array<unsigned>(ctx, 0, 1);
    if (ctx.local_id(0) == 0)
      tile[0] = ctx.atomic_add(&next, 1u, memory_order::relaxed, memory_scope::device);
    ctx.barrier();
    if (ctx.local_id(0) == 1) ++taken[tile[0]];
  });
  EXPECT_EQ(next, groups);
  EXPECT_TRUE(std::all_of(taken.begin(), taken.end(), [](int t) { return t == 1; }));
}

TEST_P(KernelLanguage, SixtyFourBitAtomicsFollowCapabilities) {
  std::int64_t total = 0;
  auto kernel = [&](auto& ctx) {
    ctx.atomic_add(&total, std::int64_t{1} << 32, memory_order::relaxed, memory_scope::device);
  };
  if (dev().caps().atomics64) {
    run(range_1d(256, 64), 0, "atomics64", kernel);
    EXPECT_EQ(total, std::int64_t{256} << 32);
  } else {
    auto m = kernel_error_of([&] { run(range_1d(256, 64), 0, "atomics64", kernel); });
    EXPECT_NE(m.find("64-bit"), std::string::npos) << m;
  }
}

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

TEST_P(KernelLanguage, BadLaunchesAreArgumentErrors) {
  auto k = [](auto&) {};
  const auto max_group = dev().info().max_group_size;
  EXPECT_THROW(run(range_1d(2 * max_group * 2, 2 * max_group), 0, "big", k), ak::argument_error);
  EXPECT_THROW(run(range_1d(100, 64), 0, "ragged", k), ak::argument_error);
  EXPECT_THROW(run(range_1d(64, 64), static_cast<std::size_t>(dev().info().local_memory_bytes) + 1,
                   "local", k),
               ak::argument_error);
  EXPECT_THROW(ak::sim::launch(ak::device("cpu"), {range_1d(64, 64), 0, "cpu"}, k),
               ak::argument_error);
  try {
    run(range_2d(64, 64, 64, 32), 0, "too_many_items", k);
    ADD_FAILURE() << "expected an error";
  } catch (const ak::argument_error& e) {
    EXPECT_NE(std::string(e.what()).find("too_many_items"), std::string::npos) << e.what();
  }
}

TEST_P(KernelLanguage, EmptyLaunchRunsNothing) {
  int runs = 0;
  run(range_1d(0, 64), 0, "empty", [&](auto&) { ++runs; });
  EXPECT_EQ(runs, 0);
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

INSTANTIATE_TEST_SUITE_P(Profiles, KernelLanguage, testing::ValuesIn(ak_sim_test::all_params()),
                         ak_sim_test::param_name);

}  // namespace
