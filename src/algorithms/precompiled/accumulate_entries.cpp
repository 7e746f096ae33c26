// Precompiled accumulate for the standard dtypes and plus, multiplies, min, max (cpu; data on a
// GPU-style device goes to its backend's entry table, gpu_entries.hpp).
#include "ak/algorithms/accumulate.hpp"
#include "dispatch_op.hpp"
#include "gpu_entries.hpp"

namespace ak::detail {

#define AK_DEFINE_ACCUMULATE_ENTRY(T)                                                              \
  void accumulate_entry(const device& dev, const resolved_scan& r, view<const T> src, view<T> dst, \
                        std::size_t dim, op_kind op, const accumulate_options<T>& o,               \
                        const char* function) {                                                    \
    if (on_gpu(dev))                                                                               \
      return gpu_entries_for(dev).numeric_of<T>().accumulate(dev, r, src, dst, dim, op, o,         \
                                                             function);                            \
    with_standard_op<T, false>(op, function, [&](auto f) {                                         \
      cpu_accumulate(dev, r.tuning, src, dst, dim, f, o, function);                                \
    });                                                                                            \
  }
AK_FOR_EACH_PRECOMPILED_NUMERIC_TYPE(AK_DEFINE_ACCUMULATE_ENTRY)
#undef AK_DEFINE_ACCUMULATE_ENTRY

}  // namespace ak::detail
