// Reductions and scans along dimensions of n-d arrays on GPU-style devices. Arrays are device
// pointers with a shape and element strides (row-major by default); up to 8 dimensions.
//
//   ak::gpu::reduce_dims(dev, in, {4, 5, 6}, {}, {1, 2}, out, op, init);   // out has 4 elements
//   ak::gpu::accumulate_dim(dev, in, out, {4, 5}, 1, op, init);            // along dimension 1
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ak/gpu/algorithms.hpp"
#include "ak/gpu/kernels/dims.hpp"

namespace ak::gpu {

namespace detail {

inline std::vector<std::int64_t> row_major_strides(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> s(shape.size(), 1);
  for (std::size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

inline void check_shape(const std::vector<std::int64_t>& shape,
                        const std::vector<std::int64_t>& strides, const char* fn) {
  if (shape.empty() || shape.size() > static_cast<std::size_t>(kernels::max_dims))
    throw ak::argument_error(fn, "shape", "1 to 8 dimensions",
                             std::to_string(shape.size()) + " dimensions");
  if (!strides.empty() && strides.size() != shape.size())
    throw ak::argument_error(fn, "strides", std::to_string(shape.size()) + " strides",
                             std::to_string(strides.size()));
  for (auto e : shape)
    if (e < 0) throw ak::argument_error(fn, "shape", "extents >= 0", std::to_string(e));
}

// The elements of an array of this shape (the size its tunings are looked up for).
inline std::int64_t elements_of(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (auto e : shape) n *= e;
  return n;
}

inline kernels::strided_space space_of(const std::vector<std::int64_t>& shape,
                                       const std::vector<std::int64_t>& strides,
                                       const std::vector<int>& dims_in_order) {
  kernels::strided_space s;
  s.rank = static_cast<int>(dims_in_order.size());
  for (int i = 0; i < s.rank; ++i) {
    s.shape[i] = shape[static_cast<std::size_t>(dims_in_order[static_cast<std::size_t>(i)])];
    s.stride[i] = strides[static_cast<std::size_t>(dims_in_order[static_cast<std::size_t>(i)])];
  }
  return s;
}

}  // namespace detail

namespace detail {
// With a resolved tuning `t` (every field set): what the public algorithms call once they have
// resolved.
template <class T, class Op>
void reduce_dims_run(const ak::device& dev, const reduce_tuning& t, const T* in,
                     const std::vector<std::int64_t>& shape, std::vector<std::int64_t> strides,
                     const std::vector<std::int64_t>& dims, T* out, Op op, T init) {
  const char* fn = "ak::gpu::reduce_dims";
  detail::check_call(dev, 0, fn);
  detail::check_shape(shape, strides, fn);
  if (strides.empty()) strides = detail::row_major_strides(shape);
  std::vector<bool> reduced(shape.size(), false);
  for (auto d : dims) {
    if (d < 0 || d >= static_cast<std::int64_t>(shape.size()) ||
        reduced[static_cast<std::size_t>(d)])
      throw ak::argument_error(fn, "dims",
                               "distinct dimensions in [0, " + std::to_string(shape.size()) + ")",
                               std::to_string(d));
    reduced[static_cast<std::size_t>(d)] = true;
  }
  std::vector<int> kept_dims, reduced_dims;
  for (std::size_t d = 0; d < shape.size(); ++d)
    (reduced[d] ? reduced_dims : kept_dims).push_back(static_cast<int>(d));
  const auto kept = detail::space_of(shape, strides, kept_dims);
  const auto red = detail::space_of(shape, strides, reduced_dims);
  const std::int64_t outputs = kept.size(), r_n = red.size();
  if (outputs == 0) return;
  if (r_n == 0) {  // nothing to combine: every output is init
    foreachindex(dev, outputs, kernels::fill_body<T>{out, init});
    return;
  }
  const std::int64_t block = detail::fit_block(dev, t.block_size);
  if (r_n >= t.switch_below || outputs < 4 * dev.info().compute_units) {
    const std::size_t local =
        static_cast<std::size_t>(detail::num_sub_groups(dev, block)) * sizeof(T);
    launch(dev, {kernel::range_1d(outputs * block, block), local, "ak::gpu::reduce_dims"},
           kernels::reduce_dims_group_kernel<T, Op>{in, out, kept, red, op, init});
  } else {
    foreachindex(dev, outputs, kernels::reduce_dims_item_body<T, Op>{in, out, kept, red, op, init},
                 {.block_size = block, .items_per_thread = 1});
  }
}
}  // namespace detail

// Reduces `in` (shape, element strides; empty strides: row-major) over `dims` into `out`, the
// row-major array of the kept dimensions' extents. Strategy from the shapes and the reduce
// tuning: one group per output when the reduced extent is at least reduce.switch_below or there
// are fewer outputs than four groups per compute unit, else one work-item per output.
template <class T, class Op>
void reduce_dims(const ak::device& dev, const T* in, const std::vector<std::int64_t>& shape,
                 std::vector<std::int64_t> strides, const std::vector<std::int64_t>& dims, T* out,
                 Op op, T init, const reduce_tuning& call = {}) {
  detail::reduce_dims_run(
      dev, ak::tuning(reduce_hook{}, dev, tuning_dtype<T>(), call, {detail::elements_of(shape)}),
      in, shape, std::move(strides), dims, out, op, init);
}

namespace detail {
// With a resolved scan tuning `t` (every field set): what the public algorithms call once they
// have resolved.
template <class T, class Op>
void accumulate_dim_run(const ak::device& dev, const scan_tuning& t, const T* in, T* out,
                        const std::vector<std::int64_t>& shape, std::int64_t dim, Op op, T init,
                        bool inclusive, std::vector<std::int64_t> in_strides,
                        std::vector<std::int64_t> out_strides) {
  const char* fn = "ak::gpu::accumulate_dim";
  detail::check_call(dev, 0, fn);
  detail::check_shape(shape, in_strides, fn);
  detail::check_shape(shape, out_strides, fn);
  if (dim < 0 || dim >= static_cast<std::int64_t>(shape.size()))
    throw ak::argument_error(fn, "dim", "a dimension in [0, " + std::to_string(shape.size()) + ")",
                             std::to_string(dim));
  if (in_strides.empty()) in_strides = detail::row_major_strides(shape);
  if (out_strides.empty()) out_strides = detail::row_major_strides(shape);
  std::vector<int> others;
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (static_cast<std::int64_t>(d) != dim) others.push_back(static_cast<int>(d));
  const auto in_lines = detail::space_of(shape, in_strides, others);
  const auto out_lines = detail::space_of(shape, out_strides, others);
  const std::int64_t lines = in_lines.size(), len = shape[static_cast<std::size_t>(dim)];
  if (lines == 0 || len == 0) return;
  const std::int64_t in_step = in_strides[static_cast<std::size_t>(dim)];
  const std::int64_t out_step = out_strides[static_cast<std::size_t>(dim)];
  const std::int64_t block = detail::fit_block(dev, t.block_size);
  if (lines < 2 * dev.info().compute_units && len >= block) {
    const std::size_t local =
        static_cast<std::size_t>(detail::num_sub_groups(dev, block) + 1) * sizeof(T);
    launch(dev, {kernel::range_1d(lines * block, block), local, "ak::gpu::accumulate_dim"},
           kernels::scan_dim_group_kernel<T, Op>{in, out, in_lines, out_lines, len, in_step,
                                                 out_step, static_cast<int>(t.items_per_thread), op,
                                                 init, inclusive});
  } else {
    foreachindex(dev, lines,
                 kernels::scan_dim_item_body<T, Op>{in, out, in_lines, out_lines, len, in_step,
                                                    out_step, op, init, inclusive},
                 {.block_size = block, .items_per_thread = 1});
  }
}
}  // namespace detail

// Scans `in` along dimension `dim` into `out` (the same shape; each with its element strides,
// empty for row-major; in may equal out). Strategy from the shapes and the scan tuning: one group
// per line when lines are fewer than two groups per compute unit and at least a block long, else
// one work-item per line.
template <class T, class Op>
void accumulate_dim(const ak::device& dev, const T* in, T* out,
                    const std::vector<std::int64_t>& shape, std::int64_t dim, Op op, T init,
                    bool inclusive = true, std::vector<std::int64_t> in_strides = {},
                    std::vector<std::int64_t> out_strides = {}) {
  detail::accumulate_dim_run(
      dev, ak::tuning(scan_hook{}, dev, tuning_dtype<T>(), tuning_size(detail::elements_of(shape))),
      in, out, shape, dim, op, init, inclusive, std::move(in_strides), std::move(out_strides));
}

// out = f(a, b) elementwise over `shape`, each operand with its element strides (a stride of 0
// broadcasts it along that dimension; empty strides: row-major). The public API turns its
// broadcasting rules into these strides.
template <class A, class B, class Out, class F>
void broadcast(const ak::device& dev, const std::vector<std::int64_t>& shape, const A* a,
               std::vector<std::int64_t> a_strides, const B* b, std::vector<std::int64_t> b_strides,
               Out* out, F f, std::vector<std::int64_t> out_strides = {}) {
  const char* fn = "ak::gpu::broadcast";
  detail::check_call(dev, 0, fn);
  detail::check_shape(shape, a_strides, fn);
  detail::check_shape(shape, b_strides, fn);
  detail::check_shape(shape, out_strides, fn);
  if (a_strides.empty()) a_strides = detail::row_major_strides(shape);
  if (b_strides.empty()) b_strides = detail::row_major_strides(shape);
  if (out_strides.empty()) out_strides = detail::row_major_strides(shape);
  std::vector<int> all(shape.size());
  for (std::size_t d = 0; d < shape.size(); ++d) all[d] = static_cast<int>(d);
  const auto as = detail::space_of(shape, a_strides, all);
  const auto bs = detail::space_of(shape, b_strides, all);
  const auto os = detail::space_of(shape, out_strides, all);
  foreachindex(dev, os.size(), kernels::broadcast_body<A, B, Out, F>{a, b, out, as, bs, os, f});
}

}  // namespace ak::gpu
