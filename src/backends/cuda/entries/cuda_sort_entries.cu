// The cuda plugin's precompiled sort entries (see gpu_entry_instances.hpp).
#include "gpu_entry_instances.hpp"

namespace ak {
#define AK_MAKE(T) AK_GPU_SORT_INSTANCES(, T)
AK_FOR_EACH_PRECOMPILED_SORT_TYPE(AK_MAKE)
#undef AK_MAKE
}  // namespace ak
