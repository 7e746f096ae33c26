// main() of the sim tests: no user overrides or caches; the sim plugin is found next to libak.
#include <gtest/gtest.h>

#include <cstdlib>

int main(int argc, char** argv) {
  ::unsetenv("AK_TUNING");
  ::unsetenv("AK_BACKEND_PATH");
  ::setenv("AK_TUNING_CACHE_DIR", AK_TEST_TUNING_CACHE_DIR, 1);
  // A stuck launch fails after 5 s instead of 60 (SimWatchdog tests this).
  ::setenv("AK_SIM_SPIN_TIMEOUT", "5", 0);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
