// The four-step resolution of algorithm values (see algorithm_values.hpp).
#include <string>

#include "ak/core/error.hpp"
#include "ak/runtime/algorithm_values.hpp"
#include "ak/runtime/tuning.hpp"

namespace ak {

namespace {

std::string on_device(const device& dev) {
  return "device '" + dev.name() + "' (class " + dev.info().device_class + ")";
}

// Step 4 for the fields every GPU-style algorithm has.
void check_group_shape(std::string_view alg, std::int64_t block_size, std::int64_t sub_group_width,
                       const device& dev) {
  const device_info& i = dev.info();
  if (i.kind == device_kind::cpu) return;  // the cpu backend runs native CPU algorithms
  if (i.max_group_size > 0 && block_size > i.max_group_size)
    throw capability_error(std::string(alg) + ": block_size " + std::to_string(block_size) +
                           " exceeds the largest group of " + on_device(dev) + ", " +
                           std::to_string(i.max_group_size));
  if (sub_group_width > 0 && sub_group_width > i.sub_group_width)
    throw capability_error(std::string(alg) + ": sub_group_width " +
                           std::to_string(sub_group_width) + " exceeds the sub-group width of " +
                           on_device(dev) + ", " + std::to_string(i.sub_group_width));
}

// Steps 1 and 3 in one lookup: the caller's fields, as the highest layer, over the tuning.
// tuning() checks them; only when that fails are they checked again, to name what the caller
// wrote: the algorithm value ("ak::radix_sort: argument 'radix_digit_bits': ...") or the function
// whose options held them.
template <class Hook>
typename Hook::type checked_lookup(Hook hook, const device& dev, dtype t, tuning_size size,
                                   const typename Hook::type& call, std::string_view name) {
  try {
    return tuning(hook, dev, t, call, size);
  } catch (const argument_error&) {
    check_tuning(hook, call, name);
    throw;
  }
}

template <class Variant>
std::string value_name(const Variant& alg) {
  return std::visit([](const auto& a) { return "ak::" + std::string(a.name); }, alg);
}

// The call's layer from an algorithm value: the fields the value carries (its column K of the
// hook's field list in ak/runtime/hooks.hpp), by name, and the algorithm it stands for.
#define AK_CALL_FIELD_0(type, name, carried_by, doc) AK_IF_CARRIED(0, carried_by)(t.name = a.name;)
#define AK_CALL_FIELD_1(type, name, carried_by, doc) AK_IF_CARRIED(1, carried_by)(t.name = a.name;)
#define AK_CALL_FIELD_2(type, name, carried_by, doc) AK_IF_CARRIED(2, carried_by)(t.name = a.name;)
scan_tuning call_layer(scan_hook, const auto_alg&) {
  return {};
}
scan_tuning call_layer(scan_hook, const reduce_then_scan& a) {
  scan_tuning t;
  t.algorithm = scan_algorithm::reduce_then_scan;
  AK_SCAN_TUNING_FIELDS(AK_CALL_FIELD_0)
  return t;
}
scan_tuning call_layer(scan_hook, const decoupled_lookback& a) {
  scan_tuning t;
  t.algorithm = scan_algorithm::decoupled_lookback;
  AK_SCAN_TUNING_FIELDS(AK_CALL_FIELD_1)
  return t;
}
sort_tuning call_layer(sort_hook, const auto_alg&) {
  return {};
}
sort_tuning call_layer(sort_hook, const radix_sort& a) {
  sort_tuning t;
  t.algorithm = sort_algorithm::radix;
  AK_SORT_TUNING_FIELDS(AK_CALL_FIELD_0)
  return t;
}
sort_tuning call_layer(sort_hook, const merge_sort& a) {
  sort_tuning t;
  t.algorithm = sort_algorithm::merge;
  AK_SORT_TUNING_FIELDS(AK_CALL_FIELD_1)
  return t;
}
sort_tuning call_layer(sort_hook, const sample_sort& a) {
  sort_tuning t;
  t.algorithm = sort_algorithm::sample;
  AK_SORT_TUNING_FIELDS(AK_CALL_FIELD_2)
  return t;
}
#undef AK_CALL_FIELD_0
#undef AK_CALL_FIELD_1
#undef AK_CALL_FIELD_2

bool can_decouple(const device& dev) {
  return dev.caps().device_scope_fence && dev.caps().forward_progress;
}

}  // namespace

// A scan from its call layer: an explicit algorithm when the layer sets one.
resolved_scan resolve(const scan_tuning& call, const device& dev, dtype t, std::string_view name,
                      tuning_size size) {
  const bool explicit_alg = call.algorithm != scan_algorithm::not_set;
  resolved_scan r{scan_algorithm::not_set, checked_lookup(scan_hook{}, dev, t, size, call, name)};
  r.algorithm = r.tuning.algorithm;
  // Step 2: auto falls back to what runs everywhere when the device cannot decouple.
  if (!explicit_alg && r.algorithm == scan_algorithm::decoupled_lookback && !can_decouple(dev))
    r.algorithm = r.tuning.algorithm = scan_algorithm::reduce_then_scan;
  // Step 4.
  if (r.algorithm == scan_algorithm::decoupled_lookback && !can_decouple(dev))
    throw capability_error(
        "decoupled_lookback needs a device-scope fence and forward progress between groups; " +
        on_device(dev) + " has " + (dev.caps().device_scope_fence ? "a fence" : "no fence") +
        " and " + (dev.caps().forward_progress ? "forward progress" : "no forward progress") +
        ". Use ak::reduce_then_scan or ak::auto_alg");
  check_group_shape(name_of(r.algorithm), r.tuning.block_size, r.tuning.sub_group_width, dev);
  return r;
}

resolved_scan resolve(const scan_alg& alg, const device& dev, dtype t, tuning_size size) {
  // Step 1: the caller's fields, checked, become the call's layer.
  const scan_tuning call =
      std::visit([](const auto& a) { return call_layer(scan_hook{}, a); }, alg);
  return resolve(call, dev, t, value_name(alg), size);
}

resolved_sort resolve(const sort_alg& alg, const device& dev, dtype t, const sort_facts& facts,
                      tuning_size size) {
  // Step 1.
  if (std::holds_alternative<radix_sort>(alg) && facts.custom_order)
    throw capability_error(
        "radix_sort cannot honour a custom `lt`, or a `by` that returns no number: it orders "
        "numeric keys by their bits. Use ak::merge_sort, ak::sample_sort or ak::auto_alg");
  // Sample sort exists on the cpu backend only.
  if (std::holds_alternative<sample_sort>(alg) && dev.info().kind != device_kind::cpu)
    throw capability_error("sample_sort has no implementation for GPU-style devices such as " +
                           on_device(dev) + "; use ak::merge_sort, ak::radix_sort or ak::auto_alg");
  // The cpu backend's sample sort is stable (its distribution steps keep equal elements in
  // order); other backends have none that is.
  const bool stable_sample_sort = dev.info().kind == device_kind::cpu;
  const bool gpu_style = dev.info().kind != device_kind::cpu;
  if (std::holds_alternative<sample_sort>(alg) && facts.stable && !stable_sample_sort)
    throw capability_error(
        "sample_sort is not stable on " + dev.name() +
        " and the call asks for a stable sort; use ak::merge_sort, ak::radix_sort or pass "
        ".stable = false");
  const sort_tuning call =
      std::visit([](const auto& a) { return call_layer(sort_hook{}, a); }, alg);
  resolved_sort r{sort_algorithm::not_set,
                  checked_lookup(sort_hook{}, dev, t, size, call, value_name(alg))};
  r.algorithm = r.tuning.algorithm;
  // Step 2: auto keeps the tuning's choice unless the call's facts rule it out. Then the cpu
  // takes its sample sort (stable, any comparator, the faster of its comparison sorts); other
  // backends take merge sort, which honours every comparator and is stable.
  if (std::holds_alternative<auto_alg>(alg) &&
      ((r.algorithm == sort_algorithm::radix && facts.custom_order) ||
       (r.algorithm == sort_algorithm::sample && (facts.stable || gpu_style) &&
        !stable_sample_sort)))
    r.algorithm = r.tuning.algorithm =
        stable_sample_sort ? sort_algorithm::sample : sort_algorithm::merge;
  // Step 4.
  check_group_shape(name_of(r.algorithm), r.tuning.block_size, 0, dev);
  const device_info& i = dev.info();
  if (i.kind != device_kind::cpu && r.algorithm == sort_algorithm::merge &&
      i.local_memory_bytes > 0 &&
      r.tuning.merge_tile_size * static_cast<std::int64_t>(size_of(t)) > i.local_memory_bytes)
    throw capability_error("merge_sort: a tile of " + std::to_string(r.tuning.merge_tile_size) +
                           " " + std::string(name_of(t)) + " keys needs more than the " +
                           std::to_string(i.local_memory_bytes) + " bytes of local memory of " +
                           on_device(dev));
  return r;
}

}  // namespace ak
