// The hooks' schemas: field names in declaration order, valid ranges, and the generic defaults
// (the lowest tuning layer, used where no backend, cache or override gives a value). Kept out of
// line so that no header holds a tuning value.
#include <stdexcept>
#include <string>

#include "registry.hpp"

namespace ak::detail {

namespace {

constexpr std::int64_t big = std::int64_t{1} << 40;

field_schema integer(std::string_view name, std::string_view doc, std::int64_t min,
                     std::int64_t max, std::int64_t def, bool pow2 = false) {
  return {name, doc, min, max, pow2, {}, def};
}

field_schema enumeration(std::string_view name, std::string_view doc,
                         std::vector<std::string_view> names, std::int64_t def) {
  auto n = static_cast<std::int64_t>(names.size());
  return {name, doc, 0, n - 1, false, std::move(names), def};
}

std::vector<hook_schema> make_schemas() {
  std::vector<hook_schema> hooks;
  hooks.push_back(
      {reduce_hook::name,
       reduce_tuning::type_name,
       {
           integer("block_size", "GPU work-items per group", 32, 1024, 256, true),
           integer("items_per_thread", "GPU elements each work-item reduces first", 1, 64, 8),
           integer("vector_width", "elements per vector load", 1, 16, 4, true),
           integer("switch_below", "reduce in a single group/thread below this many elements", 0,
                   big, 4096),
           integer("cpu_tasks", "CPU tasks; 0 = one per worker thread", 0, 65536, 0),
           integer("cpu_grain", "CPU elements per task at least", 1, big, 65536),
       }});
  hooks.push_back(
      {scan_hook::name,
       scan_tuning::type_name,
       {
           integer("block_size", "GPU work-items per group", 32, 1024, 256, true),
           integer("items_per_thread", "GPU elements each work-item scans", 1, 64, 8),
           enumeration("algorithm", "device-wide scan algorithm",
                       {"reduce_then_scan", "decoupled_lookback"}, 0),
           integer("sub_group_width", "sub-group width to scan with; 0 = the device's", 0, 128, 0,
                   true),
           integer("cpu_grain", "CPU elements per task at least", 1, big, 65536),
       }});
  hooks.push_back(
      {sort_hook::name,
       sort_tuning::type_name,
       {
           enumeration("algorithm", "what the auto algorithm picks", {"radix", "merge", "sample"},
                       0),
           integer("radix_digit_bits", "bits per radix digit", 1, 16, 8),
           integer("block_size", "GPU work-items per group", 32, 1024, 256, true),
           integer("merge_tile_size", "elements each group merges per step", 64, 1 << 20, 2048,
                   true),
           integer("sample_oversampling", "samples per bucket in sample sort", 1, 1024, 16),
           integer("cpu_grain", "CPU elements per task at least", 1, big, 16384),
       }});
  hooks.push_back({map_hook::name,
                   map_tuning::type_name,
                   {
                       integer("block_size", "GPU work-items per group", 32, 1024, 256, true),
                       integer("items_per_thread", "GPU elements per work-item", 1, 64, 4),
                       integer("cpu_grain", "CPU elements per task at least", 1, big, 32768),
                   }});
  hooks.push_back({search_hook::name,
                   search_tuning::type_name,
                   {
                       integer("block_size", "GPU work-items per group", 32, 1024, 256, true),
                       integer("cpu_grain", "CPU queries per task at least", 1, big, 4096),
                   }});
  // The schema must describe the declared struct field for field; a mismatch is a bug in ak.
  const std::uint32_t declared[] = {field_count_v<reduce_tuning>, field_count_v<scan_tuning>,
                                    field_count_v<sort_tuning>, field_count_v<map_tuning>,
                                    field_count_v<search_tuning>};
  for (std::size_t i = 0; i < hooks.size(); ++i)
    if (hooks[i].fields.size() != declared[i])
      throw std::logic_error("ak: schema of hook '" + std::string(hooks[i].name) +
                             "' does not match " + std::string(hooks[i].type_name));
  return hooks;
}

}  // namespace

const std::vector<hook_schema>& hook_schemas() {
  static const std::vector<hook_schema> hooks = make_schemas();
  return hooks;
}

const hook_schema* find_hook(std::string_view name) noexcept {
  for (const auto& h : hook_schemas())
    if (h.name == name) return &h;
  return nullptr;
}

bool valid_field_value(const field_schema& f, std::int64_t v) noexcept {
  if (v < f.min || v > f.max) return false;
  if (f.power_of_two) return v == 0 ? f.min == 0 : (v & (v - 1)) == 0;
  return true;
}

std::string expected_field_value(const field_schema& f) {
  if (!f.enum_names.empty()) {
    std::string e = "one of";
    for (std::size_t i = 0; i < f.enum_names.size(); ++i)
      e.append(i ? ", \"" : " \"").append(f.enum_names[i]).append("\"");
    return e;
  }
  std::string e = f.power_of_two ? (f.min == 0 ? "0 or a power of two" : "a power of two")
                                 : "an integer";
  return e + " in [" + std::to_string(f.min) + ", " + std::to_string(f.max) + "]";
}

std::string field_value_text(const field_schema& f, std::int64_t v) {
  if (!f.enum_names.empty() && v >= 0 && v < static_cast<std::int64_t>(f.enum_names.size()))
    return std::string(f.enum_names[static_cast<std::size_t>(v)]);
  return std::to_string(v);
}

}  // namespace ak::detail

namespace ak {

std::vector<tuning_hook_schema> tuning_hooks() {
  std::vector<tuning_hook_schema> out;
  for (const auto& h : detail::hook_schemas()) {
    tuning_hook_schema s{std::string(h.name), std::string(h.type_name), {}};
    for (const auto& f : h.fields) {
      tuning_field_schema fs{std::string(f.name), std::string(f.doc), f.min, f.max,
                             f.power_of_two, {}};
      for (auto n : f.enum_names) fs.enum_names.emplace_back(n);
      s.fields.push_back(std::move(fs));
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace ak
