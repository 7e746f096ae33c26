// `ak tune`: builds a search target (tune.hpp) for each (op, dtype, size) on the device, runs
// the searches within the budget, prints the report and writes the device's autotune cache: one
// value per field where every size agrees (or one size was asked for), else the value of each
// size under "by_size".
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "ak/ak.hpp"
#include "ak/core/digest.hpp"
#include "cache_switch.hpp"
#include "random_inputs.hpp"
#include "tune.hpp"

namespace ak::tool {

namespace {

using json = nlohmann::json;
using tune::config;

// ---- the operations tuned, and the fields each searches --------------------------------------

struct op_info {
  std::string_view name;
  std::string_view hook;
  std::int64_t default_n;
  // The fields searched on a cpu device and on a GPU-style one, in search order.
  std::vector<std::string_view> cpu_fields;
  std::vector<std::string_view> gpu_fields;
};

const std::vector<op_info>& op_table() {
  static const std::vector<op_info> ops{
      // The sort hook's cpu_grain serves every sort algorithm (the comparator sort's too), so
      // one op's workload must not choose it: `sort` chose 65536 at 1e5 int32 keys (1.08x),
      // which made sort_custom's sample sort run on one thread (0.65x in `ak bench`).
      {"sort",
       "sort",
       1'000'000,
       {"algorithm", "radix_digit_bits", "radix_msd_passes", "radix_msd_run", "radix_vector_run"},
       {"radix_digit_bits", "radix_items_per_thread", "block_size"}},
      // The comparator sort (a custom `lt`: the sample sort on cpu, merge sort on GPUs), which
      // shares the sort hook with `sort` and searches fields of its own.
      {"sort_custom",
       "sort",
       1'000'000,
       {"sample_oversampling", "sample_leaf_size"},
       {"merge_tile_size"}},
      // Segments of 1 to 512 keys over offsets (the cpu's run thresholds decide how each is
      // sorted); GPU-style devices sort segments by whole sorts, which `sort` tunes.
      {"sort_segments", "sort", 1'000'000, {"insertion_run", "radix_min_run"}, {}},
      // sortperm's packing of keys of at most 4 bytes with their indices (radix_packed_run, the
      // cpu's alone), which no other sort uses.
      {"sortperm", "sort", 1'000'000, {"radix_packed_run"}, {}},
      {"reduce",
       "reduce",
       10'000'000,
       {"cpu_tasks", "cpu_grain"},
       {"block_size", "items_per_thread", "vector_width"}},
      {"scan", "scan", 10'000'000, {"cpu_grain"}, {"algorithm", "block_size", "items_per_thread"}},
      {"map", "map", 10'000'000, {"cpu_grain"}, {"block_size", "items_per_thread"}},
      {"search", "search", 1'000'000, {"cpu_grain"}, {"block_size"}},
      {"select", "select", 10'000'000, {"cpu_grain"}, {"block_size", "items_per_thread"}},
  };
  return ops;
}

const std::vector<std::string> default_dtypes{"int32", "uint32", "int64", "float32", "float64"};

}  // namespace

namespace {
// The names of a list, comma-separated.
template <class List, class Name>
std::string comma_list(const List& list, const Name& name) {
  std::string out;
  for (const auto& x : list) out += (out.empty() ? "" : ", ") + std::string(name(x));
  return out;
}
}  // namespace

std::string tune_op_names() {
  return comma_list(op_table(), [](const op_info& op) { return op.name; });
}

std::string tune_default_dtypes() {
  return comma_list(default_dtypes, [](const std::string& t) { return t; });
}

namespace {

// ---- inputs -------------------------------------------------------------------------------------

// Reduction and scan inputs whose every partial sum is exact in every dtype, so that any grain
// or task count gives the default's result bit for bit: pairs (s, -s) with s = +-1 for signed
// and float types, 0..3 for unsigned ones (which wrap, as defined).
template <class T>
T exact_term(std::int64_t i) noexcept {
  const std::uint64_t h = hash64(static_cast<std::uint64_t>(i / 2));
  if constexpr (std::is_unsigned_v<T>) {
    return static_cast<T>(hash64(static_cast<std::uint64_t>(i)) & 3u);
  } else {
    const int s = (h & 1u) ? 1 : -1;
    return static_cast<T>(i % 2 == 0 ? s : -s);
  }
}

template <class T, class Gen>
std::vector<T> host_data(std::int64_t n, const Gen& gen) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = gen(i);
  return v;
}

// n keys of the whole range of T, the same on every run: random_key of hash64(first + i).
template <class T>
std::vector<T> random_keys(std::int64_t n, std::int64_t first = 0) {
  return host_data<T>(n, [first](std::int64_t i) {
    return random_key<T>(hash64(static_cast<std::uint64_t>(first + i)));
  });
}

template <class T>
std::uint64_t digest_of(const ak::array<T>& a) {
  const std::vector<T> v = a.to_vector();
  const std::size_t n = v.size();
  return ak::detail::fnv1a64().bytes(&n, sizeof n).bytes(v.data(), n * sizeof(T)).value();
}

template <class T>
std::uint64_t digest_of_value(T x) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof(T));
  return hash64(bits);
}

