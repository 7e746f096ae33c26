// sort, sort_inplace, sortperm and sort_by_key with every algorithm value and rev, against
// std::stable_sort with ak::isless (reversed for rev): every dtype, sizes around the sort grain,
// every pattern, NaN and signed zeros, stability, non-contiguous views, temps, per-call tunings.
#include "ak/backends/cpu/vector_sort.hpp"
#include "test_support.hpp"

namespace akt {
namespace {

template <class T>
bool equivalent(const T& a, const T& b) {
  return !ak::isless{}(a, b) && !ak::isless{}(b, a);
}

template <class T>
buf<T> stable_reference(const buf<T>& data, bool rev) {
  buf<T> out = data;
  std::stable_sort(out.begin(), out.end(), sort_order{rev});
  return out;
}

template <class T>
buf<i64> stable_permutation(const buf<T>& data, bool rev) {
  buf<i64> p(data.size());
  std::iota(p.begin(), p.end(), i64{0});
  std::stable_sort(p.begin(), p.end(),
                   [&](i64 a, i64 b) { return sort_order{rev}(data[a], data[b]); });
  return p;
}

// Whether a and b hold the same bit patterns, as multisets.
template <class T>
::testing::AssertionResult same_multiset(const buf<T>& a, const buf<T>& b) {
  using U = decltype(bits_of(T{}));
  auto bits_sorted = [](const buf<T>& x) {
    buf<U> out(x.size());
    for (i64 i = 0; i < x.size(); ++i) out[i] = bits_of(x[i]);
    std::sort(out.begin(), out.end());
    return out;
  };
  if (a.size() != b.size())
    return ::testing::AssertionFailure() << "sizes " << a.size() << " and " << b.size();
  const buf<U> x = bits_sorted(a), y = bits_sorted(b);
  if (std::equal(x.begin(), x.end(), y.begin())) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "not a permutation of the input";
}

// The stable reference through its permutation: sorted[i] = data[perm[i]].
template <class T>
buf<T> permuted(const buf<T>& data, const buf<i64>& perm) {
  buf<T> out(perm.size());
  for (i64 i = 0; i < perm.size(); ++i) out[i] = data[perm[i]];
  return out;
}

// An unstable sort's result: in order, element for element equivalent to the stable one, and
// the same multiset of bit patterns as the input (no NaN payload lost or invented).
template <class T>
::testing::AssertionResult sorted_like(const buf<T>& got, const buf<T>& want_stable) {
  auto r = same_range(got.data(), want_stable.data(), got.size(),
                      [](const T& a, const T& b) { return equivalent(a, b); });
  if (!r) return r;
  return same_multiset(got, want_stable);
}

// The algorithm values, by name. sample_unstable is sample sort asked for .stable = false (its
// results are then checked as an unstable sort's).
enum class alg { auto_, radix, merge, sample, sample_unstable };
const char* name_of(alg a) {
  switch (a) {
    case alg::auto_:
      return "auto_alg";
    case alg::radix:
      return "radix_sort";
    case alg::merge:
      return "merge_sort";
    case alg::sample:
      return "sample_sort";
    case alg::sample_unstable:
      return "sample_sort, .stable = false";
  }
  return "?";
}
ak::sort_alg alg_value(alg a) {
  switch (a) {
    case alg::auto_:
      return ak::auto_alg{};
    case alg::radix:
      return ak::radix_sort{};
    case alg::merge:
      return ak::merge_sort{};
    case alg::sample:
    case alg::sample_unstable:
      return ak::sample_sort{};
  }
  return ak::auto_alg{};
}
ak::sort_options<> options(alg a, bool rev) {
  return {.rev = rev, .stable = a != alg::sample_unstable, .alg = alg_value(a)};
}

// Whether the device under test runs an algorithm value: sim (GPU-style) has no sample sort, and
// its radix sort ranks digits of at most 8 bits and orders numbers themselves (no `by`).
bool on_target(const ak::sort_alg& a, bool by = false) {
  if (!on_gpu_style()) return true;
  if (std::holds_alternative<ak::sample_sort>(a)) return false;
  if (const auto* r = std::get_if<ak::radix_sort>(&a))
    return !by && (r->radix_digit_bits == ak::unset || r->radix_digit_bits <= 8);
  return true;
}
bool on_target(alg a) {
  return on_target(alg_value(a));
}

// Where the device cannot run the algorithm value, every call is a capability_error that leaves
// the data as it was.
template <class T, class By = ak::identity, class Lt = ak::isless>
void expect_rejected(buf<T>& data, const ak::sort_options<By, Lt>& o) {
  const buf<T> before = data;
  EXPECT_THROW(ak::sort_inplace(data.view(), o), ak::capability_error);
  EXPECT_THROW((void)ak::sort(data.view(), o), ak::capability_error);
  EXPECT_THROW((void)ak::sortperm(data.view(), o), ak::capability_error);
  buf<i64> values(data.size(), 7);
  EXPECT_THROW(ak::sort_by_key(data.view(), values.view(), o), ak::capability_error);
  EXPECT_TRUE(data.size() == 0 ||
              std::memcmp(data.data(), before.data(),
                          static_cast<std::size_t>(data.size()) * sizeof(T)) == 0)
      << "a rejected call changed its input";
  EXPECT_TRUE(same_elements(values, buf<i64>(data.size(), 7)))
      << "a rejected call changed the values";
}

// Where the device cannot run `a`: checks that every sort call rejects it (expect_rejected) at a
// few sizes, and says so; the caller then has nothing more to test.
template <class T>
bool rejected_on_target(alg a, rng& r) {
  if (on_target(a)) return false;
  for (i64 n : {0, 1, 100}) {
    buf<T> data = make_data<T>(n, pattern::random, r);
    expect_rejected(data, options(a, r.chance(0.5)));
  }
  return true;
}

// Sizes and patterns: every pattern and both directions up to 8191 elements; around the grains
// random data and one more pattern; a million random elements.
struct sort_case {
  i64 n;
  pattern p;
  bool rev;
};
std::vector<sort_case> sort_cases(bool big, rng& r, bool few = false) {
  std::vector<sort_case> out;
  if (on_gpu_style() &&
      few) {  // auto: that it resolves and sorts (radix and merge have every case)
    for (i64 n : {0, 1, 31, 4097}) out.push_back({n, pattern::random, n % 2 == 1});
    return out;
  }
  if (on_gpu_style()) {  // tiny sizes in both directions, every pattern at two sizes (rev
                         // alternating),
                         // one larger case
    for (i64 n : {0, 1, 2, 31})
      for (bool rev : {false, true}) out.push_back({n, pattern::random, rev});
    for (i64 n : {257, 4097})
      for (std::size_t j = 0; j < all_patterns.size(); ++j)
        out.push_back({n, all_patterns[j], (static_cast<std::size_t>(n) + j) % 2 == 1});
    out.push_back({big ? big_size : 8193, big ? pattern::random : pattern::few, r.chance(0.5)});
    return out;
  }
  for (i64 n : small_sizes)
    for (pattern p : all_patterns)
      for (bool rev : {false, true}) out.push_back({n, p, rev});
  for (std::size_t k = 0; k < grain_sizes.size(); ++k)
    out.push_back(
        {grain_sizes[k],
         k % 2 == 0 ? pattern::random : all_patterns[1 + k / 2 % (all_patterns.size() - 1)],
         r.chance(0.5)});
  if (big) out.push_back({big_size, pattern::random, r.chance(0.5)});
  return out;
}

std::string case_name(alg a, const sort_case& c) {
  return std::string(name_of(a)) + ", n = " + std::to_string(c.n) + ", pattern " + name_of(c.p) +
         (c.rev ? ", rev" : "");
}

template <class T>
void check_sort(alg a) {
  AKT_RANDOM(r);
  if (rejected_on_target<T>(a, r)) return;
  for (const sort_case& c : sort_cases(true, r, a == alg::auto_)) {
    SCOPED_TRACE(case_name(a, c));
    const buf<T> data = make_data<T>(c.n, c.p, r);
    const buf<T> want = stable_reference(data, c.rev);
    const ak::sort_options<> o = options(a, c.rev);
    // ak::sort: a sorted copy; the input is left as it was.
    const buf<T> before = data;
    const buf<T> got = to_buf(ak::sort(data.view(), o));
    EXPECT_TRUE(same_bits_elements(data, before)) << "ak::sort changed its input";
    // ak::sort_inplace.
    buf<T> in_place = data;
    ak::sort_inplace(in_place.view(), o);
    if (a == alg::sample_unstable) {
      EXPECT_TRUE(sorted_like(got, want));
      EXPECT_TRUE(sorted_like(in_place, want)) << "sort_inplace";
    } else {
      EXPECT_TRUE(same_bits_elements(got, want));
      EXPECT_TRUE(same_bits_elements(in_place, want)) << "sort_inplace";
    }
  }
}

template <class T>
void check_sortperm(alg a) {
  AKT_RANDOM(r);
  if (rejected_on_target<T>(a, r)) return;
  // Comparison sorts of indices are slower: a million only for radix.
  for (const sort_case& c : sort_cases(a == alg::radix, r, a == alg::auto_)) {
    SCOPED_TRACE(case_name(a, c));
    const buf<T> data = make_data<T>(c.n, c.p, r);
    const buf<T> before = data;
    const buf<i64> perm = to_buf(ak::sortperm(data.view(), options(a, c.rev)));
    EXPECT_TRUE(same_bits_elements(data, before)) << "ak::sortperm changed its input";
    const buf<i64> want = stable_permutation(data, c.rev);
    if (a != alg::sample_unstable) {
      EXPECT_TRUE(same_elements(perm, want));
      continue;
    }
    const buf<T> want_sorted = permuted(data, want);
    // Unstable: a permutation that sorts.
    ASSERT_EQ(perm.size(), c.n);
    buf<bool> seen(c.n, false);
    buf<T> by_perm(c.n);
    bool ok = true;
    for (i64 i = 0; i < c.n && ok; ++i) {
      ok = perm[i] >= 0 && perm[i] < c.n && !seen[perm[i]];
      if (ok) {
        seen[perm[i]] = true;
        by_perm[i] = data[perm[i]];
      }
    }
    ASSERT_TRUE(ok) << "not a permutation";
    EXPECT_TRUE(sorted_like(by_perm, want_sorted));
  }
}

template <class T>
void check_sort_by_key(alg a) {
  AKT_RANDOM(r);
  if (rejected_on_target<T>(a, r)) return;
  for (const sort_case& c : sort_cases(a == alg::radix, r, a == alg::auto_)) {
    SCOPED_TRACE(case_name(a, c));
    buf<T> keys = make_data<T>(c.n, c.p, r);
    const buf<T> original = keys;
    buf<i64> values(c.n);
    std::iota(values.begin(), values.end(), i64{0});
    buf<float> payload(c.n);
    for (i64 i = 0; i < c.n; ++i) payload[i] = static_cast<float>(i) * 0.5f;
    buf<T> keys2 = keys;
    ak::sort_by_key(keys.view(), values.view(), options(a, c.rev));
    ak::sort_by_key(keys2.view(), payload.view(), options(a, c.rev));
    const buf<i64> p = stable_permutation(original, c.rev);
    const buf<T> want = permuted(original, p);
    if (a != alg::sample_unstable) {
      EXPECT_TRUE(same_bits_elements(keys, want));
      EXPECT_TRUE(same_elements(values, p)) << "values";
      EXPECT_TRUE(same_bits_elements(keys2, want)) << "keys with float values";
      buf<float> want_payload(c.n);
      for (i64 i = 0; i < c.n; ++i) want_payload[i] = static_cast<float>(p[i]) * 0.5f;
      EXPECT_TRUE(same_elements(payload, want_payload)) << "float values";
      continue;
    }
    EXPECT_TRUE(sorted_like(keys, want));
    // Each value still sits with its key.
    buf<bool> seen(c.n, false);
    i64 bad = -1;
    for (i64 i = 0; i < c.n && bad < 0; ++i) {
      const i64 j = values[i];
      if (j < 0 || j >= c.n || seen[j] || !same_bits(original[j], keys[i]))
        bad = i;
      else
        seen[j] = true;
    }
    EXPECT_EQ(bad, -1) << "the value at " << bad << " left its key";
  }
}

template <class T>
class Sort : public typed_test<T> {};
TYPED_TEST_SUITE(Sort, all_types, dtype_names);

TYPED_TEST(Sort, AutoAlg) {
  check_sort<TypeParam>(alg::auto_);
}
AKT_TAG(cross_group_sync, "Sort/*.RadixSort");
TYPED_TEST(Sort, RadixSort) {
  check_sort<TypeParam>(alg::radix);
}
TYPED_TEST(Sort, MergeSort) {
  check_sort<TypeParam>(alg::merge);
}
TYPED_TEST(Sort, SampleSort) {
  check_sort<TypeParam>(alg::sample);
}
TYPED_TEST(Sort, SampleSortUnstable) {
  check_sort<TypeParam>(alg::sample_unstable);
}

TYPED_TEST(Sort, SortpermAutoAlg) {
  check_sortperm<TypeParam>(alg::auto_);
}
TYPED_TEST(Sort, SortpermRadixSort) {
  check_sortperm<TypeParam>(alg::radix);
}
AKT_TAG(cross_group_sync, "Sort/*.SortpermMergeSort");
TYPED_TEST(Sort, SortpermMergeSort) {
  check_sortperm<TypeParam>(alg::merge);
}
TYPED_TEST(Sort, SortpermSampleSort) {
  check_sortperm<TypeParam>(alg::sample);
}
TYPED_TEST(Sort, SortpermSampleSortUnstable) {
  check_sortperm<TypeParam>(alg::sample_unstable);
}

TYPED_TEST(Sort, SortByKeyAutoAlg) {
  check_sort_by_key<TypeParam>(alg::auto_);
}
AKT_TAG(cross_group_sync, "Sort/*.SortByKeyRadixSort");
TYPED_TEST(Sort, SortByKeyRadixSort) {
  check_sort_by_key<TypeParam>(alg::radix);
}
TYPED_TEST(Sort, SortByKeyMergeSort) {
  check_sort_by_key<TypeParam>(alg::merge);
}
TYPED_TEST(Sort, SortByKeySampleSort) {
  check_sort_by_key<TypeParam>(alg::sample);
}
TYPED_TEST(Sort, SortByKeySampleSortUnstable) {
  check_sort_by_key<TypeParam>(alg::sample_unstable);
}

// Stability seen directly: many equal keys, values in input order within each run of equal
// keys, in both directions, for the stable algorithms.
AKT_TAG(cross_group_sync, "Sort/*.EqualKeysKeepTheirOrder");
TYPED_TEST(Sort, EqualKeysKeepTheirOrder) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (alg a : {alg::auto_, alg::radix, alg::merge, alg::sample})
    for (i64 n : pick<std::vector<i64>>({2, 100, 16385, 131073}, {2, 100, 2000}))
      for (bool rev : {false, true}) {
        if (!on_target(a)) continue;  // see check_sort
        SCOPED_TRACE(std::string(name_of(a)) + ", n = " + std::to_string(n) + (rev ? ", rev" : ""));
        buf<T> keys = make_data<T>(n, pattern::few, r);
        buf<i64> values(n);
        std::iota(values.begin(), values.end(), i64{0});
        ak::sort_by_key(keys.view(), values.view(), options(a, rev));
        i64 bad = -1;
        for (i64 i = 0; i + 1 < n && bad < 0; ++i)
          if (sort_order{rev}(keys[i + 1], keys[i]) ||
              (equivalent(keys[i], keys[i + 1]) && values[i] > values[i + 1]))
            bad = i;
        EXPECT_EQ(bad, -1) << "out of order or unstable at " << bad;
        const buf<i64> perm = to_buf(ak::sortperm(keys.view(), options(a, rev)));
        // keys are sorted now: the stable permutation of sorted keys is the identity.
        buf<i64> id(n);
        std::iota(id.begin(), id.end(), i64{0});
        EXPECT_TRUE(same_elements(perm, id)) << "sortperm of sorted keys";
      }
}

// Equal keys but one, which differs from the others in one byte (its bits there XORed with a
// random nonzero byte, so it sorts before or after them): every radix pass but the one of that
// byte finds one digit for every key, and the GPU radix sort leaves such passes out
// (ak/gpu/radix_sort.hpp); the one pass left must still run, wherever the odd key is and
// whichever byte it is. sort, sortperm and sort_by_key against the stable reference.
AKT_TAG(cross_group_sync, "Sort/*.OneKeyDiffersInOneByte");
TYPED_TEST(Sort, OneKeyDiffersInOneByte) {
  using T = TypeParam;
  if constexpr (is_bool_v<T>) {
    GTEST_SKIP() << "a bool's other bytes are not values";
  } else {
    using U = decltype(bits_of(T{}));
    AKT_RANDOM(r);
    const buf<T> base = make_data<T>(1, pattern::random, r);
    // On sim, keys that fit one tile (one kernel takes every pass there, and skips such passes
    // itself) and keys of several tiles (a launch per pass left). The tiles' own boundaries are
    // the radix tests' sizes; here, with 1024 and 1025 too, this body took 9.8 s on sim:3.
    for (i64 n : pick<std::vector<i64>>({300007}, {300, 5000}))
      for (std::size_t byte = 0; byte < sizeof(T); ++byte)
        for (i64 at : {i64{0}, n - 1, r.between(1, n - 2)}) {
          const bool rev = r.chance(0.5);
          U bits = bits_of(base[0]);
          bits ^= static_cast<U>(static_cast<U>(r.between(1, 255)) << (8 * byte));
          buf<T> keys(n, base[0]);
          std::memcpy(&keys[at], &bits, sizeof(T));
          SCOPED_TRACE("n = " + std::to_string(n) + ", byte " + std::to_string(byte) +
                       ", odd key at " + std::to_string(at) + (rev ? ", rev" : ""));
          const buf<i64> p = stable_permutation(keys, rev);
          const buf<T> want = permuted(keys, p);
          EXPECT_TRUE(
              same_bits_elements(to_buf(ak::sort(keys.view(), options(alg::radix, rev))), want));
          EXPECT_TRUE(same_elements(to_buf(ak::sortperm(keys.view(), options(alg::radix, rev))), p))
              << "sortperm";
          buf<i64> values(n);
          std::iota(values.begin(), values.end(), i64{0});
          ak::sort_by_key(keys.view(), values.view(), options(alg::radix, rev));
          EXPECT_TRUE(same_bits_elements(keys, want)) << "sort_by_key";
          EXPECT_TRUE(same_elements(values, p)) << "sort_by_key's values";
        }
  }
}

// Keys in order or in descending order but for one pair of neighbours, swapped or made equal:
// the cpu sorts look at neighbours first (keys in order stay, keys in descending order are
// reversed), in chunks on the workers, so the one pair out of place must be found wherever it
// is (the first, the last, either side of a chunk border), and a tie in descending keys keeps its
// order. sort, sortperm and sort_by_key against the stable reference, with 2 and 3 workers.
// Keys whose low bits are all the same (integers that are multiples of 2^s, floats with integer
// values times 2^s, of both signs): radix sort skips those bits, and counts integers that differ
// in few bits above them. Few and many distinct keys, both directions, sort and sort_by_key (whose
// values show stability) against the stable reference, in cache and past it.
AKT_TAG(cross_group_sync, "Sort/*.KeysSharingLowBits");
TYPED_TEST(Sort, KeysSharingLowBits) {
  using T = TypeParam;
  if constexpr (is_bool_v<T>) {
    GTEST_SKIP() << "bool keys have one bit: none to share";
  } else {
    AKT_RANDOM(r);
    constexpr int digits =
        is_float_v<T> ? std::numeric_limits<T>::digits - 1 : std::numeric_limits<T>::digits;
    for (int shift : {1, digits / 2, digits - 4})
      for (i64 distinct : {i64{3}, i64{1000}})
        for (i64 n : pick<std::vector<i64>>({1000, 300007}, {1000, 5000}))
          for (bool rev : {false, true}) {
            SCOPED_TRACE("multiples of 2^" + std::to_string(shift) + ", " +
                         std::to_string(distinct) + " distinct, n = " + std::to_string(n) +
                         (rev ? ", rev" : ""));
            const int s = std::max(0, std::min(shift, digits - 11));  // distinct << s fits
            buf<T> keys(n);
            for (T& k : keys) {
              const i64 m = r.between(std::is_signed_v<T> ? -distinct / 2 : 0, distinct - 1);
              if constexpr (is_float_v<T>)
                k = static_cast<T>(std::ldexp(static_cast<double>(m), s));
              else
                k = static_cast<T>(static_cast<std::make_unsigned_t<T>>(m) << s);
            }
            const buf<i64> p = stable_permutation(keys, rev);
            const buf<T> want = permuted(keys, p);
            EXPECT_TRUE(
                same_bits_elements(to_buf(ak::sort(keys.view(), options(alg::radix, rev))), want));
            buf<i64> values(n);
            std::iota(values.begin(), values.end(), i64{0});
            ak::sort_by_key(keys.view(), values.view(), options(alg::radix, rev));
            EXPECT_TRUE(same_bits_elements(keys, want)) << "sort_by_key";
            EXPECT_TRUE(same_elements(values, p)) << "sort_by_key's values";
          }
  }
}

AKT_TAG(cross_group_sync, "Sort/*.NearlyPresorted");
TYPED_TEST(Sort, NearlyPresorted) {
  using T = TypeParam;
  AKT_RANDOM(r);
  const i64 n = pick<i64>(3 * (i64{1} << 15) + 5, 3000);
  const buf<T> ascending = make_data<T>(n, pattern::sorted, r);
  // The cpu's chunk borders under 2 and 3 workers; sim has no cpu workers (its sizes and borders
  // are its own), so the second count would repeat the first there. Under AddressSanitizer, 3
  // workers alone (borders of both kinds, between chunks and at the ends): with both, this body
  // was 59 of the 319 s of the suite there (2026-12-07, 2-core VM).
#ifdef AK_ASAN
  const std::vector<i64> worker_counts{3};
#else
  const std::vector<i64> worker_counts = pick<std::vector<i64>>({2, 3}, {2});
#endif
  for (i64 threads : worker_counts) {
    const thread_cap cap(threads);
    // Chunk borders of the neighbour check: chunks of a multiple of 1024 elements.
    const i64 chunk = ((n + threads - 1) / threads + 1023) / 1024 * 1024;
    for (alg a : {alg::radix, alg::merge, alg::sample})
      for (bool descending : {false, true})
        // On sim, whose GPU sorts take no path of their own for keys in order, the keys as they
        // are and one pair out of place at a random position (6.5 s on sim:3 with every one).
        for (i64 pos : pick<std::vector<i64>>({-1, 0, chunk - 1, chunk, n - 2, r.between(0, n - 2)},
                                              {-1, r.between(0, n - 2)}))
          for (bool tie : {false, true}) {
            if (!on_target(a) || (pos < 0 && tie) || pos + 1 >= n) continue;
            const bool rev = r.chance(0.5);
            SCOPED_TRACE(
                std::string(name_of(a)) + ", " + std::to_string(threads) + " workers, " +
                (descending ? "descending" : "in order") +
                (pos < 0 ? std::string(" as it is")
                         : (tie ? ", made equal at " : ", swapped at ") + std::to_string(pos)) +
                (rev ? ", rev" : ""));
            buf<T> keys = ascending;
            if (descending != rev) std::reverse(keys.begin(), keys.end());
            if (pos >= 0 && tie) keys[pos] = keys[pos + 1];
            if (pos >= 0 && !tie) std::swap(keys[pos], keys[pos + 1]);
            const buf<T> original = keys;
            const buf<i64> p = stable_permutation(original, rev);
            const buf<T> want = permuted(original, p);
            EXPECT_TRUE(same_bits_elements(to_buf(ak::sort(keys.view(), options(a, rev))), want));
            EXPECT_TRUE(same_elements(to_buf(ak::sortperm(keys.view(), options(a, rev))), p))
                << "sortperm";
            buf<i64> values(n);
            std::iota(values.begin(), values.end(), i64{0});
            ak::sort_by_key(keys.view(), values.view(), options(a, rev));
            EXPECT_TRUE(same_bits_elements(keys, want)) << "sort_by_key";
            EXPECT_TRUE(same_elements(values, p)) << "sort_by_key's values";
          }
  }
}

// ---- Floats: one order everywhere -------------------------------------------------------------

template <class T>
class SortFloat : public typed_test<T> {};
TYPED_TEST_SUITE(SortFloat, float_types, dtype_names);

// -Inf < ... < -0.0 < +0.0 < ... < +Inf < NaN (every NaN, whatever its sign): checked against
// a fixed order, not only against the reference.
TYPED_TEST(SortFloat, NanLastAndNegativeZeroFirst) {
  using T = TypeParam;
  using L = std::numeric_limits<T>;
  AKT_RANDOM(r);
  const std::vector<T> ladder{-L::infinity(),  L::lowest(), T(-1),    -L::denorm_min(), -T(0), T(0),
                              L::denorm_min(), T(1),        L::max(), L::infinity()};
  for (alg a : {alg::auto_, alg::radix, alg::merge, alg::sample})
    for (bool rev : {false, true})
      for (i64 copies : pick<std::vector<i64>>({1, 3, 5000}, {1, 3, 500})) {
        if (!on_target(a)) continue;
        SCOPED_TRACE(std::string(name_of(a)) + (rev ? ", rev" : "") + ", copies " +
                     std::to_string(copies));
        buf<T> data(0);
        std::vector<T> all;
        for (i64 c = 0; c < copies; ++c) {
          all.insert(all.end(), ladder.begin(), ladder.end());
          all.push_back(L::quiet_NaN());
          all.push_back(-L::quiet_NaN());
        }
        std::shuffle(all.begin(), all.end(), r.engine());
        data = buf<T>(all.data(), static_cast<i64>(all.size()));
        const buf<T> got = to_buf(ak::sort(data.view(), options(a, rev)));
        // The expected sequence: each rung `copies` times, then every NaN (reversed for rev).
        std::vector<T> want;
        for (T x : ladder)
          for (i64 c = 0; c < copies; ++c) want.push_back(x);
        const std::size_t nan_at = rev ? 0 : want.size();
        if (rev) std::reverse(want.begin(), want.end());
        ASSERT_EQ(got.size(), static_cast<i64>(want.size()) + 2 * copies);
        for (i64 i = 0; i < got.size(); ++i) {
          const bool in_nans = rev ? i < 2 * copies : i >= static_cast<i64>(nan_at);
          if (in_nans) {
            EXPECT_TRUE(std::isnan(got[i])) << "position " << i << ": " << show(got[i]);
          } else {
            const T w = want[static_cast<std::size_t>(rev ? i - 2 * copies : i)];
            EXPECT_TRUE(same_value(got[i], w)) << "position " << i;
          }
        }
      }
}

// long double has no ordered key of its size: the comparison sorts take ak's order from
// ak::isless's comparisons, and radix sort is an error naming the alternatives.
TEST(SortLongDouble, AksOrderWithoutAKey) {
  using L = std::numeric_limits<long double>;
  AKT_RANDOM(r);
  std::vector<long double> all{-L::infinity(), -1.0L,         -0.0L,         0.0L,
                               2.5L,           L::infinity(), L::quiet_NaN()};
  std::vector<long double> shuffled = all;
  std::shuffle(shuffled.begin(), shuffled.end(), r.engine());
  for (alg a : {alg::auto_, alg::merge}) {
    SCOPED_TRACE(name_of(a));
    const buf<long double> data(shuffled.data(), static_cast<i64>(shuffled.size()));
    const buf<long double> got = to_buf(ak::sort(data.view(), options(a, false)));
    ASSERT_EQ(got.size(), static_cast<i64>(all.size()));
    for (i64 i = 0; i + 1 < got.size(); ++i)
      EXPECT_TRUE(same_value(got[i], all[static_cast<std::size_t>(i)])) << "position " << i;
    EXPECT_TRUE(std::isnan(got[got.size() - 1]));
    EXPECT_TRUE(std::signbit(got[2]) && !std::signbit(got[3]));
  }
  const buf<long double> data(shuffled.data(), static_cast<i64>(shuffled.size()));
  EXPECT_THROW(ak::sort(data.view(), options(alg::radix, false)), ak::capability_error);
}

// ---- Views, temps, tunings --------------------------------------------------------------------

// sort_inplace through a strided or reversed view sorts the view's elements and nothing else;
// ak::sort of such a view sorts a copy; sortperm indexes the view.
TYPED_TEST(Sort, NonContiguousViews) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (alg a : {alg::auto_, alg::radix, alg::merge, alg::sample})
    for (i64 n : pick<std::vector<i64>>({0, 1, 2, 257, 16385}, {0, 1, 257, 1025}))
      for (layout l : {layout::strided, layout::reversed}) {
        if (!on_target(a)) continue;
        const bool rev = r.chance(0.5);
        SCOPED_TRACE(std::string(name_of(a)) + ", n = " + std::to_string(n) + ", " + name_of(l) +
                     (rev ? ", rev" : ""));
        auto lo = make_layout<T>({n}, l, r);
        const buf<T> elements = gather(lo.view);
        const buf<T> want = stable_reference(elements, rev);
        const buf<T> copy_sorted = to_buf(ak::sort(ak::view<const T>(lo.view), options(a, rev)));
        const buf<i64> perm = to_buf(ak::sortperm(ak::view<const T>(lo.view), options(a, rev)));
        buf<T> vals = elements;
        ak::sort_by_key(gather(lo.view).view(), vals.view(), options(a, rev));
        ak::sort_inplace(lo.view, options(a, rev));
        EXPECT_TRUE(outside_untouched(lo));
        if (a == alg::sample_unstable) {
          EXPECT_TRUE(sorted_like(gather(lo.view), want));
          EXPECT_TRUE(sorted_like(copy_sorted, want));
        } else {
          EXPECT_TRUE(same_bits_elements(gather(lo.view), want));
          EXPECT_TRUE(same_bits_elements(copy_sorted, want));
          EXPECT_TRUE(same_elements(perm, stable_permutation(elements, rev)));
        }
        // sort_by_key with strided keys and values.
        auto keys = make_layout<T>({n}, l, r);
        auto values = make_layout<i64>({n}, layout::strided, r);
        const buf<T> k0 = gather(keys.view);
        const buf<i64> v0 = gather(values.view);
        ak::sort_by_key(keys.view, values.view, options(a, rev));
        EXPECT_TRUE(outside_untouched(keys));
        EXPECT_TRUE(outside_untouched(values));
        if (a != alg::sample_unstable) {
          EXPECT_TRUE(same_bits_elements(gather(keys.view), stable_reference(k0, rev)))
              << "strided keys";
          const buf<i64> p = stable_permutation(k0, rev);
          buf<i64> want_values(n);
          for (i64 i = 0; i < n; ++i) want_values[i] = v0[p[i]];
          EXPECT_TRUE(same_elements(gather(values.view), want_values)) << "strided values";
        }
      }
}

