// The sim devices: one per profile, each with the shape, capabilities and tuning defaults of the
// GPU it stands in for.
#include <gtest/gtest.h>

#include <string>

#include "ak/runtime/device.hpp"
#include "ak/runtime/extension.hpp"
#include "ak/runtime/tuning.hpp"
#include "sim_test_support.hpp"

namespace {

TEST(SimProfiles, FourDevicesWithTheirShapes) {
  struct expect {
    const char* name;
    const char* device_class;
    std::int64_t sub_group, local_bytes;
    bool fence;
  };
  const expect all[] = {{"sim:0", "sim_nvidia", 32, 48 << 10, true},
                        {"sim:1", "sim_amd", 64, 64 << 10, true},
                        {"sim:2", "sim_intel", 16, 64 << 10, true},
                        {"sim:3", "sim_apple", 32, 32 << 10, false}};
  for (const auto& e : all) {
    ak::device d(e.name);
    const auto& i = d.info();
    EXPECT_EQ(i.backend, "sim");
    EXPECT_EQ(d.ordinal(), e.name[4] - '0');
    EXPECT_EQ(i.kind, ak::device_kind::simulator);
    EXPECT_EQ(i.device_class, e.device_class);
    EXPECT_EQ(i.sub_group_width, e.sub_group);
    EXPECT_EQ(i.local_memory_bytes, e.local_bytes);
    EXPECT_EQ(i.max_group_size, 1024);
    EXPECT_EQ(i.caps.device_scope_fence, e.fence) << e.name;
    EXPECT_EQ(i.caps.forward_progress, e.fence) << e.name;
    EXPECT_TRUE(i.caps.sub_groups);
    EXPECT_FALSE(i.caps.host_accessible);
  }
  EXPECT_THROW(ak::device("sim:4"), ak::backend_error);
  auto backends = ak::loaded_backends();
  bool found = false;
  for (const auto& b : backends)
    if (b.name == "sim") {
      found = true;
      EXPECT_EQ(b.devices.size(), 4u);
      EXPECT_NE(b.origin.find("libak_sim.so"), std::string::npos) << b.origin;
    }
  EXPECT_TRUE(found);
}

TEST(SimProfiles, EachProfileRegistersItsTunings) {
  auto scan = [](const char* dev) {
    return ak::explain_tuning(ak::scan_hook{}, ak::device(dev), ak::dtype::float32);
  };
  for (const char* dev : {"sim:0", "sim:1", "sim:2"}) {
    auto t = scan(dev);
    EXPECT_EQ(t.value.algorithm, ak::scan_algorithm::decoupled_lookback) << dev;
    EXPECT_EQ(t.value.sub_group_width, ak::device(dev).info().sub_group_width) << dev;
    EXPECT_EQ(t.origins[2].source, ak::tuning_source::backend) << dev;
  }
  auto apple = scan("sim:3");
  EXPECT_EQ(apple.value.algorithm, ak::scan_algorithm::reduce_then_scan);
  EXPECT_NE(apple.origins[2].detail.find("sim_apple"), std::string::npos)
      << apple.origins[2].detail;
  EXPECT_EQ(ak::tuning(ak::reduce_hook{}, ak::device("sim:1"), ak::dtype::int32).block_size, 512);
  EXPECT_EQ(ak::tuning(ak::reduce_hook{}, ak::device("sim:0"), ak::dtype::int32).block_size, 256);
  EXPECT_EQ(ak::tuning(ak::sort_hook{}, ak::device("sim:3"), ak::dtype::float32).algorithm,
            ak::sort_algorithm::merge);
  EXPECT_EQ(ak::tuning(ak::sort_hook{}, ak::device("sim:3"), ak::dtype::int32).algorithm,
            ak::sort_algorithm::radix);
}

TEST(SimProfiles, DeviceMemoryRoundTrips) {
  ak::device d("sim:2");
  const auto& mem = d.memory();
  EXPECT_FALSE(mem.host_accessible());
  std::vector<int> in{1, 2, 3, 4}, out(4, 0);
  void* p = mem.allocate(in.size() * sizeof(int), alignof(int));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 256, 0u);
  mem.copy_from_host(p, in.data(), in.size() * sizeof(int));
  mem.copy_to_host(out.data(), p, out.size() * sizeof(int));
  mem.deallocate(p, in.size() * sizeof(int), alignof(int));
  EXPECT_EQ(out, in);
}

TEST(SimProfiles, SeedIsSettable) {
  ak::sim::set_seed(12345);
  EXPECT_EQ(ak::sim::seed(), 12345u);
  ak::sim::set_seed(0);
  EXPECT_EQ(ak::sim::seed(), 0u);
}

}  // namespace

namespace {

TEST(SimProfiles, BackendExtensionFindsTheSimTable) {
  const void* table = ak::backend_extension("sim", AK_SIM_API_SYMBOL);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(static_cast<const ak_sim_api_v1*>(table)->version, AK_SIM_API_VERSION);
  EXPECT_EQ(ak::backend_extension("sim", "no_such_symbol"), nullptr);
  EXPECT_EQ(ak::backend_extension("cpu", AK_SIM_API_SYMBOL), nullptr);  // built in
  EXPECT_THROW(ak::backend_extension("no_such_backend", "x"), ak::backend_error);
}

}  // namespace
