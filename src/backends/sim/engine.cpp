// The sim engine: runs a launch's work-groups on worker threads, in launch order (or shuffled
// within windows no wider than the number of workers, which keeps forward progress for groups
// that wait on earlier ones), and each group's work-items on fibers (Boost.Context) that yield
// at barriers, sub-group operations and, now and then, atomics. It checks what the kernel
// language requires: every item of a group meets at the same barrier, every lane of a
// sub-group at the same sub-group operation, and no item leaves while others wait for it.
#include "engine.hpp"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "../../runtime/registry.hpp"
#include "profiles.hpp"

#include "ak/core/sanitizers.hpp"
#if defined(AK_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
// ThreadSanitizer follows each item's fiber as a thread of its own (__tsan_switch_to_fiber at
// every switch, which also orders the two sides' memory accesses, as the one OS thread does).
#if defined(AK_TSAN)
#include <sanitizer/tsan_interface.h>
#endif

namespace ak::sim_backend {

namespace {

namespace ctx = boost::context;

// ---- settings ---------------------------------------------------------------------------------

std::int64_t env_int(const char* name, std::int64_t fallback, std::int64_t lo, std::int64_t hi) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  long long n = std::strtoll(v, &end, 0);
  if (*end != '\0' || n < lo || n > hi) return fallback;
  return n;
}

std::atomic<std::uint64_t>& seed_setting() {
  static std::atomic<std::uint64_t> s{
      static_cast<std::uint64_t>(env_int("AK_SIM_SEED", 0, 0, INT64_MAX))};
  return s;
}

int worker_threads() {
  static const int n = [] {
    const auto hw = static_cast<std::int64_t>(std::thread::hardware_concurrency());
    return static_cast<int>(env_int("AK_SIM_THREADS", std::clamp<std::int64_t>(hw, 4, 8), 1, 64));
  }();
  return n;
}

std::size_t stack_bytes() {
#if defined(AK_ASAN) || defined(AK_TSAN)
  constexpr std::int64_t fallback_kib = 256;
#else
  constexpr std::int64_t fallback_kib = 64;
#endif
  static const std::size_t n =
      static_cast<std::size_t>(env_int("AK_SIM_STACK_KIB", fallback_kib, 16, 1 << 16)) << 10;
  return n;
}

// How long a work-item may wait in atomics without any other sync before the launch fails as
// stuck (a group waiting for one that never runs: a forward-progress bug), in seconds.
double spin_timeout_seconds() {
  static const double s = static_cast<double>(env_int("AK_SIM_SPIN_TIMEOUT", 60, 1, 86400));
  return s;
}

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

template <class T>
void shuffle(std::vector<T>& v, std::uint64_t& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[splitmix(rng) % i]);
}

// ---- fiber stacks -----------------------------------------------------------------------------

// A work-item's stack (with a guard page below) and, under ThreadSanitizer, the context TSan
// follows its fiber in: both reused across groups and launches. Making and destroying a TSan
// context per item (mmap and munmap of its state) took most of the TSan sim suite's time; an
// item's accesses are ordered after those of the item before it on the same context anyway,
// since every switch between fibers synchronises.
struct fiber_stack {
  void* bottom = nullptr;  // lowest address of the stack
#if defined(AK_TSAN)
  void* tsan = nullptr;
  std::uint32_t resumes = 0;  // switches into `tsan` since it was made (see pooled_stack)
#endif
};

class stack_pool {
 public:
  static stack_pool& instance() {
    static auto* p = new stack_pool;  // never destroyed: workers may outlive static destruction
    return *p;
  }
  fiber_stack take() {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      fiber_stack s = free_.back();
      free_.pop_back();
      return s;
    }
    free_.reserve(made_ + 1);  // room for every stack made: give() never allocates
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    void* m = mmap(nullptr, stack_bytes() + page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    mprotect(m, page, PROT_NONE);
    ++made_;
    fiber_stack s;
    s.bottom = static_cast<char*>(m) + page;
#if defined(AK_TSAN)
    s.tsan = __tsan_create_fiber(0);
#endif
    return s;
  }
  // Never throws (stacks are given back from noexcept code): the list has room for every stack
  // ever made.
  void give(std::vector<fiber_stack>& stacks) noexcept {
    std::lock_guard lock(mutex_);
    free_.insert(free_.end(), stacks.begin(), stacks.end());
    stacks.clear();
  }

 private:
  std::mutex mutex_;
  std::vector<fiber_stack> free_;
  std::size_t made_ = 0;
};

// ---- worker threads ---------------------------------------------------------------------------

// Threads kept from launch to launch: a launch borrows idle ones (starting more when too few are
// idle, as when several host threads launch at once), each runs the launch's work once and goes
// back to the idle list. Starting a thread per worker per launch took more time than most of the
// tests' launches did (under ThreadSanitizer most of the sim suite's time). Each launch has its
// threads to itself for as long as it runs, as it had when it started them, so a group that waits
// for another never waits for a thread.
class thread_pool {
 public:
  static thread_pool& instance() { return *current; }

