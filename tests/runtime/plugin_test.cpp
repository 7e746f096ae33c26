// Backend plugins: loading at run time, the tunings they bring, and every way loading can fail.
// CTest runs this with AK_BACKEND_PATH pointing at the test plugins' folder.
#include <gtest/gtest.h>

#include "ak/core/error.hpp"
#include "ak/runtime/algorithm_values.hpp"
#include "ak/runtime/tuning.hpp"
#include "operation/precompiled_operation.hpp"
#include "test_support.hpp"

namespace {

std::string plugin_dir() {
  const char* p = std::getenv("AK_BACKEND_PATH");
  return p ? p : "";
}

std::string load_error(const std::string& name) {
  try {
    ak::load_backend(name);
  } catch (const ak::backend_error& e) {
    return e.what();
  }
  return {};
}

TEST(Plugin, TestPluginsAreOnTheSearchPath) {
  ASSERT_FALSE(plugin_dir().empty()) << "run through CTest, which sets AK_BACKEND_PATH";
  bool found = false;
  for (const auto& [name, path] : ak::discoverable_backends()) found |= name == "testgpu";
  EXPECT_TRUE(found);
}

TEST(Plugin, BackendLoadedAfterCompilationChangesPrecompiledLookups) {
  // The operation was compiled without knowing testgpu. On cpu it sees the generic block size.
  ak::device cpu("cpu");
  EXPECT_EQ(ak::test::precompiled_reduce_block_size(cpu, ak::dtype::float32), 256);
  // testgpu registers its defaults when it loads; the same machine code now sees them.
  ak::device gpu("testgpu:0");
  EXPECT_EQ(ak::test::precompiled_reduce_block_size(gpu, ak::dtype::float32), 512);
  EXPECT_EQ(ak::test::precompiled_reduce_block_size(gpu, ak::dtype::int32), 128);
  EXPECT_EQ(ak::test::precompiled_reduce_block_size(ak::device("testgpu:1"), ak::dtype::float32),
            128);
  // And nothing changed for the cpu.
  EXPECT_EQ(ak::test::precompiled_reduce_block_size(cpu, ak::dtype::float32), 256);
  auto e = ak::explain_tuning(ak::reduce_hook{}, gpu, ak::dtype::float32);
  EXPECT_EQ(e.origins[0].source, ak::tuning_source::backend);
  EXPECT_NE(e.origins[0].detail.find("backend testgpu"), std::string::npos);
  EXPECT_NE(e.origins[0].detail.find("fence-class"), std::string::npos);
}

TEST(Plugin, OverridesApplyToPluginDevicesBySelector) {
  ak::device gpu("testgpu:0");
  ak::test::scoped_user_tuning user(std::string(
      R"({"fence-class": {"reduce": {"*": {"cpu_grain": 31}}}, "testgpu:1": {"reduce": {"*": {"cpu_grain": 32}}}})"));
  ASSERT_EQ(user.reload(), "");
  EXPECT_EQ(ak::test::precompiled_reduce_cpu_grain(gpu, ak::dtype::int8), 31);
  EXPECT_EQ(ak::test::precompiled_reduce_cpu_grain(ak::device("testgpu:1"), ak::dtype::int8), 32);
  EXPECT_NE(ak::test::precompiled_reduce_cpu_grain(ak::device("cpu"), ak::dtype::int8), 31);
}

TEST(Plugin, DeviceDescriptorAndCapabilities) {
  ak::device a("testgpu:0"), b("testgpu:1");
  EXPECT_EQ(a.backend(), "testgpu");
  EXPECT_EQ(a.info().kind, ak::device_kind::gpu);
  EXPECT_EQ(a.info().sub_group_width, 32);
  EXPECT_EQ(a.info().max_group_size, 1024);
  EXPECT_TRUE(a.caps().device_scope_fence);
  EXPECT_FALSE(b.caps().device_scope_fence);
  EXPECT_FALSE(a.caps().host_accessible);
  EXPECT_EQ(ak::device("testgpu"), a);
  EXPECT_NE(a.index(), b.index());
  bool listed = false;
  for (const auto& be : ak::loaded_backends())
    if (be.name == "testgpu") {
      listed = true;
      EXPECT_EQ(be.devices.size(), 2u);
      EXPECT_NE(be.origin.find("libak_testgpu.so"), std::string::npos);
    }
  EXPECT_TRUE(listed);
}

TEST(Plugin, MemoryOfAPluginDevice) {
  ak::device gpu("testgpu:0");
  const ak::memory_space& m = gpu.memory();
  EXPECT_EQ(m.device_name(), "testgpu:0");
  EXPECT_FALSE(m.host_accessible());
  void* p = m.allocate(64, 64);
  int in[16], out[16] = {};
  for (int i = 0; i < 16; ++i) in[i] = i * i;
  m.copy_from_host(p, in, sizeof in);
  m.copy_to_host(out, p, sizeof out);
  m.deallocate(p, 64, 64);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], i * i);
  EXPECT_EQ(ak::device_of(m), gpu);
}

TEST(Plugin, DeviceOutOfRange) {
  try {
    ak::device d("testgpu:7");
    FAIL();
  } catch (const ak::backend_error& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("testgpu:7"), std::string::npos) << m;
    EXPECT_NE(m.find("2 device(s)"), std::string::npos) << m;
  }
}

struct bad_plugin_case {
  const char* name;
  const char* expected;  // a piece of the message
  friend void PrintTo(const bad_plugin_case& c, std::ostream* os) { *os << c.name; }
};

class BadPlugin : public ::testing::TestWithParam<bad_plugin_case> {};

