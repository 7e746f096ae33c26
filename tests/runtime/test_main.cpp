// main() of the runtime tests: the tests must not see a user's own overrides, caches or plugins,
// and the plugin tests must see the test plugins, however the binary is started.
#include <gtest/gtest.h>

#include <cstdlib>

int main(int argc, char** argv) {
  ::unsetenv("AK_TUNING");
  ::setenv("AK_TUNING_CACHE_DIR", AK_TEST_TUNING_CACHE_DIR, 1);
#ifdef AK_TEST_PLUGIN_DIR
  ::setenv("AK_BACKEND_PATH", AK_TEST_PLUGIN_DIR, 1);
#else
  ::unsetenv("AK_BACKEND_PATH");
#endif
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
