// The tuning registry: resolves a hook's fields for a device and dtype through the layers of
// DESIGN.md section 2, and caches the result per thread so that a lookup costs a few
// nanoseconds. Any change to a shared layer bumps `generation`, which invalidates every thread's
// cache; a change to this thread's scoped overrides bumps this thread's `scoped_generation`.
#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "ak/core/error.hpp"
#include "registry.hpp"

namespace ak::detail {

namespace {

struct tuning_state {
  std::shared_mutex mutex;
  std::atomic<std::uint64_t> generation{1};
  std::vector<tuning_entry> backend_defaults;
  std::map<std::uint32_t, std::vector<tuning_entry>> cache;  // by device index
  std::map<std::uint32_t, std::string> cache_problems;       // why a device's cache is ignored
  std::set<std::string> cache_warned;                        // problems already warned about
  std::vector<tuning_entry> user;
  std::string user_error;  // a bad AK_TUNING fails every lookup: never ignored
};

std::string read_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw tuning_error(what + ": '" + path + "' is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw tuning_error(what + ": cannot open '" + path + "': " + std::strerror(errno));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Reads AK_TUNING into st.user (under the caller's exclusive lock).
void load_user_overrides(tuning_state& st) {
  st.user.clear();
  st.user_error.clear();
  const char* env = std::getenv("AK_TUNING");
  if (!env || !*env) return;
  std::string_view v = env;
  try {
    auto first = v.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && v[first] == '{') {
      st.user = parse_user_tuning(v, "AK_TUNING (inline JSON)");
    } else {
      std::string origin = "AK_TUNING file '" + std::string(v) + "'";
      st.user = parse_user_tuning(read_file(std::string(v), "AK_TUNING"), origin);
    }
  } catch (const tuning_error& e) {
    st.user_error = e.what();
  }
}

// Reads a device's autotune cache into st.cache (under the caller's exclusive lock). A file that
// cannot be used (unreadable, malformed, truncated, stale, another device's) is ignored: its
// problem is kept for tuning_cache_problem and warned about once per process.
void load_cache_file(tuning_state& st, const device_record& d) {
  st.cache.erase(d.index);
  st.cache_problems.erase(d.index);
  auto path = tuning_cache_path(device(&d));
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return;
  const std::string origin = "autotune cache '" + path + "'";
  try {
    st.cache[d.index] = parse_cache_tuning(read_file(path, "autotune cache"), origin, d.info);
  } catch (const tuning_error& e) {
    std::string why = e.what();
    st.cache_problems[d.index] = why;
    if (st.cache_warned.insert(why).second)
      write_log_line("ak: warning: " + why +
                     "; the file is ignored (rerun `ak tune`, or delete it)");
  }
}

tuning_state& state() {
  static tuning_state* st = [] {
    auto* s = new tuning_state;  // lives for the process: lookups may run during static exit
    load_user_overrides(*s);
    return s;
  }();
  return *st;
}

// ---- this thread's scoped overrides and cache --------------------------------------------------

std::atomic<std::uint64_t> scoped_counter{0};

struct scoped_entry {
  std::uint64_t id;
  tuning_entry entry;
};

struct cached_values {
  std::uint64_t generation = 0;
  std::uint64_t scoped_generation = 0;
  std::array<std::int64_t, max_tuning_fields> values{};
};

// Sizes compare by their power-of-two class: 0 for 0 elements, else std::bit_width.
constexpr int size_classes = 64;
int size_class(std::int64_t n) {
  return n <= 0 ? 0 : static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n)));
}

struct cached_tuning : cached_values {
  std::string_view type_name;  // the caller's declared type, checked when the slot was filled
  std::uint32_t field_count = 0;
  bool sized = false;  // entries measured at sizes match: a lookup with a size takes by_class
  std::vector<cached_values> by_class;  // [size class], filled as lookups of each class come
};

struct thread_state {
  std::vector<scoped_entry> scoped;
  std::uint64_t scoped_generation = 0;
  std::vector<std::vector<cached_tuning>> cache;  // [device][hook * dtype_count + dtype]
  ~thread_state();
};

// Set when this thread's state is gone (thread exit, or the main thread's static destruction):
// lookups made after that, from other objects' destructors, resolve uncached.
thread_local bool tl_state_destroyed = false;
thread_local thread_state tl_state;
thread_state::~thread_state() {
  tl_state_destroyed = true;
}

