// The kernel language's portable tests, written once: ids, barriers, local memory, every
// sub-group operation at the device's width (16, 32, 64), atomics and fences, empty and bad
// launches. Each body takes the device under test, allocates its memory there
// (ak::gpu::device_buffer), launches functor kernels through ak::gpu::launch, copies the results
// back and checks them with gtest; it branches on the device's capabilities and sub-group width,
// never on its name. tests/sim/kernel_language_test.cpp runs them on every sim profile under
// several seeds (g++, clang), tests/cuda/kernel_language_test.cu on cuda:0 (nvcc). The rule
// checks of sim (divergence, overruns, the watchdog, exceptions in kernels) stay in the sim file.
//
// Each X(Name) of AK_KERNEL_LANGUAGE_PORTABLE_TESTS names a body ak_kl_test::Name(dev), to be
// made a test by the file that includes this one.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "../sim/affine.hpp"
#include "../support/error_message.hpp"
#include "ak/core/error.hpp"
#include "ak/gpu/buffer.hpp"
#include "ak/gpu/launch.hpp"
#include "ak/kernel/kernel.hpp"
#include "ak/runtime/device.hpp"

#define AK_KERNEL_LANGUAGE_PORTABLE_TESTS(X) \
  X(OneDimensionalIds)                       \
  X(ThreeDimensionalIdsAndLinearIds)         \
  X(TwoDimensionalRangePastRankIsUnit)       \
  X(BarrierOrdersLocalMemory)                \
  X(LocalMemoryTreeReduction)                \
  X(SubGroupIds)                             \
  X(Shuffles)                                \
  X(BallotAnyAll)                            \
  X(MatchAny)                                \
  X(SubGroupReduceAndScans)                  \
  X(GlobalAtomics)                           \
  X(LocalAtomicsHistogram)                   \
  X(CrossGroupChainWithDeviceFence)          \
  X(DynamicTileIds)                          \
  X(SixtyFourBitAtomicsFollowCapabilities)   \
  X(BadLaunchesAreArgumentErrors)            \
  X(EmptyLaunchRunsNothing)

namespace ak_kl_test {

using ak::kernel::memory_order;
using ak::kernel::memory_scope;
using ak::kernel::range_1d;
using ak::kernel::range_2d;
using ak::kernel::range_3d;
using ak_sim_test::affine;  // a non-commutative operator (tests/sim/affine.hpp)
using ak_sim_test::compose;

// ---- host helpers ---------------------------------------------------------------------------

template <class T>
using buffer = ak::gpu::device_buffer<T>;

// Device memory on `dev` holding `host`.
template <class T>
buffer<T> on_device(const ak::device& dev, const std::vector<T>& host) {
  return buffer<T>(dev, std::span<const T>(host));
}

inline int width_of(const ak::device& dev) {
  return static_cast<int>(dev.info().sub_group_width);
}

// Launches through the portable launcher, as the library's algorithms do, and waits for the
// kernel (sim's launches return when it is done; cuda's are enqueued).
template <class K>
void run(const ak::device& dev, ak::kernel::nd_range r, std::size_t local_bytes, const char* name,
         const K& k) {
  ak::gpu::launch(dev, {r, local_bytes, name}, k);
#if defined(__CUDACC__)
  ak::cuda::wait(dev);
#endif
}

// The launcher of the backend whose kernels this translation unit compiles.
template <class K>
void native_launch(const ak::device& dev, const ak::kernel::launch_params& p, const K& k) {
#if defined(__CUDACC__)
  ak::cuda::launch(dev, p, k);
#else
  ak::sim::launch(dev, p, k);
#endif
}

// How a launch fails when the kernel does what the device cannot (a fence or atomic it lacks):
// on sim an ak::sim::kernel_error naming the kernel and the capability.
#if defined(__CUDACC__)
using launch_failure = ak::backend_error;
#else
using launch_failure = ak::sim::kernel_error;
#endif

// The message of the launch_failure that f throws (fails the test if none).
template <class F>
std::string launch_failure_of(F&& f) {
  return ak::test::error_message<launch_failure>(std::forward<F>(f));
}

// ---- kernels ----------------------------------------------------------------------------------

namespace kernels {

struct ids1 {
  std::int64_t *gid, *grp, *lid, *sizes;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const std::int64_t i = ctx.global_id(0);
    gid[i] = i;
    grp[i] = ctx.group_id(0);
    lid[i] = ctx.local_id(0);
    sizes[i] = ctx.global_size(0) * 1000000 + ctx.num_groups(0) * 1000 + ctx.local_size(0) +
               (ctx.rank() == 1 ? 0 : 1);
  }
};

struct ids3 {
  int* hits;
  int* bad;
  std::int64_t n0, n1, g0, g1, g2;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const std::int64_t x = ctx.global_id(0), y = ctx.global_id(1), z = ctx.global_id(2);
    const std::int64_t lin = ctx.global_linear_id();
    int wrong = 0;
    if (lin != x + n0 * (y + n1 * z)) ++wrong;
    for (int d = 0; d < 3; ++d)
      if (ctx.global_id(d) != ctx.group_id(d) * ctx.local_size(d) + ctx.local_id(d)) ++wrong;
    if (ctx.local_linear_size() != g0 * g1 * g2) ++wrong;
    if (ctx.group_linear_id() !=
        ctx.group_id(0) + (n0 / g0) * (ctx.group_id(1) + (n1 / g1) * ctx.group_id(2)))
      ++wrong;
    if (wrong) ctx.atomic_add(bad, wrong, memory_order::relaxed, memory_scope::device);
    ctx.atomic_add(&hits[lin], 1, memory_order::relaxed, memory_scope::device);
  }
};

