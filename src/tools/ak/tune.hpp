// `ak tune`: measures which tuning values are fastest on this machine and writes them to the
// device's autotune cache (docs/tuning.md). The search (tune_search.cpp) knows nothing of ak's
// operations: a target gives it the fields to try, a way to run the operation under a tuning,
// and a digest of the result; tune.cpp builds targets for ak's public operations, runs them and
// writes the cache.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ak::tool {

// The command's options (main.cpp declares the flags).
struct tune_options {
  std::string device = "cpu";
  std::vector<std::string> ops;     // empty: all
  std::vector<std::string> dtypes;  // empty: the default list
  std::vector<std::int64_t> n;      // empty: each op's default size
  double budget_seconds = 240;
  bool dry_run = false;
  std::string json;           // also write the report here
  double min_speedup = 1.03;  // kept when (median - spread) of its speedup reaches this; 0: always
};
int run_tune(const tune_options& o);
// The ops --ops takes (besides `all`) and the dtypes tuned without --dtypes, comma-separated.
std::string tune_op_names();
std::string tune_default_dtypes();

namespace tune {

// One field to search: its slot in the hook's tuning type, the value the layers below the cache
// give it, and the values to try.
struct field_space {
  std::string name;
  std::size_t slot = 0;
  std::int64_t base = 0;
  std::vector<std::int64_t> candidates;
  std::function<std::string(std::int64_t)> text;  // a value as a tuning file writes it
  bool named = false;                             // an enumeration: files give its names
};

// One size of an operation with its inputs built. prepare restores the inputs (untimed), run is
// timed, digest summarises the result of the last run (untimed).
struct workload {
  std::function<void()> prepare;
  std::function<void()> run;
  std::function<std::uint64_t()> digest;
};

// A hook's values as slots (ak::unset where the layers below decide).
using config = std::vector<std::int64_t>;

struct target {
  std::string op;    // "sort"
  std::string hook;  // "sort"
  std::string dtype;
  std::vector<std::int64_t> sizes;
  std::vector<field_space> fields;  // searched in this order
  std::size_t slots = 0;            // the hook's field count
  std::function<workload(std::int64_t n)> build;
  // Makes `c` the tuning of the op's calls on this thread while the returned guard lives.
  std::function<std::shared_ptr<void>(const config& c)> apply;
};

// Paired measurements of a value against another: speedup = other's time / this one's, per pair.
struct speedup {
  double median = 0;
  double spread = 0;  // half the interquartile range
  int pairs = 0;
};

struct field_result {
  std::string field;
  std::int64_t base = 0;
  std::int64_t tuned = 0;             // == base when no value won
  std::string base_text, tuned_text;  // as a tuning file writes them
  speedup measured;                   // the best candidate against the value before it
  std::vector<std::string> rejected;  // candidates whose result differed, or that failed
};

struct target_result {
  std::string op, hook, dtype;
  std::vector<std::int64_t> sizes;
  std::vector<field_result> fields;  // the fields searched to the end
  speedup total;                     // the tuned values together against the defaults
  bool complete = false;             // every field searched and the total measured
  bool kept = false;                 // the tuned values are written
  std::string skipped;               // why the target could not run at all
};

struct settings {
  double min_speedup = 1.03;
  std::chrono::steady_clock::time_point deadline;
  std::function<bool()> interrupted;             // stop soon (Ctrl-C)
  std::function<void(const std::string&)> step;  // what is being measured now, for progress
  std::function<double()> clock;  // seconds, to time runs by; empty: std::chrono::steady_clock
};

// Searches each field in turn (coordinate descent): candidates whose result differs from the
// default's are rejected, the rest are raced by successive halving in pairs that alternate with
// the current values; the survivor is kept when the lower side of its speedup (median - spread)
// reaches min_speedup. The tuned values together are then measured against the defaults and
// kept only if they still reach it.
target_result search(const target& t, const settings& s);

// The median and half the interquartile range of a sample.
speedup summarise(std::vector<double> ratios);

}  // namespace tune
}  // namespace ak::tool
