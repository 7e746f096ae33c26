// The cuda backend, tested where nvcc compiles the test: the plugin and its devices, and the
// header templates (custom element types, operators, comparators) instantiated in this
// translation unit and run on cuda:0, each checked against the std algorithms. The standard
// types and operators (the plugin's precompiled entries) are tested by the algorithms suite run
// on cuda (scripts/gpu_check.sh). Without a CUDA device every test skips, saying why.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "ak/ak.hpp"
#include "ak/backends/cuda/launch.cuh"
#include "cuda_test_support.hpp"

namespace {

std::uint64_t seed() {
  static const std::uint64_t s = [] {
    const char* e = std::getenv("AKT_SEED");
    const std::uint64_t v = e ? std::strtoull(e, nullptr, 10) : std::random_device{}();
    std::printf("cuda tests: seed %llu (AKT_SEED=%llu reproduces)\n",
                static_cast<unsigned long long>(v), static_cast<unsigned long long>(v));
    return v;
  }();
  return s;
}

// Sizes around the tile and block boundaries of the GPU algorithms, and a large one.
const std::vector<std::int64_t> sizes = {0,     1,     2,      31,      32,           33,
                                         255,   256,   257,    1023,    4096,         4097,
                                         65535, 65537, 100003, 1 << 20, (1 << 20) + 7};

struct point {
  std::int32_t key;
  std::int32_t tag;
};
struct by_key {
  AK_KERNEL_FN bool operator()(const point& a, const point& b) const { return a.key < b.key; }
};
// The smallest key and the number of elements (a custom type with a custom operator).
struct span_op {
  AK_KERNEL_FN point operator()(const point& a, const point& b) const {
    return point{a.key < b.key ? a.key : b.key, a.tag + b.tag};
  }
};
struct twice_plus_one {
  AK_KERNEL_FN float operator()(float x) const { return 2.0f * x + 1.0f; }
};
struct negative {
  AK_KERNEL_FN bool operator()(float x) const { return x < 0.0f; }
};
struct max_op {
  AK_KERNEL_FN std::int64_t operator()(std::int64_t a, std::int64_t b) const {
    return a < b ? b : a;
  }
};
struct descending_u64 {
  AK_KERNEL_FN bool operator()(std::uint64_t a, std::uint64_t b) const { return b < a; }
};

// A kernel that does nothing (for launches that must be refused before they run).
struct nothing {
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx&) const {}
};

template <class T>
std::vector<T> on_host(const ak::array<T>& a) {
  return a.to_vector();
}

TEST(CudaBackend, DeviceDescribesAnNvidiaGpu) {
  AKT_NEED_CUDA();
  const auto& i = dev.info();
  EXPECT_EQ(i.kind, ak::device_kind::gpu);
  EXPECT_EQ(i.sub_group_width, 32);
  EXPECT_EQ(i.device_class.rfind("sm_", 0), 0u) << i.device_class;
  EXPECT_GT(i.compute_units, 0);
  EXPECT_TRUE(i.caps.device_scope_fence);
  EXPECT_TRUE(i.caps.forward_progress);
  EXPECT_FALSE(dev.memory().host_accessible());
}

TEST(CudaBackend, CopiesRoundTrip) {
  AKT_NEED_CUDA();
  std::vector<std::int32_t> h(100003);
  std::iota(h.begin(), h.end(), -5);
  ak::array<std::int32_t> a(h, dev);
  EXPECT_EQ(on_host(a), h);
  EXPECT_EQ(on_host(a.clone()), h);
}

// A user's stream-ordered pool: cudaMallocAsync/cudaFreeAsync on the stream ak hands it.
struct stream_ordered_resource final : ak::memory_resource {
  int live = 0, total = 0;
  void* last_queue = nullptr;
  void* allocate(std::size_t bytes, std::size_t, void* queue) override {
    last_queue = queue;
    void* p = nullptr;
    if (cudaMallocAsync(&p, bytes, static_cast<cudaStream_t>(queue)) != cudaSuccess)
      throw std::bad_alloc();
    ++live;
    ++total;
    return p;
  }
  void deallocate(void* p, std::size_t, std::size_t, void* queue) noexcept override {
    --live;
    (void)cudaFreeAsync(p, static_cast<cudaStream_t>(queue));
  }
};

