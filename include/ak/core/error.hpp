// ak::error and its families. Every message names the argument (or key, or backend) and the
// expected and actual values, so a user can fix the call without reading ak's sources.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace ak {

// Base of every exception ak throws on purpose.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A bad argument to an ak function: wrong shape, rank, dtype, index, option value.
class argument_error : public error {
 public:
  using error::error;
  // "<function>: argument '<arg>': expected <expected>, got <actual>"
  argument_error(std::string_view function, std::string_view argument, std::string_view expected,
                 std::string_view actual);
};

// A backend or device that is absent, failed to load, or misbehaved.
class backend_error : public error {
 public:
  using error::error;
};

// A tuning that cannot be resolved: unknown hook/field/dtype, wrong type, bad override file.
class tuning_error : public error {
 public:
  using error::error;
};

// An algorithm that the device cannot run correctly (e.g. decoupled look-back without a
// device-scope fence), or options that an algorithm cannot honour.
class capability_error : public error {
 public:
  using error::error;
};

}  // namespace ak
