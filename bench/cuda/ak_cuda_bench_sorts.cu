// ak_cuda_bench's sorts: radix sort of keys, pairs, sortperm, and merge sort with a custom
// comparator, against CUB's and Thrust's.
#include <thrust/execution_policy.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include "bench_cuda.cuh"

namespace akcb {

namespace {

struct greater_u64 {  // sort_custom: descending through a custom comparator (merge sort)
  __host__ __device__ bool operator()(std::uint64_t a, std::uint64_t b) const { return a > b; }
};

template <class T>
bench_case sort_case(const std::string& dtype, i64 n) {
  bench_case c{"sort", dtype, n, 0};
  auto pristine = make_buf<T>(n);
  fill(pristine->get(), n, 3, fill_kind::keys);
  auto a = ak_copy_of(*pristine);
  c.ak = {"ak", restore(a->data(), pristine), [a] { ak::sort_inplace(a->view()); }};

  // ak sorts in place (with its own scratch); CUB's in-place form is the DoubleBuffer API (keys in
  // one buffer, scratch in the other, the result in whichever Current() names), the fastest way to
  // call it, with no copy back. Each run starts from a fresh DoubleBuffer over the restored input.
  auto k0 = make_buf<T>(n), k1 = make_buf<T>(n);
  auto db = std::make_shared<cub::DoubleBuffer<T>>(k0->get(), k1->get());
  std::size_t temp_bytes = 0;
  CK(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, *db, static_cast<int>(n)));
  auto temp = make_buf<char>(static_cast<i64>(temp_bytes));
  auto restore_k0 = restore(k0->get(), pristine);
  c.peers.push_back({"cub",
                     [=] {
                       restore_k0();
                       *db = cub::DoubleBuffer<T>(k0->get(), k1->get());
                     },
                     [=] {
                       std::size_t b = temp_bytes;
                       CK(cub::DeviceRadixSort::SortKeys(temp->get(), b, *db, static_cast<int>(n)));
                     }});
  auto t = make_buf<T>(n);
  thrust_cache cache;
  c.peers.push_back({"thrust", restore(t->get(), pristine), [=]() mutable {
                       thrust::sort(thrust::cuda::par(cache), t->get(), t->get() + n);
                     }});
  c.verify = [=] { return compare("sorted keys", a->data(), db->Current(), n); };
  c.note =
      "sort: ak::sort_inplace (radix); cub::DeviceRadixSort::SortKeys (DoubleBuffer); thrust::sort";
  return c;
}

bench_case sort_by_key_case(const std::string& dtype, i64 n) {
  using K = std::uint32_t;
  using V = std::uint32_t;
  bench_case c{"sort_by_key", dtype, n, 0};
  auto pk = make_buf<K>(n);
  auto pv = make_buf<V>(n);
  fill(pk->get(), n, 4, fill_kind::keys);
  fill(pv->get(), n, 5, fill_kind::keys);
  auto ak_k = ak_copy_of(*pk);
  auto ak_v = ak_copy_of(*pv);
  auto rk = restore(ak_k->data(), pk), rv = restore(ak_v->data(), pv);
  c.ak = {"ak",
          [=] {
            rk();
            rv();
          },
          [=] { ak::sort_by_key(ak_k->view(), ak_v->view()); }};

  // CUB's in-place form: DoubleBuffers for keys and values (see sort_case).
  auto k0 = make_buf<K>(n), k1 = make_buf<K>(n);
  auto v0 = make_buf<V>(n), v1 = make_buf<V>(n);
  auto dk = std::make_shared<cub::DoubleBuffer<K>>(k0->get(), k1->get());
  auto dv = std::make_shared<cub::DoubleBuffer<V>>(v0->get(), v1->get());
  std::size_t temp_bytes = 0;
  CK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, *dk, *dv, static_cast<int>(n)));
  auto temp = make_buf<char>(static_cast<i64>(temp_bytes));
  auto rk0 = restore(k0->get(), pk);
  auto rv0 = restore(v0->get(), pv);
  c.peers.push_back(
      {"cub",
       [=] {
         rk0();
         rv0();
         *dk = cub::DoubleBuffer<K>(k0->get(), k1->get());
         *dv = cub::DoubleBuffer<V>(v0->get(), v1->get());
       },
       [=] {
         std::size_t b = temp_bytes;
         CK(cub::DeviceRadixSort::SortPairs(temp->get(), b, *dk, *dv, static_cast<int>(n)));
       }});
  auto tk = make_buf<K>(n);
  auto tv = make_buf<V>(n);
  auto rtk = restore(tk->get(), pk), rtv = restore(tv->get(), pv);
  thrust_cache cache;
  c.peers.push_back({"thrust",
                     [=] {
                       rtk();
                       rtv();
                     },
                     [=]() mutable {
                       thrust::sort_by_key(thrust::cuda::par(cache), tk->get(), tk->get() + n,
                                           tv->get());
                     }});
  c.verify = [=] {
    // Both sorts are stable, so even the values of equal keys must agree.
    std::string e = compare("keys", ak_k->data(), dk->Current(), n);
    return e.empty() ? compare("values", ak_v->data(), dv->Current(), n) : e;
  };
  c.note =
      "sort_by_key: ak::sort_by_key (radix); cub::DeviceRadixSort::SortPairs (DoubleBuffers); "
      "thrust::sort_by_key";
  return c;
}

