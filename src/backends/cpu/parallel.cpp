// run_tasks: the cpu algorithms' only way to the oneTBB scheduler.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "ak/backends/cpu/parallel.hpp"

namespace ak::cpu {

void run_tasks(std::int64_t count, void (*fn)(void*, std::int64_t), void* context) {
  if (count <= 0) return;
  // One TBB task per ak task: the algorithms size their tasks from the tuning already.
  tbb::parallel_for(
      tbb::blocked_range<std::int64_t>(0, count, 1),
      [&](const tbb::blocked_range<std::int64_t>& r) {
        for (std::int64_t t = r.begin(); t != r.end(); ++t) fn(context, t);
      },
      tbb::simple_partitioner());
}

}  // namespace ak::cpu
