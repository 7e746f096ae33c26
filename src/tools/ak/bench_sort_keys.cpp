// `ak bench` sorts that carry indices, and searches: sortperm, sort_by_key (int64 values), and
// searchsorted (searchsortedfirst of n/100 random queries in n sorted keys).
#include <algorithm>
#include <numeric>

#include "ak/ak.hpp"
#include "bench_sort_peers.hpp"

namespace ak::tool::bench {

namespace {

using range = tbb::blocked_range<std::int64_t>;

// The peers' form of keys with indices: (key, index) pairs, ordered by key then index, which
// is the order of a stable sort by key (ak's), so results compare exactly.
template <class T>
struct keyed {
  T key;
  std::int64_t index;
};
template <class T>
struct key_then_index {
  bool operator()(const keyed<T>& a, const keyed<T>& b) const {
    return a.key < b.key || (!(b.key < a.key) && a.index < b.index);
  }
};

template <class T>
void pack(keyed<T>* pairs, const T* keys, std::int64_t n) {
  parallel_fill(pairs, n, [keys](std::int64_t i) { return keyed<T>{keys[i], i}; });
}

#ifdef AK_BENCH_HAVE_VQSORT
// Highway's vqsort of (key, index) pairs, one thread as it ships: the key as ak::ordered_key
// makes it (the unsigned integer of its size in ak's order), the index beside it, in K32V32 for
// 4-byte keys (indices below 2^32) and K64V64 for 8-byte ones; sort_by_key's values (its indices
// 0..n-1) ride in K64V64 with the key widened. vqsort compares the key alone: equal keys come out
// with their indices in any order, so its checks compare keys.
template <class T>
constexpr bool vqsort_pairs =
    std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8);
template <class T>
using vqsort_pair = std::conditional_t<sizeof(T) == 4, hwy::K32V32, hwy::K64V64>;

// Whether keys[a[i]] and keys[b[i]] are equal in ak's order for every i: two sorts by key that
// may order ties apart.
template <class T>
std::string compare_keys_at(const T* keys, const std::int64_t* a, const std::int64_t* b,
                            std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i)
    if (ak::ordered_key(keys[a[i]]) != ak::ordered_key(keys[b[i]]))
      return "first difference at [" + std::to_string(i) + "]: ak's key " + text_of(keys[a[i]]) +
             ", peer's " + text_of(keys[b[i]]);
  return "";
}
#endif

template <class T>
bench_case sortperm_case(std::int64_t n) {
  auto x = make_buffer<T>(n);
  fill_keys(x.get(), n, 9);
  const T* in = x.get();
  auto perm_ak = std::make_shared<ak::array<std::int64_t>>();
  auto perm_peer = std::make_shared<std::shared_ptr<std::int64_t[]>>();
  bench_case c;
  c.op = "sortperm";
  c.elements = n;
  c.bytes = static_cast<double>(n) * static_cast<double>(sizeof(T) + sizeof(std::int64_t));
  c.writes = true;
  c.input_bytes = static_cast<double>(n) * sizeof(T);
  c.note =
      "ak::sortperm(v) (stable, int64); std: iota + std::stable_sort(par) of indices by "
      "key; tbb, ips4o: sort (key, index) pairs by key then index, packed and unpacked in "
      "the timed call; vqsort (highway): one thread, K32V32 (4-byte keys) or K64V64 pairs of "
      "the key's bits in its order and the index, compared by key alone (ties in any order), "
      "packed and unpacked in the timed call";
  c.ak = {"ak",
          [perm_ak] { *perm_ak = ak::array<std::int64_t>(); },
          [x, perm_ak, in, n] { *perm_ak = ak::sortperm(ak::view<const T>(in, ak::shape{n})); },
          {}};
  auto release = [perm_peer] { perm_peer->reset(); };
  auto check = [perm_ak, perm_peer, n] {
    if (perm_ak->size() != n) return std::string("ak's result has the wrong size");
    return compare_exact(perm_ak->data(), perm_peer->get(), n);
  };
  if (have_std_par)
    c.peers.push_back({std_par, release,
                       [x, perm_peer, in, n] {
                         *perm_peer = make_buffer<std::int64_t>(n);
                         std::int64_t* p = perm_peer->get();
                         std::for_each(AK_BENCH_PAR p, p + n, [p](std::int64_t& e) { e = &e - p; });
                         std::stable_sort(
                             AK_BENCH_PAR p, p + n,
                             [in](std::int64_t a, std::int64_t b) { return in[a] < in[b]; });
                       },
                       check});
  // Pack, sort with one peer, unpack the indices.
  auto via_pairs = [x, perm_peer, in, n](auto sort) {
    return [x, perm_peer, in, n, sort] {
      auto pairs = make_buffer<keyed<T>>(n);
      keyed<T>* kp = pairs.get();
      pack(kp, in, n);
      sort(kp, kp + n);
      *perm_peer = make_buffer<std::int64_t>(n);
      parallel_fill(perm_peer->get(), n, [kp](std::int64_t i) { return kp[i].index; });
    };
  };
  c.peers.push_back({tbb_peer, release, via_pairs([](keyed<T>* first, keyed<T>* last) {
                       tbb::parallel_sort(first, last, key_then_index<T>{});
                     }),
                     check});
#ifdef AK_BENCH_HAVE_IPS4O
  c.peers.push_back({ips4o_peer, release, via_pairs([](keyed<T>* first, keyed<T>* last) {
                       ips4o::parallel::sort(first, last, key_then_index<T>{}, ips4o_pool());
                     }),
                     check});
#endif
#ifdef AK_BENCH_HAVE_VQSORT
  if constexpr (vqsort_pairs<T>)
    if (sizeof(T) == 8 || n <= std::int64_t{UINT32_MAX})
      c.peers.push_back({vqsort_peer, release,
                         [x, perm_peer, in, n] {
                           using pair = vqsort_pair<T>;
                           using U = decltype(pair::key);
                           auto pairs = make_buffer<pair>(n);
                           pair* kp = pairs.get();
                           parallel_fill(kp, n, [in](std::int64_t i) {
                             return pair{static_cast<U>(i), ak::ordered_key(in[i])};
                           });
                           vqsort_sorter()(kp, static_cast<std::size_t>(n), hwy::SortAscending());
                           *perm_peer = make_buffer<std::int64_t>(n);
                           parallel_fill(perm_peer->get(), n, [kp](std::int64_t i) {
                             return static_cast<std::int64_t>(kp[i].value);
                           });
                         },
                         [x, perm_ak, perm_peer, in, n] {
                           if (perm_ak->size() != n)
                             return std::string("ak's result has the wrong size");
                           return compare_keys_at(in, perm_ak->data(), perm_peer->get(), n);
                         }});
#endif
  return c;
}