// Times 3, plus 1: a map every dtype has.
struct triple_plus_one {
  template <class T>
  T operator()(T x) const {
    return static_cast<T>(x * T(3) + T(1));
  }
};

// One size of an op on a device, for dtype T.
template <class T>
tune::workload make_workload(std::string_view op, const ak::device& dev, std::int64_t n) {
  tune::workload w;
  if (op == "sort") {
    auto input = std::make_shared<std::vector<T>>(random_keys<T>(n));
    auto data = std::make_shared<ak::array<T>>(ak::shape{n}, dev);
    w.prepare = [input, data] { data->copy_from(*input); };
    w.run = [data] { ak::sort_inplace(*data); };
    w.digest = [data] { return digest_of(*data); };
  } else if (op == "sort_custom") {
    auto input = std::make_shared<std::vector<T>>(random_keys<T>(n));
    auto data = std::make_shared<ak::array<T>>(ak::shape{n}, dev);
    w.prepare = [input, data] { data->copy_from(*input); };
    // The algorithm a custom `lt` resolves to on this device and tuning (sample sort on cpu,
    // merge sort on GPU-style devices, or the tuning's own choice), named explicitly and given
    // ak's order reversed: the same code as under a user's comparator, but through libak's
    // precompiled entries. A comparator of the tool's own would instantiate every comparison
    // sort for every dtype in this file (101 of the CI build's 1850 CPU-s, 2026-12-07; 35 s
    // without it).
    w.run = [data, dev, n] {
      const ak::resolved_sort r = ak::resolve(ak::sort_alg{ak::auto_alg{}}, dev, ak::dtype_of_v<T>,
                                              {.custom_order = true, .stable = true}, {n});
      ak::sort_options<> o{.rev = true};
      if (r.algorithm == ak::sort_algorithm::sample)
        o.alg = ak::sample_sort{};
      else
        o.alg = ak::merge_sort{};
      ak::sort_inplace(*data, o);
    };
    w.digest = [data] { return digest_of(*data); };
  } else if (op == "sort_segments") {
    auto input = std::make_shared<std::vector<T>>(random_keys<T>(n));
    std::vector<std::int64_t> starts{0};
    for (std::int64_t at = 0; at < n;)
      starts.push_back(
          at = std::min(
              n, at + 1 + static_cast<std::int64_t>(hash64(static_cast<std::uint64_t>(at)) % 512)));
    auto offsets = std::make_shared<ak::array<std::int64_t>>(starts, dev);
    auto data = std::make_shared<ak::array<T>>(ak::shape{n}, dev);
    w.prepare = [input, data] { data->copy_from(*input); };
    w.run = [data, offsets] { ak::sort_inplace(*data, ak::offsets{offsets->view()}); };
    w.digest = [data] { return digest_of(*data); };
  } else if (op == "sortperm") {
    auto data = std::make_shared<ak::array<T>>(random_keys<T>(n), dev);
    auto result = std::make_shared<ak::array<std::int64_t>>();
    w.run = [data, result] { *result = ak::sortperm(*data); };
    w.digest = [result] { return digest_of(*result); };
  } else if (op == "reduce") {
    auto data = std::make_shared<ak::array<T>>(host_data<T>(n, exact_term<T>), dev);
    auto result = std::make_shared<T>();
    w.run = [data, result] { *result = ak::sum(*data); };
    w.digest = [result] { return digest_of_value(*result); };
  } else if (op == "scan") {
    // Both forms users call: into a new array, and in place (`ak bench`'s accumulate); a value
    // must help their sum, not one at the other's cost.
    auto input = std::make_shared<std::vector<T>>(host_data<T>(n, exact_term<T>));
    auto data = std::make_shared<ak::array<T>>(*input, dev);
    auto work = std::make_shared<ak::array<T>>(ak::shape{n}, dev);
    auto result = std::make_shared<ak::array<T>>();
    w.prepare = [input, work] { work->copy_from(*input); };
    w.run = [data, work, result] {
      *result = ak::cumsum(*data);
      ak::accumulate_inplace(*work, ak::plus{});
    };
    w.digest = [result, work] { return digest_of(*result) ^ (digest_of(*work) * 3); };
  } else if (op == "map") {
    auto data = std::make_shared<ak::array<T>>(host_data<T>(n, exact_term<T>), dev);
    auto result = std::make_shared<ak::array<T>>(ak::shape{n}, dev);
    w.run = [data, result] { ak::map_into(*result, triple_plus_one{}, *data); };
    w.digest = [result] { return digest_of(*result); };
  } else if (op == "search") {
    std::vector<T> keys = random_keys<T>(n);
    std::sort(keys.begin(), keys.end());
    auto sorted = std::make_shared<ak::array<T>>(keys, dev);
    auto queries = std::make_shared<ak::array<T>>(random_keys<T>(n, std::int64_t{1} << 30), dev);
    auto result = std::make_shared<ak::array<std::int64_t>>();
    w.run = [sorted, queries, result] { *result = ak::searchsortedfirst(*sorted, *queries); };
    w.digest = [result] { return digest_of(*result); };
  } else {  // select: the indices of the nonzero half
    auto data = std::make_shared<ak::array<T>>(
        host_data<T>(n, [](std::int64_t i) { return static_cast<T>(hash64(i) & 1u); }), dev);
    auto result = std::make_shared<ak::array<std::int64_t>>();
    w.run = [data, result] { *result = ak::findall(*data); };
    w.digest = [result] { return digest_of(*result); };
  }
  return w;
}