TEST(CudaBackend, MemoryResourceGivesArraysAndTemporaries) {
  AKT_NEED_CUDA();
  stream_ordered_resource r;
  {
    ak::scoped_memory_resource use(dev, r);
    std::vector<std::uint32_t> h(1 << 20);
    std::mt19937 rng(static_cast<std::uint32_t>(seed()));
    for (auto& x : h) x = rng();
    ak::array<std::uint32_t> a(h, dev);
    ak::sort_inplace(a.view());
    std::sort(h.begin(), h.end());
    EXPECT_EQ(on_host(a), h);
    EXPECT_GT(r.total, 1) << "the sort's temporaries came from the resource";
    EXPECT_EQ(r.live, 1);
    EXPECT_NE(r.last_queue, nullptr) << "ak's stream for the device";
  }
  EXPECT_EQ(r.live, 0);
  ak::cuda::wait(dev);
}

TEST(CudaBackend, LaunchTheDeviceCannotTakeIsAnArgumentError) {
  AKT_NEED_CUDA();
  EXPECT_THROW(ak::cuda::launch(dev, {ak::kernel::range_1d(4096, 4096), 0, "too_wide"}, nothing{}),
               ak::argument_error);
  EXPECT_THROW(
      ak::cuda::launch(dev, {ak::kernel::range_1d(256, 256), std::size_t{1} << 30, "too_much"},
                       nothing{}),
      ak::argument_error);
  ak::cuda::launch(dev, {ak::kernel::range_1d(0, 256), 0, "empty"}, nothing{});
  ak::cuda::wait(dev);
}

TEST(CudaTemplates, ReduceCustomTypeAndOperator) {
  AKT_NEED_CUDA();
  std::mt19937_64 rng(seed());
  for (const std::int64_t n : sizes) {
    std::vector<point> h(static_cast<std::size_t>(n));
    for (auto& p : h) p = {static_cast<std::int32_t>(rng() % 2000001) - 1000000, 1};
    const point neutral{INT32_MAX, 0};
    point want = neutral;
    for (const auto& p : h) want = span_op{}(want, p);
    ak::array<point> a(h, dev);
    const point got = ak::reduce(a, span_op{}, ak::reduce_options<point>{.neutral = neutral});
    EXPECT_EQ(got.key, want.key) << "n " << n;
    EXPECT_EQ(got.tag, want.tag) << "n " << n;
  }
}

// A scan on a GPU starts its partial results from the operator's neutral element: a custom
// operator (which has none that ak knows) is refused clearly; ak::maximum_op (through the
// plugin's precompiled entry) scans like std::inclusive_scan.
TEST(CudaTemplates, AccumulateMaximumAndACustomOperatorWithoutNeutral) {
  AKT_NEED_CUDA();
  std::mt19937_64 rng(seed() + 1);
  for (const std::int64_t n : sizes) {
    std::vector<std::int64_t> h(static_cast<std::size_t>(n));
    for (auto& x : h) x = static_cast<std::int64_t>(rng() % 1000000) - 500000;
    std::vector<std::int64_t> want(h.size());
    std::inclusive_scan(h.begin(), h.end(), want.begin(), max_op{});
    ak::array<std::int64_t> a(h, dev);
    auto got = ak::accumulate(a, ak::maximum_op{});
    EXPECT_EQ(on_host(got), want) << "n " << n;
    if (n > 0)
      EXPECT_THROW(ak::accumulate(a, max_op{}, ak::accumulate_options<std::int64_t>{.init = 0}),
                   ak::error);
  }
}

