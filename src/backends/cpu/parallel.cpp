// run_tasks: the cpu algorithms' only way to the oneTBB scheduler.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "ak/backends/cpu/parallel.hpp"

// Under ThreadSanitizer (the tsan preset), oneTBB is uninstrumented: Debian's library, and this
// file, where its header code is instantiated (src/backends/cpu/CMakeLists.txt). TSan does not
// see that parallel_for orders what the caller wrote before every task, and every task before
// its return. That is what oneTBB promises, and it is said here once, for every cpu algorithm, by
// a release and an acquire on two addresses; races between tasks, and anything the tasks order
// among themselves (the scans' chained tiles), TSan still checks.
#include "ak/core/sanitizers.hpp"
#if defined(AK_TSAN)
#include <sanitizer/tsan_interface.h>
#endif

namespace ak::cpu {

namespace {
// Orders the code before it (in the scope's thread) before the code after `acquire` elsewhere.
struct tsan_edge {
#if defined(AK_TSAN)
  char fork = 0, join = 0;
#endif
  void start() {
#if defined(AK_TSAN)
    __tsan_release(&fork);
#endif
  }
  void task_begins() {
#if defined(AK_TSAN)
    __tsan_acquire(&fork);
#endif
  }
  void task_ends() {
#if defined(AK_TSAN)
    __tsan_release(&join);
#endif
  }
  void finish() {
#if defined(AK_TSAN)
    __tsan_acquire(&join);
#endif
  }
};
}  // namespace

void run_tasks(std::int64_t count, void (*fn)(void*, std::int64_t), void* context) {
  if (count <= 0) return;
  tsan_edge edge;
  edge.start();
  struct finish_on_exit {
    tsan_edge& e;
    ~finish_on_exit() { e.finish(); }  // an exception from a task comes back here too
  } finish{edge};
  // One TBB task per ak task: the algorithms size their tasks from the tuning already.
  tbb::parallel_for(
      tbb::blocked_range<std::int64_t>(0, count, 1),
      [&](const tbb::blocked_range<std::int64_t>& r) {
        edge.task_begins();
        struct end_on_exit {
          tsan_edge& e;
          ~end_on_exit() { e.task_ends(); }
        } end{edge};
        for (std::int64_t t = r.begin(); t != r.end(); ++t) fn(context, t);
      },
      tbb::simple_partitioner());
}

}  // namespace ak::cpu