  // Runs `job` on the calling thread and on `n` - 1 threads of the pool, and returns when each
  // has returned from it. Throws (before running anything) when a thread that is needed cannot
  // be started.
  template <class Job>
  void run(std::int64_t n, Job& job) {
    std::vector<helper*> taken;
    try {
      taken.reserve(static_cast<std::size_t>(n - 1));
      {
        std::lock_guard lock(mutex_);
        while (static_cast<std::int64_t>(taken.size()) < n - 1 && !idle_.empty()) {
          taken.push_back(idle_.back());
          idle_.pop_back();
        }
      }
      while (static_cast<std::int64_t>(taken.size()) < n - 1) taken.push_back(start());
    } catch (...) {
      give_back(taken);
      throw;
    }
    done_signal done;
    done.pending = static_cast<std::int64_t>(taken.size());
    for (helper* h : taken) {
      std::lock_guard lock(h->mutex);
      h->job = [](void* j) { (*static_cast<Job*>(j))(); };
      h->job_arg = &job;
      h->done = &done;
      h->wake.notify_one();
    }
    struct wait_for_helpers {  // also when the caller's share throws: they use the job
      done_signal& done;
      ~wait_for_helpers() {
        std::unique_lock lock(done.mutex);
        done.all_returned.wait(lock, [&] { return done.pending == 0; });
      }
    } wait{done};
    job();
  }

 private:
  struct done_signal {
    std::int64_t pending = 0;
    std::mutex mutex;
    std::condition_variable all_returned;
  };
  struct helper {
    std::mutex mutex;
    std::condition_variable wake;
    void (*job)(void*) = nullptr;
    void* job_arg = nullptr;
    done_signal* done = nullptr;
  };

  helper* start() {
    auto h = std::make_unique<helper>();
    std::lock_guard lock(mutex_);
    all_.reserve(all_.size() + 1);
    idle_.reserve(all_.size() + 1);  // serve() puts each helper back without allocating
    std::thread([this, p = h.get()] { serve(*p); }).detach();
    all_.push_back(std::move(h));  // kept, as its thread is, for the life of the process
    return all_.back().get();
  }

  void serve(helper& h) {
    for (;;) {
      void (*job)(void*);
      void* arg;
      done_signal* done;
      {
        std::unique_lock lock(h.mutex);
        h.wake.wait(lock, [&] { return h.job != nullptr; });
        job = std::exchange(h.job, nullptr);
        arg = h.job_arg;
        done = h.done;
      }
      job(arg);  // the launch's work catches what its groups throw
      {
        std::lock_guard lock(mutex_);
        idle_.push_back(&h);
      }
      // Under the lock: the launch, whose stack holds `done`, cannot return before it is released.
      std::lock_guard lock(done->mutex);
      if (--done->pending == 0) done->all_returned.notify_all();
    }
  }

  void give_back(const std::vector<helper*>& taken) noexcept {
    std::lock_guard lock(mutex_);
    idle_.insert(idle_.end(), taken.begin(), taken.end());
  }

  static thread_pool* current;
  std::mutex mutex_;
  std::vector<std::unique_ptr<helper>> all_;
  std::vector<helper*> idle_;
};

// Never destroyed: idle threads wait in it until the process exits. The child of a fork() has
// none of the pool's threads (and perhaps a copy of a lock that one of them held): it starts a
// pool of its own, leaving the copy of the parent's alone.
thread_pool* thread_pool::current = [] {
  pthread_atfork(nullptr, nullptr, [] { thread_pool::current = new thread_pool; });
  return new thread_pool;
}();

// ---- state of a launch, a group, an item -------------------------------------------------------

enum class state : std::uint8_t { ready, barrier, sub_group, done };

struct group_run;

struct item {
  ak_sim_item_v1 view{};
  ctx::fiber fiber;   // the item's own context while it is suspended
  ctx::fiber caller;  // the scheduler's, while the item runs
  state st = state::ready;
  bool abort = false;
  bool started = false;
  const char* file = "";
  std::int32_t line = 0;
  std::uint32_t polls = 0;
  std::chrono::steady_clock::time_point spin_start;
  int linear = 0;
  group_run* group = nullptr;
  fiber_stack stack;  // from start_item until the item is done
#if defined(AK_ASAN)
  void* fake_stack = nullptr;
#endif
};

struct sub_group_state {
  int arrived = 0;
  int parity = 0;
  std::int32_t op = 0;
  std::uint32_t bytes = 0;
  const char* file = "";
  std::int32_t line = 0;
  int first_lane = 0;
};

