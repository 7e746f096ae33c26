// The cuda plugin's precompiled accumulate entries (see cuda_entries.hpp).
#include "cuda_entries.hpp"

namespace ak {
#define AK_MAKE(T) AK_CUDA_ACCUMULATE_INSTANCE(, T)
AK_FOR_EACH_NUMERIC_TYPE(AK_MAKE)
#undef AK_MAKE
}  // namespace ak
