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
#include <type_traits>
#include <utility>

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

// p[0, n) reversed in place, on the workers.
template <class T>
void parallel_reverse(T* p, std::int64_t n, std::int64_t grain) {
  const std::int64_t half = n / 2;
  const chunks c = plan_chunks(half, grain, balanced_task_limit());
  parallel_tasks(c.count, [&](std::int64_t k) {
    for (std::int64_t i = c.begin(k), e = c.end(k); i < e; ++i) std::swap(p[i], p[n - 1 - i]);
  });
}

// ---- chained tiles: one pass over tiles whose results depend on all the tiles before them ----
//
// What the single-pass scan and selection are made of. Workers take tiles in order from a shared
// counter; for tile k each computes `local(k)` (reading the tile into cache), waits a little for
// tile k - 1's inclusive prefix, publishes its own, `link(k, carry, local)`, and then calls
// `finish(k, carry, local)` while the tile is still in cache. carry is `init` for the first tile.
// Memory traffic is one read of the input where a reduce-then-scan reads it twice.
// Hand-over: a worker whose predecessor's prefix has not come after a short spin leaves its
// local in the tile's state and takes the next tile; whoever publishes tile k - 1 then links and
// finishes tile k (and so on down the chain). Which of the two arrives first at a tile is decided
// by one compare-exchange on its state, so every tile is linked and finished exactly once, in
// order, with the same results on any number of workers, and no worker ever waits for another
// beyond the spin. (Waiting until the prefix came, a worker on a machine busier than its cores
// spent a scheduler time slice on a hand-over whenever the worker before it had been descheduled:
// a scan of 16383 elements in tiles of one took seconds beside two compiles on 2 cores.)
// An exception from a tile stops the chain and reaches the caller. Returns the last tile's prefix
// (init when there are no tiles).

inline constexpr int chain_local_left = 1;   // the tile's worker left its local and went on
inline constexpr int chain_carry_ready = 2;  // the tile before it published its prefix

// Per-tile state of a chain whose tiles' locals are L.
template <class R, class L>
struct chain_state {
  std::optional<R> prefix;  // inclusive prefix through this tile (with init)
  std::optional<L> local;   // where the tile's worker handed the tile over
  std::atomic<int> arrived{0};
};

// How many tiles of `tile` elements cover n elements.
inline std::int64_t tile_count(std::int64_t n, std::int64_t tile) {
  return n <= 0 ? 0 : (n + tile - 1) / tile;
}

// Bytes of tile state a chain of `tiles` tiles needs (caller-provided temp storage).
template <class R, class L>
std::size_t chain_state_bytes(std::int64_t tiles) {
  return static_cast<std::size_t>(std::max<std::int64_t>(tiles, 0)) * sizeof(chain_state<R, L>) +
         alignof(chain_state<R, L>);
}

// Spins while the tile's predecessor may still publish soon: true once it has.
inline bool chain_spin_for_carry(const std::atomic<int>& arrived) {
  for (int spins = 0; spins < 4096; ++spins) {
    if (arrived.load(std::memory_order_acquire) == chain_carry_ready) return true;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }
  return false;
}

// state_memory: chain_state_bytes<R, L>(tiles) bytes, where L is what local returns, or null to
// allocate them. With one worker (or one tile) the tiles run in order on the calling thread, with
// the same results.
template <class R, class Local, class Link, class Finish>
std::optional<R> chain_tiles(std::int64_t tiles, std::int64_t workers, std::optional<R> init,
                             const Local& local, const Link& link, const Finish& finish,
                             void* state_memory = nullptr) {
  using L = std::invoke_result_t<const Local&, std::int64_t>;
  using state_t = chain_state<R, L>;
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
  std::size_t space = chain_state_bytes<R, L>(tiles);
  if (!state_memory) {
    owned.reset(new std::byte[space]);
    state_memory = owned.get();
  }
  void* aligned = std::align(alignof(state_t), sizeof(state_t) * static_cast<std::size_t>(tiles),
                             state_memory, space);
  state_t* state = static_cast<state_t*>(aligned);
  for (std::int64_t k = 0; k < tiles; ++k) new (state + k) state_t();
  struct destroy_states {
    state_t* s;
    std::int64_t count;
    ~destroy_states() {
      for (std::int64_t k = 0; k < count; ++k) s[k].~state_t();
    }
  } guard{state, tiles};
  // Tile k with its carry known: link, publish, finish; then tile k + 1 where its worker left it.
  auto run_from = [&](std::int64_t k, const L& first) {
    const L* l = &first;
    for (;;) {
      const std::optional<R>& carry = k == 0 ? init : state[k - 1].prefix;
      state[k].prefix = link(k, carry, *l);
      int next = 0;
      if (k + 1 < tiles)
        state[k + 1].arrived.compare_exchange_strong(next, chain_carry_ready,
                                                     std::memory_order_acq_rel);
      finish(k, carry, *l);
      if (next != chain_local_left) return;
      l = &*state[++k].local;
    }
  };
  std::atomic<std::int64_t> next{0};
  std::atomic<bool> failed{false};  // a tile threw: the others stop
  parallel_tasks(workers, [&](std::int64_t) {
    for (;;) {
      const std::int64_t k = next.fetch_add(1, std::memory_order_relaxed);
      if (k >= tiles || failed.load(std::memory_order_relaxed)) return;
      try {
        const L l = local(k);  // before waiting, so that the wait is short
        if (k > 0 && !chain_spin_for_carry(state[k].arrived)) {
          state[k].local.emplace(l);
          int none = 0;
          if (state[k].arrived.compare_exchange_strong(none, chain_local_left,
                                                       std::memory_order_acq_rel))
            continue;  // handed over: the worker that publishes tile k - 1 runs it
        }
        run_from(k, l);
      } catch (...) {
        failed.store(true, std::memory_order_relaxed);
        throw;  // parallel_tasks rethrows it to the caller
      }
    }
  });
  return tiles > 0 ? state[tiles - 1].prefix : init;
}

}  // namespace ak::cpu