// A correctly sized temp (ak::sort_temp_bytes) works for every call, may be reused, and need
// not be aligned.
TYPED_TEST(Sort, TempStorageReuse) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for (alg a : {alg::auto_, alg::radix, alg::merge, alg::sample})
    for (i64 n : pick<std::vector<i64>>({0, 1, 1000, 65537}, {0, 1, 1000})) {
      if (!on_target(a)) continue;
      const std::size_t need = ak::sort_temp_bytes<T>(n);
      std::vector<std::byte> storage(need + 1);
      for (std::size_t shift : {std::size_t{0}, std::size_t{1}})
        for (int use = 0; use < 2; ++use) {
          SCOPED_TRACE(std::string(name_of(a)) + ", n = " + std::to_string(n) + ", offset " +
                       std::to_string(shift) + ", use " + std::to_string(use));
          const bool rev = r.chance(0.5);
          ak::sort_options<> o = options(a, rev);
          o.temp = ak::temp_storage(storage.data() + shift, need);
          const buf<T> data = make_data<T>(n, pattern::random, r);
          const buf<i64> want_perm = stable_permutation(data, rev);
          const buf<T> want = permuted(data, want_perm);
          buf<T> in_place = data;
          ak::sort_inplace(in_place.view(), o);
          const buf<T> copy_sorted = to_buf(ak::sort(data.view(), o));
          const buf<i64> perm = to_buf(ak::sortperm(data.view(), o));
          buf<T> keys = data;
          buf<i64> values(n);
          std::iota(values.begin(), values.end(), i64{0});
          ak::sort_by_key(keys.view(), values.view(), o);
          if (a == alg::sample_unstable) {
            EXPECT_TRUE(sorted_like(in_place, want));
            EXPECT_TRUE(sorted_like(copy_sorted, want));
            EXPECT_TRUE(sorted_like(keys, want));
          } else {
            EXPECT_TRUE(same_bits_elements(in_place, want));
            EXPECT_TRUE(same_bits_elements(copy_sorted, want));
            EXPECT_TRUE(same_bits_elements(keys, want));
            EXPECT_TRUE(same_elements(perm, want_perm));
            EXPECT_TRUE(same_elements(values, want_perm));
          }
        }
    }
}