template <class T>
bench_case sortperm_case(const std::string& dtype, i64 n) {
  bench_case c{"sortperm", dtype, n, 0};
  auto keys = make_buf<T>(n);
  fill(keys->get(), n, 6, fill_kind::keys);
  auto a = ak_copy_of(*keys);
  auto perm = std::make_shared<std::optional<ak::array<i64>>>();
  c.ak = {"ak", [perm] { perm->reset(); }, [a, perm] { perm->emplace(ak::sortperm(a->view())); }};

  // The peers make the permutation from the keys alone, as ak::sortperm does: the int64 indices
  // 0..n-1 are written inside the timed run, then sorted along with the keys, which stay as they
  // were (CUB's SortPairs with separate input and output buffers).
  auto kout = make_buf<T>(n);
  auto iota = make_buf<i64>(n), vout = make_buf<i64>(n);
  std::size_t temp_bytes = 0;
  CK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys->get(), kout->get(), iota->get(),
                                     vout->get(), static_cast<int>(n)));
  auto temp = make_buf<char>(static_cast<i64>(temp_bytes));
  c.peers.push_back({"cub", {}, [=] {
                       iota_kernel<i64><<<grid_for(n), 256>>>(iota->get(), n);
                       CK(cudaGetLastError());
                       std::size_t b = temp_bytes;
                       CK(cub::DeviceRadixSort::SortPairs(temp->get(), b, keys->get(), kout->get(),
                                                          iota->get(), vout->get(),
                                                          static_cast<int>(n)));
                     }});
  auto tk = make_buf<T>(n);
  auto tv = make_buf<i64>(n);
  thrust_cache cache;
  c.peers.push_back(
      {"thrust", {}, [=]() mutable {
         auto pol = thrust::cuda::par(cache);
         CK(cudaMemcpyAsync(tk->get(), keys->get(), keys->bytes(), cudaMemcpyDeviceToDevice, 0));
         thrust::sequence(pol, tv->get(), tv->get() + n);
         thrust::stable_sort_by_key(pol, tk->get(), tk->get() + n, tv->get());
       }});
  c.verify = [=] { return compare("permutation", (*perm)->data(), vout->get(), n); };
  c.note =
      "sortperm: ak::sortperm (radix); iota + cub::DeviceRadixSort::SortPairs(keys, int64 "
      "indices); copy + thrust::sequence + thrust::stable_sort_by_key";
  return c;
}

bench_case sort_custom_case(const std::string& dtype, i64 n) {
  using T = std::uint64_t;
  bench_case c{"sort_custom", dtype, n, 0};
  auto pristine = make_buf<T>(n);
  fill(pristine->get(), n, 7, fill_kind::keys);
  auto a = ak_copy_of(*pristine);
  c.ak = {"ak", restore(a->data(), pristine), [a] {
            ak::sort_inplace(a->view(), ak::sort_options<ak::identity, greater_u64>{
                                            .lt = greater_u64{}, .alg = ak::merge_sort{}});
          }};

  auto k = make_buf<T>(n);
  std::size_t temp_bytes = 0;
  CK(cub::DeviceMergeSort::SortKeys(nullptr, temp_bytes, k->get(), static_cast<int>(n),
                                    greater_u64{}));
  auto temp = make_buf<char>(static_cast<i64>(temp_bytes));
  c.peers.push_back({"cub", restore(k->get(), pristine), [=] {
                       std::size_t b = temp_bytes;
                       CK(cub::DeviceMergeSort::SortKeys(temp->get(), b, k->get(),
                                                         static_cast<int>(n), greater_u64{}));
                     }});
  auto t = make_buf<T>(n);
  thrust_cache cache;
  c.peers.push_back({"thrust", restore(t->get(), pristine), [=]() mutable {
                       thrust::sort(thrust::cuda::par(cache), t->get(), t->get() + n,
                                    greater_u64{});
                     }});
  c.verify = [=] { return compare("sorted keys", a->data(), k->get(), n); };
  c.note =
      "sort_custom: descending uint64 through a custom comparator: ak::sort_inplace "
      "{.lt, .alg = merge_sort}; cub::DeviceMergeSort::SortKeys; thrust::sort";
  return c;
}

}  // namespace

void add_sort_ops(std::vector<op_entry>& ops) {
  ops.push_back({"sort", "uint32", 4 * 8, sort_case<std::uint32_t>});
  ops.push_back({"sort", "uint64", 8 * 8, sort_case<std::uint64_t>});
  ops.push_back({"sort", "float64", 8 * 8, sort_case<double>});
  ops.push_back({"sort_custom", "uint64", 8 * 6, sort_custom_case});
  ops.push_back({"sortperm", "float32", 4 * 4 + 8 * 7, sortperm_case<float>});
  ops.push_back({"sort_by_key", "uint32", 8 * 9, sort_by_key_case});
}

}  // namespace akcb
