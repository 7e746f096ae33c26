// Reading tuning overrides from JSON: AK_TUNING (a file or inline text) and autotune caches.
// Anything the runtime does not know (hook, field, dtype), a value of the wrong type or out of
// range, and malformed JSON is an error that names the file and the key: never ignored.
#include <charconv>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "ak/core/digest.hpp"
#include "ak/core/error.hpp"
#include "ak/version.hpp"
#include "registry.hpp"

namespace ak::detail {

namespace {

using json = nlohmann::json;

std::string key_path(const std::vector<std::string>& keys) {
  std::string p;
  for (const auto& k : keys) p += (p.empty() ? "" : "/") + k;
  return p;
}

// Where in the document a message is about: "the top level" or key "cpu/reduce/*".
std::string at_keys(const std::vector<std::string>& keys) {
  return keys.empty() ? "the top level" : "key \"" + key_path(keys) + "\"";
}

[[noreturn]] void bad_key(const std::string& origin, const std::vector<std::string>& keys,
                          const std::string& expected, const std::string& got) {
  throw tuning_error(origin + ": " + at_keys(keys) + ": expected " + expected + ", got " + got);
}

std::string describe(const json& v) {
  std::string s = v.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return std::string(v.type_name()) + " " + s;
}

const json& expect_object(const json& v, const std::string& origin,
                          const std::vector<std::string>& keys, const char* what) {
  if (!v.is_object()) bad_key(origin, keys, std::string("an object of ") + what, describe(v));
  return v;
}

std::int64_t field_value(const field_schema& f, const json& v, const std::string& origin,
                         const std::vector<std::string>& keys) {
  std::int64_t value = 0;
  if (!f.enum_names.empty()) {
    if (!v.is_string()) bad_key(origin, keys, expected_field_value(f), describe(v));
    auto name = v.get<std::string>();
    auto it = std::find(f.enum_names.begin(), f.enum_names.end(), name);
    if (it == f.enum_names.end()) bad_key(origin, keys, expected_field_value(f), v.dump());
    return it - f.enum_names.begin();
  }
  if (v.is_number_unsigned()) {
    if (v.get<std::uint64_t>() > static_cast<std::uint64_t>(f.max))
      bad_key(origin, keys, expected_field_value(f), v.dump());
    value = static_cast<std::int64_t>(v.get<std::uint64_t>());
  } else if (v.is_number_integer()) {
    value = v.get<std::int64_t>();
  } else {
    bad_key(origin, keys, expected_field_value(f), describe(v));
  }
  if (!valid_field_value(f, value))
    bad_key(origin, keys, expected_field_value(f), std::to_string(value));
  return value;
}

// The entry of one { field: value } object below `keys`, for a hook and selectors. `sizes_too`:
// the object may also hold "by_size", which the caller reads: it is skipped here, and messages
// name it.
tuning_entry parse_fields(const json& fields, const hook_schema& hook,
                          const std::string& device_selector, const std::string& dtype_selector,
                          tuning_source source, const std::string& origin,
                          std::vector<std::string>& keys, bool sizes_too) {
  expect_object(fields, origin, keys, "fields");
  tuning_entry e;
  e.hook = static_cast<std::uint32_t>(&hook - hook_schemas().data());
  e.device_selector = device_selector;
  e.dtype_selector = dtype_selector;
  e.values.assign(hook.fields.size(), unset);
  for (const auto& [field_name, value] : fields.items()) {
    if (sizes_too && field_name == by_size_key) continue;
    keys.push_back(field_name);
    auto f = std::find_if(hook.fields.begin(), hook.fields.end(),
                          [&name = keys.back()](const field_schema& s) { return s.name == name; });
    if (f == hook.fields.end()) {
      std::string known;
      for (const auto& s : hook.fields) known += (known.empty() ? "" : ", ") + std::string(s.name);
      if (sizes_too) known += ", or \"" + std::string(by_size_key) + "\"";
      bad_key(origin, keys, "a field of hook " + std::string(hook.name) + " (" + known + ")",
              "unknown field \"" + field_name + "\"");
    }
    e.values[static_cast<std::size_t>(f - hook.fields.begin())] =
        field_value(*f, value, origin, keys);
    keys.pop_back();
  }
  e.origin = {source, origin + ", key " + key_path(keys)};
  return e;
}

// A size under "by_size": a decimal count of elements, at least 1, written as std::to_string
// writes it (no sign, no leading zero: one size has one key).
std::int64_t parse_size_key(const std::string& key, const std::string& origin,
                            const std::vector<std::string>& keys) {
  std::int64_t n = 0;
  const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), n);
  if (key.empty() || ec != std::errc() || end != key.data() + key.size() || n < 1 ||
      key != std::to_string(n))
    bad_key(origin, keys, "a number of elements (a decimal integer of at least 1)",
            "\"" + key + "\"");
  return n;
}

