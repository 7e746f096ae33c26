// Precompiled accumulate on GPU-style devices (see gpu_entries.hpp).
#include "ak/algorithms/accumulate.hpp"
#include "dispatch_op.hpp"
#include "gpu_entries.hpp"

namespace ak::detail {

#define AK_DEFINE_GPU_ACCUMULATE_ENTRY(T)                                                      \
  void gpu_accumulate_entry(view<const T> src, view<T> dst, op_kind op,                       \
                            const accumulate_options<T>& o, const char* function) {            \
    with_standard_op<T, false>(op, function, [&](auto f) {                                     \
      accumulate_impl<paths::gpu>(src, dst, f, o, function);                                   \
    });                                                                                        \
  }
AK_FOR_EACH_NUMERIC_TYPE(AK_DEFINE_GPU_ACCUMULATE_ENTRY)
#undef AK_DEFINE_GPU_ACCUMULATE_ENTRY

}  // namespace ak::detail
