// Turns the autotune cache off and on within one process, for `ak tune` (which measures against
// the backend's defaults) and `ak bench --vs-defaults` (which times ak with and without it).
#pragma once

#include <optional>
#include <string>

namespace ak::tool {

// While off, lookups see no autotune cache: AK_TUNING_CACHE_DIR points at an empty folder of
// its own, and the tuning files are reread. The destructor restores the variable and rereads.
class cache_switch {
 public:
  cache_switch();
  ~cache_switch();
  cache_switch(const cache_switch&) = delete;
  cache_switch& operator=(const cache_switch&) = delete;
  // Rereads the tuning files when the state changes; returns whether it did.
  bool use_cache(bool on);

 private:
  void point_at(const std::optional<std::string>& dir);
  std::string empty_;
  std::optional<std::string> saved_;
  bool on_ = true;
};

}  // namespace ak::tool