struct ids2 {
  int* ok;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    ok[ctx.global_linear_id()] = ctx.rank() == 2 && ctx.global_size(2) == 1 &&
                                 ctx.global_id(2) == 0 && ctx.local_size(2) == 1;
  }
};

// Each round, every item writes its slot, meets the others, and reads its neighbour's: a read
// before the neighbour's write (an item running past the barrier) shows as a wrong value.
struct barrier_rounds {
  int* wrong;
  int g, rounds;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    auto tile = ak::kernel::local_array<int>(ctx, 0, g);
    const int l = ctx.local_id(0);
    for (int r = 0; r < rounds; ++r) {
      tile[l] = l * 100 + r;
      ctx.barrier();
      if (tile[(l + 1) % g] != ((l + 1) % g) * 100 + r) ++wrong[ctx.global_id(0)];
      ctx.barrier();
    }
  }
};

// A tree reduction in local memory: needs a barrier between each level.
struct tree_sum {
  const std::int64_t* in;
  std::int64_t* out;
  int g;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    auto s = ak::kernel::local_array<std::int64_t>(ctx, 0, g);
    const int l = ctx.local_id(0);
    s[l] = in[ctx.global_id(0)];
    ctx.barrier();
    for (int half = g / 2; half > 0; half /= 2) {
      if (l < half) s[l] += s[l + half];
      ctx.barrier();
    }
    if (l == 0) out[ctx.group_id(0)] = s[0];
  }
};

struct sg_ids {
  int *lane, *sg, *size, *count;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const std::int64_t i = ctx.global_id(0);
    lane[i] = ctx.sub_group_lane();
    sg[i] = ctx.sub_group_id();
    size[i] = ctx.sub_group_size();
    count[i] = ctx.num_sub_groups();
  }
};

struct shuffles {
  int *bcast, *rot, *up, *down, *xr;
  double* dbl;
  int w;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const std::int64_t i = ctx.global_id(0);
    const int lane = ctx.sub_group_lane();
    const int v = static_cast<int>(i) * 10;
    bcast[i] = ctx.shuffle(v, 3);
    rot[i] = ctx.shuffle(v, (lane + 1) % w);
    up[i] = ctx.shuffle_up(v, 5);
    down[i] = ctx.shuffle_down(v, 7);
    xr[i] = ctx.shuffle_xor(v, 6);
    dbl[i] = ctx.shuffle(static_cast<double>(i) + 0.5, w - 1 - lane);
  }
};

