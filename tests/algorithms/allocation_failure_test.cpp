// Allocation failure loses nothing: every allocation a call makes, on cpu and on sim:0, is made to
// fail in turn (the k-th for k = 1, 2, ... until the call makes fewer than k), and each failure
// must be an ak::error or std::bad_alloc that leaves the call's inputs and outputs as they were, or
// a result as correct as without the failure (where ak takes another way), and must leak nothing.
//
// This program replaces the global operator new and delete, every form of them (so it is a program
// of its own; a form left out would come from the sanitizers' runtime or libstdc++ and pair with
// the wrong delete): host memory, the cpu device's and sim's device memory, the cpu scratch
// allocator and every container of libak and libak_sim allocate through them. Memory that oneTBB
// and the sim engine's fiber stacks take from malloc or mmap directly is not failed. Under the
// sanitizers LeakSanitizer checks at exit that nothing leaked; the test itself checks that the
// count of live allocations comes back to where it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <new>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "ak/ak.hpp"
#include "ak/backends/cpu/scratch.hpp"

namespace {

// The fault injector: armed with k, the k-th allocation from then on (on any thread) throws.
std::atomic<long> countdown{0};  // 0: disarmed
std::atomic<bool> failed_one{false};
std::atomic<long> live{0};  // allocations not yet given back

void* allocate(std::size_t bytes, std::size_t alignment) {
  if (countdown.load(std::memory_order_relaxed) > 0 &&
      countdown.fetch_sub(1, std::memory_order_relaxed) == 1) {
    failed_one.store(true, std::memory_order_relaxed);
    throw std::bad_alloc();
  }
  if (bytes == 0) bytes = 1;
  void* p = alignment <= alignof(std::max_align_t)
                ? std::malloc(bytes)
                : std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
  if (p == nullptr) throw std::bad_alloc();
  live.fetch_add(1, std::memory_order_relaxed);
  return p;
}

void give_back(void* p) noexcept {
  if (p == nullptr) return;
  live.fetch_sub(1, std::memory_order_relaxed);
  std::free(p);
}

}  // namespace

