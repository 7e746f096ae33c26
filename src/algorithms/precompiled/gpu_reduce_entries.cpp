// Precompiled reduce and reduce-along-dims on GPU-style devices (see gpu_entries.hpp).
#include "ak/algorithms/reduce.hpp"
#include "dispatch_op.hpp"
#include "gpu_entries.hpp"

namespace ak::detail {

#define AK_DEFINE_GPU_REDUCE_ENTRIES(T)                                                        \
  T gpu_reduce_entry(view<const T> src, op_kind op, const reduce_options<T>& o) {              \
    const device dev = algorithm_device("ak::reduce", "src", src.memory());                    \
    return with_standard_op<T, true>(op, "ak::reduce", [&](auto f) -> T {                      \
      return gpu_mapreduce_all(dev, src, identity{}, f, o, "ak::reduce");                      \
    });                                                                                        \
  }                                                                                            \
  array<T> gpu_reduce_dims_entry(view<const T> src, op_kind op, const dims& along,            \
                                 const reduce_options<T>& o) {                                 \
    return with_standard_op<T, true>(op, "ak::reduce", [&](auto f) -> array<T> {               \
      return mapreduce_along<paths::gpu>(src, identity{}, f, along, o, "ak::reduce");          \
    });                                                                                        \
  }
AK_FOR_EACH_NUMERIC_TYPE(AK_DEFINE_GPU_REDUCE_ENTRIES)
#undef AK_DEFINE_GPU_REDUCE_ENTRIES

}  // namespace ak::detail