struct ballot {
  std::uint64_t* bits;
  int *any_some, *any_none, *all_every, *all_most;
  int w;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const std::int64_t i = ctx.global_id(0);
    const int lane = ctx.sub_group_lane();
    bits[i] = ctx.ballot(lane % 3 == 0);
    any_some[i] = ctx.sub_group_any(lane == w - 1 && ctx.sub_group_id() == 1);
    any_none[i] = ctx.sub_group_any(false);
    all_every[i] = ctx.sub_group_all(true);
    all_most[i] = ctx.sub_group_all(lane != 2);
  }
};

// Values that repeat within a sub-group: 8-bit digits (eleven distinct), 64-bit values that
// differ only in their high bits, and every lane equal.
AK_KERNEL_INLINE std::uint32_t digit_of(std::int64_t i) {
  return static_cast<std::uint32_t>((i * 37 % 11) * 23 % 256);
}
AK_KERNEL_INLINE std::int64_t wide_of(std::int64_t i) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(i % 3) << 61) | 5;
}
struct match_any {
  std::uint64_t *digits, *wide, *same, *by_ballots, *low_bits;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const std::int64_t i = ctx.global_id(0);
    digits[i] = ctx.sub_group_match_any(digit_of(i));
    wide[i] = ctx.sub_group_match_any(wide_of(i));
    same[i] = ctx.sub_group_match_any(std::int8_t{-3});
    by_ballots[i] = ctx.sub_group_match_any_by_ballots(wide_of(i));
    // Only the low 8 bits compared: every lane's digit plus 256 * lane matches as the digit.
    low_bits[i] = ctx.sub_group_match_any_by_ballots(
        digit_of(i) + 256u * static_cast<std::uint32_t>(ctx.sub_group_lane()), 8);
  }
};

struct plus_i64 {
  AK_KERNEL_FN std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a + b; }
};
AK_KERNEL_INLINE std::int64_t value_of(std::int64_t i) {
  return (i * 7919) % 1000 - 300;
}
AK_KERNEL_INLINE affine map_of(std::int64_t i) {
  return affine{static_cast<std::uint32_t>(2 * i + 1), static_cast<std::uint32_t>(i * 13 + 5)};
}

// Not associative: a scan's result shows how it was bracketed.
struct twice_left {
  AK_KERNEL_FN std::int64_t operator()(std::int64_t a, std::int64_t b) const { return 2 * a + b; }
};

// twice_left with state (sim computes a stateless op's collective once per sub-group, one with
// state in every lane).
struct scaled_left {
  std::int64_t k;
  AK_KERNEL_FN std::int64_t operator()(std::int64_t a, std::int64_t b) const { return k * a + b; }
};

struct sg_reduce_scan {
  std::int64_t *sum, *inc, *exc, *tinc, *texc, *sinc;
  affine *fred, *finc;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const std::int64_t i = ctx.global_id(0);
    const std::int64_t v = value_of(i);
    sum[i] = ctx.sub_group_reduce(v, plus_i64{});
    inc[i] = ctx.sub_group_inclusive_scan(v, plus_i64{});
    exc[i] = ctx.sub_group_exclusive_scan(v, plus_i64{}, std::int64_t{1000});
    fred[i] = ctx.sub_group_reduce(map_of(i), compose{});
    finc[i] = ctx.sub_group_inclusive_scan(map_of(i), compose{});
    tinc[i] = ctx.sub_group_inclusive_scan(v, twice_left{});
    texc[i] = ctx.sub_group_exclusive_scan(v, twice_left{}, std::int64_t{3});
    sinc[i] = ctx.sub_group_inclusive_scan(v, scaled_left{2});
  }
};

// counters: the add, min, max and compare-exchange targets.
struct global_atomics {
  int* counters;
  unsigned* last;
  float* fsum;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const int i = static_cast<int>(ctx.global_id(0));
    int* counter = counters;
    int* mn = counters + 1;
    int* mx = counters + 2;
    int* cas_counter = counters + 3;
    ctx.atomic_add(counter, 1, memory_order::relaxed, memory_scope::device);
    ctx.atomic_min(mn, (i * 37) % 1999 + 3, memory_order::relaxed, memory_scope::device);
    ctx.atomic_max(mx, (i * 37) % 1999 + 3, memory_order::relaxed, memory_scope::device);
    ctx.atomic_exchange(last, 7u, memory_order::relaxed, memory_scope::device);
    ctx.atomic_add(fsum, 0.5f, memory_order::relaxed, memory_scope::device);
    int seen = ctx.atomic_load(cas_counter, memory_order::relaxed, memory_scope::device);
    while (!ctx.atomic_compare_exchange(cas_counter, seen, seen + 1, memory_order::relaxed,
                                        memory_scope::device)) {
    }
  }
};