// What a launch's work-items did, for AK_LOG=launch: barriers and atomics per item call, sub-group
// operations per lane (by operation: ak_sim_sub_group_op_v1), atomics by where their address is.
struct launch_counts {
  static constexpr int ops = AK_SIM_MATCH + 1;
  std::uint64_t barriers = 0;
  std::uint64_t sub_group[ops] = {};
  std::uint64_t local_atomics = 0;
  std::uint64_t global_atomics = 0;
  void add(const launch_counts& o) {
    barriers += o.barriers;
    for (int i = 0; i < ops; ++i) sub_group[i] += o.sub_group[i];
    local_atomics += o.local_atomics;
    global_atomics += o.global_atomics;
  }
};

struct launch_state {
  const ak_sim_launch_v1* launch = nullptr;
  const profile* prof = nullptr;
  std::string device_name;
  std::uint64_t seed = 0;
  std::int64_t group_count = 0;
  std::int64_t group_items = 0;
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::string message;  // the first failure

  // Never throws: where the message cannot be kept (out of memory), the launch still fails.
  void record(std::string_view m) noexcept {
    failed.store(true, std::memory_order_release);
    std::lock_guard lock(mutex);
    if (!message.empty()) return;
    try {
      message.assign(m);
    } catch (...) {
      lost_message = true;
    }
  }
  bool lost_message = false;  // a failure whose message could not be kept
  launch_counts counts;       // every worker's, added when it ends (under `mutex`)
};

struct worker {
  launch_state* launch = nullptr;
  launch_counts counts;  // this worker's items' (no sharing while they run)
  std::vector<item> items;
  std::vector<sub_group_state> sub_groups;
  // Two exchange buffers per sub-group (sub-group k's are 2k and 2k + 1, by parity), kept from
  // group to group.
  std::vector<std::vector<unsigned char>> exchange_buffers;
  std::vector<unsigned char>& exchange_buffer(int sub_group, int parity) {
    return exchange_buffers[2 * static_cast<std::size_t>(sub_group) +
                            static_cast<std::size_t>(parity)];
  }
  std::vector<unsigned char> local;
  // The stacks of this worker's items that have returned, which its next items take before the
  // shared pool (whose lock two workers would otherwise take for every item of every group); all
  // given back to the pool when the launch ends. Room for one per item of a group, reserved
  // before a group's items start: a stack is given back from noexcept code.
  std::vector<fiber_stack> stacks;
  worker() = default;
  worker(const worker&) = delete;
  worker& operator=(const worker&) = delete;
  ~worker() { stack_pool::instance().give(stacks); }
  // The scheduler's own stack, as ASan needs to know it when an item switches back.
  const void* sched_bottom = nullptr;
  std::size_t sched_size = 0;
#if defined(AK_ASAN)
  void* sched_fake = nullptr;
#endif
#if defined(AK_TSAN)
  void* sched_tsan = nullptr;  // the worker thread's own TSan context
#endif
};

struct group_run {
  worker* w = nullptr;
  std::int64_t linear = 0;
  std::vector<int> ready;
  bool failed = false;
};

std::string triple(const std::int64_t* v, int rank) {
  std::string s = "(";
  for (int d = 0; d < rank; ++d) {
    if (d) s += ',';
    s += std::to_string(v[d]);
  }
  s += ')';
  return s;
}
std::string triple(const std::int32_t* v, int rank) {
  std::int64_t w[3] = {v[0], v[1], v[2]};
  return triple(w, rank);
}

std::string item_name(const item& it) {
  return "work-item " + triple(it.view.local_id, it.view.rank) + " of group " +
         triple(it.view.group_id, it.view.rank);
}

// Whether two call sites name the same file: the same literal in one translation unit is one
// pointer (the common case, checked first: every lane of every sub-group call compares).
bool same_file(const char* a, const char* b) {
  return a == b || std::strcmp(a, b) == 0;
}

std::string at(const char* file, std::int32_t line) {
  return std::string(file ? file : "?") + ":" + std::to_string(line);
}

const char* op_name(std::int32_t op) {
  switch (op) {
    case AK_SIM_SHUFFLE:
      return "shuffle";
    case AK_SIM_SHUFFLE_UP:
      return "shuffle_up";
    case AK_SIM_SHUFFLE_DOWN:
      return "shuffle_down";
    case AK_SIM_SHUFFLE_XOR:
      return "shuffle_xor";
    case AK_SIM_BALLOT:
      return "ballot";
    case AK_SIM_COLLECTIVE:
      return "a sub-group reduction or scan";
    case AK_SIM_MATCH:
      return "sub_group_match_any";
  }
  return "a sub-group operation";
}

void fail_group(group_run& g, std::string_view why) noexcept {
  g.failed = true;
  g.w->launch->record(why);
}

// ---- switching between the scheduler and items ---------------------------------------------

// From an item's fiber back to its group's scheduler.
void yield_to_scheduler(item& it) {
  worker& w = *it.group->w;
#if defined(AK_ASAN)
  __sanitizer_start_switch_fiber(&it.fake_stack, w.sched_bottom, w.sched_size);
#endif
#if defined(AK_TSAN)
  __tsan_switch_to_fiber(w.sched_tsan, 0);
#endif
  it.caller = std::move(it.caller).resume();
#if defined(AK_ASAN)
  __sanitizer_finish_switch_fiber(it.fake_stack, &w.sched_bottom, &w.sched_size);
#else
  (void)w;
#endif
}

