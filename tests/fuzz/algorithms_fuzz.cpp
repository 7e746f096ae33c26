// libFuzzer target: a differential check of sort, sort_inplace, sortperm, cumsum (inclusive and
// exclusive), sum, sum along a dims list, take, searchsortedfirst/last, findall, copy_if, unique,
// unique_count, run_length_encode and histogram (even bins and edges) against std references and
// loops, on cpu:0 and sim:0. The bytes decode into a device, an element type, a size (often one of
// the tile and grain boundaries), a data pattern (random, sorted, reversed, all equal, few
// distinct, extreme values and special floats), an operation and its options (rev, stable, the sort
// algorithm, a per-call cpu grain or task count, dims lists valid or not, indices in range or not,
// histogram bins valid or not); any difference from the reference, a bad argument accepted, or an
// exception other than the documented refusals (an algorithm a device cannot run, a bad dims list,
// an index out of range, bad bins) is a finding.
//
// It links an installed ak (scripts/fuzz.sh installs build/ when it exists): the standard types
// run in libak and its plugins as a user's program runs them, uninstrumented, so coverage guides
// the decoding and the references; ASan and UBSan check this program's side. Built with clang's
// -fsanitize=fuzzer (tests/fuzz/CMakeLists.txt); seed corpus tests/fuzz/corpus/algorithms.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <limits>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "ak/ak.hpp"

namespace {

using i64 = std::int64_t;

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "algorithms_fuzz: %s\n", what.c_str());
  std::abort();
}

