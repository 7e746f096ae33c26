// The built-in cpu backend: native CPU algorithms scheduled by oneTBB.
#pragma once

#include <cstdint>

namespace ak::cpu {

// Caps the worker threads of every ak call on the cpu backend. n = 0 restores the default:
// AK_NUM_THREADS when it is set (read when the backend loads), else every hardware thread.
// Throws ak::argument_error for n < 0.
void set_num_threads(std::int64_t n);
// The number of worker threads ak's cpu algorithms use now.
std::int64_t num_threads() noexcept;

}  // namespace ak::cpu