// { hook: { dtype selector: { field: value, "by_size": { n: { field: value } } } } } below
// `keys`, appended to `out`: one entry for every size, and one per size measured at.
void parse_hooks(const json& hooks, const std::string& origin, std::vector<std::string> keys,
                 const std::string& device_selector, tuning_source source,
                 std::vector<tuning_entry>& out) {
  expect_object(hooks, origin, keys, "hooks");
  for (const auto& [hook_name, dtypes] : hooks.items()) {
    keys.push_back(hook_name);
    const hook_schema* hook = find_hook(hook_name);
    if (!hook) {
      std::string known;
      for (const auto& h : hook_schemas())
        known += (known.empty() ? "" : ", ") + std::string(h.name);
      bad_key(origin, keys, "a known hook (" + known + ")", "unknown hook \"" + hook_name + "\"");
    }
    expect_object(dtypes, origin, keys, "dtype selectors");
    for (const auto& [dsel, fields] : dtypes.items()) {
      keys.push_back(dsel);
      if (auto why = check_dtype_selector(dsel); !why.empty())
        bad_key(origin, keys, why, "\"" + dsel + "\"");
      expect_object(fields, origin, keys, "fields");
      out.push_back(parse_fields(fields, *hook, device_selector, dsel, source, origin, keys, true));
      if (const auto sized = fields.find(std::string(by_size_key)); sized != fields.end()) {
        keys.push_back(std::string(by_size_key));
        expect_object(*sized, origin, keys, "sizes (numbers of elements)");
        for (const auto& [size_key, sized_fields] : sized->items()) {
          keys.push_back(size_key);
          const std::int64_t n = parse_size_key(size_key, origin, keys);
          tuning_entry e =
              parse_fields(sized_fields, *hook, device_selector, dsel, source, origin, keys, false);
          e.size = n;
          out.push_back(std::move(e));
          keys.pop_back();
        }
        keys.pop_back();
      }
      keys.pop_back();
    }
    keys.pop_back();
  }
}

// Tuning documents nest six objects deep at most (device, hook, dtype, by_size, size, field);
// anything much deeper is not one, and refusing it keeps hostile input from exhausting the stack
// of code that recurses over a parsed document (printing, destruction).
constexpr int max_json_depth = 32;

// The document, or a tuning_error naming `origin` and the key where the text stops being a
// tuning document: malformed JSON, nesting past max_json_depth, a key given twice in one object
// (JSON leaves open which value counts), a number no double holds.
json parse_json(std::string_view text, const std::string& origin) {
  std::vector<std::string> keys;            // keys[d]: the key being read at depth d + 1
  std::vector<std::set<std::string>> seen;  // seen[d]: the keys of the object at depth d
  auto where = [&] {
    std::vector<std::string> named;  // array levels have no key
    for (const auto& k : keys)
      if (!k.empty()) named.push_back(k);
    return at_keys(named);
  };
  const json::parser_callback_t track = [&](int depth, json::parse_event_t event, json& parsed) {
    const auto d = static_cast<std::size_t>(depth);
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        if (depth >= max_json_depth)
          throw tuning_error(origin + ": " + where() + ": nested deeper than " +
                             std::to_string(max_json_depth) +
                             " levels (a tuning document has 6 at most: device, hook, dtype, "
                             "by_size, size, field)");
        keys.resize(d);
        seen.resize(d + 1);
        seen[d].clear();
        break;
      case json::parse_event_t::key: {
        keys.resize(d);
        keys[d - 1] = parsed.get<std::string>();
        if (!seen[d - 1].insert(keys[d - 1]).second)
          throw tuning_error(origin + ": " + where() +
                             " appears twice in one object (JSON does not say which value "
                             "counts); give it once");
        break;
      }
      default:
        break;
    }
    return true;
  };
  try {
    return json::parse(text.begin(), text.end(), track);
  } catch (const json::out_of_range& e) {
    // The lexer's number overflow (406): a number that no double holds, such as 1e400.
    throw tuning_error(origin + ": " + where() + ": a number out of range (" + e.what() + ")");
  } catch (const json::exception& e) {  // parse errors (json::parse_error) and the rest
    throw tuning_error(origin + ": malformed JSON: " + e.what());
  }
}

}  // namespace