template <class F>
tune::workload visit_dtype(ak::dtype t, F&& f) {
#define AK_TUNE_VISIT(T) \
  if (t == ak::dtype_of_v<T>) return f.template operator()<T>();
  AK_FOR_EACH_NUMERIC_TYPE(AK_TUNE_VISIT)
#undef AK_TUNE_VISIT
  throw ak::argument_error("ak tune", "--dtypes", "a numeric dtype", std::string(name_of(t)));
}

// Makes a hook's slots the tuning of this thread's calls for one device and dtype.
template <class Hook>
std::function<std::shared_ptr<void>(const config&)> applier(const std::string& device,
                                                            const std::string& dtype) {
  return [device, dtype](const config& c) -> std::shared_ptr<void> {
    using T = typename Hook::type;
    tuning_slots<T> slots{};
    std::copy(c.begin(), c.end(), slots.begin());
    return std::make_shared<ak::scoped_tuning>(Hook{}, std::bit_cast<T>(slots),
                                               ak::tuning_scope{device, dtype});
  };
}

std::function<std::shared_ptr<void>(const config&)> applier_for(std::string_view hook,
                                                                const std::string& device,
                                                                const std::string& dtype) {
  if (hook == "sort") return applier<ak::sort_hook>(device, dtype);
  if (hook == "reduce") return applier<ak::reduce_hook>(device, dtype);
  if (hook == "scan") return applier<ak::scan_hook>(device, dtype);
  if (hook == "map") return applier<ak::map_hook>(device, dtype);
  if (hook == "search") return applier<ak::search_hook>(device, dtype);
  return applier<ak::select_hook>(device, dtype);
}

// ---- the values to try --------------------------------------------------------------------------

bool valid(const ak::tuning_field_schema& f, std::int64_t v) {
  if (v < f.min || v > f.max) return false;
  return !f.power_of_two || v == 0 || std::has_single_bit(static_cast<std::uint64_t>(v));
}