class reader {
 public:
  reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::uint64_t word() {
    std::uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v = (v << 8) | byte();
    return v;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

// splitmix64: the data of the random patterns, from a seed the bytes give.
struct random_bits {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};

template <class T>
T from_bits(std::uint64_t bits) {
  if constexpr (std::is_floating_point_v<T>) {
    using U = ak::ordered_key_t<T>;
    const auto u = static_cast<U>(bits);
    T x;
    std::memcpy(&x, &u, sizeof x);
    return x;
  } else {
    return static_cast<T>(bits);
  }
}

template <class T>
std::vector<T> specials() {
  using L = std::numeric_limits<T>;
  std::vector<T> s{T(0), T(1), L::max(), L::lowest(), L::min()};
  if constexpr (std::is_floating_point_v<T>)
    s.insert(s.end(), {T(-0.0), L::infinity(), -L::infinity(), L::quiet_NaN(), -L::quiet_NaN(),
                       L::denorm_min(), T(-1)});
  else if constexpr (std::is_signed_v<T>)
    s.push_back(T(-1));
  return s;
}

// Sizes at the boundaries of sim's groups and tiles and of the cpu grains (1 << 14 .. 1 << 16).
constexpr i64 boundary_sizes[] = {0,    1,    2,    31,   32,   33,    255,   256,   257,   1023,
                                  1024, 1025, 4095, 4096, 4097, 16383, 16384, 16385, 65536, 65537};

template <class T>
std::vector<T> make_data(reader& in, i64 n, bool moderate) {
  std::vector<T> v(static_cast<std::size_t>(n));
  random_bits r{in.word()};
  const auto s = specials<T>();
  const std::uint8_t pattern = in.byte() % 6;
  const int distinct = 1 + in.byte() % 4;
  std::vector<T> few;
  for (int k = 0; k < distinct; ++k) few.push_back(from_bits<T>(r.next()));
  for (auto& x : v) {
    switch (pattern) {
      case 3:
        x = few[0];
        break;  // all equal
      case 4:
        x = few[r.next() % few.size()];
        break;  // few distinct
      case 5:
        x = r.next() % 4 ? s[r.next() % s.size()] : T(1);
        break;  // extremes, specials
      default:
        x = from_bits<T>(r.next());
        break;  // random; sorted; reversed
    }
  }
  if (moderate) {  // sums: finite values that no order of additions takes past the type
    for (auto& x : v) {
      if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(x)) x = T(1);
        x = std::fmod(x, T(1000));
      }
    }
  }
  if (pattern == 1 || pattern == 2) {
    std::stable_sort(v.begin(), v.end(), ak::isless{});
    if (pattern == 2) std::reverse(v.begin(), v.end());
  }
  return v;
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

std::string where(const char* op, const char* type, const std::string& dev, i64 n, i64 i) {
  return std::string(op) + " of " + std::to_string(n) + " " + type + " on " + dev +
         ": wrong at index " + std::to_string(i);
}

// The integers' sums wrap, as two's complement: the reference adds in the unsigned type.
template <class T>
T wrap_add(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}

template <class T>
void check_sum_close(T got, long double want, long double magnitude, i64 n,
                     const std::string& what) {
  const long double eps = std::numeric_limits<T>::epsilon();
  const long double tolerance = eps * static_cast<long double>(n + 2) * (magnitude + 1);
  if (!(std::fabs(static_cast<long double>(got) - want) <= tolerance))
    finding(what + ": " + std::to_string(static_cast<double>(got)) + ", expected about " +
            std::to_string(static_cast<double>(want)));
}

// A value of the data's kind: one of host's (when there are any), a special or random bits.
template <class T>
T pick(random_bits& r, const std::vector<T>& host) {
  const auto s = specials<T>();
  switch (r.next() % 3) {
    case 0:
      if (!host.empty()) return host[r.next() % host.size()];
      [[fallthrough]];
    case 1:
      return s[r.next() % s.size()];
    default:
      return from_bits<T>(r.next());
  }
}

// searchsortedfirst and searchsortedlast of queries (of the data, specials, random) in the data
// sorted in ak's order (descending with rev), against std::lower_bound and std::upper_bound.
template <class T>
void search_case(reader& in, const ak::device& dev, const char* type, std::vector<T> sorted,
                 std::uint8_t flags) {
  const bool rev = flags & 1, last = flags & 2;
  const auto before = [rev](const T& a, const T& b) {
    return rev ? ak::isless{}(b, a) : ak::isless{}(a, b);
  };
  std::stable_sort(sorted.begin(), sorted.end(), before);
  random_bits r{in.word()};
  std::vector<T> q(in.byte() % 200);
  for (auto& x : q) x = pick(r, sorted);
  ak::search_options<> o;
  o.rev = rev;
  o.tuning.cpu_grain = (flags & 4) ? i64{1} << ((flags >> 3) % 8) : ak::unset;
  const ak::array<T> s(sorted, dev.memory()), queries(q, dev.memory());
  const std::vector<i64> got =
      (last ? ak::searchsortedlast(s, queries, o) : ak::searchsortedfirst(s, queries, o))
          .to_vector();
  const char* op = last ? "searchsortedlast" : "searchsortedfirst";
  const i64 n = static_cast<i64>(sorted.size());
  const std::string name(dev.name());
  if (got.size() != q.size()) finding(where(op, type, name, n, -1));
  for (std::size_t i = 0; i < q.size(); ++i) {
    const i64 want =
        last ? std::upper_bound(sorted.begin(), sorted.end(), q[i], before) - sorted.begin() - 1
             : std::lower_bound(sorted.begin(), sorted.end(), q[i], before) - sorted.begin();
    if (got[i] != want) finding(where(op, type, name, n, static_cast<i64>(i)));
  }
}

template <class T>
void expect_same(const std::vector<T>& got, const std::vector<T>& want, const char* op,
                 const char* type, const std::string& dev, i64 n) {
  if (got.size() != want.size()) finding(where(op, type, dev, n, -1));
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!same_bits(got[i], want[i])) finding(where(op, type, dev, n, static_cast<i64>(i)));
}

// The per-call cpu grain of the selection family's cases (select, histogram), or unset.
i64 select_grain(std::uint8_t flags) {
  return (flags & 8) ? i64{1} << ((flags >> 4) % 16) : ak::unset;
}

