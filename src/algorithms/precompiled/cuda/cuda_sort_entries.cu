// The cuda plugin's precompiled sort, sortperm and searchsorted entries (see cuda_entries.hpp).
#include "cuda_entries.hpp"

namespace ak {
#define AK_MAKE(T) AK_CUDA_SORT_INSTANCES(, T)
AK_FOR_EACH_SORT_TYPE(AK_MAKE)
#undef AK_MAKE
}  // namespace ak