// Around the current value: every other name of an enumeration; the values within 3 of it in a
// range of at most 16 values; else the current value times 2^k, k in -3..3, and 0 where the
// range has it (a field's "automatic" or "never"); for a current value of 0, the powers of two
// up to 64.
std::vector<std::int64_t> candidates(const ak::tuning_field_schema& f, std::int64_t base) {
  std::vector<std::int64_t> out;
  auto add = [&](std::int64_t v) {
    if (v != base && valid(f, v) && std::find(out.begin(), out.end(), v) == out.end())
      out.push_back(v);
  };
  if (!f.enum_names.empty()) {
    for (std::int64_t v = 0; v < static_cast<std::int64_t>(f.enum_names.size()); ++v) add(v);
  } else if (f.max - f.min <= 16 && !f.power_of_two) {
    for (std::int64_t d = 1; d <= 3; ++d) {
      add(base - d);
      add(base + d);
    }
  } else if (base == 0) {
    for (std::int64_t v = 1; v <= 64; v *= 2) add(v);
  } else {
    for (int k = 1; k <= 3; ++k) {
      add(base >> k);
      if (base <= (std::int64_t{1} << 40)) add(base << k);
    }
    add(0);
  }
  return out;
}

// ---- progress -----------------------------------------------------------------------------------

std::atomic<bool> interrupted{false};

extern "C" void on_sigint(int) {
  interrupted.store(true);
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends the process at once
}

class progress {
 public:
  explicit progress(std::size_t total) : total_(total), tty_(::isatty(STDOUT_FILENO) == 1) {}
  void begin(std::size_t i, const std::string& what) {
    index_ = i;
    what_ = what;
    if (!tty_) std::cout << "ak tune: [" << i + 1 << "/" << total_ << "] " << what << std::endl;
  }
  void step(const std::string& s, double seconds_left) {
    if (!tty_) return;
    const int width = 24;
    const int done = static_cast<int>(width * index_ / std::max<std::size_t>(total_, 1));
    std::ostringstream line;
    line << "\r[" << std::string(static_cast<std::size_t>(done), '#')
         << std::string(static_cast<std::size_t>(width - done), '.') << "] " << index_ + 1 << "/"
         << total_ << " " << what_ << ": " << s << ", " << static_cast<int>(seconds_left)
         << " s left";
    std::string text = line.str();
    if (text.size() > 110) text.resize(110);
    std::cout << text << std::string(text.size() < last_ ? last_ - text.size() : 0, ' ')
              << std::flush;
    last_ = text.size();
  }
  void end(const std::string& result) {
    if (tty_) std::cout << "\r" << std::string(last_, ' ') << "\r";
    last_ = 0;
    std::cout << "ak tune: [" << index_ + 1 << "/" << total_ << "] " << what_ << ": " << result
              << std::endl;
  }

 private:
  std::size_t total_, index_ = 0, last_ = 0;
  bool tty_;
  std::string what_;
};

std::string ratio_text(const tune::speedup& s) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(3) << s.median << "x +- " << std::setprecision(3) << s.spread
    << " (" << s.pairs << " pairs)";
  return o.str();
}

std::string summary(const tune::target_result& r) {
  if (!r.skipped.empty()) return "skipped: " + r.skipped;
  if (!r.complete) return "stopped before the end; nothing of it is kept";
  std::string s;
  for (const auto& f : r.fields)
    if (f.tuned != f.base)
      s += (s.empty() ? "" : ", ") + f.field + " " + f.base_text + " -> " + f.tuned_text;
  if (s.empty()) return "the defaults are best";
  return (r.kept ? "kept " : "not kept (no gain against the defaults together) ") + s + ": " +
         ratio_text(r.total);
}

// ---- the cache file -----------------------------------------------------------------------------

std::string today() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// A target's weight in sharing the budget: its size, counted as at least 1e6 elements (below
// that a target's time is mostly its fixed number of pairs).
double budget_weight(const tune::target& t) {
  return static_cast<double>(std::max<std::int64_t>(t.sizes.front(), 1'000'000));
}

// The complete results grouped by (hook, dtype, op): each group's sizes, in run order.
std::vector<std::vector<std::size_t>> size_groups(const std::vector<tune::target_result>& results) {
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (!results[i].complete) continue;
    const auto same = [&](const std::vector<std::size_t>& g) {
      const auto& a = results[g.front()];
      return a.hook == results[i].hook && a.dtype == results[i].dtype && a.op == results[i].op;
    };
    const auto g = std::find_if(groups.begin(), groups.end(), same);
    if (g == groups.end())
      groups.push_back({i});
    else
      g->push_back(i);
  }
  return groups;
}

