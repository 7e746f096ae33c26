// mapreduce on the cpu backend: over a whole n-d space, and along dimensions.
//
// Partial results are combined in the order of the elements, so op need only be associative.
// The result is the same bits run to run for a given thread count and tuning (the chunks depend
// on both), not across thread counts for non-associative floating-point rounding.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "ak/backends/cpu/parallel.hpp"
#include "ak/backends/cpu/strided_loops.hpp"
#include "ak/backends/cpu/vector_loops.hpp"
#include "ak/core/operators.hpp"
#include "ak/runtime/hooks.hpp"

namespace ak::cpu {

// A map whose every value is 0 or 1 (ak::count's predicate as a number) says so with
// `static constexpr bool zero_or_one = true`: a sum of it is a count (count_row).
template <class F>
concept zero_or_one_map = requires {
  requires F::zero_or_one;
};

// How many x in p[0, len) have f(x) != 0. 4-byte types and double: `if (f(x)) ++count` on a
// 32-bit count per piece of 2^30 elements; the others in 16 byte-wide lane counters that are
// added to the total every 255 rounds at most (before they can overflow). These are the forms
// g++ 12 vectorises on the x86-64 baseline (the first: a compare and a subtract of its mask);
// int64 (no vector compare there) stays a scalar compare, set and add per element in the lanes,
// and still beats reduce_row's eight int64 accumulators (the first form is no faster for it).
// Standalone, in cache, one thread (Xeon VM, 2026-12-06, ns an element): byte lanes against the
// 32-bit count 0.03 / 0.09 for int8, 0.05 / 0.08 int16, 0.13 / 0.07-0.08 for int32 and uint32, 0.13
// / 0.10 float32, and for double 0.14 against 0.20 with a 64-bit count, 0.54 with `count += f(x)`.
template <class T, class F>
std::int64_t count_row(const T* p, std::int64_t len, const F& f) {
  std::int64_t total = 0, i = 0;
  if constexpr (sizeof(T) == 4 || std::is_same_v<T, double>) {
    while (i < len) {
      const std::int64_t end = std::min(len, i + (std::int64_t{1} << 30));
      std::int32_t count = 0;
      for (; i < end; ++i)
        if (f(p[i])) ++count;
      total += count;
    }
  } else {
    constexpr int lanes = 16;
    while (i + lanes <= len) {
      std::uint8_t lane[lanes] = {};
      const std::int64_t rounds = std::min<std::int64_t>((len - i) / lanes, 255);
      for (std::int64_t k = 0; k < rounds; ++k, i += lanes)
        for (int j = 0; j < lanes; ++j)
          lane[j] = static_cast<std::uint8_t>(lane[j] + (f(p[i + j]) ? 1 : 0));
      for (int j = 0; j < lanes; ++j) total += lane[j];
    }
    for (; i < len; ++i) total += f(p[i]) ? 1 : 0;
  }
  return total;
}

// Whether count_row is vector code for numbers of type T on the x86-64 baseline (the types its
// note names; a predicate g++ cannot vectorise stays scalar in any form).
template <class T>
inline constexpr bool count_row_vectorises = std::is_arithmetic_v<T> &&
                                             (sizeof(T) <= 4 || std::is_same_v<T, double>);

// Reduces one strided row into `acc` (engaged after the call unless len == 0).
// Standard operators (which are commutative) run on several interleaved accumulators, seeded with
// the row's first elements (not with the neutral element, which for float sums is +0.0 and would
// turn a sum of -0.0s into +0.0): that breaks the dependency chain and lets the compiler
// vectorise. Custom operators are applied strictly in element order.
template <class T, class R, class F, class Op>
void reduce_row(const T* p, std::int64_t stride, std::int64_t len, const F& f, const Op& op,
                const std::optional<R>& neutral, std::optional<R>& acc) {
  if (len <= 0) return;
  if constexpr (zero_or_one_map<F> && op_kind_v<Op> == op_kind::plus && std::is_integral_v<R>) {
    if (stride == 1) {
      const R c = static_cast<R>(count_row(p, len, f));
      acc = acc ? static_cast<R>(op(*acc, c)) : c;
      return;
    }
  }
  // minimum and maximum of a contiguous row: the vector loop's extreme in ak's order, which is
  // theirs; a row with a NaN is read again by the loops below, whose NaN is the one op picks.
  constexpr bool min_or_max =
      op_kind_v<Op> == op_kind::minimum || op_kind_v<Op> == op_kind::maximum;
  if constexpr (min_or_max && std::is_same_v<F, ak::identity> && std::is_same_v<T, R> &&
                vector_loop_type_v<T>) {
    if (stride == 1 && len >= 64) {
      bool nan = false;
      const R m = extreme_in_order(p, len, op_kind_v<Op> == op_kind::maximum, &nan);
      if (!nan) {
        acc = acc ? static_cast<R>(op(*acc, m)) : m;
        return;
      }
    }
  }
  std::int64_t i = 0;
  constexpr std::int64_t lanes = 8;
  if constexpr (op_kind_v<Op> != op_kind::custom) {
    if (len >= 2 * lanes) {
      R a[lanes];
      for (std::int64_t j = 0; j < lanes; ++j) a[j] = static_cast<R>(f(p[j * stride]));
      i = lanes;
      if (stride == 1) {
        for (; i + lanes <= len; i += lanes)
          for (std::int64_t j = 0; j < lanes; ++j) a[j] = op(a[j], static_cast<R>(f(p[i + j])));
      } else {
        for (; i + lanes <= len; i += lanes)
          for (std::int64_t j = 0; j < lanes; ++j)
            a[j] = op(a[j], static_cast<R>(f(p[(i + j) * stride])));
      }
      R total = a[0];
      for (std::int64_t j = 1; j < lanes; ++j) total = op(total, a[j]);
      acc = acc ? op(*acc, total) : total;
    }
  }
  if (i == len) return;
  if (!acc) {
    if (neutral) {
      acc = *neutral;
    } else {
      acc = static_cast<R>(f(p[i * stride]));
      ++i;
    }
  }
  R a = *acc;
  if (stride == 1)
    for (; i < len; ++i) a = op(a, static_cast<R>(f(p[i])));
  else
    for (; i < len; ++i) a = op(a, static_cast<R>(f(p[i * stride])));
  acc = a;
}

// op over f of every element of a one-operand space; nullopt when the space is empty.
template <class T, class R, class F, class Op>
std::optional<R> mapreduce_space(const T* base, const strided_space<1>& s, const F& f, const Op& op,
                                 const std::optional<R>& neutral, const reduce_tuning& t) {
  const std::int64_t tasks = t.cpu_tasks > 0 ? t.cpu_tasks : num_threads();
  const chunks c = plan_chunks(s.size(), t.cpu_grain, tasks, 64);
  std::vector<std::optional<R>> partial(static_cast<std::size_t>(c.count));
  parallel_tasks(c.count, [&](std::int64_t k) {
    std::optional<R> acc;
    visit_rows(s, c.begin(k), c.end(k),
               [&](const std::array<std::int64_t, 1>& off, std::int64_t n) {
                 reduce_row(base + off[0], s.row_stride(0), n, f, op, neutral, acc);
               });
    partial[static_cast<std::size_t>(k)] = acc;
  });
  std::optional<R> total;
  for (auto& p : partial)
    if (p) total = total ? op(*total, *p) : *p;
  return total;
}

// A space split into the dimensions an output element runs over (reduced) and those that pick
// the output element (kept); see mapreduce_dims.
struct reduce_split {
  strided_space<2> kept;     // operand 0: input strides; operand 1: output strides
  strided_space<1> reduced;  // input strides
};

// Reduces along the dimensions of `reduced` into out, row-major over the kept positions (the kept
// space's operand 1 holds out's strides). block_elements: outputs a task accumulates at once, a
// vector that stays in cache. Two layouts:
//  - the input's innermost dimension is reduced: each output element reduces contiguous runs
//    (one task reduces a block of output elements, or, for few outputs, each output in parallel);
//  - it is kept: outputs along that dimension are accumulated as a vector, in blocks of
//    block_elements, four contiguous reduced positions at a time (a column sum of a row-major
//    matrix streams rows).
template <class T, class R, class F, class Op>
void mapreduce_dims(const T* in, R* out, const reduce_split& sp, bool innermost_reduced,
                    std::int64_t block_elements, const F& f, const Op& op,
                    const std::optional<R>& init, const std::optional<R>& neutral,
                    const reduce_tuning& t) {
  const strided_space<2> kept = coalesce(sp.kept);
  const strided_space<1> red = coalesce(sp.reduced);
  const std::int64_t outputs = kept.size();
  const std::int64_t per_output = red.size();
  // No elements (a reduced extent of 0) give init, else the neutral element (the caller checks
  // that one of them is there).
  auto finish = [&](const std::optional<R>& acc) -> R {
    if (init) return acc ? static_cast<R>(op(*init, *acc)) : *init;
    return acc ? *acc : *neutral;
  };
  if (outputs == 0) return;
  if (per_output == 0) {
    // Nothing to read (the input may have no storage at all): every output is init or neutral.
    const R empty = finish(std::nullopt);
    visit_rows(kept, 0, outputs, [&](const std::array<std::int64_t, 2>& off, std::int64_t n) {
      for (std::int64_t i = 0; i < n; ++i) out[off[1] + i * kept.row_stride(1)] = empty;
    });
    return;
  }
  if (innermost_reduced) {
    if (outputs < 2 * num_threads() && per_output >= 2 * t.cpu_grain) {
      // Few long reductions: each one in parallel.
      visit_rows(kept, 0, outputs, [&](const std::array<std::int64_t, 2>& off, std::int64_t n) {
        for (std::int64_t i = 0; i < n; ++i)
          out[off[1] + i * kept.row_stride(1)] =
              finish(mapreduce_space(in + off[0] + i * kept.row_stride(0), red, f, op, neutral, t));
      });
      return;
    }
    const std::int64_t grain =
        std::max<std::int64_t>(1, t.cpu_grain / std::max<std::int64_t>(per_output, 1));
    const chunks c = plan_chunks(outputs, grain, balanced_task_limit());
    parallel_tasks(c.count, [&](std::int64_t k) {
      visit_rows(
          kept, c.begin(k), c.end(k), [&](const std::array<std::int64_t, 2>& off, std::int64_t n) {
            for (std::int64_t i = 0; i < n; ++i) {
              const T* base = in + off[0] + i * kept.row_stride(0);
              std::optional<R> acc;
              visit_rows(red, 0, per_output,
                         [&](const std::array<std::int64_t, 1>& o, std::int64_t m) {
                           reduce_row(base + o[0], red.row_stride(0), m, f, op, neutral, acc);
                         });
              out[off[1] + i * kept.row_stride(1)] = finish(acc);
            }
          });
    });
    return;
  }
  // The innermost input dimension is kept. A task accumulates a vector of outputs along that
  // dimension (a block that fits in cache) over a band of the reduced positions, so it streams
  // whole rows; the bands' partial vectors are combined in order afterwards.
  const std::int64_t inner = kept.row_length();
  const std::int64_t outer = outputs / inner;
  const std::int64_t in_step = kept.row_stride(0);
  const std::int64_t block = std::min(inner, std::max<std::int64_t>(16, block_elements));
  const std::int64_t blocks = (inner + block - 1) / block;
  const std::int64_t want_tasks = 2 * num_threads();
  const std::int64_t bands = std::clamp<std::int64_t>(
      (want_tasks + outer * blocks - 1) / (outer * blocks), 1,
      std::max<std::int64_t>(1, per_output / std::max<std::int64_t>(1, t.cpu_grain / inner)));
  // Not std::vector: vector<bool> has no data() (bool reductions along dims).
  const std::unique_ptr<R[]> partial(bands > 1 ? new R[static_cast<std::size_t>(bands * outputs)]
                                               : nullptr);
  parallel_tasks(outer * blocks * bands, [&](std::int64_t task) {
    const std::int64_t band = task % bands, ob = task / bands;
    const std::int64_t o = ob / blocks, b0 = (ob % blocks) * block;
    const std::int64_t len = std::min(block, inner - b0);
    const std::int64_t r0 = per_output * band / bands, r1 = per_output * (band + 1) / bands;
    // Offsets of the outer position: the kept space's row o starts there.
    std::array<std::int64_t, 2> base{};
    visit_rows(kept, o * inner, o * inner + 1,
               [&](const std::array<std::int64_t, 2>& off, std::int64_t) { base = off; });
    const std::unique_ptr<R[]> acc(new R[static_cast<std::size_t>(len)]);
    R* a = acc.get();
    bool first = true;
    visit_rows(red, r0, r1, [&](const std::array<std::int64_t, 1>& o_red, std::int64_t m) {
      const std::int64_t rs = red.row_stride(0);
      const T* const row0 = in + base[0] + o_red[0] + b0 * in_step;
      std::int64_t r = 0;
      if (first) {
        for (std::int64_t j = 0; j < len; ++j) a[j] = static_cast<R>(f(row0[j * in_step]));
        first = false;
        r = 1;
      }
      // Contiguous rows are added four at a time, a op (x0 op x1 op x2 op x3) (op is
      // associative), so the accumulators are read and written once per four rows: a column
      // sum of a 10^4 x 10^4 float32 matrix went from 67% to 83% of the speed of a whole-array
      // sum of it in the same process (2 threads; docs/benchmarks/README.md).
      if (in_step == 1) {
        for (; r + 4 <= m; r += 4) {
          const T* p = row0 + r * rs;
          for (std::int64_t j = 0; j < len; ++j)
            a[j] = op(a[j], op(op(op(static_cast<R>(f(p[j])), static_cast<R>(f(p[j + rs]))),
                                  static_cast<R>(f(p[j + 2 * rs]))),
                               static_cast<R>(f(p[j + 3 * rs]))));
        }
      }
      for (; r < m; ++r) {
        const T* p = row0 + r * rs;
        if (in_step == 1) {
          for (std::int64_t j = 0; j < len; ++j) a[j] = op(a[j], static_cast<R>(f(p[j])));
        } else {
          for (std::int64_t j = 0; j < len; ++j) a[j] = op(a[j], static_cast<R>(f(p[j * in_step])));
        }
      }
    });
    // The flat output index of column b0 + j of outer position o is o * inner + b0 + j.
    if (bands > 1) {
      std::copy(a, a + len, partial.get() + band * outputs + o * inner + b0);
    } else {
      for (std::int64_t j = 0; j < len; ++j)
        out[o * inner + b0 + j] = init ? op(*init, a[j]) : a[j];
    }
  });
  if (bands == 1) return;
  // Combine the bands in order, one output position at a time.
  const chunks c = plan_chunks(outputs, t.cpu_grain, balanced_task_limit());
  parallel_tasks(c.count, [&](std::int64_t k) {
    for (std::int64_t q = c.begin(k); q < c.end(k); ++q) {
      R v = partial[static_cast<std::size_t>(q)];
      for (std::int64_t band = 1; band < bands; ++band)
        v = op(v, partial[static_cast<std::size_t>(band * outputs + q)]);
      out[q] = init ? op(*init, v) : v;
    }
  });
}

// Whether pred(x) == Want for some element of the space. Tasks stop at the next block once any
// task has found one.
template <bool Want, class T, class Pred>
bool find_any(const T* base, const strided_space<1>& s, const Pred& pred, std::int64_t grain) {
  const chunks c = plan_chunks(s.size(), grain, balanced_task_limit(), 64);
  std::atomic<bool> found{false};
  // Whether a row has an element with pred == Want. A contiguous row is counted in pieces of
  // 1024 where count_row is vector code (float32 in cache: 0.09 ns an element against 0.3-0.55
  // for the search), and otherwise searched (int64: a compare and a branch, always predicted,
  // beat count_row's scalar lanes 1.3-1.5x in cache).
  auto row_hits = [&](const T* p, std::int64_t st, std::int64_t n) {
    const auto hit = [&](const T& x) { return static_cast<bool>(pred(x)) == Want; };
    if (st == 1) {
      if constexpr (count_row_vectorises<T>) {
        for (std::int64_t i = 0; i < n; i += 1024)
          if (count_row(p + i, std::min<std::int64_t>(1024, n - i), hit) != 0) return true;
        return false;
      } else {
        return std::find_if(p, p + n, hit) != p + n;
      }
    }
    unsigned h = 0;
    for (std::int64_t i = 0; i < n; ++i) h |= static_cast<unsigned>(hit(p[i * st]));
    return h != 0;
  };
  parallel_tasks(c.count, [&](std::int64_t k) {
    // Blocks of 64 KiB: long enough to stream, short enough to stop soon.
    const std::int64_t block =
        std::max<std::int64_t>(64, 65536 / static_cast<std::int64_t>(sizeof(T)));
    for (std::int64_t b = c.begin(k); b < c.end(k); b += block) {
      if (found.load(std::memory_order_relaxed)) return;
      const std::int64_t e = std::min(c.end(k), b + block);
      bool hit = false;
      if (s.rank == 1) {  // one strided row: no coordinates to track
        hit = row_hits(base + b * s.row_stride(0), s.row_stride(0), e - b);
      } else {
        visit_rows(s, b, e, [&](const std::array<std::int64_t, 1>& off, std::int64_t n) {
          hit = row_hits(base + off[0], s.row_stride(0), n) || hit;
        });
      }
      if (hit) {
        found.store(true, std::memory_order_relaxed);
        return;
      }
    }
  });
  return found.load();
}

}  // namespace ak::cpu