// The algorithms' own fields and more threads than cores: other digit widths, small grains,
// deeper merge trees, more sample-sort buckets.
TYPED_TEST(Sort, PerCallTuningsAndThreadCounts) {
  using T = TypeParam;
  AKT_RANDOM(r);
  // cpu_only: fields that only the cpu reads (radix_vector_run, radix_packed_run, cpu_grain,
  // insertion_run): on sim such an entry is the default radix or merge sort, which other bodies
  // test, and is left out there.
  struct entry {
    ak::sort_alg alg;
    bool cpu_only = false;
  };
  const std::vector<entry> entries{
      {ak::radix_sort{.radix_digit_bits = 1}},
      {ak::radix_sort{.radix_digit_bits = 3, .insertion_run = 1, .radix_min_run = 1}},
      {ak::radix_sort{.radix_digit_bits = 11}},
      {ak::radix_sort{.radix_digit_bits = 16, .cpu_grain = 1000, .radix_min_run = 5000}},
      // The cpu's vector sort in every in-cache run, and in none.
      {ak::radix_sort{.cpu_grain = 1000, .radix_vector_run = 1}, true},
      {ak::radix_sort{.radix_vector_run = 0}, true},
      // sortperm of keys of at most 4 bytes packed with their indices (every run), and never.
      {ak::radix_sort{.cpu_grain = 1000, .radix_packed_run = 1}, true},
      {ak::radix_sort{.radix_packed_run = 0}, true},
      {ak::merge_sort{.cpu_grain = 1}},
      {ak::merge_sort{.cpu_grain = 1000, .insertion_run = 64}, true},
      {ak::sample_sort{.sample_oversampling = 1, .cpu_grain = 100, .sample_leaf_size = 2}},
      {ak::sample_sort{.sample_oversampling = 64,
                       .cpu_grain = 5000,
                       .insertion_run = 1,
                       .sample_leaf_size = 64}}};
  for (i64 threads : pick<std::vector<i64>>({1, 5}, {1}))  // sim: no cpu threads involved
    for (std::size_t k = 0; k < entries.size(); ++k)
      for (i64 n : pick<std::vector<i64>>({1000, 65537}, {1000, 5001})) {
        if (on_gpu_style() && entries[k].cpu_only) continue;
        const ak::sort_alg& a = entries[k].alg;
        const thread_cap cap(threads);
        const bool rev = r.chance(0.5);
        const bool stable = !std::holds_alternative<ak::sample_sort>(a);
        if (!on_target(a)) {
          buf<T> data = make_data<T>(n, pattern::random, r);
          expect_rejected(data, ak::sort_options<>{.rev = rev, .stable = stable, .alg = a});
          continue;
        }
        const pattern p =
            r.chance(0.5) ? pattern::random : all_patterns[r.index(all_patterns.size())];
        SCOPED_TRACE("threads " + std::to_string(threads) + ", algorithm " + std::to_string(k) +
                     ", n = " + std::to_string(n) + ", pattern " + name_of(p) +
                     (rev ? ", rev" : ""));
        const buf<T> data = make_data<T>(n, p, r);
        const buf<i64> want_perm = stable_permutation(data, rev);
        const buf<T> want = permuted(data, want_perm);
        const ak::sort_options<> o{.rev = rev, .stable = stable, .alg = a};
        buf<T> got = data;
        ak::sort_inplace(got.view(), o);
        buf<i64> values(n);
        std::iota(values.begin(), values.end(), i64{0});
        buf<T> keys = data;
        ak::sort_by_key(keys.view(), values.view(), o);
        if (stable) {
          EXPECT_TRUE(same_bits_elements(got, want));
          EXPECT_TRUE(same_elements(values, want_perm));
          EXPECT_TRUE(same_elements(to_buf(ak::sortperm(data.view(), o)), want_perm));
        } else {
          EXPECT_TRUE(sorted_like(got, want));
          EXPECT_TRUE(sorted_like(keys, want));
        }
      }
}

