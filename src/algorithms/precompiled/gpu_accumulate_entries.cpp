// Precompiled accumulate on GPU-style devices (see gpu_entries.hpp).
#include "gpu_entries.hpp"
#include "gpu_entry_bodies.hpp"

namespace ak::detail {

#define AK_DEFINE_GPU_ACCUMULATE_ENTRY(T)                                           \
  void gpu_accumulate_entry(view<const T> src, view<T> dst, op_kind op,             \
                            const accumulate_options<T>& o, const char* function) { \
    if (const auto* t = exported_gpu_entries(src.memory()))                         \
      return t->numeric_of<T>().accumulate(src, dst, op, o, function);              \
    gpu_accumulate_body<T>(src, dst, op, o, function);                              \
  }
AK_FOR_EACH_NUMERIC_TYPE(AK_DEFINE_GPU_ACCUMULATE_ENTRY)
#undef AK_DEFINE_GPU_ACCUMULATE_ENTRY

}  // namespace ak::detail
