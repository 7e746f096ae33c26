// Shared pieces of the algorithm tests: seeds, random data in every dtype and pattern, host
// buffers, n-d index walks, array layouts (contiguous, strided, transposed, reversed) and
// comparisons that name the first mismatch.
//
// Every randomised test starts with AKT_RANDOM(rng): the seed is derived from AK_TEST_SEED (or,
// when unset, a random base seed printed by main) and the test's name, and SCOPED_TRACE prints
// "rerun with AK_TEST_SEED=..." on any failure.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iomanip>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "ak/ak.hpp"
#include "ak/backends/cpu/vector_loops.hpp"
#include "ak/backends/cpu/vector_sort.hpp"
#include "ak/core/sanitizers.hpp"
#include "error_message.hpp"

namespace akt {

using i64 = std::int64_t;

// ---- Types ------------------------------------------------------------------------------------

#ifndef AK_PRECOMPILE_ONE_TYPE_PER_SIZE
using numeric_types =
    ::testing::Types<std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                     std::uint16_t, std::uint32_t, std::uint64_t, float, double>;
using all_types =
    ::testing::Types<bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                     std::uint16_t, std::uint32_t, std::uint64_t, float, double>;
#elif !defined(AK_TSAN)
// The sanitizer build (tests/algorithms/CMakeLists.txt): one type of each size, signed and
// unsigned integers and a float among them (int32, where signed overflow is undefined; double
// for the float paths, whose suites below keep both floats), all of them types that libak
// precompiles there (ak/algorithms/precompiled.hpp).
using numeric_types = ::testing::Types<std::int8_t, std::uint16_t, std::int32_t, double>;
using all_types = ::testing::Types<bool, std::int8_t, std::uint16_t, std::int32_t, double>;
#else
// Under ThreadSanitizer (the cpu scans' tiles chained from task to task, and every family from
// eight threads: tests/algorithms/CMakeLists.txt), the narrowest and the widest type: how the
// threads meet does not depend on the element type (over four types, the accumulate tests took
// 110 of the program's 150 s; 2026-12-05, 2-core VM).
using numeric_types = ::testing::Types<std::int8_t, double>;
using all_types = ::testing::Types<bool, std::int8_t, double>;
#endif
// The typed tests of custom orders and projections (a `by` or `lt` of the test's own, so the
// header templates instantiated in the test program, on cpu and sim, for each type): an integer
// of each size, signed and unsigned among them, and both floats. What such a sort does depends
// on the element's size and kind, not on which type of that size it is; every dtype takes the
// standard order in the other tests. Over every dtype, these tests were half of sort_test.cpp's
// object code, which took 285 CPU-s in CI's build (2026-12-05, 2-core VM). Under the sanitizers,
// where libak's entries of every size run the same templates instrumented, an int8 and a double.
#ifndef AK_PRECOMPILE_ONE_TYPE_PER_SIZE
using custom_order_types =
    ::testing::Types<std::int8_t, std::uint16_t, std::int32_t, std::uint64_t, float, double>;
#else
using custom_order_types = ::testing::Types<std::int8_t, double>;
#endif
using float_types = ::testing::Types<float, double>;
#ifdef AK_PRECOMPILE_ONE_TYPE_PER_SIZE
template <class>
inline constexpr bool all_precompiled_v = false;
template <class... T>
inline constexpr bool all_precompiled_v<::testing::Types<T...>> =
    (ak::detail::precompiled_sort_type_v<T> && ...);
static_assert(all_precompiled_v<all_types> && all_precompiled_v<float_types>);
#endif

// Readable typed-test names: "int8", "float32", ...
struct dtype_names {
  template <class T>
  static std::string GetName(int) {
    if constexpr (ak::has_dtype_v<T>)
      return std::string(ak::name_of(ak::dtype_of_v<T>));
    else
      return "custom";
  }
};

template <class T>
inline constexpr bool is_float_v = std::is_floating_point_v<T>;
template <class T>
inline constexpr bool is_bool_v = std::is_same_v<T, bool>;

// ---- Seeds ------------------------------------------------------------------------------------

// The base seed: AK_TEST_SEED, or a random one chosen (and printed) once per process.
std::uint64_t base_seed();

inline std::uint64_t mix(std::uint64_t x) {  // splitmix64
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The current test's seed: the base seed mixed with the test's full name.
inline std::uint64_t test_seed() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "";
  std::uint64_t h = 1469598103934665603ull;
  for (char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return mix(base_seed() ^ h);
}

inline std::string seed_note() {
  return "randomised test: rerun with AK_TEST_SEED=" + std::to_string(base_seed()) +
         " and --gtest_filter=<this test>";
}

class rng {
 public:
  explicit rng(std::uint64_t seed) : engine_(seed) {}
  std::uint64_t bits() { return engine_(); }
  // Uniform in [lo, hi].
  i64 between(i64 lo, i64 hi) { return std::uniform_int_distribution<i64>(lo, hi)(engine_); }
  std::size_t index(std::size_t n) {
    return static_cast<std::size_t>(between(0, static_cast<i64>(n) - 1));
  }
  double unit() { return std::uniform_real_distribution<double>(0.0, 1.0)(engine_); }
  bool chance(double p) { return unit() < p; }
  std::mt19937_64& engine() { return engine_; }

 private:
  std::mt19937_64 engine_;
};

#define AKT_RANDOM(name)            \
  SCOPED_TRACE(::akt::seed_note()); \
  ::akt::rng name(::akt::test_seed())

// ---- The device under test ---------------------------------------------------------------------
// The test bodies are written once and run on the device that AKT_DEVICE names: "cpu" (the
// default) or a sim profile, "sim:0" ... "sim:3" (with AK_SIM_SEED as its shuffle seed). CTest
// registers the binary once per device and seed (tests/algorithms/CMakeLists.txt): the cpu runs
// carry the label `algorithms`, the sim runs the label `sim`.

// The name in AKT_DEVICE, read once (no backend is loaded for it: safe in static initialisers).
const std::string& target_name();
// Whether the device under test is a GPU-style device (a sim profile, or cuda:N when the bodies
// run there), not the cpu.
inline bool on_gpu_style() {
  return target_name() != "cpu";
}
// The device itself (loads the backend on first use).
const ak::device& target();
// Where arrays of the device under test live: host memory on cpu, the device's memory on a
// GPU-style device.
inline const ak::memory_space& target_memory() {
  return on_gpu_style() ? target().memory() : ak::host_memory();
}

// Tags a test carries, declared at namespace scope beside its definition with the gtest pattern of
// its name:
//   AKT_TAG(cross_group_sync, "Sort/*.RadixSort");
// main() (test_main.cpp) turns them into the run's test filter: with AKT_ONLY_TAG=<tag> in the
// environment only the tests tagged so run (the second shuffle seed of each sim profile runs the
// cross_group_sync ones); on a device other than the cpu, the cpu_only ones do not run.
enum class tag {
  cpu_only,          // tests that mean something on the cpu alone: its internals (thread caps,
                     // early exit, cache paths) or host-only code (the operators)
  cross_group_sync,  // kernels that synchronise across work-items and groups most (look-back,
                     // radix and merge sorts, reductions along dims, searches)
};
struct tag_registration {
  tag_registration(tag t, const char* pattern);
};
#define AKT_TAG_NAME2(line) akt_tag_##line
#define AKT_TAG_NAME(line) AKT_TAG_NAME2(line)
#define AKT_TAG(t, pattern)                                     \
  static const ::akt::tag_registration AKT_TAG_NAME(__LINE__) { \
    ::akt::tag::t, pattern                                      \
  }

// The size lists below are shorter on GPU-style devices (on sim each work-item is a fiber);
// `pick` chooses.
template <class T>
T pick(T cpu, T gpu_style) {
  return on_gpu_style() ? gpu_style : cpu;
}

// Whether T runs on the device under test (float64 needs the device's float64 capability: the
// Apple-like sim:3 has none, and its calls must be capability errors; see TypesOnTheDevice).
template <class T>
bool type_on_target() {
  if constexpr (std::is_same_v<T, double>)
    return !on_gpu_style() || target().caps().float64;
  else
    return true;
}
#define AKT_SKIP_UNLESS_TYPE_ON_TARGET(T)                      \
  if (!::akt::type_on_target<T>())                             \
  GTEST_SKIP() << "float64 is not on " << ::akt::target_name() \
               << " (its capability error is tested by TypesOnTheDevice)"

// The fixture of the typed tests: a dtype the device under test lacks is skipped there.
template <class T>
class typed_test : public ::testing::Test {
 protected:
  void SetUp() override { AKT_SKIP_UNLESS_TYPE_ON_TARGET(T); }
};

// Bytes between device memory and the host.
inline void to_host(void* dst, const void* src, std::size_t bytes, const ak::memory_space& m) {
  if (bytes == 0) return;
  if (m.host_accessible())
    std::memcpy(dst, src, bytes);
  else
    m.copy_to_host(dst, src, bytes);
}
inline void from_host(void* dst, const void* src, std::size_t bytes, const ak::memory_space& m) {
  if (bytes == 0) return;
  if (m.host_accessible())
    std::memcpy(dst, src, bytes);
  else
    m.copy_from_host(dst, src, bytes);
}

// ---- Host buffers -----------------------------------------------------------------------------

template <class T>
class buf;

// What buf::view() returns: on cpu a view of the buffer itself; on sim a view of the buffer's
// mirror in device memory, filled from the buffer when made. When it goes away, what the call
// wrote into the mirror (and only that: host writes made meanwhile stay) comes back to the buffer.
template <class T>
class dview : public ak::view<T> {
 public:
  dview(ak::view<T> v, T* host, std::shared_ptr<std::vector<unsigned char>> snapshot)
      : ak::view<T>(v), host_(host), snapshot_(std::move(snapshot)) {}
  dview(const dview&) = default;
  dview& operator=(const dview&) = delete;
  ~dview() {
    if (!snapshot_ || snapshot_->empty()) return;
    const std::size_t bytes = snapshot_->size();
    std::vector<unsigned char> now(bytes);
    to_host(now.data(), this->data(), bytes, this->memory());
    if (std::memcmp(now.data(), snapshot_->data(), bytes) == 0) return;
    std::memcpy(static_cast<void*>(host_), now.data(), bytes);
    *snapshot_ = now;
  }

 private:
  T* host_;
  std::shared_ptr<std::vector<unsigned char>> snapshot_;
};

// A std::vector without the vector<bool> specialisation: contiguous elements for every T.
template <class T>
class buf {
 public:
  buf() = default;
  explicit buf(i64 n)
      : n_(std::max<i64>(n, 0)), p_(n_ > 0 ? new T[static_cast<std::size_t>(n_)]() : nullptr) {}
  buf(i64 n, const T& fill) : buf(n) { std::fill(begin(), end(), fill); }
  buf(const T* first, i64 n) : buf(n) { std::copy(first, first + n, begin()); }
  buf(const buf& o) : buf(o.data(), o.size()) {}
  buf(buf&&) noexcept = default;
  buf& operator=(const buf& o) {
    if (this != &o) *this = buf(o);
    return *this;
  }
  buf& operator=(buf&&) noexcept = default;

  i64 size() const { return n_; }
  T* data() { return p_.get(); }
  const T* data() const { return p_.get(); }
  T* begin() { return p_.get(); }
  T* end() { return p_.get() + n_; }
  const T* begin() const { return p_.get(); }
  const T* end() const { return p_.get() + n_; }
  T& operator[](i64 i) { return p_[static_cast<std::size_t>(i)]; }
  const T& operator[](i64 i) const { return p_[static_cast<std::size_t>(i)]; }
  // The buffer as a 1-d view on the device under test (see dview).
  dview<T> view() {
    if (!on_gpu_style()) return dview<T>(ak::view<T>(data(), ak::shape{n_}), data(), nullptr);
    T* d = mirror();
    auto snap = std::make_shared<std::vector<unsigned char>>(bytes());
    if (n_ > 0) std::memcpy(snap->data(), static_cast<const void*>(data()), bytes());
    return dview<T>(ak::view<T>(d, ak::shape{n_}, target_memory()), data(), std::move(snap));
  }
  ak::view<const T> view() const {
    if (!on_gpu_style()) return ak::view<const T>(data(), ak::shape{n_});
    return ak::view<const T>(mirror(), ak::shape{n_}, target_memory());
  }
  // A host view of the buffer, wherever the tests run.
  ak::view<T> host_view() { return ak::view<T>(data(), ak::shape{n_}); }

 private:
  std::size_t bytes() const { return static_cast<std::size_t>(n_) * sizeof(T); }
  // The device copy, refreshed from the host elements.
  T* mirror() const {
    if (!dev_ || dev_->size() != n_)
      dev_ = std::make_shared<ak::array<T>>(ak::shape{n_}, target_memory());
    from_host(dev_->data(), data(), bytes(), dev_->memory());
    return dev_->data();
  }

  i64 n_ = 0;
  std::unique_ptr<T[]> p_;
  mutable std::shared_ptr<ak::array<T>> dev_;
};

// An array of the buffer's elements on the device under test.
template <class T>
ak::array<T> to_array(const buf<T>& b, const ak::shape& s) {
  ak::array<T> a(s, target_memory());
  from_host(a.data(), b.data(), static_cast<std::size_t>(b.size()) * sizeof(T), a.memory());
  return a;
}
template <class T>
ak::array<T> to_array(const buf<T>& b) {
  return to_array(b, ak::shape{b.size()});
}
// The elements of an array (wherever it is) in a host buffer.
template <class T>
buf<T> to_buf(const ak::array<T>& a) {
  buf<T> b(a.size());
  to_host(b.data(), a.data(), static_cast<std::size_t>(a.size()) * sizeof(T), a.memory());
  return b;
}

// ---- n-d index walks --------------------------------------------------------------------------

using index_t = std::array<i64, ak::max_rank>;

// f(index) for every index of s, in row-major order.
template <class F>
void for_each_index(const ak::shape& s, F&& f) {
  if (s.size() == 0) return;
  index_t idx{};
  const std::size_t r = s.rank();
  for (;;) {
    f(static_cast<const index_t&>(idx));
    std::size_t d = r;
    for (;;) {
      if (d == 0) return;
      --d;
      if (++idx[d] < s[d]) break;
      idx[d] = 0;
    }
  }
}

template <class T>
i64 offset_of(const ak::view<T>& v, const index_t& idx) {
  i64 off = 0;
  for (std::size_t d = 0; d < v.rank(); ++d) off += idx[d] * v.strides()[d];
  return off;
}

template <class T>
T& at(const ak::view<T>& v, const index_t& idx) {
  return v.data()[offset_of(v, idx)];
}

// A host view with v's shape and strides over a host copy of the memory v spans (v itself when
// the host can read it); `keep` holds the copy.
template <class T>
using host_copy = std::unique_ptr<std::remove_const_t<T>[]>;
template <class T>
ak::view<const T> readable(const ak::view<T>& v, host_copy<T>& keep) {
  if (v.memory().host_accessible() || v.size() == 0) return ak::view<const T>(v);
  i64 lo = 0, hi = 0;
  for (std::size_t d = 0; d < v.rank(); ++d) {
    const i64 span = (v.shape()[d] - 1) * v.strides()[d];
    (span < 0 ? lo : hi) += span;
  }
  const std::size_t count = static_cast<std::size_t>(hi - lo + 1);
  keep.reset(new std::remove_const_t<T>[count]);
  to_host(keep.get(), v.data() + lo, count * sizeof(T), v.memory());
  return ak::view<const T>(ak::detail::unchecked, keep.get() - lo, v.shape(), v.strides(),
                           ak::host_memory());
}

// The elements of v in row-major order (an independent reading, not ak::copy), wherever v is.
template <class T>
buf<std::remove_const_t<T>> gather(const ak::view<T>& v) {
  using U = std::remove_const_t<T>;
  buf<U> out(v.size());
  host_copy<T> keep;
  const ak::view<const T> h = readable(v, keep);
  i64 k = 0;
  for_each_index(h.shape(), [&](const index_t& idx) { out[k++] = at(h, idx); });
  return out;
}

inline ak::shape make_shape(const std::vector<i64>& e) {
  return ak::shape(std::span<const i64>(e.data(), e.size()));
}

// Every shape of rank 0..max_rank with every extent in [0, max_extent].
inline std::vector<std::vector<i64>> all_shapes(std::size_t max_rank, i64 max_extent) {
  std::vector<std::vector<i64>> out{{}};
  std::vector<std::vector<i64>> level{{}};
  for (std::size_t r = 1; r <= max_rank; ++r) {
    std::vector<std::vector<i64>> next;
    for (const auto& s : level)
      for (i64 e = 0; e <= max_extent; ++e) {
        auto t = s;
        t.push_back(e);
        next.push_back(t);
      }
    out.insert(out.end(), next.begin(), next.end());
    level = std::move(next);
  }
  return out;
}

inline std::string shape_string(const std::vector<i64>& e) {
  return make_shape(e).to_string();
}

// ---- Showing values ---------------------------------------------------------------------------

template <class T>
std::string show(const T& x) {
  if constexpr (is_bool_v<T>) {
    return x ? "true" : "false";
  } else if constexpr (std::is_integral_v<T>) {
    return std::to_string(+x);
  } else if constexpr (is_float_v<T>) {
    if (x != x) return std::signbit(x) ? "-nan" : "nan";
    std::ostringstream s;
    s << std::setprecision(std::numeric_limits<T>::max_digits10) << x;
    if (x == 0) return std::signbit(x) ? "-0.0" : "+0.0";
    return s.str();
  } else {
    return "<custom>";
  }
}

// ---- Orders -----------------------------------------------------------------------------------

// The order a sort with `rev` uses: ak::isless, reversed when rev (the references' comparator).
struct sort_order {
  bool rev;
  template <class T>
  bool operator()(const T& a, const T& b) const {
    return rev ? ak::isless{}(b, a) : ak::isless{}(a, b);
  }
};

// ---- Equality ---------------------------------------------------------------------------------

// Equal values; for floats the same bits but any NaN equals any NaN (-0.0 differs from +0.0).
template <class T>
bool same(const T& a, const T& b) {
  if constexpr (is_float_v<T>)
    return (a != a && b != b) || (a == b && std::signbit(a) == std::signbit(b));
  else
    return a == b;
}

// The bits of a value as an unsigned integer of its size.
template <class T>
auto bits_of(const T& x) {
  using U = std::conditional_t<
      sizeof(T) == 1, std::uint8_t,
      std::conditional_t<sizeof(T) == 2, std::uint16_t,
                         std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
  static_assert(sizeof(U) == sizeof(T));
  U u;
  std::memcpy(&u, &x, sizeof(T));
  return u;
}

// Exactly the same bits (NaN payloads included), for results that must be bit-identical.
template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
::testing::AssertionResult same_value(const T& got, const T& want) {
  if (same(got, want)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << show(got) << ", want " << show(want);
}

// got[0, n) against want[0, n): the first mismatch and how many there are.
template <class T, class Eq>
::testing::AssertionResult same_range(const T* got, const T* want, i64 n, Eq eq) {
  i64 first = -1, count = 0;
  for (i64 i = 0; i < n; ++i)
    if (!eq(got[i], want[i])) {
      if (first < 0) first = i;
      ++count;
    }
  if (count == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << count << " of " << n << " elements differ; first at " << first << ": got "
         << show(got[first]) << ", want " << show(want[first]);
}
template <class T>
::testing::AssertionResult same_range(const T* got, const T* want, i64 n) {
  return same_range(got, want, n, [](const T& a, const T& b) { return same(a, b); });
}

template <class T>
::testing::AssertionResult same_elements(const ak::array<T>& got, const buf<T>& want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << "size " << got.size() << ", want " << want.size();
  const buf<T> g = to_buf(got);
  return same_range(g.data(), want.data(), want.size());
}
template <class T>
::testing::AssertionResult same_elements(const buf<T>& got, const buf<T>& want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << "size " << got.size() << ", want " << want.size();
  return same_range(got.data(), want.data(), want.size());
}
template <class T>
::testing::AssertionResult same_bits_elements(const buf<T>& got, const buf<T>& want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << "size " << got.size() << ", want " << want.size();
  return same_range(got.data(), want.data(), want.size(),
                    [](const T& a, const T& b) { return same_bits(a, b); });
}

// ---- Random data ------------------------------------------------------------------------------

// The values random elements take:
//  full:  any value (integers: uniform over their range; floats: wide exponents and a few
//         specials: NaN, +-Inf, +-0.0, denormals, max, lowest);
//  small: integer values in [-8, 8] ([0, 8] unsigned; any bool) whose sums and scans are exact
//         and never overflow at the sizes tested (|sum| <= 8e6 < 2^24);
//  unit:  +-1 (1 unsigned), for products.
enum class values { full, small, unit };

// How the elements are arranged:
//  random, sorted (ak's order), reversed (descending), equal (one value), few (3 distinct
//  values), special (floats: NaN, -NaN, +-0.0, +-Inf, +-1; integers: min, max, 0, 1; for bool
//  like random), extremes (random with a quarter of min / max / lowest / +-Inf / denormals).
enum class pattern { random, sorted, reversed, equal, few, special, extremes };

inline const char* name_of(pattern p) {
  switch (p) {
    case pattern::random:
      return "random";
    case pattern::sorted:
      return "sorted";
    case pattern::reversed:
      return "reversed";
    case pattern::equal:
      return "equal";
    case pattern::few:
      return "few";
    case pattern::special:
      return "special";
    case pattern::extremes:
      return "extremes";
  }
  return "?";
}

inline constexpr std::array<pattern, 7> all_patterns{
    pattern::random, pattern::sorted,  pattern::reversed, pattern::equal,
    pattern::few,    pattern::special, pattern::extremes};

template <class T>
std::vector<T> special_values() {
  using L = std::numeric_limits<T>;
  if constexpr (is_bool_v<T>) {
    return {false, true};
  } else if constexpr (is_float_v<T>) {
    return {L::quiet_NaN(), -L::quiet_NaN(), T(0), -T(0),
            L::infinity(),  -L::infinity(),  T(1), T(-1)};
  } else if constexpr (std::is_signed_v<T>) {
    return {L::min(), L::max(), T(0), T(1), T(-1)};
  } else {
    return {L::min(), L::max(), T(0), T(1)};
  }
}

template <class T>
std::vector<T> extreme_values() {
  using L = std::numeric_limits<T>;
  if constexpr (is_float_v<T>) {
    return {L::max(),        L::lowest(),      L::min(),      -L::min(),
            L::denorm_min(), -L::denorm_min(), L::infinity(), -L::infinity()};
  } else {
    return {L::min(), L::max(), L::lowest()};
  }
}

template <class T>
T random_value(rng& r, values v) {
  if constexpr (is_bool_v<T>) {
    return r.chance(0.5);
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    switch (v) {
      case values::full:
        return static_cast<T>(static_cast<U>(r.bits()));
      case values::small:
        return static_cast<T>(r.between(std::is_signed_v<T> ? -8 : 0, 8));
      case values::unit:
        return static_cast<T>(std::is_signed_v<T> && r.chance(0.5) ? -1 : 1);
    }
    return T(0);
  } else {
    switch (v) {
      case values::full: {
        if (r.chance(0.02)) {
          const auto s = special_values<T>();
          const auto e = extreme_values<T>();
          return r.chance(0.5) ? s[r.index(s.size())] : e[r.index(e.size())];
        }
        const double m = 1.0 + r.unit();
        const double x = std::ldexp(m, static_cast<int>(r.between(-20, 20)));
        return static_cast<T>(r.chance(0.5) ? -x : x);
      }
      case values::small:
        return static_cast<T>(r.between(-8, 8));
      case values::unit:
        return static_cast<T>(r.chance(0.5) ? -1 : 1);
    }
    return T(0);
  }
}

// n elements in the given pattern.
template <class T>
buf<T> make_data(i64 n, pattern p, rng& r, values v = values::full) {
  buf<T> out(n);
  switch (p) {
    case pattern::random:
    case pattern::sorted:
    case pattern::reversed:
      for (auto& x : out) x = random_value<T>(r, v);
      break;
    case pattern::equal: {
      const T x = random_value<T>(r, v);
      std::fill(out.begin(), out.end(), x);
      break;
    }
    case pattern::few: {
      const T a = random_value<T>(r, v), b = random_value<T>(r, v), c = random_value<T>(r, v);
      for (auto& x : out) {
        const auto k = r.between(0, 2);
        x = k == 0 ? a : k == 1 ? b : c;
      }
      break;
    }
    case pattern::special: {
      auto s = special_values<T>();
      if constexpr (!is_bool_v<T>) {
        if (v != values::full) {  // keep the sum/prod domain: only what cannot overflow
          if constexpr (is_float_v<T>) {
            // NaN, +-0.0 and +-Inf with small integers: sums stay exact.
          } else {
            s = {T(0), T(1)};
          }
        }
      }
      for (auto& x : out) x = r.chance(0.7) ? s[r.index(s.size())] : random_value<T>(r, v);
      break;
    }
    case pattern::extremes: {
      const auto e = extreme_values<T>();
      for (auto& x : out)
        x = (v == values::full && r.chance(0.25)) ? e[r.index(e.size())] : random_value<T>(r, v);
      break;
    }
  }
  if (p == pattern::sorted || p == pattern::reversed) {
    std::stable_sort(out.begin(), out.end(), ak::isless{});
    if (p == pattern::reversed) std::reverse(out.begin(), out.end());
  }
  return out;
}

// ---- Sizes ------------------------------------------------------------------------------------

// 0, 1, 2, primes, powers of two and their neighbours.
inline const std::vector<i64> small_sizes{0,   1,   2,   3,    7,    31,   127,
                                          255, 256, 257, 4095, 4096, 4097, 8191};
// The cpu tunings' grains (1<<14 sort, 1<<15 map, 1<<16 reduce and scan): g-1, g, g+1, 2g+1;
// 65537 is a prime too.
inline const std::vector<i64> grain_sizes{16383, 16384, 16385, 32767,  32768, 32769,
                                          65535, 65536, 65537, 131072, 131073};
// On sim (each work-item a fiber): 10000 still spans many groups and tiles of every profile.
// Under ThreadSanitizer, 300007: more than four grains of every cpu tuning, so still several
// tasks and tiles, at a third of the time of a million.
#if defined(AK_TSAN)
inline const i64 big_size = on_gpu_style() ? 10000 : 300007;
#else
inline const i64 big_size = on_gpu_style() ? 10000 : 1000000;
#endif

// On sim: the small sizes (many tiles already: a sim group holds 256 to 1024 work-items), one
// grain size and big_size.
inline std::vector<i64> all_sizes() {
  std::vector<i64> s = small_sizes;
  if (on_gpu_style()) {
    s.insert(s.end(), {16385, big_size});
    return s;
  }
  s.insert(s.end(), grain_sizes.begin(), grain_sizes.end());
  s.push_back(big_size);
  return s;
}

// ---- Layouts ----------------------------------------------------------------------------------

// A view of a given shape over a parent array: contiguous, every dimension sliced with step 2,
// the transpose of a row-major parent, or every dimension reversed (negative strides).
enum class layout { contiguous, strided, transposed, reversed };

inline const char* name_of(layout l) {
  switch (l) {
    case layout::contiguous:
      return "contiguous";
    case layout::strided:
      return "strided";
    case layout::transposed:
      return "transposed";
    case layout::reversed:
      return "reversed";
  }
  return "?";
}
inline constexpr std::array<layout, 4> all_layouts{layout::contiguous, layout::strided,
                                                   layout::transposed, layout::reversed};

template <class T>
struct laid_out {
  ak::array<T> parent;
  ak::view<T> view;
  buf<T> parent_before;  // the parent's elements when made, to check what a call left alone
};

// The parent's elements come from gen().
template <class T, class Gen>
laid_out<T> make_layout_with(const std::vector<i64>& extents, layout l, Gen&& gen) {
  std::vector<i64> pe = extents;
  if (l == layout::strided)
    for (auto& e : pe) e *= 2;
  if (l == layout::transposed) std::reverse(pe.begin(), pe.end());
  buf<T> host(make_shape(pe).size());
  for (auto& x : host) x = gen();
  laid_out<T> out{to_array(host, make_shape(pe)), {}, {}};
  ak::view<T> w = out.parent.view();
  for (std::size_t d = 0; d < extents.size(); ++d) {
    const i64 d64 = static_cast<i64>(d);
    if (l == layout::strided) w = w.slice(d64, 0, pe[d], 2);
    if (l == layout::reversed) w = w.slice(d64, 0, pe[d], -1);
  }
  if (l == layout::transposed) w = w.transpose();
  out.view = w;
  out.parent_before = to_buf(out.parent);
  return out;
}

template <class T>
laid_out<T> make_layout(const std::vector<i64>& extents, layout l, rng& r,
                        values v = values::full) {
  return make_layout_with<T>(extents, l, [&] { return random_value<T>(r, v); });
}

// Whether every parent element outside the view is as it was.
template <class T>
::testing::AssertionResult outside_untouched(const laid_out<T>& lo) {
  buf<bool> inside(lo.parent.size(), false);
  for_each_index(lo.view.shape(), [&](const index_t& idx) {
    inside[(&at(lo.view, idx)) - lo.parent.data()] = true;
  });
  const buf<T> now = to_buf(lo.parent);
  for (i64 i = 0; i < lo.parent.size(); ++i)
    if (!inside[i] && !same_bits(now[i], lo.parent_before[i]))
      return ::testing::AssertionFailure()
             << "element " << i << " of the parent, outside the view, changed";
  return ::testing::AssertionSuccess();
}

// ---- Threads ----------------------------------------------------------------------------------

// Sets ak's thread cap for a scope and restores the default after.
class thread_cap {
 public:
  explicit thread_cap(i64 n) { ak::cpu::set_num_threads(n); }
  ~thread_cap() { ak::cpu::set_num_threads(0); }
  thread_cap(const thread_cap&) = delete;
  thread_cap& operator=(const thread_cap&) = delete;
};

// ---- Vector targets ---------------------------------------------------------------------------

// f(name) with the cpu vector code on each instruction set the build has code for and this
// machine has, in turn (those it lacks are named and skipped); afterwards the target in force
// before (AK_CPU_TARGET's, or the best the machine has).
template <class F>
void for_each_vector_target(const F& f) {
  struct restore {
    std::string before = ak::cpu::vector_target();
    ~restore() { ak::cpu::set_vector_target(before); }
  } const restore_at_end;
  for (const ak::cpu::vector_target_info& target : ak::cpu::vector_targets()) {
    if (!target.supported) {
      std::cout << "[ skipped  ] vector target " << target.name << ": this machine lacks it\n";
      continue;
    }
    ak::cpu::set_vector_target(target.name);
    ASSERT_EQ(ak::cpu::vector_target(), target.name);
    f(target.name);
  }
}

// ---- References -------------------------------------------------------------------------------

// Sequential left fold in element order: op(...op(op(init, x0), x1)..., xn-1); with no init the
// first element starts it.
template <class R, class T, class F, class Op>
std::optional<R> fold(const T* first, i64 n, const F& f, const Op& op, std::optional<R> init) {
  std::optional<R> acc = init;
  for (i64 i = 0; i < n; ++i)
    acc = acc ? static_cast<R>(op(*acc, static_cast<R>(f(first[i])))) : static_cast<R>(f(first[i]));
  return acc;
}

}  // namespace akt