thread_state* this_thread_state() {
  return tl_state_destroyed ? nullptr : &tl_state;
}

cached_tuning& cache_slot(thread_state& ts, std::uint32_t device, std::uint32_t hook, dtype t) {
  if (device >= ts.cache.size()) ts.cache.resize(device + 1);
  auto& per_device = ts.cache[device];
  std::size_t i = hook * dtype_count + index_of(t);
  if (i >= per_device.size()) per_device.resize(hook_schemas().size() * dtype_count);
  return per_device[i];
}

// ---- resolution --------------------------------------------------------------------------------

// How well a selector fits; -1 when it does not match. Higher is more specific.
int device_score(const std::string& sel, const device_info& d) {
  if (sel == "*") return 0;
  if (sel == d.backend) return 1;
  if (sel == d.device_class) return 2;
  if (sel == d.name) return 3;
  return -1;
}

int dtype_score(const std::string& sel, dtype t) {
  if (sel == "*") return 0;
  if (sel == name_of(category_of(t))) return 1;
  if (sel == name_of(t)) return 2;
  return -1;
}

}  // namespace

int match_score(const tuning_entry& e, const device_info& d, dtype t, bool backend_layer) {
  if (backend_layer && e.backend != d.backend) return -1;
  int ds = device_score(e.device_selector, d), ts = dtype_score(e.dtype_selector, t);
  return ds < 0 || ts < 0 ? -1 : ds * 3 + ts;
}

