// The message of the exception a call throws, for tests that check what errors say.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "ak/core/error.hpp"

namespace ak::test {

// The message of the E that f throws; fails the test (and returns "") if it throws nothing.
template <class E = ak::argument_error, class F>
std::string error_message(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "no exception of the expected type was thrown";
  return {};
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace ak::test