struct local_histogram {
  const int* in;
  int* hist;
  int bins;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    auto h = ak::kernel::local_array<int>(ctx, 0, bins);
    const int l = ctx.local_id(0);
    if (l < bins) ctx.atomic_store(&h[l], 0, memory_order::relaxed, memory_scope::work_group);
    ctx.barrier();
    ctx.atomic_add(&h[in[ctx.global_id(0)]], 1, memory_order::relaxed, memory_scope::work_group);
    ctx.barrier();
    if (l < bins)
      hist[ctx.group_id(0) * bins + l] =
          ctx.atomic_load(&h[l], memory_order::relaxed, memory_scope::work_group);
  }
};

// Each group waits for the one before it, then publishes with a release fence at device scope.
struct chain {
  std::int64_t* payload;
  int* flag;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    const std::int64_t b = ctx.group_id(0);
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
  }
};

struct tile_ids {
  unsigned* next;
  int* taken;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    auto tile = ak::kernel::local_array<unsigned>(ctx, 0, 1);
    if (ctx.local_id(0) == 0)
      tile[0] = ctx.atomic_add(next, 1u, memory_order::relaxed, memory_scope::device);
    ctx.barrier();
    if (ctx.local_id(0) == 1)
      ctx.atomic_add(&taken[tile[0]], 1, memory_order::relaxed, memory_scope::device);
  }
};

struct atomics64 {
  std::int64_t* total;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    ctx.atomic_add(total, std::int64_t{1} << 32, memory_order::relaxed, memory_scope::device);
  }
};

struct count_runs {
  int* runs;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    ctx.atomic_add(runs, 1, memory_order::relaxed, memory_scope::device);
  }
};

struct nothing {
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx&) const {}
};

}  // namespace kernels

// ---- ids ------------------------------------------------------------------------------------

inline void OneDimensionalIds(const ak::device& dev) {
  const std::int64_t n = 1024, g = 128;
  const std::vector<std::int64_t> minus_one(n, -1);
  auto gid = on_device(dev, minus_one), grp = on_device(dev, minus_one),
       lid = on_device(dev, minus_one), sizes = on_device(dev, minus_one);
  run(dev, range_1d(n, g), 0, "ids1",
      kernels::ids1{gid.data(), grp.data(), lid.data(), sizes.data()});
  const auto h_gid = gid.to_host(), h_grp = grp.to_host(), h_lid = lid.to_host(),
             h_sizes = sizes.to_host();
  for (std::int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(h_gid[i], i);
    ASSERT_EQ(h_grp[i], i / g);
    ASSERT_EQ(h_lid[i], i % g);
    ASSERT_EQ(h_sizes[i], n * 1000000 + (n / g) * 1000 + g);
  }
}

inline void ThreeDimensionalIdsAndLinearIds(const ak::device& dev) {
  const std::int64_t n0 = 8, n1 = 6, n2 = 4, g0 = 4, g1 = 3, g2 = 2;
  auto hits = on_device(dev, std::vector<int>(n0 * n1 * n2, 0));
  auto bad = on_device(dev, std::vector<int>{0});
  run(dev, range_3d(n0, n1, n2, g0, g1, g2), 0, "ids3",
      kernels::ids3{hits.data(), bad.data(), n0, n1, g0, g1, g2});
  const auto h_hits = hits.to_host();
  EXPECT_EQ(bad.to_host()[0], 0);
  EXPECT_TRUE(std::all_of(h_hits.begin(), h_hits.end(), [](int h) { return h == 1; }));
}

inline void TwoDimensionalRangePastRankIsUnit(const ak::device& dev) {
  auto ok = on_device(dev, std::vector<int>(64 * 4, 0));
  run(dev, range_2d(64, 4, 32, 2), 0, "ids2", kernels::ids2{ok.data()});
  const auto h_ok = ok.to_host();
  EXPECT_EQ(std::count(h_ok.begin(), h_ok.end(), 1), 64 * 4);
}