namespace {

void apply(const tuning_entry& e, std::int64_t* out, field_origin* origins) {
  for (std::size_t f = 0; f < e.values.size(); ++f) {
    if (e.values[f] == unset) continue;
    out[f] = e.values[f];
    if (origins) origins[f] = e.origin;
  }
}

// How near an entry measured at `entry_size` is to a lookup of size class `c`: the smaller the
// nearer; of two equally near classes, the larger; in one class, the larger size. It depends on
// the lookup's class alone, so that a class's cached values hold for every size in it.
std::pair<int, std::int64_t> nearness(std::int64_t entry_size, int c) {
  return {std::abs(size_class(entry_size) - c), -entry_size};
}

// Applies one layer's matching entries, the less specific first so that the more specific win.
// Entries measured at sizes apply to lookups of a known size only: for each field, of the entries
// of one specificity that give it, the nearest size's, over the entries for every size. Returns
// whether entries measured at sizes match the hook, device and dtype, whatever the lookup's size.
bool apply_layer(const std::vector<tuning_entry>& layer, std::uint32_t hook, const device_info& d,
                 dtype t, tuning_size size, bool backend_layer, std::int64_t* out,
                 field_origin* origins) {
  std::vector<std::pair<int, const tuning_entry*>> matches;  // (2 * score + sized, entry)
  bool sized = false;
  for (const auto& e : layer) {
    const int score = e.hook == hook ? match_score(e, d, t, backend_layer) : -1;
    if (score < 0) continue;
    if (e.size > 0) {
      sized = true;
      if (!size.known()) continue;
    }
    matches.emplace_back(2 * score + (e.size > 0 ? 1 : 0), &e);
  }
  std::stable_sort(matches.begin(), matches.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  const int c = size.known() ? size_class(size.n) : 0;
  // Whether no other sized entry of the same specificity that gives field f is nearer than e.
  const auto nearest_for = [&](const std::pair<int, const tuning_entry*>& m, std::size_t f) {
    for (const auto& [score, other] : matches)
      if (score == m.first && other != m.second && other->values[f] != unset &&
          nearness(other->size, c) < nearness(m.second->size, c))
        return false;
    return true;
  };
  for (const auto& m : matches) {
    if (m.second->size == 0) {
      apply(*m.second, out, origins);
      continue;
    }
    for (std::size_t f = 0; f < m.second->values.size(); ++f) {
      if (m.second->values[f] == unset || !nearest_for(m, f)) continue;
      out[f] = m.second->values[f];
      if (origins) origins[f] = m.second->origin;
    }
  }
  return sized;
}

void check_declared_type(const hook_schema& h, std::string_view type_name,
                         std::uint32_t field_count, const device_record& d) {
  if (auto why = type_mismatch(h, type_name, field_count); !why.empty())
    throw tuning_error("tuning lookup of hook '" + std::string(h.name) + "' on backend '" +
                       d.info.backend + "' (device " + d.info.name + ") as type " + why);
}

void check_call_values(const hook_schema& h, const std::int64_t* call) {
  check_fields(h, call, "ak::tuning", true);
}

// Every layer below the call's, into out/origins (origins may be null). Returns whether entries
// measured at sizes match (so that the values may differ between sizes).
bool resolve_shared_layers(std::uint32_t hook, const device_record& d, dtype t, tuning_size size,
                           std::int64_t* out, field_origin* origins) {
  const hook_schema& h = hook_schemas()[hook];
  for (std::size_t f = 0; f < h.fields.size(); ++f) {
    out[f] = h.fields[f].generic_default;
    if (origins) origins[f] = {tuning_source::generic, "hook " + std::string(h.name) + " default"};
  }
  auto& st = state();
  std::shared_lock lock(st.mutex);
  if (!st.user_error.empty()) throw tuning_error(st.user_error);
  apply_layer(st.backend_defaults, hook, d.info, t, size, true, out, origins);
  bool sized = false;
  if (auto it = st.cache.find(d.index); it != st.cache.end())
    sized = apply_layer(it->second, hook, d.info, t, size, false, out, origins);
  sized = apply_layer(st.user, hook, d.info, t, size, false, out, origins) || sized;
  lock.unlock();
  // Scoped overrides: the newest wins, whatever the specificity of older ones.
  if (thread_state* ts = this_thread_state())
    for (const auto& s : ts->scoped)
      if (s.entry.hook == hook && match_score(s.entry, d.info, t, false) >= 0)
        apply(s.entry, out, origins);
  return sized;
}

void apply_call(std::uint32_t field_count, const std::int64_t* call, std::int64_t* out,
                field_origin* origins) {
  for (std::uint32_t f = 0; f < field_count; ++f) {
    if (call[f] == unset) continue;
    out[f] = call[f];
    if (origins) origins[f] = {tuning_source::call, "the call's options"};
  }
}

const hook_schema& schema_of(std::uint32_t hook) {
  const auto& hooks = hook_schemas();
  if (hook >= hooks.size()) throw tuning_error("unknown hook id " + std::to_string(hook));
  return hooks[hook];
}

}  // namespace

std::uint32_t hook_id(std::string_view hook_name) {
  const hook_schema* h = find_hook(hook_name);
  if (!h) throw tuning_error("unknown tuning hook '" + std::string(hook_name) + "'");
  return static_cast<std::uint32_t>(h - hook_schemas().data());
}

namespace {

// AK_LOG=tuning: one line per lookup, with each field's value and the layer and entry it came from.
void log_lookup(std::uint32_t hook, std::string_view type_name, std::uint32_t field_count,
                const device& dev, dtype t, tuning_size size, const std::int64_t* call,
                std::int64_t* out) {
  std::array<field_origin, max_tuning_fields> origins;
  explain_tuning(hook, type_name, field_count, dev, t, size, call, out, origins.data());
  const hook_schema& h = hook_schemas()[hook];
  std::string line = "ak tuning: hook " + std::string(h.name) + ", device " + dev.name() +
                     " (class " + dev.info().device_class + "), dtype " + std::string(name_of(t)) +
                     (!size.known() ? std::string() : ", n " + std::to_string(size.n)) + ":";
  for (std::uint32_t f = 0; f < field_count; ++f) {
    line += (f ? "; " : " ") + std::string(h.fields[f].name) + "=" +
            field_value_text(h.fields[f], out[f]) + " (" + std::string(name_of(origins[f].source));
    if (origins[f].source != tuning_source::generic && origins[f].source != tuning_source::call)
      line += ": " + origins[f].detail;
    line += ")";
  }
  write_log_line(line);
}

}  // namespace

void lookup_tuning(std::uint32_t hook, std::string_view type_name, std::uint32_t field_count,
                   const device& dev, dtype t, tuning_size size, const std::int64_t* call,
                   std::int64_t* out) {
  if (log_enabled(log_topic::tuning)) {  // uncached, so that every lookup shows its sources
    log_lookup(hook, type_name, field_count, dev, t, size, call, out);
    return;
  }
  thread_state* ts = this_thread_state();
  if (!ts) {  // this thread is exiting: no cache
    explain_tuning(hook, type_name, field_count, dev, t, size, call, out, nullptr);
    return;
  }
  std::uint64_t generation = state().generation.load(std::memory_order_acquire);
  cached_tuning& slot = cache_slot(*ts, dev.index(), hook, t);
  // Type names compare by content: libak and a user's program hold separate copies.
  if (slot.generation != generation || slot.scoped_generation != ts->scoped_generation ||
      slot.field_count != field_count || slot.type_name != type_name) {
    const hook_schema& h = schema_of(hook);
    const device_record& d = record_of(dev);
    check_declared_type(h, type_name, field_count, d);
    slot.sized = resolve_shared_layers(hook, d, t, tuning_size::any(), slot.values.data(), nullptr);
    slot.generation = generation;
    slot.scoped_generation = ts->scoped_generation;
    slot.type_name = type_name;
    slot.field_count = field_count;
  }
  const cached_values* values = &slot;
  if (slot.sized && size.known()) {
    // The values of the size's class: the same for every size of it.
    if (slot.by_class.empty()) slot.by_class.resize(size_classes + 1);
    cached_values& c = slot.by_class[static_cast<std::size_t>(size_class(size.n))];
    if (c.generation != slot.generation || c.scoped_generation != slot.scoped_generation) {
      resolve_shared_layers(hook, record_of(dev), t, size, c.values.data(), nullptr);
      c.generation = slot.generation;
      c.scoped_generation = slot.scoped_generation;
    }
    values = &c;
  }
  std::copy_n(values->values.data(), field_count, out);
  if (call) {
    check_call_values(hook_schemas()[hook], call);
    apply_call(field_count, call, out, nullptr);
  }
}

void explain_tuning(std::uint32_t hook, std::string_view type_name, std::uint32_t field_count,
                    const device& dev, dtype t, tuning_size size, const std::int64_t* call,
                    std::int64_t* out, field_origin* origins) {
  const hook_schema& h = schema_of(hook);
  const device_record& d = record_of(dev);
  check_declared_type(h, type_name, field_count, d);
  resolve_shared_layers(hook, d, t, size, out, origins);
  if (call) {
    check_call_values(h, call);
    apply_call(field_count, call, out, origins);
  }
}

void check_tuning_fields(std::uint32_t hook, std::string_view type_name, std::uint32_t field_count,
                         const std::int64_t* values, std::string_view function) {
  const hook_schema& h = schema_of(hook);
  if (auto why = type_mismatch(h, type_name, field_count); !why.empty())
    throw tuning_error(std::string(function) + ": values for hook '" + std::string(h.name) +
                       "' given as type " + why);
  check_fields(h, values, function, false);
}

void add_backend_tunings(const std::string& backend, std::vector<tuning_entry> defaults,
                         const std::vector<const device_record*>& new_devices) {
  auto& st = state();
  {
    std::unique_lock lock(st.mutex);
    std::erase_if(st.backend_defaults, [&](const tuning_entry& e) { return e.backend == backend; });
    for (auto& e : defaults) st.backend_defaults.push_back(std::move(e));
    for (const auto* d : new_devices) load_cache_file(st, *d);
  }
  st.generation.fetch_add(1, std::memory_order_acq_rel);
}

}  // namespace ak::detail