// The radix sort's own paths, reached at small sizes by telling it the caches are tiny: MSD steps
// on one worker and on all of them, buckets grouped by counts (skewed keys), recursion into a
// bucket that holds most keys, and in-cache passes of every width.
AKT_TAG(cpu_only, "*RadixSortPathsWithTinyCaches");
TYPED_TEST(Sort, RadixSortPathsWithTinyCaches) {
  using T = TypeParam;
  if constexpr (ak::has_ordered_key_v<T>) {
    AKT_RANDOM(r);
    for (i64 threads : {1, 3})
      for (int bits : {2, 5, 8, 11})
        for (i64 cache : {i64{1} << 12, i64{1} << 15})
          for (i64 n : {i64{33}, i64{700}, i64{5003}, i64{40000}}) {
            const thread_cap cap(threads);
            const bool rev = r.chance(0.5);
            const pattern p = all_patterns[r.index(all_patterns.size())];
            // The in-cache rules (radix_msd_passes, radix_msd_run, radix_vector_run): the
            // defaults, or ones drawn from the extremes of their ranges.
            const ak::cpu::radix_rules rules =
                r.chance(0.5)
                    ? ak::cpu::radix_rules{}
                    : ak::cpu::radix_rules{static_cast<int>(1 + r.index(16)), 1 << r.index(13),
                                           r.chance(0.5) ? 0 : i64{1} << r.index(14)};
            SCOPED_TRACE("threads " + std::to_string(threads) + ", digit bits " +
                         std::to_string(bits) + ", cache " + std::to_string(cache) +
                         ", n = " + std::to_string(n) + ", pattern " + name_of(p) +
                         (rev ? ", rev" : "") + ", msd passes " + std::to_string(rules.msd_passes) +
                         ", msd run " + std::to_string(rules.msd_run) + ", vector run " +
                         std::to_string(rules.vector_run));
            const buf<T> data = make_data<T>(n, p, r);
            const buf<i64> want_perm = stable_permutation(data, rev);
            const buf<T> want = permuted(data, want_perm);
            buf<T> keys = data, key_tmp(n);
            ak::cpu::radix_sort<T>(keys.data(), key_tmp.data(), nullptr, nullptr, n, bits, rev, 64,
                                   cache, {}, rules);
            EXPECT_TRUE(same_bits_elements(keys, want));
            buf<T> pair_keys = data;
            buf<i64> values(n), value_tmp(n);
            std::iota(values.begin(), values.end(), i64{0});
            ak::cpu::radix_sort<T, i64>(pair_keys.data(), key_tmp.data(), values.data(),
                                        value_tmp.data(), n, bits, rev, 64, cache, {}, rules);
            EXPECT_TRUE(same_bits_elements(pair_keys, want));
            EXPECT_TRUE(same_elements(values, want_perm));
            if constexpr (ak::cpu::packable_key_v<T>) {  // sortperm's keys packed with indices
              buf<i64> perm(n), perm_tmp(n);
              ak::cpu::radix_sortperm_packed<T>(data.data(), perm.data(), perm_tmp.data(), n, bits,
                                                rev, 64, cache, {}, rules);
              EXPECT_TRUE(same_elements(perm, want_perm));
            }
          }
  }
}