// The selection family with its default predicate and equality (libak's entries): findall of the
// nonzero elements, copy_if with bool flags, unique, unique_count and run_length_encode (equal:
// ak::isequal, every NaN equal, -0.0 not +0.0), against loops over the data.
template <class T>
void select_case(reader& in, const ak::device& dev, const char* type, const ak::array<T>& src,
                 const std::vector<T>& host, std::uint8_t flags) {
  const i64 n = static_cast<i64>(host.size());
  const std::string name(dev.name());
  ak::select_options o;
  o.tuning.cpu_grain = select_grain(flags);
  // The heads of runs of equal consecutive elements, and the runs' lengths.
  std::vector<T> heads;
  std::vector<i64> lengths;
  for (std::size_t i = 0; i < host.size(); ++i)
    if (i == 0 || !ak::isequal{}(host[i - 1], host[i])) {
      heads.push_back(host[i]);
      lengths.push_back(1);
    } else {
      ++lengths.back();
    }
  switch (flags % 5) {
    case 0: {
      std::vector<i64> want;
      for (i64 i = 0; i < n; ++i)
        if (host[static_cast<std::size_t>(i)] != T(0)) want.push_back(i);
      expect_same(ak::findall(src, o).to_vector(), want, "findall", type, name, n);
      break;
    }
    case 1: {
      random_bits r{in.word()};
      const std::uint64_t density = 1 + in.byte() % 4;  // 1: all; 4: a quarter
      const auto keep = std::make_unique<bool[]>(host.size());
      std::vector<T> want;
      for (std::size_t i = 0; i < host.size(); ++i) {
        keep[i] = r.next() % density == 0;
        if (keep[i]) want.push_back(host[i]);
      }
      const ak::array<bool> f(std::span<const bool>(keep.get(), host.size()), dev.memory());
      expect_same(ak::copy_if(src, f, o).to_vector(), want, "copy_if", type, name, n);
      break;
    }
    case 2:
      expect_same(ak::unique(src, o).to_vector(), heads, "unique", type, name, n);
      break;
    case 3:
      if (ak::unique_count(src, o) != static_cast<i64>(heads.size()))
        finding(where("unique_count", type, name, n, -1));
      break;
    default: {
      auto [values, got_lengths] = ak::run_length_encode(src, o);
      expect_same(values.to_vector(), heads, "run_length_encode", type, name, n);
      expect_same(got_lengths.to_vector(), lengths, "run_length_encode (lengths)", type, name, n);
      break;
    }
  }
}

// histogram with even bins (bounds of the data's kind, sometimes invalid: not finite, not
// ascending, no bins) or with edges (some of the data sorted in ak's order, sometimes with a
// descent or a NaN), against the documented rule of each, element by element.
template <class T>
void histogram_case(reader& in, const ak::device& dev, const char* type, const ak::array<T>& src,
                    const std::vector<T>& host, std::uint8_t flags) {
  const i64 n = static_cast<i64>(host.size());
  const std::string name(dev.name());
  random_bits r{in.word()};
  ak::select_options o;
  o.tuning.cpu_grain = select_grain(flags);
  std::vector<i64> want;
  std::vector<i64> got;
  bool valid = true;
  try {
    if (flags & 1) {  // even bins
      ak::even_bins<T> bins{pick(r, host), pick(r, host), (flags & 4) ? i64{0} : 1 + in.byte()};
      if (flags & 2 && ak::isless{}(bins.upper, bins.lower)) std::swap(bins.lower, bins.upper);
      if constexpr (std::is_floating_point_v<T>)
        valid = std::isfinite(bins.lower) && std::isfinite(bins.upper);
      valid = valid && bins.count >= 1 && bins.lower < bins.upper;
      if (valid) {
        want.assign(static_cast<std::size_t>(bins.count), 0);
        for (const T& x : host) {
          if (!(x >= bins.lower && x <= bins.upper)) continue;  // outside, or NaN
          i64 j;
          if constexpr (std::is_floating_point_v<T>) {
            // floor((x - lower) * (count / (upper - lower))) in double, of the values times 1/2
            // where upper - lower overflows double, times 2^64 while count over it does.
            double h = std::isfinite(static_cast<double>(bins.upper) - bins.lower) ? 1 : 0.5;
            while (!std::isfinite(static_cast<double>(bins.count) /
                                  (bins.upper * h - static_cast<double>(bins.lower) * h)))
              h *= 0x1p64;
            const double l = static_cast<double>(bins.lower) * h;
            j = static_cast<i64>(
                std::floor((static_cast<double>(x) * h - l) *
                           (static_cast<double>(bins.count) / (bins.upper * h - l))));
          } else {
            // Exactly floor((x - lower) * count / (upper - lower)).
            const __int128 off = static_cast<__int128>(x) - bins.lower;
            const __int128 width = static_cast<__int128>(bins.upper) - bins.lower;
            j = static_cast<i64>(off * bins.count / width);
          }
          ++want[static_cast<std::size_t>(std::min(j, bins.count - 1))];
        }
      }
      got = ak::histogram(src, bins, o).to_vector();
    } else {  // edges
      std::vector<T> edges(2 + in.byte() % 40);
      for (auto& e : edges) e = pick(r, host);
      std::sort(edges.begin(), edges.end(), ak::isless{});
      if (flags & 2 && edges.front() != edges.back()) std::reverse(edges.begin(), edges.end());
      for (std::size_t i = 0; i < edges.size(); ++i)
        valid = valid && edges[i] == edges[i] && (i == 0 || !ak::isless{}(edges[i], edges[i - 1]));
      if (valid) {
        want.assign(edges.size() - 1, 0);
        for (const T& x : host) {
          if (x != x) continue;  // NaN
          // edges[j] <= x < edges[j + 1] in ak's order; x equal to the last edge: the last bin.
          const i64 above =
              std::upper_bound(edges.begin(), edges.end(), x, ak::isless{}) - edges.begin();
          const i64 m = static_cast<i64>(edges.size());
          const i64 j = above < m ? above - 1 : ak::isequal{}(x, edges.back()) ? m - 2 : -1;
          if (j >= 0) ++want[static_cast<std::size_t>(j)];
        }
      }
      got = ak::histogram(src, ak::array<T>(edges, dev.memory()), o).to_vector();
    }
  } catch (const ak::argument_error& e) {
    if (valid) finding(std::string("histogram threw: ") + e.what());
    return;
  }
  if (!valid) finding(where("histogram (bad bins accepted)", type, name, n, -1));
  expect_same(got, want, "histogram", type, name, n);
}