namespace ak {

std::string_view name_of(tuning_source s) noexcept {
  switch (s) {
    case tuning_source::generic:
      return "generic";
    case tuning_source::backend:
      return "backend";
    case tuning_source::autotune:
      return "autotune";
    case tuning_source::user:
      return "user";
    case tuning_source::scoped:
      return "scoped";
    case tuning_source::call:
      return "call";
  }
  return "?";
}

std::vector<tuning_field_value> explain_tuning(std::string_view hook, const device& dev, dtype t,
                                               tuning_size size) {
  std::uint32_t id = detail::hook_id(hook);
  const auto& h = detail::hook_schemas()[id];
  auto n = static_cast<std::uint32_t>(h.fields.size());
  std::vector<std::int64_t> values(n);
  std::vector<field_origin> origins(n);
  detail::explain_tuning(id, h.type_name, n, dev, t, size, nullptr, values.data(), origins.data());
  std::vector<tuning_field_value> out;
  for (std::uint32_t f = 0; f < n; ++f)
    out.push_back({std::string(h.fields[f].name), values[f],
                   detail::field_value_text(h.fields[f], values[f]), std::move(origins[f])});
  return out;
}

std::vector<std::int64_t> tuned_sizes(std::string_view hook, const device& dev, dtype t) {
  const std::uint32_t id = detail::hook_id(hook);
  const detail::device_record& d = detail::record_of(dev);
  auto& st = detail::state();
  std::vector<std::int64_t> sizes;
  auto collect = [&](const std::vector<detail::tuning_entry>& layer) {
    for (const auto& e : layer)
      if (e.size > 0 && e.hook == id && detail::match_score(e, d.info, t, false) >= 0)
        sizes.push_back(e.size);
  };
  {
    std::shared_lock lock(st.mutex);
    if (const auto it = st.cache.find(d.index); it != st.cache.end()) collect(it->second);
    collect(st.user);
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

void scoped_tuning::push(std::uint32_t hook, std::string_view type_name, std::uint32_t field_count,
                         const std::int64_t* values, const tuning_scope& where) {
  const auto& h = detail::hook_schemas()[hook];
  if (auto why = detail::type_mismatch(h, type_name, field_count); !why.empty())
    throw tuning_error("scoped_tuning for hook '" + std::string(h.name) + "' given type " + why);
  if (where.device.empty())
    throw argument_error("ak::scoped_tuning", "where.device",
                         "\"*\", a backend, a device class or a device name", "\"\"");
  if (auto why = detail::check_dtype_selector(where.dtype); !why.empty())
    throw argument_error("ak::scoped_tuning", "where.dtype", why, "\"" + where.dtype + "\"");
  detail::check_fields(h, values, "ak::scoped_tuning", true);
  detail::thread_state* ts = detail::this_thread_state();
  if (!ts) throw tuning_error("ak::scoped_tuning created while its thread is exiting");
  detail::tuning_entry e;
  e.hook = hook;
  e.device_selector = where.device;
  e.dtype_selector = where.dtype;
  e.values.assign(values, values + field_count);
  e.origin = {tuning_source::scoped,
              "scoped_tuning (device " + where.device + ", dtype " + where.dtype + ")"};
  id_ = ++detail::scoped_counter;
  owner_ = std::this_thread::get_id();
  ts->scoped.push_back({id_, std::move(e)});
  ts->scoped_generation = id_;
}

scoped_tuning::~scoped_tuning() {
  if (std::this_thread::get_id() != owner_) {
    // The override lives in its creator's thread state, out of reach from here.
    std::fputs(
        "ak: an ak::scoped_tuning was destroyed on another thread than the one that "
        "created it\n",
        stderr);
    std::terminate();
  }
  if (detail::thread_state* ts = detail::this_thread_state()) {
    std::erase_if(ts->scoped, [this](const detail::scoped_entry& s) { return s.id == id_; });
    ts->scoped_generation = ++detail::scoped_counter;
  }
}

void reload_tuning_files() {
  auto& st = detail::state();
  // Device records first: the backend registry's lock is always taken before the tuning lock.
  std::vector<const detail::device_record*> records;
  for (const auto& d : devices()) records.push_back(&detail::record_of(d));
  detail::reload_log_settings();
  {
    std::unique_lock lock(st.mutex);
    detail::load_user_overrides(st);
    for (const auto* d : records) detail::load_cache_file(st, *d);
  }
  st.generation.fetch_add(1, std::memory_order_acq_rel);
  std::shared_lock lock(st.mutex);
  if (!st.user_error.empty()) throw tuning_error(st.user_error);
}

std::string tuning_cache_problem(const device& dev) {
  // A device handle exists, so its backend has loaded and its cache has been read.
  auto& st = detail::state();
  std::shared_lock lock(st.mutex);
  const auto it = st.cache_problems.find(dev.index());
  return it == st.cache_problems.end() ? std::string() : it->second;
}

std::string tuning_cache_path(const device& dev) {
  namespace fs = std::filesystem;
  fs::path dir;
  if (const char* d = std::getenv("AK_TUNING_CACHE_DIR"); d && *d) {
    dir = d;
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) {
    dir = fs::path(x) / "ak" / "tuning";
  } else if (const char* h = std::getenv("HOME"); h && *h) {
    dir = fs::path(h) / ".cache" / "ak" / "tuning";
  } else {
    std::error_code ec;
    fs::path tmp = fs::temp_directory_path(ec);
    dir = (ec ? fs::path("/tmp") : tmp) / "ak-tuning";
  }
  // One file per device model: tunings measured on one card apply to every card of its model.
  std::string key = dev.backend() + "-" + dev.info().device_class + "-" + dev.info().description;
  for (char& c : key)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
          c == '.'))
      c = '_';
  return (dir / (key + ".json")).string();
}

std::string tuning_cache_stamp(const device& dev) {
  return detail::cache_stamp_text(dev.info());
}

}  // namespace ak