// From the scheduler into an item, until it blocks, yields or returns.
void resume(item& it) {
  [[maybe_unused]] worker& w = *it.group->w;
#if defined(AK_ASAN)
  __sanitizer_start_switch_fiber(&w.sched_fake, it.stack.bottom, stack_bytes());
#endif
#if defined(AK_TSAN)
  w.sched_tsan = __tsan_get_current_fiber();
  ++it.stack.resumes;
  __tsan_switch_to_fiber(it.stack.tsan, 0);
#endif
  it.fiber = std::move(it.fiber).resume();
#if defined(AK_ASAN)
  __sanitizer_finish_switch_fiber(w.sched_fake, nullptr, nullptr);
#endif
}

struct pooled_stack {
  item* it;
  ctx::stack_context allocate() {
    std::vector<fiber_stack>& mine = it->group->w->stacks;
    if (mine.empty()) {
      it->stack = stack_pool::instance().take();
    } else {
      it->stack = mine.back();
      mine.pop_back();
    }
#if defined(AK_ASAN)
    __asan_unpoison_memory_region(it->stack.bottom, stack_bytes());
#endif
#if defined(AK_TSAN)
    // The frames TSan sees entered on a context and left on another (an item's entry never
    // returns: it jumps back to the scheduler) pile up on the context's shadow stack, which TSan
    // caps at 65536 frames (past it, a CHECK failure and a hang: 2026-12-06, with contexts kept
    // for good). So a context is made anew for the next item once 4096 switches went into it.
    if (it->stack.resumes >= 4096) {
      __tsan_destroy_fiber(it->stack.tsan);
      it->stack.tsan = __tsan_create_fiber(0);
      it->stack.resumes = 0;
    }
#endif
    ctx::stack_context sc;
    sc.size = stack_bytes();
    sc.sp = static_cast<char*>(it->stack.bottom) + stack_bytes();
    return sc;
  }
  void deallocate(ctx::stack_context&) noexcept {
    it->group->w->stacks.push_back(it->stack);  // within the reserve
  }
};

void start_item(item& it) {
  item* p = &it;
  it.fiber = ctx::fiber(std::allocator_arg, pooled_stack{p}, [p](ctx::fiber&& caller) {
    worker& w = *p->group->w;
#if defined(AK_ASAN)
    __sanitizer_finish_switch_fiber(nullptr, &w.sched_bottom, &w.sched_size);
#endif
    p->caller = std::move(caller);
    if (!p->abort) {
      const ak_sim_launch_v1& l = *w.launch->launch;
      l.body(l.kernel, &p->view);
    }
    p->st = state::done;
#if defined(AK_ASAN)
    __sanitizer_start_switch_fiber(nullptr, w.sched_bottom, w.sched_size);
#endif
#if defined(AK_TSAN)
    __tsan_switch_to_fiber(w.sched_tsan, 0);
#endif
    return std::move(p->caller);
  });
}

// ---- the scheduler of one group -------------------------------------------------------------

// Why nothing can run although some items have not returned: a divergent barrier, lanes that
// wait in a sub-group operation that not every lane reaches, or items gone while others wait.
std::string stuck_message(const group_run& g, int n) {
  const worker& w = *g.w;
  const item* at_barrier = nullptr;
  const item* at_sub_group = nullptr;
  const item* gone = nullptr;
  for (int i = 0; i < n; ++i) {
    const item& it = w.items[static_cast<std::size_t>(i)];
    if (it.st == state::barrier && !at_barrier) at_barrier = &it;
    if (it.st == state::sub_group && !at_sub_group) at_sub_group = &it;
    if (it.st == state::done && !gone) gone = &it;
  }
  if (at_sub_group) {
    const sub_group_state& sg =
        w.sub_groups[static_cast<std::size_t>(at_sub_group->view.sub_group_id)];
    std::string m = "sub-group divergence: " + item_name(*at_sub_group) + " (lane " +
                    std::to_string(at_sub_group->view.sub_group_lane) + ") waits in " +
                    op_name(sg.op) + " at " + at(sg.file, sg.line) + ", which " +
                    std::to_string(sg.arrived) + " of the sub-group's " +
                    std::to_string(at_sub_group->view.sub_group_width) + " lanes reached";
    for (int i = 0; i < n; ++i) {
      const item& it = w.items[static_cast<std::size_t>(i)];
      if (it.view.sub_group_id != at_sub_group->view.sub_group_id || it.st == state::sub_group)
        continue;
      m +=
          "; lane " + std::to_string(it.view.sub_group_lane) +
          (it.st == state::done ? " returned" : " waits at the barrier at " + at(it.file, it.line));
      break;
    }
    return m;
  }
  if (at_barrier && gone)
    return "barrier divergence: " + item_name(*gone) +
           " returned without reaching the barrier at " + at(at_barrier->file, at_barrier->line) +
           " where " + item_name(*at_barrier) + " waits";
  return "the group cannot make progress";
}

