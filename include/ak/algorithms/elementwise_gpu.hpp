// The GPU half of the loops and element-wise operations (the front is elementwise.hpp), on
// GPU-style devices: n-ary element-wise kernels over broadcast index spaces and the GPU's take,
// each with the tuning the front resolved.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/algorithms/options.hpp"

namespace ak::detail {

// The index space of a view seen through an output shape it broadcasts to (aligned from the last
// dimension; missing and extent-1 dimensions repeat with stride 0), as the ak::gpu kernels take
// it; a rank-0 output is one element.
template <class T>
gpu::kernels::strided_space gpu_space(const shape& out, const view<T>& v) {
  gpu::kernels::strided_space s;
  if (out.rank() == 0) {
    s.rank = 1;
    s.shape[0] = 1;
    s.stride[0] = 0;
    return s;
  }
  s.rank = static_cast<int>(out.rank());
  const std::size_t skip = out.rank() - v.rank();
  for (std::size_t d = 0; d < out.rank(); ++d) {
    s.shape[d] = out[d];
    s.stride[d] = d < skip || v.shape()[d - skip] == 1 ? 0 : v.strides()[d - skip];
  }
  return s;
}

// The sources of an n-ary element-wise kernel, held by value (a kernel cannot hold host objects;
// no std::tuple, whose members are not device functions under nvcc): a pointer and an index space
// per source, nested.
template <class... S>
struct gpu_operands {};
template <class S0, class... S>
struct gpu_operands<S0, S...> {
  const S0* p;
  gpu::kernels::strided_space space;
  gpu_operands<S...> rest;
};

// f(x...) once every source's element at linear index o is loaded.
template <class F, class... X>
AK_KERNEL_FN auto gpu_apply(const F& f, const gpu_operands<>&, std::int64_t, const X&... x) {
  return f(x...);
}
template <class F, class S0, class... S, class... X>
AK_KERNEL_FN auto gpu_apply(const F& f, const gpu_operands<S0, S...>& ops, std::int64_t o,
                            const X&... x) {
  return gpu_apply(f, ops.rest, o, x..., ops.p[ops.space.offset(o)]);
}

inline gpu_operands<> gpu_operands_of(const shape&) {
  return {};
}
template <class S0, class... S>
gpu_operands<S0, S...> gpu_operands_of(const shape& out, view<const S0> v0, view<const S>... v) {
  return {v0.data(), gpu_space(out, v0), gpu_operands_of(out, v...)};
}

// out[i] = f(src0[i], src1[i], ...) over out's index space (a body of ak::gpu::foreachindex).
template <class Out, class F, class... Src>
struct gpu_elementwise_body {
  Out* out;
  gpu::kernels::strided_space out_space;
  gpu_operands<Src...> src;
  F f;
  AK_KERNEL_FN void operator()(std::int64_t i) const {
    out[out_space.offset(i)] = static_cast<Out>(gpu_apply(f, src, i));
  }
};

// out = f(src...) element-wise on the device, every source broadcast to out's shape, any strides.
template <class Out, class F, class... Src>
void gpu_elementwise(const device& dev, const map_tuning& t, view<Out> out, const F& f,
                     view<const Src>... src) {
  if (out.empty()) return;
  gpu::detail::foreachindex_run(
      dev, t, out.size(),
      gpu_elementwise_body<Out, F, Src...>{out.data(), gpu_space(out.shape(), out),
                                           gpu_operands_of(out.shape(), src...), f});
}

// Whether an index is outside [0, n) (the predicate of the GPU index check of take).
template <class I>
struct gpu_index_outside {
  std::int64_t n;
  AK_KERNEL_FN bool operator()(const I& x) const {
    if constexpr (std::is_signed_v<I>)
      if (x < 0) return true;
    return static_cast<std::uint64_t>(x) >= static_cast<std::uint64_t>(n);
  }
};

// The GPU path of take: the indices are checked on the device (a count of those outside the
// source; only when there are some do they come to the host, to name the first), then gathered
// from the source (packed first when strided).
template <class T, class I>
array<T> gpu_take(const device& dev, const map_tuning& t, view<const T> s, view<const I> idx) {
  const std::int64_t n = s.size(), count = idx.size();
  const gpu_dense<I> di(dev, idx);
  if (count > 0 && gpu::count(dev, di.data(), count, gpu_index_outside<I>{n}) > 0) {
    std::vector<I> host(static_cast<std::size_t>(count));
    dev.memory().copy_to_host(host.data(), di.data(), host.size() * sizeof(I));
    const gpu_index_outside<I> outside{n};
    for (std::int64_t j = 0; j < count; ++j) {
      const I x = host[static_cast<std::size_t>(j)];
      if (outside(x)) throw_index_out_of_range("ak::take", j, static_cast<std::int64_t>(x), n);
    }
  }
  array<T> out(idx.shape(), dev.memory());
  if (count == 0) return out;
  const gpu_dense<T> ds(dev, s);
  gpu::detail::foreachindex_run(dev, t, count,
                                gpu::kernels::gather_body<T, I>{ds.data(), di.data(), out.data()});
  return out;
}

// Reverses v in place on the device; strided views are reversed in a packed copy that is written
// back.
template <class T>
void gpu_reverse_inplace(const device& dev, const map_tuning& t, view<T> v) {
  gpu_work<T> w(dev, v, true);
  const std::int64_t n = v.size();
  gpu::detail::foreachindex_run(dev, t, n / 2, gpu::kernels::reverse_body<T>{w.data(), n});
  w.write_back();
}

}  // namespace ak::detail