// The cpu's vector sort (radix sort's in-cache runs, radix_vector_run, and sortperm's packed keys
// and indices, radix_packed_run) on every instruction set the build has code for: those this
// machine lacks are named and skipped. Each target sorts every pattern (NaN payloads of both
// signs, -0.0/+0.0, extremes) in both orders, against the stable reference, bit for bit, and
// gives its stable permutation.
AKT_TAG(cpu_only, "*VectorSortOnEveryTarget");
TYPED_TEST(Sort, VectorSortOnEveryTarget) {
  using T = TypeParam;
  AKT_RANDOM(r);
  for_each_vector_target([&](const std::string& target) {
    for (i64 n : {i64{2}, i64{65}, i64{1000}, i64{40000}})
      for (const pattern p : all_patterns) {
        const bool rev = r.chance(0.5);
        SCOPED_TRACE("target " + target + ", n = " + std::to_string(n) + ", pattern " + name_of(p) +
                     (rev ? ", rev" : ""));
        const buf<T> data = make_data<T>(n, p, r);
        const buf<i64> want_perm = stable_permutation(data, rev);
        const buf<T> want = permuted(data, want_perm);
        buf<T> got = data;
        ak::sort_inplace(got.view(), ak::sort_options<>{
                                         .rev = rev, .alg = ak::radix_sort{.radix_vector_run = 1}});
        EXPECT_TRUE(same_bits_elements(got, want));
        const ak::sort_options<> packed{.rev = rev, .alg = ak::radix_sort{.radix_packed_run = 1}};
        EXPECT_TRUE(same_elements(to_buf(ak::sortperm(data.view(), packed)), want_perm));
      }
  });
}

