// Which sanitizer this translation unit is built with (g++ defines __SANITIZE_*__, clang answers
// __has_feature): AK_ASAN for AddressSanitizer, AK_TSAN for ThreadSanitizer. The code that tells
// a sanitizer what it cannot see for itself (sim's fibers, oneTBB's fork and join, fences) asks
// these. A file built without instrumentation in a TSan build (src/backends/cpu/parallel.cpp) is
// given AK_TSAN by its build rule.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define AK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AK_ASAN 1
#endif
#endif

#if defined(AK_TSAN)
#elif defined(__SANITIZE_THREAD__)
#define AK_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define AK_TSAN 1
#endif
#endif