template <class T>
void run(reader& in, const ak::device& dev, const char* type) {
  const std::uint8_t size_code = in.byte();
  const bool on_sim = dev.backend() == "sim";
  i64 n = size_code < 128 ? boundary_sizes[size_code % std::size(boundary_sizes)]
                          : static_cast<i64>((size_code << 8 | in.byte()) % 5000);
  if (on_sim && n > 20000) n = 20000;  // each work-item a fiber: keep runs short
  const std::uint8_t op = in.byte() % 10;
  const std::uint8_t flags = in.byte();
  std::array<i64, 3> extents{};  // sum along dims: the data as a 3-d array
  if (op == 6) {
    for (auto& e : extents) e = in.byte() % 7;
    n = extents[0] * extents[1] * extents[2];
  }
  const std::vector<T> host = make_data<T>(in, n, op == 3 || op == 4 || op == 6);
  const ak::array<T> src(host, dev.memory());
  const std::string name(dev.name());

  if (op <= 2) {  // sort, sort_inplace, sortperm
    ak::sort_options<> o;
    o.rev = flags & 1;
    o.stable = !(flags & 2);
    switch ((flags >> 2) % 4) {
      case 1:
        o.alg = ak::radix_sort{};
        break;
      case 2:
        o.alg = ak::merge_sort{};
        break;
      case 3:
        o.alg = ak::sample_sort{};
        break;
      default:
        break;
    }
    // The reference: a stable sort in ak's order, descending with rev.
    std::vector<i64> perm(static_cast<std::size_t>(n));
    std::iota(perm.begin(), perm.end(), i64{0});
    std::stable_sort(perm.begin(), perm.end(), [&](i64 a, i64 b) {
      const T& x = host[static_cast<std::size_t>(a)];
      const T& y = host[static_cast<std::size_t>(b)];
      return o.rev ? ak::isless{}(y, x) : ak::isless{}(x, y);
    });
    try {
      if (op == 2) {
        const std::vector<i64> got = ak::sortperm(src, o).to_vector();
        if (got.size() != perm.size()) finding(where("sortperm", type, name, n, -1));
        std::vector<bool> seen(perm.size(), false);
        for (std::size_t i = 0; i < got.size(); ++i) {
          const i64 g = got[i];
          if (g < 0 || g >= n || seen[static_cast<std::size_t>(g)])
            finding(where("sortperm (not a permutation)", type, name, n, static_cast<i64>(i)));
          seen[static_cast<std::size_t>(g)] = true;
          // Unstable: equal keys in any order, so compare the keys; stable: the indices.
          const bool ok = o.stable ? g == perm[i]
                                   : same_bits(host[static_cast<std::size_t>(g)],
                                               host[static_cast<std::size_t>(perm[i])]);
          if (!ok) finding(where("sortperm", type, name, n, static_cast<i64>(i)));
        }
        return;
      }
      std::vector<T> got;
      if (op == 0) {
        got = ak::sort(src, o).to_vector();
        if (!std::equal(host.begin(), host.end(), src.to_vector().begin(), same_bits<T>))
          finding(where("sort (changed its source)", type, name, n, -1));
      } else {
        ak::array<T> a(host, dev.memory());
        ak::sort_inplace(a, o);
        got = a.to_vector();
      }
      if (got.size() != host.size()) finding(where("sort", type, name, n, -1));
      // Keys equal in ak's order have the same bits, so stable or not the result is one.
      for (std::size_t i = 0; i < got.size(); ++i)
        if (!same_bits(got[i], host[static_cast<std::size_t>(perm[i])]))
          finding(where(op == 0 ? "sort" : "sort_inplace", type, name, n, static_cast<i64>(i)));
    } catch (const ak::error& e) {
      // On sim, an explicit algorithm the device cannot run (sample sort) is refused; the cpu
      // runs every algorithm on numbers, and auto never throws.
      if (!on_sim || (flags >> 2) % 4 == 0) finding(std::string("sort threw: ") + e.what());
    }
    return;
  }

  const bool inclusive = !(flags & 1);
  const i64 grain = (flags & 2) ? i64{1} << ((flags >> 2) % 17) : ak::unset;
  if (op == 3) {  // cumsum
    ak::accumulate_options<T> o;
    o.inclusive = inclusive;
    o.tuning.cpu_grain = grain;
    const std::vector<T> got = ak::cumsum(src, o).to_vector();
    if (got.size() != host.size()) finding(where("cumsum", type, name, n, -1));
    if constexpr (std::is_floating_point_v<T>) {
      long double acc = 0, magnitude = 0;
      for (std::size_t i = 0; i < host.size(); ++i) {
        if (inclusive) acc += host[i], magnitude += std::fabs(static_cast<long double>(host[i]));
        check_sum_close(got[i], acc, magnitude, n,
                        where("cumsum", type, name, n, static_cast<i64>(i)));
        if (!inclusive) acc += host[i], magnitude += std::fabs(static_cast<long double>(host[i]));
      }
    } else {
      T acc = T(0);
      for (std::size_t i = 0; i < host.size(); ++i) {
        if (inclusive) acc = wrap_add(acc, host[i]);
        if (!same_bits(got[i], acc)) finding(where("cumsum", type, name, n, static_cast<i64>(i)));
        if (!inclusive) acc = wrap_add(acc, host[i]);
      }
    }
    return;
  }
  if (op == 5) {  // take, with indices that are sometimes out of range
    const std::size_t m = in.byte() % 300;
    random_bits r{in.word()};
    std::vector<i64> idx(m);
    bool in_range = true;
    for (auto& i : idx) {
      i = n > 0 ? static_cast<i64>(r.next() % static_cast<std::uint64_t>(n)) : 0;
      if (flags & 1 && r.next() % 64 == 0) {
        const i64 bad[] = {-1, n, std::numeric_limits<i64>::min(), std::numeric_limits<i64>::max()};
        i = bad[r.next() % 4];
      }
      in_range = in_range && i >= 0 && i < n;
    }
    const ak::array<i64> indices(idx, dev.memory());
    ak::loop_options o;
    o.tuning.cpu_grain = grain;
    try {
      const std::vector<T> got = ak::take(src, indices, o).to_vector();
      if (!in_range) finding(where("take (an index out of range was accepted)", type, name, n, -1));
      for (std::size_t j = 0; j < m; ++j)
        if (!same_bits(got[j], host[static_cast<std::size_t>(idx[j])]))
          finding(where("take", type, name, n, static_cast<i64>(j)));
    } catch (const ak::argument_error& e) {
      if (in_range) finding(std::string("take threw: ") + e.what());
    }
    return;
  }
  if (op == 6) {  // sum along a dims list (any of -1 .. 3, up to four of them, repeats allowed)
    const std::size_t count = in.byte() % 5;
    i64 d[4];
    bool valid = count > 0;
    for (std::size_t k = 0; k < 4; ++k) {
      d[k] = static_cast<i64>(in.byte() % 5) - 1;
      if (k < count) valid = valid && d[k] >= 0 && d[k] < 3;
    }
    const ak::dims along = count == 0   ? ak::dims(std::initializer_list<i64>{})
                           : count == 1 ? ak::dims{d[0]}
                           : count == 2 ? ak::dims{d[0], d[1]}
                           : count == 3 ? ak::dims{d[0], d[1], d[2]}
                                        : ak::dims{d[0], d[1], d[2], d[3]};
    const ak::array<T> src3(host, ak::shape{extents[0], extents[1], extents[2]}, dev.memory());
    ak::reduce_options<T> o;
    o.tuning.cpu_grain = grain;
    std::vector<T> got;
    try {
      const ak::array<T> out = ak::sum(src3, along, o);
      if (!valid) finding(where("sum along dims (bad dims accepted)", type, name, n, -1));
      got = out.to_vector();
    } catch (const ak::argument_error& e) {
      if (valid) finding(std::string("sum along dims threw: ") + e.what());
      return;
    }
    bool reduced[3] = {false, false, false};
    for (std::size_t k = 0; k < count; ++k) reduced[d[k]] = true;
    std::array<i64, 3> out_ext{};
    for (int k = 0; k < 3; ++k) out_ext[k] = reduced[k] ? 1 : extents[k];
    if (static_cast<i64>(got.size()) != out_ext[0] * out_ext[1] * out_ext[2])
      finding(where("sum along dims (wrong size)", type, name, n, -1));
    // The reference: each output element sums the input elements that project onto it.
    std::vector<long double> ref_f(got.size(), 0), mag(got.size(), 0);
    std::vector<T> ref_i(got.size(), T(0));
    for (i64 i = 0; i < extents[0]; ++i)
      for (i64 j = 0; j < extents[1]; ++j)
        for (i64 k = 0; k < extents[2]; ++k) {
          const T x = host[static_cast<std::size_t>((i * extents[1] + j) * extents[2] + k)];
          const i64 oi = reduced[0] ? 0 : i, oj = reduced[1] ? 0 : j, ok = reduced[2] ? 0 : k;
          const auto at = static_cast<std::size_t>((oi * out_ext[1] + oj) * out_ext[2] + ok);
          if constexpr (std::is_floating_point_v<T>) {
            ref_f[at] += x;
            mag[at] += std::fabs(static_cast<long double>(x));
          } else {
            ref_i[at] = wrap_add(ref_i[at], x);
          }
        }
    for (std::size_t k = 0; k < got.size(); ++k) {
      const std::string what = where("sum along dims", type, name, n, static_cast<i64>(k));
      if constexpr (std::is_floating_point_v<T>)
        check_sum_close(got[k], ref_f[k], mag[k], n, what);
      else if (!same_bits(got[k], ref_i[k]))
        finding(what);
    }
    return;
  }
  if (op == 7) return search_case(in, dev, type, host, flags);
  if (op == 8) return select_case(in, dev, type, src, host, flags);
  if (op == 9) return histogram_case(in, dev, type, src, host, flags);
  // sum, with a per-call grain and task count
  ak::reduce_options<T> o;
  o.tuning.cpu_grain = grain;
  o.tuning.cpu_tasks = (flags & 0x80) ? i64{1} + (flags >> 4) % 8 : ak::unset;
  const T got = ak::sum(src, o);
  if constexpr (std::is_floating_point_v<T>) {
    long double acc = 0, magnitude = 0;
    for (T x : host) acc += x, magnitude += std::fabs(static_cast<long double>(x));
    check_sum_close(got, acc, magnitude, n, where("sum", type, name, n, 0));
  } else {
    T acc = T(0);
    for (T x : host) acc = wrap_add(acc, x);
    if (!same_bits(got, acc)) finding(where("sum", type, name, n, 0));
  }
}

using types = std::tuple<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                         std::uint32_t, std::int64_t, std::uint64_t, float, double>;
constexpr const char* type_names[] = {"int8",   "uint8", "int16",  "uint16",  "int32",
                                      "uint32", "int64", "uint64", "float32", "float64"};

template <std::size_t... I>
void dispatch(std::size_t k, reader& in, const ak::device& dev, std::index_sequence<I...>) {
  ((k == I ? run<std::tuple_element_t<I, types>>(in, dev, type_names[I]) : void()), ...);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const ak::device cpu("cpu:0");
  static const ak::device sim("sim:0");
  reader in(data, size);
  const ak::device& dev = in.byte() & 1 ? sim : cpu;
  const std::size_t k = in.byte() % std::tuple_size_v<types>;
  try {
    dispatch(k, in, dev, std::make_index_sequence<std::tuple_size_v<types>>{});
  } catch (const std::exception& e) {
    finding(std::string("an exception: ") + e.what());
  }
  return 0;
}
