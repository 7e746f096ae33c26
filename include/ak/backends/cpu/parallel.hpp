// Task parallelism for the cpu backend's algorithm templates.
//
// The templates in this folder are instantiated in users' translation units (for custom types
// and operators) as well as in libak's precompiled entry points, so they must not include
// oneTBB: run_tasks is the one out-of-line call that reaches the scheduler, once per task, never
// per element.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "ak/backends/cpu.hpp"

namespace ak::cpu {

// Runs fn(context, t) for every t in [0, count) on the backend's worker threads and returns when
// all are done. The first exception a task throws is rethrown here.
void run_tasks(std::int64_t count, void (*fn)(void* context, std::int64_t task), void* context);

template <class F>
void parallel_tasks(std::int64_t count, F&& f) {
  if (count <= 0) return;
  if (count == 1) {
    f(std::int64_t{0});
    return;
  }
  using Fn = std::remove_reference_t<F>;
  run_tasks(
      count, [](void* c, std::int64_t t) { (*static_cast<Fn*>(c))(t); },
      const_cast<void*>(static_cast<const void*>(&f)));
}

// n elements cut into `count` chunks of `size` elements (the last one shorter): chunk k is
// [k * size, min(n, (k + 1) * size)).
struct chunks {
  std::int64_t n = 0;
  std::int64_t count = 0;
  std::int64_t size = 0;
  std::int64_t begin(std::int64_t k) const noexcept { return k * size; }
  std::int64_t end(std::int64_t k) const noexcept { return std::min(n, (k + 1) * size); }
};

// Chunks of at least `grain` elements, at most `max_count` of them (0: no limit), a multiple of
// `align` elements each (so chunk borders fall on cache lines or vector widths).
inline chunks plan_chunks(std::int64_t n, std::int64_t grain, std::int64_t max_count,
                          std::int64_t align = 1) {
  if (n <= 0) return {n, 0, 0};
  std::int64_t count = std::max<std::int64_t>(1, n / std::max<std::int64_t>(grain, 1));
  if (max_count > 0) count = std::min(count, max_count);
  std::int64_t size = (n + count - 1) / count;
  size = (size + align - 1) / align * align;
  return {n, (n + size - 1) / size, size};
}

// How many tasks keep every worker busy with some slack for imbalance.
inline std::int64_t balanced_task_limit() noexcept {
  return 4 * num_threads();
}

// f(i) for every i in [0, n), in chunks of at least `grain` indices run in parallel.
template <class F>
void parallel_for(std::int64_t n, std::int64_t grain, F&& f) {
  const chunks c = plan_chunks(n, grain, balanced_task_limit());
  parallel_tasks(c.count, [&](std::int64_t k) {
    for (std::int64_t i = c.begin(k), e = c.end(k); i < e; ++i) f(i);
  });
}

}  // namespace ak::cpu
