// Precompiled reduce and reduce-along-dims on GPU-style devices (see gpu_entries.hpp).
#include "gpu_entries.hpp"
#include "gpu_entry_bodies.hpp"

namespace ak::detail {

#define AK_DEFINE_GPU_REDUCE_ENTRIES(T)                                            \
  T gpu_reduce_entry(view<const T> src, op_kind op, const reduce_options<T>& o) {  \
    if (const auto* t = exported_gpu_entries(src.memory()))                        \
      return t->numeric_of<T>().reduce(src, op, o);                                \
    return gpu_reduce_body<T>(src, op, o);                                         \
  }                                                                                \
  array<T> gpu_reduce_dims_entry(view<const T> src, op_kind op, const dims& along, \
                                 const reduce_options<T>& o) {                     \
    if (const auto* t = exported_gpu_entries(src.memory()))                        \
      return t->numeric_of<T>().reduce_dims(src, op, along, o);                    \
    return gpu_reduce_dims_body<T>(src, op, along, o);                             \
  }
AK_FOR_EACH_NUMERIC_TYPE(AK_DEFINE_GPU_REDUCE_ENTRIES)
#undef AK_DEFINE_GPU_REDUCE_ENTRIES

}  // namespace ak::detail