// A target named wrongly, or one this machine lacks: an error naming what there is.
AKT_TAG(cpu_only, "SortVectorTarget.*");
TEST(SortVectorTarget, UnknownOrMissingTargetsAreErrors) {
  const std::string before = ak::cpu::vector_target();
  try {
    ak::cpu::set_vector_target("AVX9");
    ADD_FAILURE() << "no error for AVX9";
  } catch (const ak::backend_error& e) {
    EXPECT_NE(std::string(e.what()).find("EMU128"), std::string::npos) << e.what();
  }
  bool lacking = false;
  for (const ak::cpu::vector_target_info& target : ak::cpu::vector_targets())
    if (!target.supported) {
      lacking = true;
      EXPECT_THROW(ak::cpu::set_vector_target(target.name), ak::backend_error) << target.name;
    }
  if (!lacking) std::cout << "[ skipped  ] this machine has every vector target the build has\n";
  EXPECT_EQ(ak::cpu::vector_target(), before) << "an error changed the target";
}

// ---- Custom orders and projections (the header templates) ---------------------------------------

template <class T>
class SortCustomOrder : public typed_test<T> {};
TYPED_TEST_SUITE(SortCustomOrder, custom_order_types, dtype_names);

// A struct sorted by a numeric field (`by`): radix sort moves whole records by that key, and
// every algorithm gives the stable order of the keys (sortperm and sort_by_key too).
TYPED_TEST(SortCustomOrder, RadixSortByNumericField) {
  using T = TypeParam;
  struct record {
    T key;
    i64 id;
  };
  const auto key_of = [](const record& x) { return x.key; };
  AKT_RANDOM(r);
  for (alg a : {alg::auto_, alg::radix, alg::merge})
    for (i64 n : pick<std::vector<i64>>({0, 1, 1000, 70001}, {0, 1, 1000, 7001})) {
      const bool rev = r.chance(0.5);
      const pattern p = all_patterns[r.index(all_patterns.size())];
      SCOPED_TRACE(std::string(name_of(a)) + ", n = " + std::to_string(n) + ", pattern " +
                   name_of(p) + (rev ? ", rev" : ""));
      const buf<T> keys = make_data<T>(n, p, r);
      const buf<i64> want_perm = stable_permutation(keys, rev);
      buf<record> data(n);
      for (i64 i = 0; i < n; ++i) data[i] = record{keys[i], i};
      const ak::sort_options<decltype(key_of)> o{.by = key_of, .rev = rev, .alg = alg_value(a)};
      if (!on_target(o.alg, true)) {  // GPU radix sort orders the elements, not a field
        expect_rejected(data, o);
        continue;
      }
      buf<record> got = data;
      ak::sort_inplace(got.view(), o);
      buf<i64> got_ids(n);
      for (i64 i = 0; i < n; ++i) got_ids[i] = got[i].id;
      EXPECT_TRUE(same_elements(got_ids, want_perm));
      EXPECT_TRUE(same_elements(to_buf(ak::sortperm(data.view(), o)), want_perm));
      buf<record> by_key = data;
      buf<i64> values(n);
      for (i64 i = 0; i < n; ++i) values[i] = 10 * i;
      ak::sort_by_key(by_key.view(), values.view(), o);
      for (i64 i = 0; i < n; ++i) {
        got_ids[i] = by_key[i].id;
        values[i] /= 10;
      }
      EXPECT_TRUE(same_elements(got_ids, want_perm));
      EXPECT_TRUE(same_elements(values, want_perm));
    }
}

