// Tunings are data, looked up at run time (DESIGN.md section 2).
//
// ak::tuning(hook, device, dtype) is defined out of line: the values it returns are never
// constants folded into the caller, so loading a backend, an override file or an autotune cache
// changes what precompiled code does without rebuilding it. Each field is resolved through the
// layers below, highest first, and remembers the layer it came from:
//
//   call       the call's own options (fields set in the algorithm value or options struct)
//   scoped     ak::scoped_tuning objects alive on this thread, the newest first
//   user       AK_TUNING: a JSON file's path, or inline JSON
//   autotune   the device's autotune cache file, written by `ak tune`
//   backend    the defaults its backend registered for the device class and dtype (class)
//   generic    the hook's generic default
//
// A lookup may name the number of elements the call handles (ak::tuning_size): entries measured
// at several sizes (a cache's or AK_TUNING's "by_size") then give the value measured at the size
// nearest to it; a lookup without one sees only the entries for every size.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "ak/core/dtype.hpp"
#include "ak/runtime/device.hpp"
#include "ak/runtime/hooks.hpp"

namespace ak {

enum class tuning_source : std::uint8_t { generic, backend, autotune, user, scoped, call };
std::string_view name_of(tuning_source s) noexcept;

// Where one resolved field came from: the layer, and what in it ("AK_TUNING file /x.json, key
// cpu/reduce/float32/cpu_grain").
struct field_origin {
  tuning_source source = tuning_source::generic;
  std::string detail;
};

template <tuning_type T>
struct explained_tuning {
  T value;
  std::vector<field_origin> origins;  // one per field, in declaration order
};

namespace detail {
// The runtime's id of a hook; throws ak::tuning_error for an unknown hook.
std::uint32_t hook_id(std::string_view hook_name);
// Resolves every field into out[0..field_count) for a call of `size` elements. `call` (may be
// null) holds the call's layer. The declared type is checked against the hook's; a mismatch
// names hook, backend and types.
void lookup_tuning(std::uint32_t hook, std::string_view type_name, std::uint32_t field_count,
                   const device& dev, dtype t, tuning_size size, const std::int64_t* call,
                   std::int64_t* out);
void explain_tuning(std::uint32_t hook, std::string_view type_name, std::uint32_t field_count,
                    const device& dev, dtype t, tuning_size size, const std::int64_t* call,
                    std::int64_t* out, field_origin* origins);

// Throws ak::argument_error(function, "<field>", expected, actual) for a set field out of range.
void check_tuning_fields(std::uint32_t hook, std::string_view type_name, std::uint32_t field_count,
                         const std::int64_t* values, std::string_view function);

template <tuning_hook Hook>
std::uint32_t cached_hook_id() {
  static const std::uint32_t id = hook_id(Hook::name);
  return id;
}
}  // namespace detail

template <tuning_type T>
using tuning_slots = std::array<std::int64_t, field_count_v<T>>;

// A hook's values for a device, dtype and (where the call has one) number of elements.
template <tuning_hook Hook>
typename Hook::type tuning(Hook, const device& dev, dtype t,
                           tuning_size size = tuning_size::any()) {
  using T = typename Hook::type;
  tuning_slots<T> slots;
  detail::lookup_tuning(detail::cached_hook_id<Hook>(), T::type_name, field_count_v<T>, dev, t,
                        size, nullptr, slots.data());
  return std::bit_cast<T>(slots);
}

// The same, with the call's own options as the highest layer: its set fields win.
template <tuning_hook Hook>
typename Hook::type tuning(Hook, const device& dev, dtype t, const typename Hook::type& call,
                           tuning_size size = tuning_size::any()) {
  using T = typename Hook::type;
  const auto call_slots = std::bit_cast<tuning_slots<T>>(call);
  tuning_slots<T> slots;
  detail::lookup_tuning(detail::cached_hook_id<Hook>(), T::type_name, field_count_v<T>, dev, t,
                        size, call_slots.data(), slots.data());
  return std::bit_cast<T>(slots);
}

// Checks the set fields of `values` against the hook's ranges, as `function` in messages
// ("ak::radix_sort: argument 'radix_digit_bits': expected an integer in [1, 16], got 17").
template <tuning_hook Hook>
void check_tuning(Hook, const typename Hook::type& values, std::string_view function) {
  using T = typename Hook::type;
  const auto slots = std::bit_cast<tuning_slots<T>>(values);
  detail::check_tuning_fields(detail::cached_hook_id<Hook>(), T::type_name, field_count_v<T>,
                              slots.data(), function);
}

// The resolved values with the layer each field came from.
template <tuning_hook Hook>
explained_tuning<typename Hook::type> explain_tuning(Hook, const device& dev, dtype t,
                                                     const typename Hook::type& call = {},
                                                     tuning_size size = tuning_size::any()) {
  using T = typename Hook::type;
  const auto call_slots = std::bit_cast<tuning_slots<T>>(call);
  tuning_slots<T> slots;
  std::vector<field_origin> origins(field_count_v<T>);
  detail::explain_tuning(detail::cached_hook_id<Hook>(), T::type_name, field_count_v<T>, dev, t,
                         size, call_slots.data(), slots.data(), origins.data());
  return {std::bit_cast<T>(slots), std::move(origins)};
}

// ---- Schemas: what tools and files see of the hooks -------------------------------------------

struct tuning_field_schema {
  std::string name;
  std::string doc;
  std::int64_t min = 0;  // inclusive range of valid values
  std::int64_t max = 0;
  bool power_of_two = false;            // 0 is allowed too where min is 0 (meaning "automatic")
  std::vector<std::string> enum_names;  // non-empty for enumerations: value i is enum_names[i]
};

struct tuning_hook_schema {
  std::string name;
  std::string type_name;
  std::vector<tuning_field_schema> fields;
};

std::vector<tuning_hook_schema> tuning_hooks();

struct tuning_field_value {
  std::string field;
  std::int64_t value = 0;
  std::string text;  // the value as a tuning file writes it (a number, or an enum's name)
  field_origin origin;
};
// Every field of one hook for one device, dtype and size, with where it came from (`ak info`).
std::vector<tuning_field_value> explain_tuning(std::string_view hook, const device& dev, dtype t,
                                               tuning_size size = tuning_size::any());

// The sizes (ascending) at which the layers below the call hold entries for this hook, device
// and dtype ("by_size" in a cache or AK_TUNING); empty when its values do not depend on size.
std::vector<std::int64_t> tuned_sizes(std::string_view hook, const device& dev, dtype t);

// ---- Overrides ----------------------------------------------------------------------------------

// Where an override applies. device: "*", a backend ("cpu"), a device class ("sm_90") or a
// device name ("cuda:0"). dtype: "*", a dtype class ("signed", "unsigned", "float", "bool") or a
// dtype ("float32"). More specific selectors win over less specific ones in the same layer.
struct tuning_scope {
  std::string device = "*";
  std::string dtype = "*";
};

// A scoped override in code: while it lives, lookups on this thread (where every algorithm
// resolves its tuning, before touching data) see its set fields. Values are checked on
// construction (ak::argument_error naming the field). It must be destroyed on the thread that
// created it (anything else terminates the program, as unlocking another thread's mutex would
// be undefined); the newest live override wins.
class scoped_tuning {
 public:
  template <tuning_hook Hook>
  scoped_tuning(Hook, const typename Hook::type& values, tuning_scope where = {}) {
    using T = typename Hook::type;
    const auto slots = std::bit_cast<tuning_slots<T>>(values);
    push(detail::cached_hook_id<Hook>(), T::type_name, field_count_v<T>, slots.data(), where);
  }
  scoped_tuning(const scoped_tuning&) = delete;
  scoped_tuning& operator=(const scoped_tuning&) = delete;
  ~scoped_tuning();