void schedule_round(group_run& g, int n, int& done, int& waiting_barrier, std::vector<int>& round,
                    std::uint64_t& rng);

void run_group(worker& w, std::int64_t linear) {
  launch_state& L = *w.launch;
  const ak_sim_launch_v1& l = *L.launch;
  const profile& prof = *L.prof;
  group_run g;
  g.w = &w;
  g.linear = linear;

  std::int64_t gid[3];
  std::int64_t ng[3];
  for (int d = 0; d < 3; ++d) ng[d] = l.global_size[d] / l.group_size[d];
  gid[0] = linear % ng[0];
  gid[1] = (linear / ng[0]) % ng[1];
  gid[2] = linear / (ng[0] * ng[1]);

  const int n = static_cast<int>(L.group_items);
  const int width = static_cast<int>(prof.sub_group_width);
  const int num_sg = (n + width - 1) / width;
  // Local memory starts out as garbage, as on a GPU; exactly its size, so that ASan sees raw
  // pointers that run past it.
  w.local.assign(static_cast<std::size_t>(l.local_bytes), static_cast<unsigned char>(0xA5));
  w.sub_groups.assign(static_cast<std::size_t>(num_sg), sub_group_state{});
  if (w.exchange_buffers.size() < 2 * static_cast<std::size_t>(num_sg))
    w.exchange_buffers.resize(2 * static_cast<std::size_t>(num_sg));
  w.items.resize(static_cast<std::size_t>(n));
  w.stacks.reserve(static_cast<std::size_t>(n));

  // Every allocation of the scheduler is made here, before any item starts: the ready lists hold
  // each item at most once.
  g.ready.clear();
  g.ready.reserve(static_cast<std::size_t>(n));
  std::vector<int> round;
  round.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    item& it = w.items[static_cast<std::size_t>(i)];
    it.st = state::ready;
    it.abort = false;
    it.started = false;
    it.polls = 0;
    it.linear = i;
    it.group = &g;
    ak_sim_item_v1& v = it.view;
    v = ak_sim_item_v1{};
    v.rank = l.rank;
    v.local_id[0] = static_cast<std::int32_t>(i % l.group_size[0]);
    v.local_id[1] = static_cast<std::int32_t>((i / l.group_size[0]) % l.group_size[1]);
    v.local_id[2] = static_cast<std::int32_t>(i / (l.group_size[0] * l.group_size[1]));
    for (int d = 0; d < 3; ++d) {
      v.local_size[d] = static_cast<std::int32_t>(l.group_size[d]);
      v.group_id[d] = gid[d];
      v.num_groups[d] = ng[d];
      v.global_size[d] = l.global_size[d];
      v.global_id[d] = gid[d] * l.group_size[d] + v.local_id[d];
    }
    v.sub_group_width = width;
    v.sub_group_id = i / width;
    v.sub_group_lane = i % width;
    v.num_sub_groups = num_sg;
    v.sub_group_complete = (n % width == 0 || i / width < n / width) ? 1 : 0;
    v.capabilities = prof.capabilities;
    v.local_memory = w.local.empty() ? nullptr : w.local.data();
    v.local_bytes = l.local_bytes;
    v.kernel_name = l.name;
    v.device_name = L.device_name.c_str();
    v.engine = &it;
    g.ready.push_back(i);
  }

  std::uint64_t rng = L.seed ^ (static_cast<std::uint64_t>(linear) * 0x2545F4914F6CDD1Dull);
  int done = 0;
  int waiting_barrier = 0;
  while (done < n) {
    if (g.failed || L.failed.load(std::memory_order_acquire)) {
      // Unwind every item that has not returned: each sync call sees `abort` and returns at once.
      // Items that never started have nothing to unwind. No item is left suspended: its fiber
      // would be destroyed with the group.
      for (int pass = 0; pass < 4 && done < n; ++pass)
        for (int i = 0; i < n; ++i) {
          item& it = w.items[static_cast<std::size_t>(i)];
          if (it.st == state::done) continue;
          it.abort = true;
          if (it.started)
            resume(it);
          else
            it.st = state::done;
          if (it.st == state::done) ++done;
        }
      if (done < n) std::abort();  // an item swallowed the unwind: nothing safe is left to do
      break;
    }
    // What the scheduler itself can fail at (memory for a fiber's stack or a message) fails the
    // launch; the items are then unwound above.
    try {
      schedule_round(g, n, done, waiting_barrier, round, rng);
    } catch (const std::exception& e) {
      fail_group(g, e.what());
    }
  }
}

