// AK_LOG: diagnostic lines on stderr, by topic. AK_LOG is a comma-separated list of topics
// ("tuning", "launch": the sim engine's counts per launch, or "all"); it is read on first use and
// again by ak::reload_tuning_files(). A topic that does not exist draws one warning and is
// otherwise ignored: a log setting must never stop a program.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <string_view>

#include "registry.hpp"

namespace ak::detail {

namespace {

constexpr std::string_view topic_names[] = {"tuning", "launch"};

std::atomic<unsigned> enabled_topics{0};
std::once_flag first_read;

unsigned parse_topics(std::string_view v) {
  unsigned bits = 0;
  while (!v.empty()) {
    auto comma = v.find(',');
    std::string_view t = v.substr(0, comma);
    v = comma == std::string_view::npos ? std::string_view{} : v.substr(comma + 1);
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
    if (t.empty()) continue;
    if (t == "all") {
      bits = ~0u;
      continue;
    }
    bool known = false;
    for (unsigned i = 0; i < std::size(topic_names); ++i)
      if (t == topic_names[i]) {
        bits |= 1u << i;
        known = true;
      }
    if (!known)
      write_log_line("ak: AK_LOG: unknown topic '" + std::string(t) +
                     "' ignored (topics: tuning, launch, all)");
  }
  return bits;
}

}  // namespace

void reload_log_settings() {
  const char* env = std::getenv("AK_LOG");
  enabled_topics.store(env ? parse_topics(env) : 0u, std::memory_order_relaxed);
}

bool log_enabled(log_topic t) noexcept {
  std::call_once(first_read, [] {
    try {
      reload_log_settings();
    } catch (...) {  // out of memory while warning: run without the log
    }
  });
  return (enabled_topics.load(std::memory_order_relaxed) >> static_cast<unsigned>(t)) & 1u;
}

void write_log_line(std::string_view line) {
  // One fwrite per line: lines from different threads do not interleave.
  std::string s(line);
  s += '\n';
  std::fwrite(s.data(), 1, s.size(), stderr);
}

}  // namespace ak::detail