TEST(CudaTemplates, MapCountAnyAll) {
  AKT_NEED_CUDA();
  std::mt19937_64 rng(seed() + 2);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (const std::int64_t n : sizes) {
    std::vector<float> h(static_cast<std::size_t>(n));
    for (auto& x : h) x = u(rng);
    ak::array<float> a(h, dev);
    ak::array<float> out(ak::shape{n}, dev);
    ak::map_into(out, twice_plus_one{}, a);
    std::vector<float> want(h.size());
    std::transform(h.begin(), h.end(), want.begin(), twice_plus_one{});
    EXPECT_EQ(on_host(out), want) << "n " << n;
    const auto neg = std::count_if(h.begin(), h.end(), negative{});
    EXPECT_EQ(ak::count(a, negative{}), neg) << "n " << n;
    EXPECT_EQ(ak::any(a, negative{}), neg > 0) << "n " << n;
    EXPECT_EQ(ak::all(a, negative{}), neg == n) << "n " << n;
  }
}

TEST(CudaTemplates, MergeSortWithCustomComparatorIsStable) {
  AKT_NEED_CUDA();
  std::mt19937_64 rng(seed() + 3);
  for (const std::int64_t n : sizes) {
    std::vector<point> h(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i)
      h[static_cast<std::size_t>(i)] = {static_cast<std::int32_t>(rng() % 1000),
                                        static_cast<std::int32_t>(i)};
    std::vector<point> want = h;
    std::stable_sort(want.begin(), want.end(), by_key{});
    ak::array<point> a(h, dev);
    ak::sort_inplace(a, ak::sort_options<ak::identity, by_key>{.lt = by_key{}});
    const auto got = on_host(a);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i].key, want[i].key) << "n " << n << " at " << i;
      ASSERT_EQ(got[i].tag, want[i].tag) << "n " << n << " at " << i << " (stability)";
    }
  }
}

TEST(CudaTemplates, SortByKeyAndSortpermOfStandardKeys) {
  AKT_NEED_CUDA();
  std::mt19937_64 rng(seed() + 4);
  for (const std::int64_t n : sizes) {
    std::vector<std::uint32_t> k(static_cast<std::size_t>(n));
    for (auto& x : k) x = static_cast<std::uint32_t>(rng() % 5000);  // many ties
    std::vector<std::int64_t> idx(k.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](auto a, auto b) { return k[a] < k[b]; });
    std::vector<std::uint32_t> sorted_k(k.size());
    for (std::size_t i = 0; i < k.size(); ++i) sorted_k[i] = k[static_cast<std::size_t>(idx[i])];

    ak::array<std::uint32_t> keys(k, dev);
    EXPECT_EQ(on_host(ak::sortperm(keys)), idx) << "n " << n;
    ak::array<std::int64_t> values(ak::shape{n}, dev);
    std::vector<std::int64_t> iota(k.size());
    std::iota(iota.begin(), iota.end(), 0);
    values.copy_from(iota);
    ak::sort_by_key(keys, values);
    EXPECT_EQ(on_host(keys), sorted_k) << "n " << n;
    EXPECT_EQ(on_host(values), idx) << "n " << n;
  }
}

TEST(CudaTemplates, RadixSortDescendingByComparatorIsRejectedNotReplaced) {
  AKT_NEED_CUDA();
  ak::array<std::uint64_t> a(std::vector<std::uint64_t>{3, 1, 2}, dev);
  EXPECT_THROW(
      ak::sort_inplace(a, ak::sort_options<ak::identity, descending_u64>{.lt = descending_u64{},
                                                                         .alg = ak::radix_sort{}}),
      ak::error);
  EXPECT_EQ(on_host(a), (std::vector<std::uint64_t>{3, 1, 2}));
  ak::sort_inplace(a, ak::sort_options<ak::identity, descending_u64>{.lt = descending_u64{}});
  EXPECT_EQ(on_host(a), (std::vector<std::uint64_t>{3, 2, 1}));
}

}  // namespace