// ---- barriers and local memory --------------------------------------------------------------

inline void BarrierOrdersLocalMemory(const ak::device& dev) {
  const int g = 256, rounds = 5;
  const std::int64_t n = 4 * g;
  auto wrong = on_device(dev, std::vector<int>(n, 0));
  run(dev, range_1d(n, g), g * sizeof(int), "barrier_rounds",
      kernels::barrier_rounds{wrong.data(), g, rounds});
  const auto h_wrong = wrong.to_host();
  EXPECT_EQ(std::accumulate(h_wrong.begin(), h_wrong.end(), 0), 0);
}

inline void LocalMemoryTreeReduction(const ak::device& dev) {
  const int g = 128;
  const std::int64_t groups = 6;
  std::vector<std::int64_t> in(groups * g);
  std::iota(in.begin(), in.end(), 1);
  auto d_in = on_device(dev, in);
  auto out = on_device(dev, std::vector<std::int64_t>(groups, 0));
  run(dev, range_1d(groups * g, g), g * sizeof(std::int64_t), "tree_sum",
      kernels::tree_sum{d_in.data(), out.data(), g});
  const auto h_out = out.to_host();
  for (std::int64_t b = 0; b < groups; ++b) {
    std::int64_t expect = 0;
    for (int i = 0; i < g; ++i) expect += in[b * g + i];
    EXPECT_EQ(h_out[b], expect) << "group " << b;
  }
}

// ---- sub-group operations ---------------------------------------------------------------------

inline void SubGroupIds(const ak::device& dev) {
  const int w = width_of(dev), g = 4 * w;
  const std::vector<int> zero(g * 2, 0);
  auto lane = on_device(dev, zero), sg = on_device(dev, zero), size = on_device(dev, zero),
       count = on_device(dev, zero);
  run(dev, range_1d(2 * g, g), 0, "sg_ids",
      kernels::sg_ids{lane.data(), sg.data(), size.data(), count.data()});
  const auto h_lane = lane.to_host(), h_sg = sg.to_host(), h_size = size.to_host(),
             h_count = count.to_host();
  for (int i = 0; i < 2 * g; ++i) {
    ASSERT_EQ(h_size[i], w);
    ASSERT_EQ(h_lane[i], (i % g) % w);
    ASSERT_EQ(h_sg[i], (i % g) / w);
    ASSERT_EQ(h_count[i], 4);
  }
}

inline void Shuffles(const ak::device& dev) {
  const int w = width_of(dev), g = 2 * w;
  const std::int64_t n = 2 * g;
  const std::vector<int> zero(n, 0);
  auto bcast = on_device(dev, zero), rot = on_device(dev, zero), up = on_device(dev, zero),
       down = on_device(dev, zero), xr = on_device(dev, zero);
  auto dbl = on_device(dev, std::vector<double>(n, 0.0));
  run(dev, range_1d(n, g), 0, "shuffles",
      kernels::shuffles{bcast.data(), rot.data(), up.data(), down.data(), xr.data(), dbl.data(),
                        w});
  const auto h_bcast = bcast.to_host(), h_rot = rot.to_host(), h_up = up.to_host(),
             h_down = down.to_host(), h_xr = xr.to_host();
  const auto h_dbl = dbl.to_host();
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t base = i - i % w;
    const int lane = static_cast<int>(i % w);
    ASSERT_EQ(h_bcast[i], (base + 3) * 10);
    ASSERT_EQ(h_rot[i], (base + (lane + 1) % w) * 10);
    ASSERT_EQ(h_up[i], (lane >= 5 ? i - 5 : i) * 10);
    ASSERT_EQ(h_down[i], (lane + 7 < w ? i + 7 : i) * 10);
    ASSERT_EQ(h_xr[i], (base + (lane ^ 6)) * 10);
    ASSERT_EQ(h_dbl[i], static_cast<double>(base + w - 1 - lane) + 0.5);
  }
}

