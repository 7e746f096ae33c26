// Helpers shared by the runtime tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "ak/core/error.hpp"
#include "ak/runtime/tuning.hpp"

namespace ak::test {

// Sets (or unsets, for nullopt) an environment variable for a scope, then restores it.
class scoped_env {
 public:
  scoped_env(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~scoped_env() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// A file that is removed when the scope ends.
class temp_file {
 public:
  temp_file(const std::string& name, const std::string& text)
      : path_(std::filesystem::temp_directory_path() /
              ("ak-test-" + std::to_string(::getpid()) + "-" + name)) {
    std::ofstream(path_) << text;
  }
  ~temp_file() { std::filesystem::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// Rereads AK_TUNING and the cache files; returns the error text, or "" when they were accepted.
inline std::string reload_error() {
  try {
    reload_tuning_files();
    return {};
  } catch (const tuning_error& e) {
    return e.what();
  }
}

// Points AK_TUNING at `value` (a path or inline JSON) for a scope, rereading the files on entry
// and exit so that later tests see no trace of it.
class scoped_user_tuning {
 public:
  explicit scoped_user_tuning(std::optional<std::string> value) : env_("AK_TUNING", value) {}
  // Rereads and returns the error text ("" when the file was accepted).
  std::string reload() { return reload_error(); }
  ~scoped_user_tuning() {
    ::unsetenv("AK_TUNING");
    (void)reload_error();
  }

 private:
  scoped_env env_;
};

}  // namespace ak::test