template <class T>
bench_case sort_by_key_case(std::int64_t n) {
  struct buffers {
    std::int64_t n;
    std::shared_ptr<T[]> input = make_buffer<T>(n), keys = make_buffer<T>(n);
    std::shared_ptr<std::int64_t[]> values = make_buffer<std::int64_t>(n);
    std::shared_ptr<keyed<T>[]> pairs = make_buffer<keyed<T>>(n);
  };
  auto b = std::make_shared<buffers>(buffers{n});
  fill_keys(b->input.get(), n, 10);
  const T* in = b->input.get();
  T* k = b->keys.get();
  std::int64_t* v = b->values.get();
  keyed<T>* kp = b->pairs.get();
  bench_case c;
  c.op = "sort_by_key";
  c.elements = n;
  c.bytes = 2.0 * static_cast<double>(n) * static_cast<double>(sizeof(T) + sizeof(std::int64_t));
  c.writes = true;
  c.input_bytes = static_cast<double>(n) * static_cast<double>(sizeof(T) + sizeof(std::int64_t));
  c.note =
      "int64 values 0..n-1, in place: ak::sort_by_key(keys, values) (stable); peers sort "
      "(key, index) pairs by key then index (" +
      std::to_string(sizeof(keyed<T>)) +
      " bytes each; packed before the timed call); vqsort (highway): one thread, K64V64 pairs "
      "of the key's bits in its order and the value, compared by key alone";
  c.ak = {"ak",
          [b, in, k, v, n] {
            parallel_copy(k, in, n);
            parallel_fill(v, n, [](std::int64_t i) { return i; });
          },
          [b, k, v, n] {
            ak::sort_by_key(ak::view<T>(k, ak::shape{n}), ak::view<std::int64_t>(v, ak::shape{n}));
          },
          {}};
  auto check = [b, k, v, kp, n]() -> std::string {
    for (std::int64_t i = 0; i < n; ++i)
      if (kp[i].key != k[i] || kp[i].index != v[i])
        return "first difference at [" + std::to_string(i) + "]: ak (" + text_of(k[i]) + ", " +
               std::to_string(v[i]) + "), peer (" + text_of(kp[i].key) + ", " +
               std::to_string(kp[i].index) + ")";
    return "";
  };
  add_sort_peers<peer_std_par | peer_tbb | peer_ips4o>(
      c, kp, n, key_then_index<T>{}, [b, kp, in, n] { pack(kp, in, n); }, check, b);
#ifdef AK_BENCH_HAVE_VQSORT
  if constexpr (vqsort_pairs<T>) {
    // (key, value) in K64V64 (the values are the indices), packed before the timed call as the
    // other peers' pairs are.
    std::shared_ptr<hwy::K64V64[]> wide = make_buffer<hwy::K64V64>(n);
    hwy::K64V64* wp = wide.get();
    c.peers.push_back(
        {vqsort_peer,
         [wide, wp, in, n] {
           parallel_fill(wp, n, [in](std::int64_t i) {
             return hwy::K64V64{static_cast<std::uint64_t>(i), ak::ordered_key(in[i])};
           });
         },
         [wide, wp, n] { vqsort_sorter()(wp, static_cast<std::size_t>(n), hwy::SortAscending()); },
         [b, wide, wp, k, n]() -> std::string {
           for (std::int64_t i = 0; i < n; ++i)
             if (wp[i].key != ak::ordered_key(k[i]))
               return "first difference at [" + std::to_string(i) + "]: ak's key " + text_of(k[i]) +
                      ", another key in the peer's";
           return "";
         }});
  }
#endif
  return c;
}

