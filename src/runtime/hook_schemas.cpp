// The hooks' schemas: field names in declaration order, valid ranges, and the generic defaults
// (the lowest tuning layer, used where no backend, cache or override gives a value). Kept out of
// line so that no header holds a tuning value.
#include <cstddef>
#include <stdexcept>
#include <string>

#include "ak/core/error.hpp"

#include "registry.hpp"

namespace ak::detail {

namespace {

constexpr std::int64_t big = std::int64_t{1} << 40;

// A field's name, checked at compile time to be the Index-th 64-bit field of T: the schema's
// order is the struct's, or tuning files would set the wrong field.
template <class T, std::size_t Offset, std::size_t Index>
constexpr std::string_view field_name(std::string_view name) {
  static_assert(Index < field_count_v<T>, "more schema fields than struct fields");
  static_assert(field_count_v<T> <= max_tuning_fields, "raise max_tuning_fields");
  static_assert(Offset == Index * sizeof(std::int64_t), "schema order differs from the struct");
  return name;
}
#define AK_FIELD(T, field, index) field_name<T, offsetof(T, field), index>(#field)

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
           integer(AK_FIELD(reduce_tuning, block_size, 0), "GPU work-items per group", 32, 1024,
                   256, true),
           integer(AK_FIELD(reduce_tuning, items_per_thread, 1),
                   "GPU elements each work-item reduces first", 1, 64, 8),
           integer(AK_FIELD(reduce_tuning, vector_width, 2),
                   "GPU elements per vector load (1, 2 or 4; at most 16 bytes)", 1, 4, 4, true),
           integer(AK_FIELD(reduce_tuning, switch_below, 3),
                   "reduce in a single group/thread below this many elements", 0, big, 4096),
           integer(AK_FIELD(reduce_tuning, cpu_tasks, 4), "CPU tasks; 0 = one per worker thread", 0,
                   65536, 0),
           integer(AK_FIELD(reduce_tuning, cpu_grain, 5), "CPU elements per task at least", 1, big,
                   65536),
       }});
  hooks.push_back(
      {scan_hook::name,
       scan_tuning::type_name,
       {
           integer(AK_FIELD(scan_tuning, block_size, 0), "GPU work-items per group", 32, 1024, 256,
                   true),
           integer(AK_FIELD(scan_tuning, items_per_thread, 1), "GPU elements each work-item scans",
                   1, 64, 8),
           enumeration(AK_FIELD(scan_tuning, algorithm, 2), "device-wide scan algorithm",
                       {"reduce_then_scan", "decoupled_lookback"}, 0),
           integer(AK_FIELD(scan_tuning, sub_group_width, 3),
                   "sub-group width to scan with; 0 = the device's", 0, 128, 0, true),
           integer(AK_FIELD(scan_tuning, cpu_grain, 4), "CPU elements per task at least", 1, big,
                   65536),
       }});
  hooks.push_back(
      {sort_hook::name,
       sort_tuning::type_name,
       {
           enumeration(AK_FIELD(sort_tuning, algorithm, 0), "what the auto algorithm picks",
                       {"radix", "merge", "sample"}, 0),
           integer(AK_FIELD(sort_tuning, radix_digit_bits, 1), "bits per radix digit", 1, 16, 8),
           integer(AK_FIELD(sort_tuning, block_size, 2), "GPU work-items per group", 32, 1024, 256,
                   true),
           integer(AK_FIELD(sort_tuning, merge_tile_size, 3), "elements each group merges per step",
                   64, 1 << 20, 2048, true),
           integer(AK_FIELD(sort_tuning, sample_oversampling, 4),
                   "samples per bucket in sample sort", 1, 1024, 16),
           integer(AK_FIELD(sort_tuning, cpu_grain, 5), "CPU elements per task at least", 1, big,
                   16384),
           integer(AK_FIELD(sort_tuning, radix_items_per_thread, 6),
                   "GPU keys per work-item in a radix tile (halved where local memory is short)", 1,
                   16, 4, true),
       }});
  hooks.push_back({map_hook::name,
                   map_tuning::type_name,
                   {
                       integer(AK_FIELD(map_tuning, block_size, 0), "GPU work-items per group", 32,
                               1024, 256, true),
                       integer(AK_FIELD(map_tuning, items_per_thread, 1),
                               "GPU elements per work-item", 1, 64, 4),
                       integer(AK_FIELD(map_tuning, cpu_grain, 2), "CPU elements per task at least",
                               1, big, 32768),
                   }});
  hooks.push_back({search_hook::name,
                   search_tuning::type_name,
                   {
                       integer(AK_FIELD(search_tuning, block_size, 0), "GPU work-items per group",
                               32, 1024, 256, true),
                       integer(AK_FIELD(search_tuning, cpu_grain, 1),
                               "CPU queries per task at least", 1, big, 4096),
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

const hook_schema* find_hook(std::string_view name) {
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
  std::string e =
      f.power_of_two ? (f.min == 0 ? "0 or a power of two" : "a power of two") : "an integer";
  return e + " in [" + std::to_string(f.min) + ", " + std::to_string(f.max) + "]";
}

std::string type_mismatch(const hook_schema& h, std::string_view type_name,
                          std::uint32_t field_count) {
  if (h.type_name == type_name && h.fields.size() == field_count) return {};
  return std::string(type_name) + " (" + std::to_string(field_count) +
         " fields), but the hook declares " + std::string(h.type_name) + " (" +
         std::to_string(h.fields.size()) + " fields)";
}

std::ptrdiff_t first_invalid_field(const hook_schema& h, const std::int64_t* values) {
  for (std::size_t f = 0; f < h.fields.size(); ++f)
    if (values[f] != unset && !valid_field_value(h.fields[f], values[f]))
      return static_cast<std::ptrdiff_t>(f);
  return -1;
}

void check_fields(const hook_schema& h, const std::int64_t* values, std::string_view function,
                  bool name_hook) {
  std::ptrdiff_t bad = first_invalid_field(h, values);
  if (bad < 0) return;
  const field_schema& f = h.fields[static_cast<std::size_t>(bad)];
  std::string argument = name_hook ? std::string(h.name) + "." : std::string();
  throw argument_error(function, argument.append(f.name), expected_field_value(f),
                       std::to_string(values[static_cast<std::size_t>(bad)]));
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
      tuning_field_schema fs{
          std::string(f.name), std::string(f.doc), f.min, f.max, f.power_of_two, {}};
      for (auto n : f.enum_names) fs.enum_names.emplace_back(n);
      s.fields.push_back(std::move(fs));
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace ak