void* operator new(std::size_t n) {
  return allocate(n, 0);
}
void* operator new[](std::size_t n) {
  return allocate(n, 0);
}
void* operator new(std::size_t n, std::align_val_t a) {
  return allocate(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return allocate(n, static_cast<std::size_t>(a));
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return allocate(n, 0);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return allocate(n, 0);
  } catch (...) {
    return nullptr;
  }
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  try {
    return allocate(n, static_cast<std::size_t>(a));
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  try {
    return allocate(n, static_cast<std::size_t>(a));
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  give_back(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  give_back(p);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  give_back(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  give_back(p);
}
void operator delete(void* p) noexcept {
  give_back(p);
}
void operator delete[](void* p) noexcept {
  give_back(p);
}
void operator delete(void* p, std::size_t) noexcept {
  give_back(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  give_back(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  give_back(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  give_back(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  give_back(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  give_back(p);
}

namespace {

// What a failed call left. The promise (docs/algorithms.md, "Errors"): inputs and outputs as they
// were. Known gaps, counted and printed here, not hidden: an in-place sort on the cpu that runs
// out of memory after its first pass has begun leaves its data reordered, every element still
// there (`reordered`); and where the device itself fails during a kernel (on sim, the simulator
// running out of memory for its own work-items: a kernel error) an in-place call's data are
// unspecified (`device_fault`), as after any failed kernel.
enum class verdict { as_promised, reordered, device_fault, wrong };

struct outcome {
  long points = 0;         // allocations failed
  long handled = 0;        // of them, failures the call took another way around (a correct result)
  long reordered = 0;      // ... that left in-place data reordered (the known gap above)
  long device_faults = 0;  // ... that failed a kernel and left in-place data unspecified
  long bad = 0;            // ... that left something wrong
  std::string first;       // the first problem, if any
};

// Fails each allocation of `call` in turn. `call` makes its own inputs' copies; `check(threw,
// device_fault, why)` says what the call left (unchanged after a throw, correct after a success),
// and why when it is wrong.
using checker = std::function<verdict(bool threw, bool device_fault, std::string& why)>;
outcome fail_each_allocation(const std::function<void()>& call, const checker& check) {
  outcome o;
  call();  // warm: first-use caches (tuning lookups, sim's stacks) are not the call's
  for (long k = 1; k < 100000; ++k) {
    ak::release_cached_memory();
    const long before = live.load();
    failed_one = false;
    countdown = k;
    bool threw = false, device_fault = false;
    char what[256] = "";  // not a std::string: it would be an allocation the call did not give back
    try {
      call();
    } catch (const ak::sim::kernel_error& e) {
      threw = device_fault = true;
      std::snprintf(what, sizeof what, "%s", e.what());
    } catch (const ak::error& e) {
      threw = true;
      std::snprintf(what, sizeof what, "%s", e.what());
    } catch (const std::bad_alloc&) {
      threw = true;
      std::snprintf(what, sizeof what, "std::bad_alloc");
    }
    countdown = 0;
    const bool reached = failed_one.load();
    ak::release_cached_memory();
    if (!reached) {
      if (threw && o.first.empty())
        o.first = std::string("threw without a failed allocation: ") + what;
      break;
    }
    ++o.points;
    if (!threw) ++o.handled;
    const long kept = live.load() - before;
    std::string bad;
    switch (check(threw, device_fault, bad)) {
      case verdict::reordered:
        ++o.reordered;
        break;
      case verdict::device_fault:
        ++o.device_faults;
        break;
      case verdict::wrong:
        if (bad.empty()) bad = "wrong";
        break;
      case verdict::as_promised:
        break;
    }
    if (kept != 0) bad += std::to_string(kept) + " allocations not given back";
    if (!bad.empty()) {
      ++o.bad;
      if (o.first.empty())
        o.first = "allocation " + std::to_string(k) +
                  (threw ? std::string(" (") + what + ")" : " (no error)") + ": " + bad;
    }
  }
  return o;
}

std::vector<std::int32_t> values(std::int64_t n, std::uint64_t seed) {
  std::vector<std::int32_t> v(static_cast<std::size_t>(n));
  std::uint64_t s = seed;
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<std::int32_t>((s >> 33) % 2001) - 1000;
  }
  return v;
}

class AllocationFailure : public testing::TestWithParam<const char*> {
 protected:
  ak::device dev() const { return ak::device(GetParam()); }
  // Large enough on cpu for its parallel paths and scratch (past the tunings' grains).
  std::int64_t n() const { return std::string(GetParam()) == "cpu" ? 200000 : 3000; }
  void report(const char* call, const outcome& o, bool allocates = true) {
    std::printf(
        "%s on %s: %ld allocations failed in turn: %ld taken another way, %ld left in-place data"
        " reordered, %ld failed a kernel (in-place data unspecified), %ld left something wrong\n",
        call, GetParam(), o.points, o.handled, o.reordered, o.device_faults, o.bad);
    EXPECT_TRUE(o.first.empty()) << call << ": " << o.first;
    if (allocates)
      EXPECT_GT(o.points, 0) << call << ": no allocation was failed";
    else
      EXPECT_EQ(o.points, 0) << call << " allocates";
  }
};

// For a call that only reads its inputs: they must be as they were.
verdict unchanged(const std::vector<std::int32_t>& got, const std::vector<std::int32_t>& want,
                  std::string& why) {
  if (got == want) return verdict::as_promised;
  why = "the input changed";
  return verdict::wrong;
}

// For an in-place call on `before`: `want` after a success; after a failure `before` again, or
// (the known gaps) its elements reordered or, after a kernel failure, anything.
template <class T>
verdict in_place(const std::vector<T>& got, const std::vector<T>& before,
                 const std::vector<T>& want, bool threw, bool device_fault, std::string& why) {
  if (!threw) {
    if (got == want) return verdict::as_promised;
    why = "a wrong result after a failure it took another way around";
    return verdict::wrong;
  }
  if (got == before) return verdict::as_promised;
  if (device_fault) return verdict::device_fault;
  if (std::is_permutation(got.begin(), got.end(), before.begin(), before.end()))
    return verdict::reordered;
  why = "the data lost elements";
  return verdict::wrong;
}

std::vector<std::pair<std::int32_t, std::int32_t>> zip(const std::vector<std::int32_t>& a,
                                                       const std::vector<std::int32_t>& b) {
  std::vector<std::pair<std::int32_t, std::int32_t>> out;
  for (std::size_t i = 0; i < a.size(); ++i) out.emplace_back(a[i], b[i]);
  return out;
}

TEST_P(AllocationFailure, SortInplace) {
  const auto v = values(n(), 1);
  auto sorted = v;
  std::stable_sort(sorted.begin(), sorted.end());
  ak::array<std::int32_t> a(v, dev());
  report("sort_inplace", fail_each_allocation(
                             [&] {
                               a.copy_from(v);
                               ak::sort_inplace(a.view());
                             },
                             [&](bool threw, bool fault, std::string& why) {
                               return in_place(a.to_vector(), v, sorted, threw, fault, why);
                             }));
}

TEST_P(AllocationFailure, SortCopySortpermAndSortByKey) {
  const auto v = values(n(), 2);
  auto keys = values(n(), 3);
  for (auto& k : keys) k %= 7;
  const ak::array<std::int32_t> a(v, dev());
  auto input = [&](bool, bool, std::string& why) { return unchanged(a.to_vector(), v, why); };
  report("sort", fail_each_allocation([&] { (void)ak::sort(a); }, input));
  report("sortperm", fail_each_allocation([&] { (void)ak::sortperm(a); }, input));
  auto pairs = zip(keys, v);
  auto by_key = pairs;
  std::stable_sort(by_key.begin(), by_key.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  ak::array<std::int32_t> k(keys, dev()), x(v, dev());
  report("sort_by_key", fail_each_allocation(
                            [&] {
                              k.copy_from(keys);
                              x.copy_from(v);
                              ak::sort_by_key(k.view(), x.view());
                            },
                            [&](bool threw, bool fault, std::string& why) {
                              return in_place(zip(k.to_vector(), x.to_vector()), pairs, by_key,
                                              threw, fault, why);
                            }));
}

TEST_P(AllocationFailure, AccumulateWithAndWithoutTemp) {
  const auto v = values(n(), 4);
  std::vector<std::int32_t> want(v.size());
  std::inclusive_scan(v.begin(), v.end(), want.begin());
  const ak::array<std::int32_t> a(v, dev());
  report("cumsum", fail_each_allocation([&] { (void)ak::cumsum(a); },
                                        [&](bool, bool, std::string& why) {
                                          return unchanged(a.to_vector(), v, why);
                                        }));
  // In place, with caller-provided temp storage (host memory on every device: its size is the
  // cpu's, ak::accumulate_temp_bytes). On the cpu it then allocates nothing at all.
  ak::array<std::int32_t> x(v, dev());
  std::vector<std::byte> temp(ak::accumulate_temp_bytes<std::int32_t>(n(), {}, dev()));
  report("accumulate_inplace(temp)",
         fail_each_allocation(
             [&] {
               x.copy_from(v);
               ak::accumulate_inplace(x.view(), ak::plus{}, {.temp = ak::temp_storage(temp)});
             },
             [&](bool threw, bool fault, std::string& why) {
               return in_place(x.to_vector(), v, want, threw, fault, why);
             }),
         /*allocates=*/dev().info().kind != ak::device_kind::cpu);
}

TEST_P(AllocationFailure, ReduceAlongDimsTakeAndBroadcast) {
  const auto v = values(n(), 5);
  const ak::array<std::int32_t> m(v, ak::shape{n() / 100, 100}, dev());
  auto input = [&](bool, bool, std::string& why) { return unchanged(m.to_vector(), v, why); };
  report("sum along dims", fail_each_allocation([&] { (void)ak::sum(m, ak::dims{0}); }, input));
  std::vector<std::int64_t> idx(1000);
  for (std::size_t i = 0; i < idx.size(); ++i)
    idx[i] = static_cast<std::int64_t>(i * 37 % v.size());
  const ak::array<std::int64_t> ix(idx, dev());
  report("take", fail_each_allocation([&] { (void)ak::take(m.view().reshape(ak::shape{n()}), ix); },
                                      input));
  const ak::array<std::int32_t> row(values(100, 6), ak::shape{1, 100}, dev());
  report("broadcast",
         fail_each_allocation([&] { (void)ak::broadcast(ak::plus{}, m, row); }, input));
}

INSTANTIATE_TEST_SUITE_P(Devices, AllocationFailure, testing::Values("cpu", "sim:0"),
                         [](const testing::TestParamInfo<const char*>& i) {
                           return std::string(i.param) == "cpu" ? "cpu" : "sim0";
                         });

}  // namespace
