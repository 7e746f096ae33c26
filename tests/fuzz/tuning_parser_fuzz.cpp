// libFuzzer target: the tuning-file parser (AK_TUNING as a file or inline text, and the autotune
// cache, as given and as the tunings of a correctly stamped cache) on arbitrary bytes. Every input
// must either parse into entries whose values all lie in their fields' ranges, or be refused with
// ak::tuning_error naming the origin; anything else (a crash, another exception, a value out of
// range accepted) is a finding.
//
// Built with clang's -fsanitize=fuzzer (AK_FUZZ=ON); scripts/fuzz.sh runs it. The committed seed
// corpus is tests/fuzz/corpus/tuning_parser; every crash found becomes a case in the regression
// test of the parser (tests/runtime/tuning_test.cpp, BadOverrideFile).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ak/core/error.hpp"
#include "registry.hpp"

namespace {

[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "tuning_parser_fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

void check_entries(const std::vector<ak::detail::tuning_entry>& entries) {
  const auto& hooks = ak::detail::hook_schemas();
  for (const auto& e : entries) {
    if (e.hook >= hooks.size()) finding("entry of an unknown hook", std::to_string(e.hook));
    const auto& h = hooks[e.hook];
    if (e.values.size() != h.fields.size()) finding("wrong field count", std::string(h.name));
    for (std::size_t i = 0; i < e.values.size(); ++i)
      if (e.values[i] != ak::unset && !ak::detail::valid_field_value(h.fields[i], e.values[i]))
        finding("a value out of range was accepted", std::string(h.name) + "." +
                                                         std::string(h.fields[i].name) + " = " +
                                                         std::to_string(e.values[i]));
  }
}

template <class Parse>
void one(const std::string& origin, Parse parse) {
  try {
    check_entries(parse());
  } catch (const ak::tuning_error& e) {
    if (std::string_view(e.what()).find(origin) == std::string_view::npos)
      finding("an error that does not name its origin", e.what());
  } catch (const std::exception& e) {
    finding("not an ak::tuning_error", e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  one("fuzz.json", [&] { return ak::detail::parse_user_tuning(text, "fuzz.json"); });
  // A cache as it is, and the input as the tunings of a cache whose stamp is the device's.
  static const ak::device_info device = [] {
    ak::device_info d;
    d.name = "cpu:0";
    d.backend = "cpu";
    d.device_class = "cpu";
    d.description = "fuzz";
    return d;
  }();
  static const std::string stamp = [] {
    std::string s = ak::detail::cache_stamp_text(device);
    s.pop_back();  // the closing brace
    return s + ", \"tunings\": ";
  }();
  one("cache.json", [&] { return ak::detail::parse_cache_tuning(text, "cache.json", device); });
  const std::string stamped = stamp + std::string(text) + "}";
  one("cache.json", [&] { return ak::detail::parse_cache_tuning(stamped, "cache.json", device); });
  return 0;
}
