// Task parallelism for the cpu backend's algorithm templates.
//
// The templates in this folder are instantiated in users' translation units (for custom types
// and operators) as well as in libak's precompiled entry points, so they must not include
// oneTBB: run_tasks is the one out-of-line call that reaches the scheduler, once per task, never
// per element.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <thread>
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

// ---- chained tiles: one pass over tiles whose results depend on all the tiles before them ----
//
// What the single-pass scan and selection are made of. Workers take tiles in order from a shared
// counter; for tile k each computes `local(k)` (reading the tile into cache), waits for tile
// k - 1's inclusive prefix, publishes its own, `link(k, carry, local)`, and then calls
// `finish(k, carry, local)` while the tile is still in cache. carry is `init` for the first tile.
// Memory traffic is one read of the input where a reduce-then-scan reads it twice.
// Progress: a tile only waits on tiles taken before it by workers that are running, so the chain
// always advances; an exception from a tile stops the chain and reaches the caller. Returns the
// last tile's prefix (init when there are no tiles).

// Per-tile state of a chain.
template <class R>
struct chain_state {
  std::optional<R> prefix;  // inclusive prefix through this tile (with init)
  std::atomic<bool> ready{false};
};

// How many tiles of `tile` elements cover n elements.
inline std::int64_t tile_count(std::int64_t n, std::int64_t tile) {
  return n <= 0 ? 0 : (n + tile - 1) / tile;
}

// Bytes of tile state a chain of `tiles` tiles needs (caller-provided temp storage).
template <class R>
std::size_t chain_state_bytes(std::int64_t tiles) {
  return static_cast<std::size_t>(std::max<std::int64_t>(tiles, 0)) * sizeof(chain_state<R>) +
         alignof(chain_state<R>);
}

// state_memory: chain_state_bytes<R>(tiles) bytes, or null to allocate them. With one worker
// (or one tile) the tiles run in order on the calling thread, with the same results.
template <class R, class Local, class Link, class Finish>
std::optional<R> chain_tiles(std::int64_t tiles, std::int64_t workers, std::optional<R> init,
                             const Local& local, const Link& link, const Finish& finish,
                             void* state_memory = nullptr) {
  workers = std::min(workers, tiles);
  if (workers <= 1) {
    for (std::int64_t k = 0; k < tiles; ++k) {
      const auto l = local(k);
      std::optional<R> next = link(k, init, l);
      finish(k, init, l);
      init = std::move(next);
    }
    return init;
  }
  std::unique_ptr<std::byte[]> owned;
  std::size_t space = chain_state_bytes<R>(tiles);
  if (!state_memory) {
    owned.reset(new std::byte[space]);
    state_memory = owned.get();
  }
  void* aligned =
      std::align(alignof(chain_state<R>), sizeof(chain_state<R>) * static_cast<std::size_t>(tiles),
                 state_memory, space);
  chain_state<R>* state = static_cast<chain_state<R>*>(aligned);
  for (std::int64_t k = 0; k < tiles; ++k) new (state + k) chain_state<R>();
  struct destroy_states {
    chain_state<R>* s;
    std::int64_t count;
    ~destroy_states() {
      for (std::int64_t k = 0; k < count; ++k) s[k].~chain_state<R>();
    }
  } guard{state, tiles};
  std::atomic<std::int64_t> next{0};
  std::atomic<bool> failed{false};  // a tile threw: the others stop rather than wait on it
  parallel_tasks(workers, [&](std::int64_t) {
    for (;;) {
      const std::int64_t k = next.fetch_add(1, std::memory_order_relaxed);
      if (k >= tiles || failed.load(std::memory_order_relaxed)) return;
      try {
        const auto l = local(k);  // before waiting, so that the wait is short
        std::optional<R> carry = init;
        if (k > 0) {
          chain_state<R>& prev = state[k - 1];
          for (int spins = 0; !prev.ready.load(std::memory_order_acquire); ++spins) {
            if (failed.load(std::memory_order_relaxed)) return;
            if (spins > 64) std::this_thread::yield();
          }
          carry = prev.prefix;
        }
        state[k].prefix = link(k, carry, l);
        state[k].ready.store(true, std::memory_order_release);
        finish(k, carry, l);
      } catch (...) {
        failed.store(true, std::memory_order_relaxed);
        throw;  // parallel_tasks rethrows it to the caller
      }
    }
  });
  return tiles > 0 ? state[tiles - 1].prefix : init;
}

}  // namespace ak::cpu
