// `ak info`: what the runtime sees, and where every effective tuning value comes from.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ak/ak.hpp"
#include "ak/backends/cpu/vector_sort.hpp"
#include "commands.hpp"

namespace ak::tool {

namespace {

using json = nlohmann::json;

json capabilities_json(const capabilities& c) {
  return {{"device_scope_fence", c.device_scope_fence},
          {"forward_progress", c.forward_progress},
          {"atomics64", c.atomics64},
          {"float64", c.float64},
          {"host_accessible", c.host_accessible},
          {"sub_groups", c.sub_groups}};
}

// The fields of a hook whose value for n elements differs (in value or source) from the value
// for any size: what entries measured at sizes change.
std::vector<tuning_field_value> sized_differences(std::string_view hook, const device& d, dtype t,
                                                  std::int64_t n) {
  const auto any = explain_tuning(hook, d, t);
  std::vector<tuning_field_value> out;
  for (auto& f : explain_tuning(hook, d, t, n)) {
    const auto& a = *std::find_if(any.begin(), any.end(),
                                  [&](const tuning_field_value& x) { return x.field == f.field; });
    if (a.value != f.value || a.origin.detail != f.origin.detail) out.push_back(std::move(f));
  }
  return out;
}

// The sizes, and any size (tuning_size::any()), to explain a hook at.
std::vector<tuning_size> sized_and_any(const std::vector<std::int64_t>& sizes) {
  std::vector<tuning_size> out{tuning_size::any()};
  for (const std::int64_t n : sizes) out.emplace_back(n);
  return out;
}

json device_json(const device& d) {
  const device_info& i = d.info();
  json j = {{"name", i.name},
            {"backend", i.backend},
            {"device_class", i.device_class},
            {"description", i.description},
            {"kind", std::string(name_of(i.kind))},
            {"compute_units", i.compute_units},
            {"l1_cache_bytes", i.l1_cache_bytes},
            {"l2_cache_bytes", i.l2_cache_bytes},
            {"l3_cache_bytes", i.l3_cache_bytes},
            {"memory_bytes", i.memory_bytes},
            {"sub_group_width", i.sub_group_width},
            {"local_memory_bytes", i.local_memory_bytes},
            {"max_group_size", i.max_group_size},
            {"capabilities", capabilities_json(i.caps)},
            {"tuning_cache", tuning_cache_path(d)},
            {"tuning_cache_problem", tuning_cache_problem(d)}};
  if (i.backend == "cpu") j["vector_target"] = cpu::vector_target();
  json tunings = json::object();
  const auto field_json = [](const tuning_field_value& f) {
    json value = f.text == std::to_string(f.value) ? json(f.value) : json(f.text);
    return json{{"value", value},
                {"source", std::string(name_of(f.origin.source))},
                {"detail", f.origin.detail}};
  };
  for (const auto& hook : tuning_hooks()) {
    json per_dtype = json::object();
    for (dtype t : all_dtypes) {
      json fields = json::object();
      for (const auto& f : explain_tuning(hook.name, d, t)) fields[f.field] = field_json(f);
      // Where values were measured at sizes: each size's fields that differ.
      for (const std::int64_t n : tuned_sizes(hook.name, d, t))
        for (const auto& f : sized_differences(hook.name, d, t, n))
          fields["by_size"][std::to_string(n)][f.field] = field_json(f);
      per_dtype[std::string(name_of(t))] = std::move(fields);
    }
    tunings[hook.name] = std::move(per_dtype);
  }
  j["tunings"] = std::move(tunings);
  return j;
}

std::string bytes_text(std::int64_t b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  std::ostringstream s;
  s << std::setprecision(v < 10 ? 2 : 3) << v << " " << units[u];
  return s.str();
}

void print_device(std::ostream& out, const device& d) {
  const device_info& i = d.info();
  out << "device " << i.name << " (" << name_of(i.kind) << ", class " << i.device_class
      << "): " << i.description << "\n";
  out << "  compute units " << i.compute_units << ", memory " << bytes_text(i.memory_bytes)
      << ", caches L1 " << bytes_text(i.l1_cache_bytes) << " L2 " << bytes_text(i.l2_cache_bytes)
      << " L3 " << bytes_text(i.l3_cache_bytes) << "\n";
  if (i.backend == "cpu")
    out << "  vector code: " << cpu::vector_target()
        << " (the best this cpu has, or what AK_CPU_TARGET names)\n";
  if (i.kind != device_kind::cpu)
    out << "  sub-group width " << i.sub_group_width << ", local memory "
        << bytes_text(i.local_memory_bytes) << ", groups up to " << i.max_group_size << "\n";
  out << "  capabilities:";
  const json caps = capabilities_json(i.caps);
  for (const auto& [k, v] : caps.items())
    if (v.get<bool>()) out << " " << k;
  out << "\n  autotune cache: " << tuning_cache_path(d);
  if (const std::string why = tuning_cache_problem(d); !why.empty())
    out << " (ignored: " << why << ")";
  out << "\n  tunings (value [source]; sources: call > scoped > user > autotune > backend > "
         "generic):\n";
  for (const auto& hook : tuning_hooks()) {
    out << "    " << hook.name << " (" << hook.type_name << ")\n";
    for (dtype t : all_dtypes) {
      out << "      " << std::left << std::setw(8) << name_of(t) << std::right;
      for (const auto& f : explain_tuning(hook.name, d, t))
        out << " " << f.field << "=" << f.text << " [" << name_of(f.origin.source) << "]";
      out << "\n";
      for (const std::int64_t n : tuned_sizes(hook.name, d, t)) {
        out << "        at n near " << n << ":";
        for (const auto& f : sized_differences(hook.name, d, t, n))
          out << " " << f.field << "=" << f.text << " [" << name_of(f.origin.source) << "]";
        out << "\n";
      }
    }
  }
  // Details of every non-generic source once, so the table stays readable.
  std::vector<std::string> details;
  for (const auto& hook : tuning_hooks())
    for (dtype t : all_dtypes)
      for (const tuning_size n : sized_and_any(tuned_sizes(hook.name, d, t)))
        for (const auto& f : explain_tuning(hook.name, d, t, n))
          if (f.origin.source != tuning_source::generic &&
              std::find(details.begin(), details.end(), f.origin.detail) == details.end())
            details.push_back(f.origin.detail);
  if (!details.empty()) {
    out << "  sources in use:\n";
    for (const auto& s : details) out << "    " << s << "\n";
  }
}

}  // namespace

int run_info(const info_options& o) {
  std::vector<std::string> load_errors;
  if (o.all)
    for (const auto& [name, path] : discoverable_backends()) {
      try {
        load_backend(name);
      } catch (const backend_error& e) {
        load_errors.push_back(e.what());
      }
    }
  std::vector<device> devs = o.device.empty() ? devices() : std::vector<device>{device(o.device)};

  if (o.json) {
    json j;
    j["ak_version"] = version_string();
    j["num_threads"] = cpu::num_threads();
    j["host_cache_limit_bytes"] = host_cache_limit();
    j["backends"] = json::array();
    for (const auto& b : loaded_backends()) {
      json names = json::array();
      for (const auto& d : b.devices) names.push_back(d.name());
      j["backends"].push_back({{"name", b.name},
                               {"origin", b.origin},
                               {"abi_version", b.abi_version},
                               {"devices", names}});
    }
    j["discoverable_backends"] = json::array();
    for (const auto& [name, path] : discoverable_backends())
      j["discoverable_backends"].push_back({{"name", name}, {"path", path}});
    j["load_errors"] = load_errors;
    j["devices"] = json::array();
    for (const auto& d : devs) j["devices"].push_back(device_json(d));
    std::cout << j.dump(2) << "\n";
    return 0;
  }

  // The whole text first: a tuning error found on the way (a bad AK_TUNING is read at the first
  // lookup) leaves nothing half-printed.
  std::ostringstream out;
  out << "ak " << version_string() << ", cpu worker threads " << cpu::num_threads()
      << ", host memory kept for reuse up to " << (host_cache_limit() >> 20)
      << " MiB (AK_MEMORY_CACHE)\n";
  out << "backends loaded:\n";
  for (const auto& b : loaded_backends())
    out << "  " << b.name << " (" << b.origin << ", ABI " << b.abi_version << ", "
        << b.devices.size() << " device(s))\n";
  auto found = discoverable_backends();
  out << "backend plugins found:" << (found.empty() ? " none" : "") << "\n";
  for (const auto& [name, path] : found) out << "  " << name << ": " << path << "\n";
  for (const auto& e : load_errors) out << "  not loaded: " << e << "\n";
  for (const auto& d : devs) print_device(out, d);
  std::cout << out.str();
  return 0;
}

}  // namespace ak::tool
