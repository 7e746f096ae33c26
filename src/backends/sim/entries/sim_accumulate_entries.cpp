// The sim plugin's precompiled accumulate entries (see gpu_entry_instances.hpp).
#include "gpu_entry_instances.hpp"

namespace ak {
#define AK_MAKE(T) AK_GPU_ACCUMULATE_INSTANCE(, T)
AK_FOR_EACH_PRECOMPILED_NUMERIC_TYPE(AK_MAKE)
#undef AK_MAKE
}  // namespace ak