// The value a complete result leaves a field at: the tuned one where it was kept.
std::int64_t value_left(const tune::target_result& r, const tune::field_result& f) {
  return r.kept ? f.tuned : f.base;
}

// The new cache document: the stamp, the entries of the old file (when it is usable) that this
// run did not measure, and this run's. Results are grouped by (hook, dtype, op), one per size
// measured. A group replaces the old values of the fields it searched (for every size) with what
// it measured: the value where one size was asked for or every size agrees (none, where that is
// the default), else each size's value under "by_size" (the default's too, so that the sizes
// near it keep it). Several ops may tune one hook and dtype (sort and sort_custom), each its own
// fields. "measured"/<hook>/<dtype> holds each op's record under "ops" and, as "speedup", the
// least of theirs (what ak info shows). A group of which a size did not finish keeps nothing: a
// size's values serve the sizes nearest to it, which a size measured alone cannot say.
json cache_document(const json& old, const ak::device& dev,
                    const std::vector<tune::target_result>& results,
                    const std::vector<tune::target>& targets, std::size_t sizes_asked) {
  json doc = json::parse(ak::tuning_cache_stamp(dev));
  doc["tunings"] = old.contains("tunings") ? old["tunings"] : json::object();
  doc["measured"] = old.contains("measured") ? old["measured"] : json::object();
  json& tunings = doc["tunings"];
  json& measured = doc["measured"];
  const std::string by_size_key = "by_size";
  for (const auto& g : size_groups(results)) {
    if (g.size() != sizes_asked) continue;
    const tune::target_result& first = results[g.front()];
    const tune::target& t = targets[g.front()];
    json& entry = tunings[first.hook][first.dtype];
    if (!entry.is_object()) entry = json::object();
    json& by_size = entry[by_size_key];
    if (!by_size.is_object()) by_size = json::object();
    json fields = json::object();
    for (std::size_t k = 0; k < first.fields.size(); ++k) {
      const std::string& name = first.fields[k].field;
      entry.erase(name);
      for (auto& [size, sized] : by_size.items()) sized.erase(name);
      const auto& space = *std::find_if(t.fields.begin(), t.fields.end(),
                                        [&](const auto& f) { return f.name == name; });
      const auto as_json = [&](std::int64_t v) {
        return space.named ? json(space.text(v)) : json(v);
      };
      bool agree = true;
      for (const std::size_t i : g)
        agree = agree &&
                value_left(results[i], results[i].fields[k]) == value_left(first, first.fields[k]);
      json per_size = json::object();
      for (const std::size_t i : g) {
        const tune::target_result& r = results[i];
        const tune::field_result& f = r.fields[k];
        const std::int64_t v = value_left(r, f);
        if (!agree) by_size[std::to_string(r.sizes.front())][name] = as_json(v);
        if (v != f.base)
          per_size[std::to_string(r.sizes.front())] = {{"default", f.base_text},
                                                       {"tuned", f.tuned_text},
                                                       {"speedup", f.measured.median},
                                                       {"spread", f.measured.spread}};
      }
      if (agree && value_left(first, first.fields[k]) != first.fields[k].base)
        entry[name] = as_json(first.fields[k].tuned);
      if (!per_size.empty()) fields[name] = sizes_asked > 1 ? per_size : per_size.front();
    }
    for (auto it = by_size.begin(); it != by_size.end();)
      it = it->empty() ? by_size.erase(it) : std::next(it);
    if (by_size.empty()) entry.erase(by_size_key);
    json& record = measured[first.hook + "/" + first.dtype];
    if (!record.is_object() || !record.contains("ops") || !record["ops"].is_object())
      record = {{"ops", json::object()}};
    record["ops"].erase(first.op);
    // The record of the op: its sizes and the least speedup of the values kept together.
    const tune::target_result* least = nullptr;
    std::vector<std::int64_t> sizes;
    for (const std::size_t i : g) {
      sizes.push_back(results[i].sizes.front());
      if (results[i].kept && (!least || results[i].total.median < least->total.median))
        least = &results[i];
    }
    if (least)
      record["ops"][first.op] = {{"n", sizes},
                                 {"speedup", least->total.median},
                                 {"spread", least->total.spread},
                                 {"pairs", least->total.pairs},
                                 {"fields", fields},
                                 {"date", today()}};
  }
  // Drop what is left empty, and give each record the least speedup of its ops.
  for (auto& [hook, per_dtype] : tunings.items())
    for (auto it = per_dtype.begin(); it != per_dtype.end();)
      it = it->empty() ? per_dtype.erase(it) : std::next(it);
  for (auto it = tunings.begin(); it != tunings.end();)
    it = it->empty() ? tunings.erase(it) : std::next(it);
  for (auto it = measured.begin(); it != measured.end();) {
    const json& ops = (*it)["ops"];
    if (!ops.is_object() || ops.empty()) {
      it = measured.erase(it);
      continue;
    }
    double least = 0;
    bool found = false;
    for (const auto& [op, m] : ops.items())
      if (m.contains("speedup") && m["speedup"].is_number() &&
          (!found || m["speedup"].get<double>() < least)) {
        least = m["speedup"].get<double>();
        found = true;
      }
    if (found) (*it)["speedup"] = least;
    ++it;
  }
  return doc;
}

