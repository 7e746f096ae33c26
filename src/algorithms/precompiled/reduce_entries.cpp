// Precompiled reduce and reduce-along-dims for the standard dtypes and operators (cpu; data on a
// GPU-style device goes to its backend's entry table, gpu_entries.hpp).
#include "ak/algorithms/reduce.hpp"
#include "dispatch_op.hpp"
#include "gpu_entries.hpp"

namespace ak::detail {

#define AK_DEFINE_REDUCE_ENTRIES(T)                                                                \
  T reduce_entry(const device& dev, const reduce_tuning& t, view<const T> src, op_kind op,         \
                 const reduce_options<T>& o) {                                                     \
    if (on_gpu(dev)) return gpu_entries_for(dev).numeric_of<T>().reduce(dev, t, src, op, o);       \
    return with_standard_op<T, true>(op, "ak::reduce", [&](auto f) -> T {                          \
      return cpu_mapreduce_all(t, src, identity{}, f, o);                                          \
    });                                                                                            \
  }                                                                                                \
  void reduce_dims_entry(const device& dev, const reduce_tuning& t, view<const T> src, op_kind op, \
                         std::uint32_t mask, std::int64_t per_output, const reduce_options<T>& o,  \
                         array<T>& out) {                                                          \
    if (on_gpu(dev))                                                                               \
      return gpu_entries_for(dev).numeric_of<T>().reduce_dims(dev, t, src, op, mask, per_output,   \
                                                              o, out);                             \
    with_standard_op<T, true>(op, "ak::reduce", [&](auto f) {                                      \
      cpu_mapreduce_along(dev, t, src, identity{}, f, mask, o, out);                               \
    });                                                                                            \
  }
AK_FOR_EACH_PRECOMPILED_NUMERIC_TYPE(AK_DEFINE_REDUCE_ENTRIES)
#undef AK_DEFINE_REDUCE_ENTRIES

// count, any and all of truthy elements, for every dtype.
#define AK_DEFINE_COUNT_ENTRIES(T)                                                          \
  std::int64_t count_entry(const device& dev, const reduce_tuning& t, view<const T> v) {    \
    if (on_gpu(dev)) return gpu_entries_for(dev).sort_of<T>().count(dev, t, v);             \
    return cpu_mapreduce_all(t, v, count_if_true<truthy>{}, plus{},                         \
                             reduce_options<std::int64_t>{});                               \
  }                                                                                         \
  bool find_any_entry(const map_tuning& t, view<const T> v, bool want) {                    \
    return want ? cpu_find_any<true>(t, v, truthy{}) : cpu_find_any<false>(t, v, truthy{}); \
  }
AK_FOR_EACH_PRECOMPILED_SORT_TYPE(AK_DEFINE_COUNT_ENTRIES)
#undef AK_DEFINE_COUNT_ENTRIES

}  // namespace ak::detail