inline void BallotAnyAll(const ak::device& dev) {
  const int w = width_of(dev), g = 2 * w;
  const std::vector<int> unset(g, -1);
  auto bits = on_device(dev, std::vector<std::uint64_t>(g, 0));
  auto any_some = on_device(dev, unset), any_none = on_device(dev, unset),
       all_every = on_device(dev, unset), all_most = on_device(dev, unset);
  run(dev, range_1d(g, g), 0, "ballot",
      kernels::ballot{bits.data(), any_some.data(), any_none.data(), all_every.data(),
                      all_most.data(), w});
  const auto h_bits = bits.to_host();
  const auto h_any_some = any_some.to_host(), h_any_none = any_none.to_host(),
             h_all_every = all_every.to_host(), h_all_most = all_most.to_host();
  std::uint64_t expect = 0;
  for (int l = 0; l < w; l += 3) expect |= std::uint64_t{1} << l;
  for (int i = 0; i < g; ++i) {
    ASSERT_EQ(h_bits[i], expect) << "item " << i;
    ASSERT_EQ(h_any_some[i], i / w == 1 ? 1 : 0);
    ASSERT_EQ(h_any_none[i], 0);
    ASSERT_EQ(h_all_every[i], 1);
    ASSERT_EQ(h_all_most[i], 0);
  }
}

// sub_group_match_any (the backend's own) and the portable form by ballots, against the masks
// computed here, at the device's width.
inline void MatchAny(const ak::device& dev) {
  const int w = width_of(dev), g = 2 * w;
  const std::int64_t n = 2 * g;
  const std::vector<std::uint64_t> zero(n, 0);
  auto digits = on_device(dev, zero), wide = on_device(dev, zero), same = on_device(dev, zero),
       by_ballots = on_device(dev, zero), low_bits = on_device(dev, zero);
  run(dev, range_1d(n, g), 0, "match_any",
      kernels::match_any{digits.data(), wide.data(), same.data(), by_ballots.data(),
                         low_bits.data()});
  const auto h_digits = digits.to_host(), h_wide = wide.to_host(), h_same = same.to_host(),
             h_by_ballots = by_ballots.to_host(), h_low_bits = low_bits.to_host();
  const std::uint64_t full = w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t first = i - i % w;  // the sub-group's lane 0
    std::uint64_t want_digits = 0, want_wide = 0;
    for (int l = 0; l < w; ++l) {
      if (kernels::digit_of(first + l) == kernels::digit_of(i))
        want_digits |= std::uint64_t{1} << l;
      if (kernels::wide_of(first + l) == kernels::wide_of(i)) want_wide |= std::uint64_t{1} << l;
    }
    ASSERT_EQ(h_digits[i], want_digits) << "item " << i;
    ASSERT_EQ(h_wide[i], want_wide) << "item " << i;
    ASSERT_EQ(h_same[i], full) << "item " << i;
    ASSERT_EQ(h_by_ballots[i], want_wide) << "item " << i;
    ASSERT_EQ(h_low_bits[i], want_digits) << "item " << i;
  }
}

