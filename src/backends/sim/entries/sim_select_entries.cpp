// The sim plugin's precompiled selection, findmin/findmax/extrema and histogram entries (see
// gpu_entry_instances.hpp).
#include "gpu_entry_instances.hpp"

namespace ak {
AK_FOR_EACH_PRECOMPILED_SORT_TYPE(AK_MAKE_GPU_SELECT_INSTANCES)
AK_FOR_EACH_PRECOMPILED_NUMERIC_TYPE(AK_MAKE_GPU_HISTOGRAM_INSTANCES)
}  // namespace ak
