// The cpu backend's vector code (ak/backends/cpu/vector_sort.hpp): Highway's vqsort, which
// dispatches to the instruction set Highway's chosen target names; AK_CPU_TARGET and
// set_vector_target narrow the targets Highway may choose from.
#include "ak/backends/cpu/vector_sort.hpp"

#include <hwy/contrib/sort/vqsort.h>
#include <hwy/targets.h>

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>

#include "ak/core/error.hpp"
#include "cpu_backend.hpp"

namespace ak::cpu {
namespace {

// The x86 targets of Highway's dispatch that Debian's libhwy-contrib has code for, best first (a
// lower bit is a better target), and the portable one (EMU128) last. Its vqsort has no AVX3_DL
// code (a machine with it runs AVX3's), so AVX3_DL is not offered.
constexpr std::int64_t known_targets[] = {HWY_AVX3, HWY_AVX2, HWY_SSE4, HWY_SSSE3, HWY_EMU128};

// What this machine has, read before any narrowing (SupportedTargets() then reports the mask).
std::int64_t machine_targets() {
  static const std::int64_t real = [] {
    hwy::SetSupportedTargetsForTest(0);
    return hwy::SupportedTargets();
  }();
  return real;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The targets' names, ", " between them; `which` picks those to name.
template <class Which>
std::string names_of(const Which& which) {
  std::string s;
  for (const std::int64_t t : known_targets)
    if (which(t)) s += std::string(s.empty() ? "" : ", ") + hwy::TargetName(t);
  return s;
}

std::mutex target_mutex;

// Bumped by every change of target. A sorter's buffer is sized for the vectors of the target in
// force when it was made, so a thread makes its sorter again after a change (a sorter made under
// EMU128 and used under AVX3 would overflow its buffer).
std::atomic<std::uint64_t> target_generation{0};

// A thread's sorter: Highway's buffer for the sort, kept across the thread's calls.
const hwy::Sorter& sorter() {
  thread_local std::optional<hwy::Sorter> s;
  thread_local std::uint64_t made_in = 0;
  const std::uint64_t now = target_generation.load(std::memory_order_acquire);
  if (!s || made_in != now) {
    s.reset();
    s.emplace();
    made_in = now;
  }
  return *s;
}

template <class T>
void sort_with(T* keys, std::int64_t n, bool descending) {
  if (n < 2) return;
  if (descending)
    sorter()(keys, static_cast<std::size_t>(n), hwy::SortDescending());
  else
    sorter()(keys, static_cast<std::size_t>(n), hwy::SortAscending());
}

}  // namespace

std::string vector_target() {
  const std::int64_t now = hwy::SupportedTargets();
  for (const std::int64_t t : known_targets)
    if (now & t) return hwy::TargetName(t);
  return hwy::TargetName(now & -now);
}

std::vector<vector_target_info> vector_targets() {
  std::vector<vector_target_info> out;
  for (const std::int64_t t : known_targets)
    out.push_back({hwy::TargetName(t), (machine_targets() & t) != 0});
  return out;
}

void set_vector_target(const std::string& name) {
  std::lock_guard lock(target_mutex);
  const std::int64_t real = machine_targets();
  std::int64_t mask = real;
  if (!name.empty()) {
    const std::string want = upper(name) == "BASELINE" ? "EMU128" : upper(name);
    std::int64_t target = 0;
    for (const std::int64_t t : known_targets)
      if (want == hwy::TargetName(t)) target = t;
    if (target == 0)
      throw backend_error("ak cpu backend: vector target '" + name +
                          "' is not one this build has code for (" +
                          names_of([](std::int64_t) { return true; }) + ", baseline (= EMU128))");
    if (!(real & target))
      throw backend_error("ak cpu backend: vector target '" + name +
                          "': this machine's cpu lacks it (it has " +
                          names_of([real](std::int64_t t) { return (real & t) != 0; }) + ")");
    mask = real & ~(target - 1);  // the target and the ones below it
  }
  hwy::SetSupportedTargetsForTest(name.empty() ? 0 : mask);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
  target_generation.fetch_add(1, std::memory_order_acq_rel);
}

void vector_sort(std::uint16_t* keys, std::int64_t n, bool descending) {
  sort_with(keys, n, descending);
}
void vector_sort(std::uint32_t* keys, std::int64_t n, bool descending) {
  sort_with(keys, n, descending);
}
void vector_sort(std::uint64_t* keys, std::int64_t n, bool descending) {
  sort_with(keys, n, descending);
}
void vector_sort(std::int16_t* keys, std::int64_t n, bool descending) {
  sort_with(keys, n, descending);
}
void vector_sort(std::int32_t* keys, std::int64_t n, bool descending) {
  sort_with(keys, n, descending);
}
void vector_sort(std::int64_t* keys, std::int64_t n, bool descending) {
  sort_with(keys, n, descending);
}

namespace detail {

std::string apply_vector_target_env() {
  // Unset: Highway's own choice, and whatever the program set, are left alone.
  const char* env = std::getenv("AK_CPU_TARGET");
  if (!env) return {};
  try {
    set_vector_target(env);
  } catch (const error& e) {
    return std::string(e.what()) + " (from AK_CPU_TARGET)";
  }
  return {};
}

}  // namespace detail
}  // namespace ak::cpu
