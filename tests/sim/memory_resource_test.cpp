// ak::memory_resource: a device's allocations from the user's allocator, on sim (whose device
// memory is host memory, so a test resource can hand out host memory) and on the cpu device.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <new>
#include <numeric>
#include <string>
#include <vector>

#include "ak/ak.hpp"

namespace {

constexpr std::size_t block_alignment = 256;  // every alignment ak asks for is at most this

// Host memory, counted. `skew` > 0 hands out memory that many bytes past an aligned block (a
// broken resource); `give_null` hands out nullptr; `refuse` throws std::bad_alloc.
struct counting_resource final : ak::memory_resource {
  std::atomic<int> live{0}, total{0};
  void* last_queue = reinterpret_cast<void*>(1);
  std::size_t skew = 0;
  bool give_null = false, refuse = false;
  void* allocate(std::size_t bytes, std::size_t alignment, void* queue) override {
    last_queue = queue;
    if (refuse) throw std::bad_alloc();
    if (give_null) return nullptr;
    EXPECT_LE(alignment, block_alignment);
    ++live;
    ++total;
    return static_cast<char*>(::operator new (bytes + skew, std::align_val_t{block_alignment})) +
           skew;
  }
  void deallocate(void* p, std::size_t, std::size_t, void*) noexcept override {
    --live;
    ::operator delete (static_cast<char*>(p) - skew, std::align_val_t{block_alignment});
  }
};

TEST(MemoryResource, ArraysAndTemporariesComeFromIt) {
  for (const char* name : {"sim:0", "cpu"}) {
    const ak::device dev(name);
    counting_resource r;
    {
      ak::scoped_memory_resource use(dev, r);
      EXPECT_EQ(ak::installed_memory_resource(dev), &r);
      EXPECT_EQ(ak::installed_memory_resource(ak::device("sim:1")), nullptr) << "per device";
      // 1000 elements: temporaries on sim:0 already (5000 took 37 s under ThreadSanitizer).
      std::vector<std::int32_t> v(1000);
      for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<std::int32_t>((i * 7919) % 1013);
      {
        ak::array<std::int32_t> a(v, dev);
        EXPECT_EQ(r.total.load(), 1) << name;
        ak::sort_inplace(a.view());  // a radix sort: temporaries on the device
        std::sort(v.begin(), v.end());
        EXPECT_EQ(a.to_vector(), v) << name;
        EXPECT_EQ(ak::sum(a), std::accumulate(v.begin(), v.end(), std::int32_t{0})) << name;
        EXPECT_EQ(r.live.load(), 1) << name << ": temporaries went back";
      }
      EXPECT_EQ(r.live.load(), 0) << name;
      if (std::string(name) == "sim:0") {
        EXPECT_GT(r.total.load(), 1) << "the sort's temporaries came from the resource";
        EXPECT_EQ(r.last_queue, nullptr) << "sim has no native queue";
      }
    }
    EXPECT_EQ(ak::installed_memory_resource(dev), nullptr) << name;
  }
}

TEST(MemoryResource, MemoryGoesBackToItsAllocator) {
  const ak::device dev("sim:0");
  counting_resource first, second;
  EXPECT_EQ(ak::set_memory_resource(dev, &first), nullptr);
  auto a = std::make_unique<ak::array<double>>(ak::shape{100}, dev);
  EXPECT_EQ(ak::set_memory_resource(dev, &second), &first);
  auto b = std::make_unique<ak::array<double>>(ak::shape{100}, dev);
  EXPECT_EQ(ak::set_memory_resource(dev, nullptr), &second);
  auto c = std::make_unique<ak::array<double>>(ak::shape{100}, dev);  // the backend's
  EXPECT_EQ(first.live.load(), 1);
  EXPECT_EQ(second.live.load(), 1);
  a.reset();
  EXPECT_EQ(first.live.load(), 0);
  EXPECT_EQ(second.live.load(), 1);
  c.reset();
  b.reset();
  EXPECT_EQ(second.live.load(), 0);
  EXPECT_EQ(first.total.load() + second.total.load(), 2);
}

TEST(MemoryResource, BrokenResourcesAreClearErrors) {
  const ak::device dev("sim:0");
  counting_resource r;
  ak::scoped_memory_resource use(dev, r);
  r.skew = 4;  // not aligned to the 8 bytes of an int64
  try {
    ak::array<std::int64_t> a(ak::shape{64}, dev);
    (void)a;
    ADD_FAILURE() << "misaligned memory was accepted";
  } catch (const ak::backend_error& e) {
    EXPECT_NE(std::string(e.what()).find("not aligned"), std::string::npos) << e.what();
  }
  EXPECT_EQ(r.live.load(), 0) << "the misaligned block was given back";
  r.skew = 0;
  r.give_null = true;
  EXPECT_THROW((ak::array<std::int64_t>(ak::shape{64}, dev)), ak::backend_error);
  r.give_null = false;
  r.refuse = true;
  EXPECT_THROW((ak::array<std::int64_t>(ak::shape{64}, dev)), std::bad_alloc);
  r.refuse = false;
  ak::array<std::int64_t> fine(ak::shape{64}, dev);
  EXPECT_EQ(r.live.load(), 1);
}

}  // namespace
