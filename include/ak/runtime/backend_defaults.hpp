// A C++ helper for backends to register tuning defaults from typed tuning structs:
//
//   ak::plugin::tuning_defaults d(host);
//   d.add(ak::reduce_hook{}, "sm_90", "float", {.block_size = 512, .items_per_thread = 16});
//   return d.status();
//
// Header-only and free of libak symbols, so a plugin needs nothing but this header and the C
// table. The runtime checks each struct's type against the hook's declared type.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>

#include "ak/plugin/backend_api.h"
#include "ak/runtime/hooks.hpp"

namespace ak::plugin {

class tuning_defaults {
 public:
  explicit tuning_defaults(const ak_host_v1* host) : host_(host) {}

  // Fields left unset fall through to lower layers (the hook's generic default).
  template <tuning_hook Hook>
  void add(Hook, const char* device_class, const char* dtype, const typename Hook::type& values) {
    add_as(Hook::name, values, device_class, dtype);
  }

  // Registers `values` for `hook` as whatever type it is; the runtime refuses a type that is not
  // the hook's (exposed for tests of that check).
  template <tuning_type T>
  void add_as(std::string_view hook, const T& values, const char* device_class, const char* dtype) {
    if (status_) return;
    std::string hook_name(hook), type_name(T::type_name);
    const auto slots = std::bit_cast<std::array<std::int64_t, field_count_v<T>>>(values);
    ak_tuning_default_v1 e{hook_name.c_str(), type_name.c_str(), field_count_v<T>,
                           slots.data(),      device_class,      dtype};
    status_ = host_->register_tuning_default(host_->context, &e);
  }

  // nullptr, or the runtime's message for the first default it refused.
  const char* status() const noexcept { return status_; }

 private:
  const ak_host_v1* host_;
  const char* status_ = nullptr;
};

}  // namespace ak::plugin