// One step of run_group: releases a barrier everyone reached (or fails the group for one they
// cannot), or resumes every ready item once, in launch order or shuffled.
void schedule_round(group_run& g, int n, int& done, int& waiting_barrier, std::vector<int>& round,
                    std::uint64_t& rng) {
  worker& w = *g.w;
  launch_state& L = *w.launch;
  if (g.ready.empty()) {
    const int live = n - done;
    if (waiting_barrier == live && done == 0) {
      const item& first = w.items[0];
      for (int i = 1; i < n; ++i) {
        const item& it = w.items[static_cast<std::size_t>(i)];
        if (it.line != first.line || !same_file(it.file, first.file)) {
          fail_group(g, "barrier divergence: " + item_name(first) + " waits at the barrier at " +
                            at(first.file, first.line) + ", " + item_name(it) + " at " +
                            at(it.file, it.line));
          break;
        }
      }
      if (g.failed) return;
      waiting_barrier = 0;
      for (int i = 0; i < n; ++i) {
        w.items[static_cast<std::size_t>(i)].st = state::ready;
        g.ready.push_back(i);
      }
      return;
    }
    fail_group(g, stuck_message(g, n));
    return;
  }
  round.swap(g.ready);
  g.ready.clear();
  if (L.seed) shuffle(round, rng);
  for (int i : round) {
    item& it = w.items[static_cast<std::size_t>(i)];
    if (!it.started) {
      start_item(it);  // may throw (no memory for its stack): then it has not started
      it.started = true;
    }
    resume(it);
    if (it.st == state::done)
      ++done;
    else if (it.st == state::barrier)
      ++waiting_barrier;
    if (g.failed) break;
  }
  // Items of this round not resumed because of a failure are unwound by run_group.
}

// ---- the workers of a launch -----------------------------------------------------------------

// The group that the launch's idx-th start runs: launch order, or with a seed a permutation
// within windows of `window` consecutive groups.
std::int64_t group_at(const launch_state& L, std::int64_t idx, std::int64_t window) {
  if (!L.seed || window < 2) return idx;
  const std::int64_t base = idx - idx % window;
  const std::int64_t len = std::min(window, L.group_count - base);
  std::uint64_t rng = L.seed * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(base);
  std::int64_t perm[64];
  for (std::int64_t i = 0; i < len; ++i) perm[i] = i;
  for (std::int64_t i = len; i > 1; --i)
    std::swap(perm[i - 1], perm[splitmix(rng) % static_cast<std::uint64_t>(i)]);
  return base + perm[idx - base];
}

// Where a failed launch's message lives until the next launch on the thread (the C table's
// promise): a fixed buffer, so that a failure keeps no memory (long messages are cut).
thread_local char launch_message[4096];

const char* keep_message(const std::string& m) noexcept {
  std::snprintf(launch_message, sizeof launch_message, "%s", m.c_str());
  return launch_message;
}

// AK_LOG=launch: one line per launch, with what a group did on average (the barriers its items
// met, the atomics they called) and what a sub-group did (its operations, by kind), so that the
// work of two kernels can be compared on any machine.
void log_launch(const launch_state& L) noexcept {
  try {
    const auto& c = L.counts;
    const double groups = static_cast<double>(L.group_count);
    // An operation is one call by each lane of a sub-group: per sub-group, calls / items.
    const double items = groups * static_cast<double>(L.group_items);
    auto num = [](double x) {
      char b[32];
      std::snprintf(b, sizeof b,
                    x == static_cast<double>(static_cast<std::int64_t>(x)) ? "%.0f" : "%.1f", x);
      return std::string(b);
    };
    std::uint64_t ops = 0;
    std::string kinds;
    for (int op = 0; op < launch_counts::ops; ++op) {
      if (!c.sub_group[op]) continue;
      ops += c.sub_group[op];
      kinds += (kinds.empty() ? "" : ", ") + std::string(op_name(op)) + " " +
               num(static_cast<double>(c.sub_group[op]) / items);
    }
    std::string line = "ak launch: kernel '" + std::string(L.launch->name) + "' on " +
                       L.device_name + ", " + std::to_string(L.group_count) + " groups of " +
                       std::to_string(L.group_items) + " work-items (sub-groups of " +
                       std::to_string(L.prof->sub_group_width) +
                       "); per group: " + num(static_cast<double>(c.barriers) / items) +
                       " barriers, " + num(static_cast<double>(c.local_atomics) / groups) +
                       " local and " + num(static_cast<double>(c.global_atomics) / groups) +
                       " global atomics; per sub-group: " + num(static_cast<double>(ops) / items) +
                       " operations" + (kinds.empty() ? "" : " (" + kinds + ")");
    if (L.failed.load()) line += "; failed";
    ak::detail::write_log_line(line);
  } catch (...) {  // no memory for the line: the launch goes on without it
  }
}

}  // namespace

// ---- the C table -------------------------------------------------------------------------------