inline void SubGroupReduceAndScans(const ak::device& dev) {
  const int w = width_of(dev), g = 4 * w;
  const std::int64_t n = 2 * g;
  const std::vector<std::int64_t> zero(n, 0);
  const std::vector<affine> zero_maps(n, affine{0, 0});
  auto sum = on_device(dev, zero), inc = on_device(dev, zero), exc = on_device(dev, zero);
  auto tinc = on_device(dev, zero), texc = on_device(dev, zero), sinc = on_device(dev, zero);
  auto fred = on_device(dev, zero_maps), finc = on_device(dev, zero_maps);
  run(dev, range_1d(n, g), 0, "sg_reduce_scan",
      kernels::sg_reduce_scan{sum.data(), inc.data(), exc.data(), tinc.data(), texc.data(),
                              sinc.data(), fred.data(), finc.data()});
  const auto h_sum = sum.to_host(), h_inc = inc.to_host(), h_exc = exc.to_host();
  const auto h_tinc = tinc.to_host(), h_texc = texc.to_host(), h_sinc = sinc.to_host();
  const auto h_fred = fred.to_host(), h_finc = finc.to_host();
  using kernels::map_of;
  using kernels::value_of;
  for (std::int64_t base = 0; base < n; base += w) {
    // The scans combine as context_base's doubling steps do, on every backend: a float scan's
    // result depends on the bracketing.
    std::vector<std::int64_t> steps(static_cast<std::size_t>(w));
    for (int l = 0; l < w; ++l) steps[static_cast<std::size_t>(l)] = value_of(base + l);
    for (int d = 1; d < w; d *= 2)
      for (int l = w - 1; l >= d; --l)
        steps[static_cast<std::size_t>(l)] = kernels::twice_left{}(
            steps[static_cast<std::size_t>(l - d)], steps[static_cast<std::size_t>(l)]);
    for (int l = 0; l < w; ++l) {
      ASSERT_EQ(h_tinc[base + l], steps[static_cast<std::size_t>(l)]) << "item " << base + l;
      ASSERT_EQ(h_sinc[base + l], steps[static_cast<std::size_t>(l)]) << "item " << base + l;
      ASSERT_EQ(h_texc[base + l],
                l == 0 ? 3 : kernels::twice_left{}(3, steps[static_cast<std::size_t>(l - 1)]))
          << "item " << base + l;
    }
    std::int64_t total = 0;
    affine ftotal{1, 0};
    for (int l = 0; l < w; ++l) {
      total += value_of(base + l);
      ftotal = compose{}(ftotal, map_of(base + l));
    }
    std::int64_t run_sum = 0;
    affine frun{1, 0};
    for (int l = 0; l < w; ++l) {
      const std::int64_t i = base + l;
      ASSERT_EQ(h_exc[i], 1000 + run_sum) << "item " << i;
      run_sum += value_of(i);
      frun = compose{}(frun, map_of(i));
      ASSERT_EQ(h_sum[i], total) << "item " << i;
      ASSERT_EQ(h_inc[i], run_sum) << "item " << i;
      ASSERT_EQ(h_fred[i].a, ftotal.a);
      ASSERT_EQ(h_fred[i].b, ftotal.b) << "item " << i;
      ASSERT_EQ(h_finc[i].a, frun.a);
      ASSERT_EQ(h_finc[i].b, frun.b) << "item " << i;
    }
  }
}

// ---- atomics and fences -----------------------------------------------------------------------

inline void GlobalAtomics(const ak::device& dev) {
  const std::int64_t n = 2048, g = 256;
  auto counters = on_device(dev, std::vector<int>{0, 1 << 30, -1, 0});
  auto last = on_device(dev, std::vector<unsigned>{0u});
  auto fsum = on_device(dev, std::vector<float>{0.0f});
  run(dev, range_1d(n, g), 0, "global_atomics",
      kernels::global_atomics{counters.data(), last.data(), fsum.data()});
  const auto c = counters.to_host();
  const int counter = c[0], mn = c[1], mx = c[2], cas_counter = c[3];
  EXPECT_EQ(counter, n);
  EXPECT_EQ(cas_counter, n);
  EXPECT_EQ(mn, 3);
  int expect_max = 0;
  for (int i = 0; i < n; ++i) expect_max = std::max(expect_max, (i * 37) % 1999 + 3);
  EXPECT_EQ(mx, expect_max);
  EXPECT_EQ(last.to_host()[0], 7u);
  EXPECT_EQ(fsum.to_host()[0], 0.5f * n);
}

inline void LocalAtomicsHistogram(const ak::device& dev) {
  const int g = 256, bins = 16;
  const std::int64_t groups = 4;
  std::vector<int> in(groups * g);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>((i * i + 3 * i) % bins);
  auto d_in = on_device(dev, in);
  auto hist = on_device(dev, std::vector<int>(groups * bins, 0));
  run(dev, range_1d(groups * g, g), bins * sizeof(int), "local_histogram",
      kernels::local_histogram{d_in.data(), hist.data(), bins});
  const auto h_hist = hist.to_host();
  for (std::int64_t b = 0; b < groups; ++b)
    for (int k = 0; k < bins; ++k) {
      int expect = 0;
      for (int i = 0; i < g; ++i) expect += in[b * g + i] == k;
      ASSERT_EQ(h_hist[b * bins + k], expect) << "group " << b << " bin " << k;
    }
}

