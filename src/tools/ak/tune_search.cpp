// The search of `ak tune` (tune.hpp): successive halving per field, in alternating pairs.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <string>

#include "ak/runtime/hooks.hpp"
#include "median.hpp"
#include "tune.hpp"

namespace ak::tool::tune {

speedup summarise(std::vector<double> ratios) {
  speedup s;
  s.pairs = static_cast<int>(ratios.size());
  if (ratios.empty()) return s;
  std::sort(ratios.begin(), ratios.end());
  s.median = median(ratios);
  auto quantile = [&](double q) {
    const double at = q * static_cast<double>(ratios.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(at));
    const auto hi = std::min(lo + 1, ratios.size() - 1);
    return ratios[lo] + (at - static_cast<double>(lo)) * (ratios[hi] - ratios[lo]);
  };
  s.spread = (quantile(0.75) - quantile(0.25)) / 2;
  return s;
}

namespace {

using clock = std::chrono::steady_clock;

// Stops a search early: out of time, or interrupted.
struct stop_signal {};

class racer {
 public:
  racer(const target& t, const settings& s) : t_(t), s_(s) {
    for (const auto n : t.sizes) loads_.push_back(t.build(n));
    defaults_.assign(t.slots, ak::unset);
    // The default's results, and how many runs make one timed sample of each size (about 2 ms,
    // so that a sample of a fast op is not one timer tick).
    for (std::size_t i = 0; i < loads_.size(); ++i) {
      const double once = time_one(i, defaults_, 1);
      want_.push_back(loads_[i].digest());
      reps_.push_back(static_cast<int>(std::clamp(2e-3 / std::max(once, 1e-9), 1.0, 64.0)));
    }
  }

  // "" when `c` gives the default's result at every size, else what went wrong.
  std::string check(const config& c) {
    try {
      for (std::size_t i = 0; i < loads_.size(); ++i) {
        time_one(i, c, 1);
        if (loads_[i].digest() != want_[i])
          return "its result differs from the default's at n = " + std::to_string(t_.sizes[i]);
      }
    } catch (const std::exception& e) {  // a stop_signal is not one: it goes on up
      return std::string("it failed: ") + e.what();
    }
    return {};
  }

  // Adds `pairs` alternating pairs of `c` against `base` to `ratios[size]` (base time / c time).
  void race(const config& base, const config& c, int pairs, std::vector<std::vector<double>>& r) {
    r.resize(loads_.size());
    for (int p = 0; p < pairs; ++p)
      for (std::size_t i = 0; i < loads_.size(); ++i) {
        double tb = 0, tc = 0;
        if ((p + static_cast<int>(r[i].size())) % 2 == 0) {
          tb = time_one(i, base, reps_[i]);
          tc = time_one(i, c, reps_[i]);
        } else {
          tc = time_one(i, c, reps_[i]);
          tb = time_one(i, base, reps_[i]);
        }
        r[i].push_back(tb / std::max(tc, 1e-12));
      }
  }

  const config& defaults() const { return defaults_; }

 private:
  double time_one(std::size_t i, const config& c, int reps) {
    if ((s_.interrupted && s_.interrupted()) || clock::now() > s_.deadline) throw stop_signal{};
    const std::shared_ptr<void> guard = t_.apply(c);
    double total = 0;
    for (int r = 0; r < reps; ++r) {
      if (loads_[i].prepare) loads_[i].prepare();
      const double t0 = now();
      loads_[i].run();
      total += now() - t0;
    }
    return total;
  }

  double now() const {
    if (s_.clock) return s_.clock();
    return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
  }

  const target& t_;
  const settings& s_;
  std::vector<workload> loads_;
  std::vector<std::uint64_t> want_;
  std::vector<int> reps_;
  config defaults_;
};

// A candidate's figure over sizes: the size where it gains least decides.
speedup worst_size(const std::vector<std::vector<double>>& per_size) {
  speedup worst;
  bool first = true;
  for (const auto& r : per_size) {
    const speedup s = summarise(r);
    if (first || s.median - s.spread < worst.median - worst.spread) worst = s;
    first = false;
  }
  return worst;
}

double lower(const speedup& s) {
  return s.median - s.spread;
}

// Whether a measured speedup keeps its value: its lower side reaches min_speedup; a min_speedup
// of 0 or less keeps the fastest correct value whatever the noise (as --min-speedup 0 says).
bool keeps(const speedup& s, double min_speedup) {
  return min_speedup <= 0 || lower(s) >= min_speedup;
}

}  // namespace

target_result search(const target& t, const settings& s) {
  target_result out{t.op, t.hook, t.dtype, t.sizes, {}, {}, false, false, {}};
  auto note = [&](const std::string& what) {
    if (s.step) s.step(what);
  };
  try {
    note("building inputs");
    racer race(t, s);
    config current = race.defaults();
    for (const auto& f : t.fields) {
      field_result fr{f.name, f.base, f.base, f.text(f.base), f.text(f.base), {}, {}};
      // Candidates whose result is not the default's never take part.
      struct entrant {
        std::int64_t value;
        std::vector<std::vector<double>> ratios;
      };
      std::vector<entrant> pool;
      for (const auto v : f.candidates) {
        note(f.name + " = " + f.text(v) + ": checking its result");
        config c = current;
        c[f.slot] = v;
        if (const std::string why = race.check(c); !why.empty())
          fr.rejected.push_back(f.name + " = " + f.text(v) + ": " + why);
        else
          pool.push_back({v, {}});
      }
      // Successive halving: every survivor gets `pairs` more pairs, the better half goes on.
      int pairs = 2;
      while (!pool.empty()) {
        for (auto& e : pool) {
          note(f.name + " = " + f.text(e.value) + ": " + std::to_string(pool.size()) +
               " left in the race");
          config c = current;
          c[f.slot] = e.value;
          race.race(current, c, pairs, e.ratios);
        }
        std::stable_sort(pool.begin(), pool.end(), [](const entrant& a, const entrant& b) {
          return lower(worst_size(a.ratios)) > lower(worst_size(b.ratios));
        });
        if (pool.size() == 1 && pool.front().ratios.front().size() >= 8) break;
        pool.resize(std::max<std::size_t>(1, (pool.size() + 1) / 2));
        pairs = std::min(pairs * 2, 8);
      }
      if (!pool.empty()) {
        fr.measured = worst_size(pool.front().ratios);
        if (keeps(fr.measured, s.min_speedup)) {
          fr.tuned = pool.front().value;
          fr.tuned_text = f.text(fr.tuned);
          current[f.slot] = fr.tuned;
        }
      }
      out.fields.push_back(std::move(fr));
    }
    // The tuned values together against the defaults, measured afresh.
    if (current != race.defaults()) {
      note("the tuned values against the defaults");
      std::vector<std::vector<double>> r;
      race.race(race.defaults(), current, 9, r);
      out.total = worst_size(r);
      out.kept = keeps(out.total, s.min_speedup);
    }
    out.complete = true;
  } catch (const stop_signal&) {
    out.complete = false;  // what was measured so far is reported, nothing of it is kept
  } catch (const std::exception& e) {
    out.skipped = e.what();
  }
  return out;
}

}  // namespace ak::tool::tune
