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

// A field's valid values and generic default. The fields' names, order and docs come from the
// hooks' field lists (ak/runtime/hooks.hpp); each hook's `*_ranges` below has one member per
// field, named as the field: a field without one does not compile, and one too many fails the
// count in `schema`.
struct range {
  std::int64_t min = 0;
  std::int64_t max = 0;
  std::int64_t generic_default = 0;
  bool power_of_two = false;
  std::vector<std::string_view> enum_names = {};
};

range integer(std::int64_t min, std::int64_t max, std::int64_t def, bool pow2 = false) {
  return {min, max, def, pow2, {}};
}

range enumeration(std::vector<std::string_view> names, std::int64_t def) {
  const auto n = static_cast<std::int64_t>(names.size());
  return {0, n - 1, def, false, std::move(names)};
}

struct reduce_ranges {
  range block_size = integer(32, 1024, 256, true);
  range items_per_thread = integer(1, 64, 8);
  range vector_width = integer(1, 4, 4, true);
  range switch_below = integer(0, big, 4096);
  range cpu_tasks = integer(0, 65536, 0);
  range cpu_grain = integer(1, big, 65536);
};

struct scan_ranges {
  range block_size = integer(32, 1024, 256, true);
  range items_per_thread = integer(1, 64, 8);
  range algorithm = enumeration({"reduce_then_scan", "decoupled_lookback"}, 0);
  range sub_group_width = integer(0, 128, 0, true);
  range cpu_grain = integer(1, big, 65536);
};

struct sort_ranges {
  range algorithm = enumeration({"radix", "merge", "sample"}, 0);
  range radix_digit_bits = integer(1, 16, 8);
  range block_size = integer(32, 1024, 256, true);
  range merge_tile_size = integer(64, 1 << 20, 2048, true);
  range sample_oversampling = integer(1, 1024, 16);
  range cpu_grain = integer(1, big, 16384);
  range radix_items_per_thread = integer(1, 16, 4, true);
  range radix_msd_passes = integer(1, 16, 3);
  range radix_msd_run = integer(1, 4096, 8, true);
  range insertion_run = integer(1, 64, 16);
  range radix_min_run = integer(1, 1 << 20, 256);
  range radix_vector_run = integer(0, 1 << 30, 0);
  range radix_packed_run = integer(0, 1 << 30, 0);
  range sample_leaf_size = integer(2, 64, 32);
};

struct map_ranges {
  range block_size = integer(32, 1024, 256, true);
  range items_per_thread = integer(1, 64, 4);
  range cpu_grain = integer(1, big, 32768);
};

struct search_ranges {
  range block_size = integer(32, 1024, 256, true);
  range cpu_grain = integer(1, big, 4096);
};

struct select_ranges {
  range block_size = integer(32, 1024, 256, true);
  range items_per_thread = integer(1, 32, 8);
  range cpu_grain = integer(1, big, 65536);
};

field_schema field(std::string_view name, std::string_view doc, const range& r) {
  return {name, doc, r.min, r.max, r.power_of_two, r.enum_names, r.generic_default};
}

template <class Hook, class Ranges>
hook_schema schema(std::vector<field_schema> fields) {
  using T = typename Hook::type;
  static_assert(field_count_v<T> <= max_tuning_fields, "raise max_tuning_fields");
  static_assert(sizeof(Ranges) == field_count_v<T> * sizeof(range),
                "a range for a field the hook's list does not have");
  if (fields.size() != field_count_v<T>)  // the list names a member twice: a bug in ak
    throw std::logic_error("ak: schema of hook '" + std::string(Hook::name) + "' does not match " +
                           std::string(T::type_name));
  return {Hook::name, T::type_name, std::move(fields)};
}

// One field of a hook's list as a schema entry, with the range its `*_ranges` gives it.
#define AK_SCHEMA_FIELD(type, name, carried_by, doc) field(#name, doc, ranges.name),

std::vector<hook_schema> make_schemas() {
  std::vector<hook_schema> hooks;
  {
    const reduce_ranges ranges;
    hooks.push_back(schema<reduce_hook, reduce_ranges>({AK_REDUCE_TUNING_FIELDS(AK_SCHEMA_FIELD)}));
  }
  {
    const scan_ranges ranges;
    hooks.push_back(schema<scan_hook, scan_ranges>({AK_SCAN_TUNING_FIELDS(AK_SCHEMA_FIELD)}));
  }
  {
    const sort_ranges ranges;
    hooks.push_back(schema<sort_hook, sort_ranges>({AK_SORT_TUNING_FIELDS(AK_SCHEMA_FIELD)}));
  }
  {
    const map_ranges ranges;
    hooks.push_back(schema<map_hook, map_ranges>({AK_MAP_TUNING_FIELDS(AK_SCHEMA_FIELD)}));
  }
  {
    const search_ranges ranges;
    hooks.push_back(schema<search_hook, search_ranges>({AK_SEARCH_TUNING_FIELDS(AK_SCHEMA_FIELD)}));
  }
  {
    const select_ranges ranges;
    hooks.push_back(schema<select_hook, select_ranges>({AK_SELECT_TUNING_FIELDS(AK_SCHEMA_FIELD)}));
  }
  return hooks;
}
#undef AK_SCHEMA_FIELD

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