std::int32_t launch(std::int64_t device, const ak_sim_launch_v1* l, const char** message) {
  auto bad = [&](const std::string& why) {
    *message =
        keep_message("ak::sim::launch: kernel '" + std::string(l && l->name ? l->name : "?") +
                     "' on sim:" + std::to_string(device) + ": " + why);
    return static_cast<std::int32_t>(AK_SIM_BAD_LAUNCH);
  };
  if (!l || !l->body) return bad("no kernel");
  if (device < 0 || device >= profile_count) return bad("no such sim device");
  const profile& prof = profiles[device];
  if (l->rank < 1 || l->rank > 3) return bad("rank " + std::to_string(l->rank) + " outside [1, 3]");
  std::int64_t items = 1;
  for (int d = 0; d < 3; ++d) {
    const std::int64_t gl = d < l->rank ? l->global_size[d] : 1;
    const std::int64_t gr = d < l->rank ? l->group_size[d] : 1;
    if (gl < 0)
      return bad("global size " + std::to_string(gl) + " in dimension " + std::to_string(d));
    if (gr < 1 || gr > prof.max_group_size)
      return bad("group size " + std::to_string(gr) + " in dimension " + std::to_string(d) +
                 " outside [1, " + std::to_string(prof.max_group_size) + "]");
    if (gl % gr != 0)
      return bad("global size " + std::to_string(gl) + " in dimension " + std::to_string(d) +
                 " is not a multiple of the group size " + std::to_string(gr));
    items *= gr;
  }
  if (items > prof.max_group_size)
    return bad("groups of " + std::to_string(items) + " work-items; the device takes at most " +
               std::to_string(prof.max_group_size));
  if (l->local_bytes > static_cast<std::uint64_t>(prof.local_memory_bytes))
    return bad(std::to_string(l->local_bytes) + " bytes of local memory; the device has " +
               std::to_string(prof.local_memory_bytes) + " per group");

  ak_sim_launch_v1 norm = *l;
  for (int d = l->rank; d < 3; ++d) norm.global_size[d] = norm.group_size[d] = 1;
  std::int64_t groups = 1;
  for (int d = 0; d < 3; ++d) groups *= norm.global_size[d] / norm.group_size[d];
  if (groups == 0) return AK_SIM_OK;

  launch_state L;
  L.launch = &norm;
  L.prof = &prof;
  L.device_name = "sim:" + std::to_string(device);
  L.seed = seed_setting().load(std::memory_order_relaxed);
  L.group_count = groups;
  L.group_items = items;

  const std::int64_t nworkers = std::min<std::int64_t>(worker_threads(), groups);
  std::atomic<std::int64_t> next{0};
  auto work = [&] {
#if defined(AK_TSAN)
    // The groups' scheduler runs on a TSan context of its own for the launch, not on the
    // thread's: the frames TSan sees entered on one context and left on another as items start
    // and end would otherwise pile up on the thread's context from launch to launch (the caller's
    // and the kept threads') until TSan failed (a stack past 65536 frames, 2026-12-06).
    void* const thread_tsan = __tsan_get_current_fiber();
    void* const sched_tsan = __tsan_create_fiber(0);
    __tsan_switch_to_fiber(sched_tsan, 0);
#endif
    {
      worker w;
      w.launch = &L;
      for (;;) {
        if (L.failed.load(std::memory_order_acquire)) break;
        const std::int64_t idx = next.fetch_add(1, std::memory_order_relaxed);
        if (idx >= groups) break;
        try {
          run_group(w, group_at(L, idx, nworkers));
        } catch (const std::exception& e) {
          L.record(std::string("the simulator failed: ") + e.what());
        }
      }
      std::lock_guard lock(L.mutex);
      L.counts.add(w.counts);
    }
#if defined(AK_TSAN)
    __tsan_switch_to_fiber(thread_tsan, 0);
    __tsan_destroy_fiber(sched_tsan);
#endif
  };
  try {
    thread_pool::instance().run(nworkers, work);
  } catch (const std::exception& e) {
    // A worker that cannot start (out of memory or threads): nothing of the launch has run, and
    // it fails as a kernel error.
    L.record(std::string("the simulator could not start its worker threads: ") + e.what());
  }
  if (ak::detail::log_enabled(ak::detail::log_topic::launch)) log_launch(L);
  if (!L.failed.load()) return AK_SIM_OK;
  std::string m = "kernel '" + std::string(norm.name) + "' on " + L.device_name + " (" +
                  prof.device_class +
                  "): " + (L.lost_message ? "(no memory to say what failed)" : L.message);
  if (L.seed) m += " [sim seed " + std::to_string(L.seed) + "]";
  *message = keep_message(m);
  return AK_SIM_KERNEL_FAILED;
}

std::int32_t barrier(ak_sim_item_v1* v, const char* file, std::int32_t line) {
  item& it = *static_cast<item*>(v->engine);
  if (it.abort) return 1;
  it.st = state::barrier;
  it.file = file;
  it.line = line;
  it.polls = 0;
  ++it.group->w->counts.barriers;
  yield_to_scheduler(it);
  return it.abort ? 1 : 0;
}

