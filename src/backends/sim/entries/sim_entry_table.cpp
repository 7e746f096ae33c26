// The sim plugin's table of precompiled entries (see gpu_entry_table_def.hpp).
#include "gpu_entry_table_def.hpp"
