#include "ak/core/error.hpp"

namespace ak {

namespace {
std::string format_argument_error(std::string_view function, std::string_view argument,
                                  std::string_view expected, std::string_view actual) {
  std::string m;
  m.append(function).append(": argument '").append(argument).append("': expected ");
  m.append(expected).append(", got ").append(actual);
  return m;
}
}  // namespace

argument_error::argument_error(std::string_view function, std::string_view argument,
                               std::string_view expected, std::string_view actual)
    : error(format_argument_error(function, argument, expected, actual)) {}

}  // namespace ak