TEST_P(BadPlugin, FailsWithAReasonAndLeavesNothingLoaded) {
  const auto& c = GetParam();
  std::string m = load_error(c.name);
  ASSERT_FALSE(m.empty()) << c.name << " loaded";
  EXPECT_NE(m.find(c.expected), std::string::npos) << m;
  for (const auto& b : ak::loaded_backends()) EXPECT_NE(b.name, c.name);
  // A second try fails the same way (nothing half-registered).
  EXPECT_EQ(load_error(c.name), m);
  EXPECT_THROW(ak::device(std::string(c.name) + ":0"), ak::backend_error);
}

INSTANTIATE_TEST_SUITE_P(Plugin, BadPlugin,
                         ::testing::Values(bad_plugin_case{"badtype", "ak::scan_tuning"},
                                           bad_plugin_case{"badabi", "ABI version 99"},
                                           bad_plugin_case{"refuses", "no test driver installed"},
                                           bad_plugin_case{"badrange", "power of two"},
                                           bad_plugin_case{"misnamed", "someone_else"},
                                           bad_plugin_case{"noentry",
                                                           "does not export ak_backend_entry_v1"},
                                           bad_plugin_case{"absent", "no libak_absent.so"}),
                         [](const auto& p) { return std::string(p.param.name); });

TEST(Plugin, BadTypeNamesHookBackendAndBothTypes) {
  std::string m = load_error("badtype");
  EXPECT_NE(m.find("'badtype'"), std::string::npos) << m;
  EXPECT_NE(m.find("'reduce'"), std::string::npos) << m;
  EXPECT_NE(m.find("ak::scan_tuning"), std::string::npos) << m;
  EXPECT_NE(m.find("ak::reduce_tuning"), std::string::npos) << m;
}

TEST(Plugin, InvalidDeviceNames) {
  EXPECT_THROW(ak::device("cpu:"), ak::argument_error);
  EXPECT_THROW(ak::device(":0"), ak::argument_error);
  EXPECT_THROW(ak::device("cpu:x"), ak::argument_error);
  EXPECT_THROW(ak::device("Bad-Name"), ak::backend_error);
  EXPECT_THROW(ak::device("cpu:1"), ak::backend_error);
}

TEST(Plugin, LoadByExplicitPath) {
  std::string m;
  try {
    ak::load_backend_file(plugin_dir() + "/libak_refuses.so");
  } catch (const ak::backend_error& e) {
    m = e.what();
  }
  EXPECT_NE(m.find("cannot run here"), std::string::npos) << m;
  EXPECT_THROW(ak::load_backend_file("/nonexistent/libak_x.so"), ak::backend_error);
  // A plugin already loaded is not entered a second time.
  ak::load_backend("testgpu");
  try {
    ak::load_backend_file(plugin_dir() + "/libak_testgpu.so");
    FAIL();
  } catch (const ak::backend_error& e) {
    EXPECT_NE(std::string(e.what()).find("already loaded"), std::string::npos) << e.what();
  }
  EXPECT_EQ(ak::device("testgpu:0").info().description, "Test GPU A");
}

// The four-step resolution against a GPU-like device with and without a device-scope fence.
TEST(Resolve, ScanAutoFollowsTuningAndCapabilities) {
  ak::device fence("testgpu:0"), nofence("testgpu:1");
  // testgpu's tuning asks for decoupled look-back.
  EXPECT_EQ(ak::resolve(ak::auto_alg{}, fence, ak::dtype::float32).algorithm,
            ak::scan_algorithm::decoupled_lookback);
  // Without the fence, auto falls back to reduce-then-scan...
  EXPECT_EQ(ak::resolve(ak::auto_alg{}, nofence, ak::dtype::float32).algorithm,
            ak::scan_algorithm::reduce_then_scan);
  // ...but an explicit request is refused, never replaced.
  try {
    (void)ak::resolve(ak::decoupled_lookback{}, nofence, ak::dtype::float32);
    FAIL();
  } catch (const ak::capability_error& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("testgpu:1"), std::string::npos) << m;
    EXPECT_NE(m.find("no fence"), std::string::npos) << m;
  }
  auto r = ak::resolve(ak::reduce_then_scan{.block_size = 512}, nofence, ak::dtype::int32);
  EXPECT_EQ(r.algorithm, ak::scan_algorithm::reduce_then_scan);
  EXPECT_EQ(r.tuning.block_size, 512);
  EXPECT_NE(r.tuning.items_per_thread, ak::unset);
}

TEST(Resolve, ChecksExplicitFieldsAndDeviceLimits) {
  ak::device gpu("testgpu:0");
  try {
    (void)ak::resolve(ak::decoupled_lookback{.block_size = 100}, gpu, ak::dtype::int32);
    FAIL();
  } catch (const ak::argument_error& e) {
    // Named as the caller wrote it.
    EXPECT_EQ(std::string(e.what()),
              "ak::decoupled_lookback: argument 'block_size': expected a power of two in "
              "[32, 1024], got 100");
  }
  EXPECT_THROW(
      (void)ak::resolve(ak::decoupled_lookback{.sub_group_width = 64}, gpu, ak::dtype::int32),
      ak::capability_error);
  // testgpu's merge tiles of 65536 elements do not fit 48 KiB of local memory.
  EXPECT_THROW((void)ak::resolve(ak::merge_sort{}, gpu, ak::dtype::float64, {}),
               ak::capability_error);
  auto r = ak::resolve(ak::merge_sort{.merge_tile_size = 1024}, gpu, ak::dtype::float64, {});
  EXPECT_EQ(r.algorithm, ak::sort_algorithm::merge);
  EXPECT_EQ(r.tuning.merge_tile_size, 1024);
}

}  // namespace