// Writes `text` to `path` atomically: a temporary file in the same folder, flushed to disk, then
// renamed over the old file, so that a reader (or a second `ak tune`) sees the old file or the
// new one, never a part.
void write_atomically(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::error_code ec;
  fs::create_directories(target.parent_path(), ec);
  if (ec)
    throw ak::error("ak tune: cannot create the cache folder '" + target.parent_path().string() +
                    "': " + ec.message());
  std::string tmp = path + ".tmp-XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0)
    throw ak::error("ak tune: cannot create a file beside '" + path + "': " + std::strerror(errno));
  bool ok = true;
  for (std::size_t done = 0; ok && done < text.size();) {
    const ::ssize_t w = ::write(fd, text.data() + done, text.size() - done);
    if (w < 0 && errno == EINTR) continue;
    ok = w > 0;
    if (ok) done += static_cast<std::size_t>(w);
  }
  ok = ok && ::fchmod(fd, 0644) == 0 && ::fsync(fd) == 0;
  const int saved = errno;
  ok = (::close(fd) == 0) && ok;
  if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
    const int why = ok ? errno : saved;
    ::unlink(tmp.c_str());
    throw ak::error("ak tune: cannot write '" + path + "': " + std::strerror(why));
  }
}

// While it lives, lookups see no autotune cache and no AK_TUNING: the search measures against
// the backend's defaults.
class defaults_only {
 public:
  defaults_only() {
    if (const char* v = std::getenv("AK_TUNING"); v && *v) {
      std::cerr << "ak tune: AK_TUNING is set; its values win over the cache wherever it gives "
                   "them, and the search leaves it out\n";
      ::unsetenv("AK_TUNING");
    }
    cache_.use_cache(false);
  }

 private:
  cache_switch cache_;
};

// ---- the report ---------------------------------------------------------------------------------

json report_json(const ak::device& dev, const std::string& path, bool written,
                 const std::vector<tune::target_result>& results) {
  json rows = json::array();
  for (const auto& r : results) {
    json fields = json::array();
    for (const auto& f : r.fields)
      fields.push_back({{"field", f.field},
                        {"default", f.base_text},
                        {"tuned", f.tuned_text},
                        {"speedup", f.measured.median},
                        {"spread", f.measured.spread},
                        {"pairs", f.measured.pairs},
                        {"rejected", f.rejected}});
    rows.push_back({{"op", r.op},
                    {"hook", r.hook},
                    {"dtype", r.dtype},
                    {"n", r.sizes},
                    {"complete", r.complete},
                    {"kept", r.kept},
                    {"skipped", r.skipped},
                    {"speedup", r.total.median},
                    {"spread", r.total.spread},
                    {"pairs", r.total.pairs},
                    {"fields", fields}});
  }
  return {{"device", dev.name()}, {"description", dev.info().description},
          {"cache", path},        {"written", written},
          {"date", today()},      {"targets", rows}};
}