const void* sub_group_exchange(ak_sim_item_v1* v, const void* value, std::uint32_t bytes,
                               std::int32_t op, const char* file, std::int32_t line) {
  item& it = *static_cast<item*>(v->engine);
  if (it.abort) return nullptr;
  group_run& g = *it.group;
  worker& w = *g.w;
  if (!v->sub_group_complete) {
    fail_group(g, item_name(it) + ": " + op_name(op) + " at " + at(file, line) +
                      " in a partial sub-group (groups of " +
                      std::to_string(w.launch->group_items) +
                      " work-items are not a multiple of the sub-group width " +
                      std::to_string(v->sub_group_width) + ")");
    return nullptr;
  }
  sub_group_state& sg = w.sub_groups[static_cast<std::size_t>(v->sub_group_id)];
  const int width = v->sub_group_width;
  if (sg.arrived == 0) {
    sg.op = op;
    sg.bytes = bytes;
    sg.file = file;
    sg.line = line;
    sg.first_lane = v->sub_group_lane;
    w.exchange_buffer(v->sub_group_id, sg.parity).resize(static_cast<std::size_t>(width) * bytes);
  } else if (sg.op != op || sg.bytes != bytes || sg.line != line || !same_file(sg.file, file)) {
    fail_group(g, "sub-group divergence: lane " + std::to_string(sg.first_lane) + " of " +
                      item_name(it).substr(item_name(it).find("group")) + "'s sub-group " +
                      std::to_string(v->sub_group_id) + " is in " + op_name(sg.op) + " at " +
                      at(sg.file, sg.line) + ", lane " + std::to_string(v->sub_group_lane) +
                      " in " + op_name(op) + " at " + at(file, line));
    return nullptr;
  }
  unsigned char* buf = w.exchange_buffer(v->sub_group_id, sg.parity).data();
  std::memcpy(buf + static_cast<std::size_t>(v->sub_group_lane) * bytes, value, bytes);
  ++w.counts.sub_group[op > 0 && op < launch_counts::ops ? op : 0];
  it.polls = 0;
  if (++sg.arrived == width) {
    // The last lane: release the others (they run in the next round) and go on.
    sg.arrived = 0;
    sg.parity ^= 1;
    const int first = v->sub_group_id * width;
    for (int i = first; i < first + width; ++i) {
      item& other = w.items[static_cast<std::size_t>(i)];
      if (&other != &it && other.st == state::sub_group) {
        other.st = state::ready;
        g.ready.push_back(i);
      }
    }
    return buf;
  }
  it.st = state::sub_group;
  yield_to_scheduler(it);
  return it.abort ? nullptr : buf;
}

std::int32_t poll(ak_sim_item_v1* v, const void* address) {
  item& it = *static_cast<item*>(v->engine);
  const auto* a = static_cast<const unsigned char*>(address);
  launch_counts& c = it.group->w->counts;
  ++(a >= v->local_memory && a < v->local_memory + v->local_bytes ? c.local_atomics
                                                                  : c.global_atomics);
  if (it.abort || it.group->w->launch->failed.load(std::memory_order_relaxed)) return 1;
  if (++it.polls % 64 == 0) {
    // Let the group's other items run: one of them may be what this one waits for.
    if (it.polls % 4096 == 0) std::this_thread::yield();
    if (it.polls == 1u << 16) it.spin_start = std::chrono::steady_clock::now();
    if (it.polls > 1u << 16 && it.polls % (1u << 16) == 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - it.spin_start).count() >
            spin_timeout_seconds()) {
      fail_group(*it.group,
                 item_name(it) + ": no progress: it has waited in atomics for more than " +
                     std::to_string(static_cast<long long>(spin_timeout_seconds())) +
                     " s (AK_SIM_SPIN_TIMEOUT) without reaching a barrier or sub-group operation;"
                     " is it waiting for a group that cannot run before it (forward progress)?");
      return 1;
    }
    it.st = state::ready;
    it.group->ready.push_back(it.linear);
    yield_to_scheduler(it);
  }
  return it.abort ? 1 : 0;
}

void fail(ak_sim_item_v1* v, const char* message) {
  item& it = *static_cast<item*>(v->engine);
  try {
    fail_group(*it.group, item_name(it) + ": " + (message ? message : "failed"));
  } catch (...) {  // no memory for the item's name: the message alone
    fail_group(*it.group, message ? message : "failed");
  }
}

void set_seed(std::uint64_t s) {
  seed_setting().store(s, std::memory_order_relaxed);
}

std::uint64_t seed() {
  return seed_setting().load(std::memory_order_relaxed);
}

}  // namespace ak::sim_backend

// The symbol AK_SIM_API_SYMBOL names.
extern "C" __attribute__((visibility("default"))) const ak_sim_api_v1 ak_sim_api_table_v1 = {
    AK_SIM_API_VERSION,         &ak::sim_backend::launch,
    &ak::sim_backend::barrier,  &ak::sim_backend::sub_group_exchange,
    &ak::sim_backend::poll,     &ak::sim_backend::fail,
    &ak::sim_backend::set_seed, &ak::sim_backend::seed};