// Each group waits for the one before it (a chain, as decoupled look-back waits on earlier
// tiles), publishing with a release store after a device-scope fence. It needs forward progress
// of earlier groups (sim keeps it under every seed; cuda's 24 groups are resident at once) and a
// device-scope fence, which a device without the capability (sim's Apple-like profile) refuses.
inline void CrossGroupChainWithDeviceFence(const ak::device& dev) {
  const std::int64_t groups = 24, g = 64;
  auto payload = on_device(dev, std::vector<std::int64_t>(groups, 0));
  auto flag = on_device(dev, std::vector<int>(groups, 0));
  const kernels::chain kernel{payload.data(), flag.data()};
  if (!dev.caps().device_scope_fence) {
    auto m = launch_failure_of([&] { run(dev, range_1d(groups * g, g), 0, "chain", kernel); });
    EXPECT_NE(m.find("'chain'"), std::string::npos) << m;
    EXPECT_NE(m.find("device_scope_fence"), std::string::npos) << m;
    return;
  }
  run(dev, range_1d(groups * g, g), 0, "chain", kernel);
  const auto h_payload = payload.to_host();
  for (std::int64_t b = 0; b < groups; ++b) EXPECT_EQ(h_payload[b], (b + 1) * (b + 2) / 2);
}

// A dynamic tile id from an atomic counter: every group gets a distinct one.
inline void DynamicTileIds(const ak::device& dev) {
  const std::int64_t groups = 40, g = 32;
  auto next = on_device(dev, std::vector<unsigned>{0u});
  auto taken = on_device(dev, std::vector<int>(groups, 0));
  run(dev, range_1d(groups * g, g), sizeof(unsigned), "tile_ids",
      kernels::tile_ids{next.data(), taken.data()});
  const auto h_taken = taken.to_host();
  EXPECT_EQ(next.to_host()[0], groups);
  EXPECT_TRUE(std::all_of(h_taken.begin(), h_taken.end(), [](int t) { return t == 1; }));
}

inline void SixtyFourBitAtomicsFollowCapabilities(const ak::device& dev) {
  auto total = on_device(dev, std::vector<std::int64_t>{0});
  const kernels::atomics64 kernel{total.data()};
  if (dev.caps().atomics64) {
    run(dev, range_1d(256, 64), 0, "atomics64", kernel);
    EXPECT_EQ(total.to_host()[0], std::int64_t{256} << 32);
  } else {
    auto m = launch_failure_of([&] { run(dev, range_1d(256, 64), 0, "atomics64", kernel); });
    EXPECT_NE(m.find("64-bit"), std::string::npos) << m;
  }
}

// ---- launches ---------------------------------------------------------------------------------

inline void BadLaunchesAreArgumentErrors(const ak::device& dev) {
  const kernels::nothing k{};
  const auto max_group = dev.info().max_group_size;
  EXPECT_THROW(run(dev, range_1d(2 * max_group * 2, 2 * max_group), 0, "big", k),
               ak::argument_error);
  EXPECT_THROW(run(dev, range_1d(100, 64), 0, "ragged", k), ak::argument_error);
  EXPECT_THROW(run(dev, range_1d(64, 64),
                   static_cast<std::size_t>(dev.info().local_memory_bytes) + 1, "local", k),
               ak::argument_error);
  // The backend's own launcher (ak::sim::launch, ak::cuda::launch) refuses a cpu device.
  EXPECT_THROW(native_launch(ak::device("cpu"), {range_1d(64, 64), 0, "cpu"}, k),
               ak::argument_error);
  try {
    run(dev, range_2d(64, 64, 64, 32), 0, "too_many_items", k);
    ADD_FAILURE() << "expected an error";
  } catch (const ak::argument_error& e) {
    EXPECT_NE(std::string(e.what()).find("too_many_items"), std::string::npos) << e.what();
  }
}

inline void EmptyLaunchRunsNothing(const ak::device& dev) {
  auto runs = on_device(dev, std::vector<int>{0});
  run(dev, range_1d(0, 64), 0, "empty", kernels::count_runs{runs.data()});
  EXPECT_EQ(runs.to_host()[0], 0);
}

}  // namespace ak_kl_test
