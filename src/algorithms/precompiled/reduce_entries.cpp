// Precompiled reduce and reduce-along-dims for the standard dtypes and operators.
#include "ak/algorithms/reduce.hpp"
#include "dispatch_op.hpp"

namespace ak::detail {

#define AK_DEFINE_REDUCE_ENTRIES(T)                                                            \
  T reduce_entry(view<const T> src, op_kind op, const reduce_options<T>& o) {                  \
    return with_standard_op<T, true>(op, "ak::reduce", [&](auto f) -> T {                      \
      return mapreduce_all(src, identity{}, f, o, "ak::reduce");                               \
    });                                                                                        \
  }                                                                                            \
  array<T> reduce_dims_entry(view<const T> src, op_kind op, const dims& along,                \
                             const reduce_options<T>& o) {                                     \
    return with_standard_op<T, true>(op, "ak::reduce", [&](auto f) -> array<T> {               \
      return mapreduce_along(src, identity{}, f, along, o, "ak::reduce");                      \
    });                                                                                        \
  }
AK_FOR_EACH_NUMERIC_TYPE(AK_DEFINE_REDUCE_ENTRIES)
#undef AK_DEFINE_REDUCE_ENTRIES

}  // namespace ak::detail