std::string check_dtype_selector(std::string_view s) {
  if (s == "*" || parse_dtype(s) || parse_dtype_category(s)) return {};
  return "\"*\", a dtype (bool, int8..int64, uint8..uint64, float32, float64) or a dtype class "
         "(bool, signed, unsigned, float)";
}

std::vector<tuning_entry> parse_user_tuning(std::string_view json_text, const std::string& origin) {
  json doc = parse_json(json_text, origin);
  expect_object(doc, origin, {}, "device selectors (\"*\", a backend, device class or device)");
  std::vector<tuning_entry> out;
  for (const auto& [device_selector, hooks] : doc.items()) {
    if (device_selector.empty()) bad_key(origin, {""}, "a device selector", "an empty key");
    parse_hooks(hooks, origin, {device_selector}, device_selector, tuning_source::user, out);
  }
  return out;
}

namespace {

constexpr const char* cache_format = "ak-tuning-cache-1";

// A digest of every hook's fields and ranges: a cache written against other fields is stale.
std::string schema_digest() {
  detail::fnv1a64 digest;
  auto add = [&](std::string_view text) { digest.text(text); };
  for (const auto& hook : hook_schemas()) {
    add(hook.name);
    for (const auto& f : hook.fields) {
      add(f.name);
      add(std::to_string(f.min) + ":" + std::to_string(f.max) + (f.power_of_two ? "p" : ""));
      for (const auto& e : f.enum_names) add(e);
    }
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(digest.value()));
  return std::string("fnv1a64:") + text;
}

json cache_stamp(const device_info& d) {
  return {{"format", cache_format},
          {"ak_version", std::string(version_string())},
          {"schema", schema_digest()},
          {"device",
           {{"backend", d.backend},
            {"device_class", d.device_class},
            {"description", d.description},
            {"compute_units", d.compute_units},
            {"l1_cache_bytes", d.l1_cache_bytes},
            {"l2_cache_bytes", d.l2_cache_bytes},
            {"l3_cache_bytes", d.l3_cache_bytes},
            {"sub_group_width", d.sub_group_width},
            {"local_memory_bytes", d.local_memory_bytes},
            {"max_group_size", d.max_group_size}}}};
}

}  // namespace

std::string cache_stamp_text(const device_info& device) {
  return cache_stamp(device).dump();
}

std::vector<tuning_entry> parse_cache_tuning(std::string_view json_text, const std::string& origin,
                                             const device_info& device) {
  const json doc = parse_json(json_text, origin);
  expect_object(doc, origin, {}, "a cache's stamp and tunings (written by `ak tune`)");
  const json want = cache_stamp(device);
  // The stamp first: a file from another version or device says so, whatever else is in it.
  for (const char* key : {"format", "ak_version", "schema", "device"}) {
    const auto it = doc.find(key);
    if (it == doc.end())
      throw tuning_error(origin + ": no \"" + key +
                         "\" (not a cache written by this ak's `ak tune`, or truncated)");
    if (*it == want[key]) continue;
    if (std::string_view(key) == "device")
      throw tuning_error(origin + ": written for another device (" + it->dump() + "), not " +
                         want[key].dump());
    throw tuning_error(origin + ": stale: its " + key + " is " + it->dump() + ", this ak's is " +
                       want[key].dump());
  }
  const auto tunings = doc.find("tunings");
  if (tunings == doc.end()) throw tuning_error(origin + ": no \"tunings\"");
  std::vector<tuning_entry> out;
  parse_hooks(*tunings, origin, {"tunings"}, device.name, tuning_source::autotune, out);
  // What the tuner measured for each entry, shown with it (ak info, AK_LOG=tuning).
  const auto measured = doc.find("measured");
  if (measured == doc.end() || !measured->is_object()) return out;
  for (auto& e : out) {
    const auto m =
        measured->find(std::string(hook_schemas()[e.hook].name) + "/" + e.dtype_selector);
    if (m == measured->end() || !m->is_object()) continue;
    const auto speedup = m->find("speedup");
    if (speedup == m->end() || !speedup->is_number()) continue;
    char text[64];
    std::snprintf(text, sizeof text, " (measured %.2fx the default)", speedup->get<double>());
    e.origin.detail += text;
  }
  return out;
}

}  // namespace ak::detail
