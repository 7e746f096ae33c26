// Precompiled reduce and reduce-along-dims for the standard dtypes and operators (cpu; data on a
// GPU-style device goes to gpu_reduce_entries.cpp).
#include "ak/algorithms/reduce.hpp"
#include "dispatch_op.hpp"
#include "gpu_entries.hpp"

namespace ak::detail {

#define AK_DEFINE_REDUCE_ENTRIES(T)                                                   \
  T reduce_entry(view<const T> src, op_kind op, const reduce_options<T>& o) {         \
    if (on_gpu_memory(src.memory())) return gpu_reduce_entry(src, op, o);             \
    return with_standard_op<T, true>(op, "ak::reduce", [&](auto f) -> T {             \
      return mapreduce_all<paths::cpu>(src, identity{}, f, o, "ak::reduce");          \
    });                                                                               \
  }                                                                                   \
  array<T> reduce_dims_entry(view<const T> src, op_kind op, const dims& along,        \
                             const reduce_options<T>& o) {                            \
    if (on_gpu_memory(src.memory())) return gpu_reduce_dims_entry(src, op, along, o); \
    return with_standard_op<T, true>(op, "ak::reduce", [&](auto f) -> array<T> {      \
      return mapreduce_along<paths::cpu>(src, identity{}, f, along, o, "ak::reduce"); \
    });                                                                               \
  }
AK_FOR_EACH_NUMERIC_TYPE(AK_DEFINE_REDUCE_ENTRIES)
#undef AK_DEFINE_REDUCE_ENTRIES

}  // namespace ak::detail