 private:
  void push(std::uint32_t hook, std::string_view type_name, std::uint32_t field_count,
            const std::int64_t* values, const tuning_scope& where);
  std::uint64_t id_ = 0;
  std::thread::id owner_;
};

// Rereads AK_TUNING, AK_LOG and every loaded device's autotune cache file (all are read on first
// use). With AK_LOG=tuning, every lookup prints its hook, device, dtype, values and sources on
// stderr.
// Throws ak::tuning_error for an AK_TUNING that is malformed or names an unknown hook, field or
// dtype; a cache file with such faults is ignored with a warning (tuning_cache_problem).
void reload_tuning_files();

// ---- The autotune cache ------------------------------------------------------------------------

// The autotune cache file of a device: $AK_TUNING_CACHE_DIR, else $XDG_CACHE_HOME/ak/tuning,
// else $HOME/.cache/ak/tuning; one JSON file per device model (see docs/tuning.md).
std::string tuning_cache_path(const device& dev);

// The stamp a cache file must carry to be used for `dev`, as the text of a JSON object:
// {"format": "ak-tuning-cache-1", "ak_version", "schema" (a digest of every hook's fields and
// ranges), "device": {backend, class, model, cores, caches, sub-group width, ...}}. `ak tune`
// writes it; a file whose stamp differs (another ak version, schema or device) is ignored.
std::string tuning_cache_stamp(const device& dev);

// Why the device's cache file is ignored (malformed, truncated, stale, another device's), or ""
// when it is used or there is none. An ignored cache draws one warning on stderr, and lookups go
// on without it (a bad AK_TUNING, by contrast, fails every lookup).
std::string tuning_cache_problem(const device& dev);

}  // namespace ak
