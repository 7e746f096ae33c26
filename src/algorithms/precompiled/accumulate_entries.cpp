// Precompiled accumulate for the standard dtypes and plus, multiplies, min, max (cpu; data on a
// GPU-style device goes to gpu_accumulate_entries.cpp).
#include "ak/algorithms/accumulate.hpp"
#include "dispatch_op.hpp"
#include "gpu_entries.hpp"

namespace ak::detail {

#define AK_DEFINE_ACCUMULATE_ENTRY(T)                                                          \
  void accumulate_entry(view<const T> src, view<T> dst, op_kind op,                            \
                        const accumulate_options<T>& o, const char* function) {                \
    if (on_gpu_memory(src.memory())) return gpu_accumulate_entry(src, dst, op, o, function);   \
    with_standard_op<T, false>(                                                                \
        op, function, [&](auto f) { accumulate_impl<paths::cpu>(src, dst, f, o, function); }); \
  }
AK_FOR_EACH_NUMERIC_TYPE(AK_DEFINE_ACCUMULATE_ENTRY)
#undef AK_DEFINE_ACCUMULATE_ENTRY

}  // namespace ak::detail