TYPED_TEST(SortCustomOrder, ByAndLt) {
  using T = TypeParam;
  AKT_RANDOM(r);
  // by: a coarser key (many ties); lt: descending in ak's order.
  const auto coarse = [](T x) { return static_cast<T>(x / T(3)); };
  const auto greater = [](T a, T b) { return ak::isless{}(b, a); };
  for (alg a : {alg::auto_, alg::merge, alg::sample, alg::sample_unstable})
    for (i64 n : pick<std::vector<i64>>({0, 1, 7, 4097, 16385, 65537}, {0, 1, 7, 4097}))
      for (bool rev : {false, true}) {
        if (!on_target(a)) continue;
        SCOPED_TRACE(std::string(name_of(a)) + ", n = " + std::to_string(n) + (rev ? ", rev" : ""));
        const pattern p = all_patterns[r.index(all_patterns.size())];
        const buf<T> data = make_data<T>(n, p, r);
        const bool stable = a != alg::sample_unstable;
        const ak::sort_options o{
            .by = coarse, .lt = greater, .rev = rev, .stable = stable, .alg = alg_value(a)};
        const auto less = [&](const T& x, const T& y) {
          return rev ? greater(coarse(y), coarse(x)) : greater(coarse(x), coarse(y));
        };
        buf<T> want = data;
        std::stable_sort(want.begin(), want.end(), less);
        buf<T> got = data;
        ak::sort_inplace(got.view(), o);
        const buf<i64> perm = to_buf(ak::sortperm(data.view(), o));
        if (stable) {
          EXPECT_TRUE(same_bits_elements(got, want));
          buf<i64> want_perm(n);
          std::iota(want_perm.begin(), want_perm.end(), i64{0});
          std::stable_sort(want_perm.begin(), want_perm.end(),
                           [&](i64 x, i64 y) { return less(data[x], data[y]); });
          EXPECT_TRUE(same_elements(perm, want_perm));
        } else {
          i64 bad = -1;
          for (i64 i = 0; i + 1 < n && bad < 0; ++i)
            if (less(got[i + 1], got[i])) bad = i;
          EXPECT_EQ(bad, -1) << "out of order at " << bad;
          EXPECT_TRUE(same_multiset(got, data));
        }
      }
}

