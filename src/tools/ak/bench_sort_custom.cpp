// `ak bench` sorts with a custom order: sort_custom (numbers descending through a comparator
// lambda), sort_custom_unstable (the same with .stable = false) and sort_struct (records sorted
// by one field), in place.
#include "bench_sort_peers.hpp"

namespace ak::tool::bench {

namespace {

// A record sorted by its key field.
template <class T>
struct record {
  T key;
  std::uint64_t id;  // its position in the input
};
template <class T>
struct key_of {
  T operator()(const record<T>& r) const { return r.key; }
};
template <class T>
struct key_less {
  bool operator()(const record<T>& a, const record<T>& b) const { return a.key < b.key; }
};

template <class T>
bench_case sort_struct(std::int64_t n) {
  using R = record<T>;
  auto b = std::make_shared<sort_buffers<R>>(sort_buffers<R>{n});
  R* in = b->input.get();
  parallel_fill(in, n, [](std::int64_t i) {
    return R{random_key<T>(hash64(8 ^ (static_cast<std::uint64_t>(i) * 0x2545f4914f6cdd1dULL))),
             static_cast<std::uint64_t>(i)};
  });
  R* wa = b->ak.get();
  R* wp = b->peer.get();
  bench_case c;
  c.op = "sort_struct";
  c.elements = n;
  c.bytes = 2.0 * static_cast<double>(n) * sizeof(R);
  c.writes = true;
  c.input_bytes = static_cast<double>(n) * sizeof(R);
  c.note = "records {key, uint64 id} (" + std::to_string(sizeof(R)) +
           " bytes) by key, in place: ak::sort_inplace(v, {.by = key field}) (the default for a "
           "numeric key: radix sort moving whole records); peers with a.key < b.key";
  // Equal keys may come in any order from an unstable peer: compare the keys, and check that
  // both outputs hold the input's records.
  auto check = [b, n]() -> std::string {
    const R* a = b->ak.get();
    const R* p = b->peer.get();
    const R* orig = b->input.get();
    for (std::int64_t i = 0; i < n; ++i) {
      if (a[i].key != p[i].key)
        return "first difference at [" + std::to_string(i) + "]: ak key " + text_of(a[i].key) +
               ", peer key " + text_of(p[i].key);
      for (const R* r : {a + i, p + i})
        if (r->id >= static_cast<std::uint64_t>(n) || orig[r->id].key != r->key)
          return "record [" + std::to_string(i) + "] is not one of the input's (" +
                 (r == a + i ? "ak" : "peer") + ")";
    }
    return "";
  };
  c.ak = {"ak",
          [b, in, wa, n] { parallel_copy(wa, in, n); },
          [b, wa, n] {
            ak::sort_inplace(ak::view<R>(wa, ak::shape{n}),
                             ak::sort_options<key_of<T>>{.by = key_of<T>{}});
          },
          {}};
  add_sort_peers<peer_std_par | peer_tbb | peer_ips4o>(
      c, wp, n, key_less<T>{}, [b, in, wp, n] { parallel_copy(wp, in, n); }, check, b);
  return c;
}

}  // namespace

void add_custom_sort_ops(std::vector<op_spec>& ops) {
  const std::vector<dtype> defaults{dtype::uint32, dtype::int64, dtype::float64};
  ops.push_back({"sort_custom", "sort", defaults,
                 [](dtype t, std::int64_t n) {
                   return visit_numeric(t, [&]<class T>() {
                     return sort_values<T>("sort_custom", n, [](T a, T x) { return a > x; });
                   });
                 },
                 sort_default_n});
  ops.push_back({"sort_custom_unstable", "sort", defaults,
                 [](dtype t, std::int64_t n) {
                   return visit_numeric(t, [&]<class T>() {
                     return sort_values<T>(
                         "sort_custom_unstable", n, [](T a, T x) { return a > x; }, false);
                   });
                 },
                 sort_default_n});
  ops.push_back({"sort_struct", "sort", defaults,
                 [](dtype t, std::int64_t n) {
                   return visit_numeric(t, [&]<class T>() { return sort_struct<T>(n); });
                 },
                 sort_default_n});
}

}  // namespace ak::tool::bench