template <class T>
bench_case searchsorted_case(std::int64_t n) {
  const std::int64_t m = std::max<std::int64_t>(1, n / 100);
  auto s = make_buffer<T>(n);
  auto q = make_buffer<T>(m);
  fill_keys(s.get(), n, 11);
  fill_keys(q.get(), m, 12);
  ak::sort_inplace(ak::view<T>(s.get(), ak::shape{n}));
  const T* sp = s.get();
  const T* qp = q.get();
  auto out_ak = std::make_shared<ak::array<std::int64_t>>();
  auto out_peer = std::make_shared<std::shared_ptr<std::int64_t[]>>();
  bench_case c;
  c.op = "searchsorted";
  c.elements = n;
  c.bytes = static_cast<double>(m) * static_cast<double>(sizeof(T) + sizeof(std::int64_t));
  c.writes = true;
  c.note = std::to_string(m) +
           " random queries in n sorted keys: ak::searchsortedfirst(sorted, "
           "queries); std::transform(par) / tbb::parallel_for of std::lower_bound; bytes: the "
           "queries read and the results written (the searches are bound by latency, not "
           "bandwidth)";
  c.ak = {"ak",
          [out_ak] { *out_ak = ak::array<std::int64_t>(); },
          [s, q, out_ak, sp, qp, n, m] {
            *out_ak = ak::searchsortedfirst(ak::view<const T>(sp, ak::shape{n}),
                                            ak::view<const T>(qp, ak::shape{m}));
          },
          {}};
  auto release = [out_peer] { out_peer->reset(); };
  auto check = [out_ak, out_peer, m] {
    if (out_ak->size() != m) return std::string("ak's result has the wrong size");
    return compare_exact(out_ak->data(), out_peer->get(), m);
  };
  auto first_not_less = [sp, n](T key) { return std::lower_bound(sp, sp + n, key) - sp; };
  if (have_std_par)
    c.peers.push_back({std_par, release,
                       [s, q, out_peer, qp, m, first_not_less] {
                         *out_peer = make_buffer<std::int64_t>(m);
                         std::transform(AK_BENCH_PAR qp, qp + m, out_peer->get(), first_not_less);
                       },
                       check});
  c.peers.push_back({tbb_peer, release,
                     [s, q, out_peer, qp, m, first_not_less] {
                       *out_peer = make_buffer<std::int64_t>(m);
                       std::int64_t* o = out_peer->get();
                       tbb::parallel_for(range(0, m, 1024), [&](const range& r) {
                         for (std::int64_t i = r.begin(); i < r.end(); ++i)
                           o[i] = first_not_less(qp[i]);
                       });
                     },
                     check});
  return c;
}

}  // namespace

void add_sort_key_ops(std::vector<op_spec>& ops) {
  const std::vector<dtype> defaults{dtype::uint32, dtype::int64, dtype::float64};
  ops.push_back({"sortperm", "sort_keys", defaults,
                 [](dtype t, std::int64_t n) {
                   return visit_numeric(t, [&]<class T>() { return sortperm_case<T>(n); });
                 },
                 sort_default_n});
  ops.push_back({"sort_by_key", "sort_keys", defaults,
                 [](dtype t, std::int64_t n) {
                   return visit_numeric(t, [&]<class T>() { return sort_by_key_case<T>(n); });
                 },
                 sort_default_n});
  ops.push_back({"searchsorted",
                 "sort_keys",
                 {dtype::int64, dtype::float64},
                 [](dtype t, std::int64_t n) {
                   return visit_numeric(t, [&]<class T>() { return searchsorted_case<T>(n); });
                 },
                 sort_default_n});
}

}  // namespace ak::tool::bench