// .stable = false with a comparator lambda (on cpu the stable sample sort, whose leaves are
// rank sorted): every pattern at sizes around those leaves (32) and the grains, on 2 threads and
// 1 (the serial path), for `a > b` on integers and ak's order reversed (a strict weak order with
// NaN and -0.0) on every type. The result must be in order and hold the input's elements.
TYPED_TEST(SortCustomOrder, UnstableLambda) {
  using T = TypeParam;
  AKT_RANDOM(r);
  if (on_gpu_style())
    GTEST_SKIP() << "the sample sort is the cpu's; on sim .stable = false takes merge "
                    "sort, which the other SortCustomOrder tests cover";
  const auto reversed_order = [](T a, T b) { return ak::isless{}(b, a); };
  std::vector<i64> sizes = all_sizes();
  sizes.insert(sizes.end(), {5, 31, 32, 33, 63, 64, 65, 128, 129, 509, 1021, 1024, 1025});
  auto check = [&](const auto& lt, const char* lt_name) {
    for (i64 threads : {2, 1}) {
      thread_cap cap(threads);
      for (i64 n : sizes) {
        const bool large = n > 8191;
        for (std::size_t j = 0; j < all_patterns.size(); ++j) {
          if (large && j % 3 != static_cast<std::size_t>(n) % 3) continue;  // some patterns each
          if (threads == 1 && n > 65537) continue;
          const pattern p = all_patterns[j];
          SCOPED_TRACE(std::string(lt_name) + ", n = " + std::to_string(n) + ", pattern " +
                       name_of(p) + ", threads " + std::to_string(threads));
          const buf<T> data = make_data<T>(n, p, r);
          buf<T> got = data;
          ak::sort_inplace(got.view(), ak::sort_options<ak::identity, std::decay_t<decltype(lt)>>{
                                           .lt = lt, .stable = false});
          i64 bad = -1;
          for (i64 i = 0; i + 1 < n && bad < 0; ++i)
            if (lt(got[i + 1], got[i])) bad = i;
          EXPECT_EQ(bad, -1) << "out of order at " << bad;
          EXPECT_TRUE(same_multiset(got, data));
        }
      }
    }
  };
  check(reversed_order, "ak's order reversed");
  if constexpr (std::is_integral_v<T>) check([](T a, T b) { return a > b; }, "a > b");
}

// A comparator that is not a strict weak order (IEEE < with NaNs; <= on integers, which is not
// irreflexive) leaves the order unspecified, but every cpu sort must keep the input's elements:
// the stable sample sort's branch-free leaves place elements by counting, and must notice when
// the counts are not a permutation; the parallel merge must not cut runs inconsistently; and no
// sort may read outside the data (std::sort's unguarded loops did, on the sample). Sizes around
// those leaves (32) and the parallel steps.
TYPED_TEST(SortCustomOrder, NotAStrictWeakOrderKeepsTheElements) {
  using T = TypeParam;
  AKT_RANDOM(r);
  if (on_gpu_style())
    GTEST_SKIP() << "the GPU merge sort places each element by its rank in the other run, and "
                    "ranks from such a comparator can collide (docs/algorithms.md says so)";
  const auto check = [&](const auto& lt, const char* lt_name) {
    for (alg a : {alg::auto_, alg::merge, alg::sample, alg::sample_unstable})
      for (i64 n : {2, 5, 17, 31, 32, 33, 64, 100, 1000, 4097, 65537})
        for (pattern p : {pattern::special, pattern::few, pattern::random}) {
          if (!on_target(a)) continue;
          SCOPED_TRACE(std::string(lt_name) + ", " + name_of(a) + ", n = " + std::to_string(n) +
                       ", pattern " + name_of(p));
          const buf<T> data = make_data<T>(n, p, r);
          buf<T> got = data;
          ak::sort_inplace(got.view(),
                           ak::sort_options<ak::identity, std::decay_t<decltype(lt)>>{
                               .lt = lt, .stable = a != alg::sample_unstable, .alg = alg_value(a)});
          EXPECT_TRUE(same_multiset(got, data));
        }
  };
  if constexpr (is_float_v<T>)
    check([](T x, T y) { return x < y; }, "IEEE < with NaNs");
  else
    check([](T x, T y) { return x <= y; }, "<=");
}

}  // namespace
}  // namespace akt