void print_table(const std::vector<tune::target_result>& results) {
  std::cout << "\n"
            << std::left << std::setw(15) << "op" << std::setw(9) << "dtype" << std::setw(11) << "n"
            << std::setw(24) << "field" << std::setw(20) << "default" << std::setw(20) << "tuned"
            << "speedup (median +- half IQR, pairs)\n";
  for (const auto& r : results) {
    const auto row = [&] {
      std::cout << std::setw(15) << r.op << std::setw(9) << r.dtype << std::setw(11)
                << (r.sizes.empty() ? std::string("-") : std::to_string(r.sizes.front()));
    };
    if (!r.skipped.empty() || !r.complete) {
      row();
      std::cout << summary(r) << "\n";
      continue;
    }
    for (const auto& f : r.fields) {
      row();
      std::cout << std::setw(24) << f.field << std::setw(20) << f.base_text << std::setw(20)
                << (f.tuned != f.base && r.kept ? f.tuned_text : "-")
                << (f.measured.pairs ? ratio_text(f.measured) : "") << "\n";
    }
    if (r.kept) {
      row();
      std::cout << std::setw(64) << "(together, against the defaults)" << ratio_text(r.total)
                << "\n";
    }
  }
}

}  // namespace

int run_tune(const tune_options& o) {
  const ak::device dev(o.device);
  const bool cpu = dev.info().kind == ak::device_kind::cpu;
  // What to tune: every (op, dtype), checked before anything runs.
  std::vector<const op_info*> ops;
  for (const auto& name : o.ops.empty() ? std::vector<std::string>{"all"} : o.ops) {
    bool found = false;
    for (const auto& op : op_table())
      if (name == "all" || name == op.name) {
        if (std::find(ops.begin(), ops.end(), &op) == ops.end()) ops.push_back(&op);
        found = true;
      }
    if (!found)
      throw ak::argument_error("ak tune", "--ops", "one of all, " + tune_op_names(), name);
  }
  std::vector<ak::dtype> dtypes;
  for (const auto& name : o.dtypes.empty() ? default_dtypes : o.dtypes) {
    const auto t = ak::parse_dtype(name);
    if (!t || *t == ak::dtype::bool_)
      throw ak::argument_error("ak tune", "--dtypes", "numeric dtypes (int8..float64)", name);
    dtypes.push_back(*t);
  }
  for (std::size_t i = 0; i < o.n.size(); ++i) {
    if (o.n[i] < 1)
      throw ak::argument_error("ak tune", "--n", "sizes of at least 1", std::to_string(o.n[i]));
    // Lookups take the nearest size by power-of-two class, the larger of one class: a second
    // size of a class would never be looked up.
    for (std::size_t j = 0; j < i; ++j)
      if (std::bit_width(static_cast<std::uint64_t>(o.n[j])) ==
          std::bit_width(static_cast<std::uint64_t>(o.n[i])))
        throw ak::argument_error("ak tune", "--n",
                                 "sizes of different powers of two (" + std::to_string(o.n[j]) +
                                     " and this one are of one)",
                                 std::to_string(o.n[i]));
  }
  if (!(o.budget_seconds > 0))
    throw ak::argument_error("ak tune", "--budget", "a positive number of seconds",
                             std::to_string(o.budget_seconds));

  // The old cache, kept where this run does not measure, when it is this device's.
  const std::string path = ak::tuning_cache_path(dev);
  json old = json::object();
  if (std::filesystem::exists(path)) {
    if (const std::string why = ak::tuning_cache_problem(dev); !why.empty()) {
      std::cerr << "ak tune: the old cache is replaced (" << why << ")\n";
    } else {
      std::ifstream in(path);
      old = json::parse(in, nullptr, false);
      if (old.is_discarded()) old = json::object();
    }
  }

  std::vector<tune::target_result> results;
  std::vector<tune::target> targets;
  {
    defaults_only no_cache;
    const auto schemas = ak::tuning_hooks();
    for (const auto* op : ops) {
      if ((cpu ? op->cpu_fields : op->gpu_fields).empty()) {
        std::cout << "ak tune: " << op->name << " has no fields to tune on " << dev.name()
                  << "; skipped" << std::endl;
        continue;
      }
      const auto& hook = *std::find_if(schemas.begin(), schemas.end(),
                                       [&](const auto& h) { return h.name == op->hook; });
      for (const auto t : dtypes) {
        // The target of (op, dtype); each size gets a copy.
        const auto resolved = ak::explain_tuning(op->hook, dev, t);
        tune::target g;
        g.op = op->name;
        g.hook = op->hook;
        g.dtype = std::string(name_of(t));
        g.slots = hook.fields.size();
        for (const auto& name : cpu ? op->cpu_fields : op->gpu_fields) {
          const auto at = std::find_if(hook.fields.begin(), hook.fields.end(),
                                       [&](const auto& f) { return f.name == name; });
          const auto slot = static_cast<std::size_t>(at - hook.fields.begin());
          const ak::tuning_field_schema schema = *at;
          tune::field_space f;
          f.name = std::string(name);
          f.slot = slot;
          f.base = resolved[slot].value;
          f.candidates = candidates(schema, f.base);
          f.named = !schema.enum_names.empty();
          f.text = [schema](std::int64_t v) {
            return schema.enum_names.empty() ? std::to_string(v)
                                             : schema.enum_names[static_cast<std::size_t>(v)];
          };
          g.fields.push_back(std::move(f));
        }
        const std::string op_name(op->name);
        g.build = [op_name, dev, t](std::int64_t size) {
          return visit_dtype(t, [&]<class T>() { return make_workload<T>(op_name, dev, size); });
        };
        g.apply = applier_for(op->hook, dev.name(), g.dtype);
        for (const std::int64_t n : o.n.empty() ? std::vector<std::int64_t>{op->default_n} : o.n) {
          targets.push_back(g);
          targets.back().sizes = {n};
        }
      }
    }

    interrupted.store(false);
    std::signal(SIGINT, on_sigint);
    const auto start = std::chrono::steady_clock::now();
    const auto end = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                 std::chrono::duration<double>(o.budget_seconds));
    progress bar(targets.size());
    std::cout << "ak tune: " << targets.size() << " targets on " << dev.name() << " ("
              << dev.info().description << "), budget " << o.budget_seconds << " s"
              << (o.dry_run ? ", dry run" : "") << std::endl;
    for (std::size_t i = 0; i < targets.size() && !interrupted.load(); ++i) {
      const auto now = std::chrono::steady_clock::now();
      tune::settings s;
      s.min_speedup = o.min_speedup;
      // Its share of what is left, by its weight among the targets left.
      double left = 0;
      for (std::size_t k = i; k < targets.size(); ++k) left += budget_weight(targets[k]);
      s.deadline = now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                             (end - now) * (budget_weight(targets[i]) / left));
      s.interrupted = [] { return interrupted.load(); };
      s.step = [&](const std::string& what) {
        bar.step(what,
                 std::chrono::duration<double>(end - std::chrono::steady_clock::now()).count());
      };
      bar.begin(i, targets[i].op + " " + targets[i].dtype +
                       " n=" + std::to_string(targets[i].sizes.front()));
      results.push_back(tune::search(targets[i], s));
      bar.end(summary(results.back()));
    }
    std::signal(SIGINT, SIG_DFL);
  }
  if (interrupted.load())
    std::cout << "ak tune: interrupted; the targets finished before are kept" << std::endl;

  print_table(results);
  const std::size_t sizes_asked = o.n.empty() ? 1 : o.n.size();
  for (const auto& g : size_groups(results))
    if (g.size() != sizes_asked)
      std::cout << "ak tune: " << results[g.front()].op << " " << results[g.front()].dtype
                << ": not every size finished; nothing of it is written" << std::endl;
  const json doc = cache_document(old, dev, results, targets, sizes_asked);
  if (o.dry_run) {
    std::cout << "\nak tune: dry run; would write " << path << ":\n" << doc.dump(2) << "\n";
  } else {
    write_atomically(path, doc.dump(2) + "\n");
    std::cout << "\nak tune: wrote " << path << "\n";
  }
  if (!o.json.empty()) {
    std::ofstream out(o.json);
    out << report_json(dev, path, !o.dry_run, results).dump(2) << "\n";
    if (!out) throw ak::error("ak tune: cannot write '" + o.json + "'");
  }
  return interrupted.load() ? 130 : 0;
}

}  // namespace ak::tool
