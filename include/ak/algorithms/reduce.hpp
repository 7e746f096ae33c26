// reduce, mapreduce (whole array or along dims), sum, prod, minimum, maximum, count, any, all.
//
//   double s = ak::sum(v);
//   ak::array<float> col = ak::sum(matrix, ak::dims{0});            // shape (1, n)
//   auto r = ak::reduce(v, ak::plus{}, ak::reduce_options<std::int64_t>{.init = 0});
//
// Along dims, the result keeps the array's rank with the reduced extents set to 1 (as Julia's
// dims keyword). op must be associative; partial results are combined in element order.
// Determinism: the same bits run to run for a fixed thread count and tuning.
//
// This is the family's front: each call checks its arguments, finds its device and looks its
// tuning up once, then runs the precompiled entry (the standard types and operators) or the cpu
// half (reduce_cpu.hpp) or GPU half (reduce_gpu.hpp) with it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/reduce_common.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/algorithms/precompiled.hpp"
#include "ak/algorithms/reduce_cpu.hpp"
#include "ak/algorithms/reduce_gpu.hpp"

namespace ak {

namespace detail {

template <class T, class R, class Op>
inline constexpr bool precompiled_reduce_v =
    std::is_same_v<T, R>&& op_kind_v<Op> != op_kind::custom&& precompiled_type_v<T>;

// op over f(x) of every element, combined once with init.
template <class T, class R, class F, class Op>
R mapreduce_front(view<const T> v, const F& f, const Op& op, const reduce_options<R>& o,
                  const char* function) {
  const device dev = algorithm_device(function, "src", v.memory());
  if (on_gpu(dev)) check_gpu_types<T, R>(function, dev);
  // No elements give init, else the neutral element (the caller's or the operator's).
  if (v.empty() && !o.init && !init_or_neutral<R, Op>(o.neutral))
    throw_no_init(function, "for an empty input");
  const reduce_tuning t = tuning(reduce_hook{}, dev, tuning_dtype<T>(), o.tuning, {v.size()});
  if constexpr (std::is_same_v<F, identity> && precompiled_reduce_v<T, R, Op>)
    return reduce_entry(dev, t, v, op_kind_v<Op>, o);
  else if (on_gpu(dev))
    return gpu_mapreduce_all(dev, t, v, f, op, o, function);
  else
    return cpu_mapreduce_all(t, v, f, op, o);
}

// The dimensions a reduction along `d` reduces (a bit mask), the output's shape (v's rank, those
// extents 1) and how many elements reduce into each output.
struct along_plan {
  std::uint32_t mask = 0;
  shape out_shape;
  std::int64_t per_output = 1;
};
inline along_plan plan_along(const shape& in, const dims& d, const char* function) {
  if (d.size() > max_rank) throw_bad_dims(function, d.values(), in.rank());
  along_plan p;
  p.mask = dims_mask(function, d.values(), in.rank());
  std::array<std::int64_t, max_rank> out_extent{};
  for (std::size_t k = 0; k < in.rank(); ++k) {
    const bool reduced = (p.mask >> k) & 1u;
    out_extent[k] = reduced ? 1 : in[k];
    if (reduced) p.per_output *= in[k];
  }
  p.out_shape = shape(unchecked, {out_extent.data(), in.rank()});
  return p;
}

// op over f(x) along the planned dimensions into out (of the plan's shape, not empty), on dev.
template <class T, class R, class F, class Op>
void mapreduce_along_run(const device& dev, const reduce_tuning& t, view<const T> v, const F& f,
                         const Op& op, const along_plan& p, const reduce_options<R>& o,
                         array<R>& out, const char* function) {
  if constexpr (std::is_same_v<F, identity> && precompiled_reduce_v<T, R, Op>)
    reduce_dims_entry(dev, t, v, op_kind_v<Op>, p.mask, p.per_output, o, out);
  else if (on_gpu(dev))
    gpu_mapreduce_along(dev, t, v, f, op, p.mask, p.per_output, o, out, function);
  else
    cpu_mapreduce_along(dev, t, v, f, op, p.mask, o, out);
}

// op over f(x) along the dimensions `d`: src's rank, those extents 1.
template <class T, class R, class F, class Op>
array<R> mapreduce_along_front(view<const T> v, const F& f, const Op& op, const dims& d,
                               const reduce_options<R>& o, const char* function) {
  const device dev = algorithm_device(function, "src", v.memory());
  const along_plan p = plan_along(v.shape(), d, function);
  if (p.per_output == 0 && p.out_shape.size() != 0 && !o.init && !init_or_neutral<R, Op>(o.neutral))
    throw_no_init(function, "for dimensions of extent 0");
  if (on_gpu(dev)) check_gpu_types<T, R>(function, dev);
  const reduce_tuning t = tuning(reduce_hook{}, dev, tuning_dtype<T>(), o.tuning, {v.size()});
  array<R> out(p.out_shape, dev.memory());
  if (!out.empty()) mapreduce_along_run(dev, t, v, f, op, p, o, out, function);
  return out;
}

// How many elements of v satisfy pred, on dev (the device v is on): the one count behind count,
// and behind any and all on GPU-style devices.
template <class T, class Pred>
std::int64_t count_on(const device& dev, view<const T> v, const Pred& pred, const char* function) {
  if (on_gpu(dev)) check_gpu_types<T, std::int64_t>(function, dev);
  const reduce_tuning t = tuning(reduce_hook{}, dev, tuning_dtype<T>(), tuning_size(v.size()));
  if constexpr (std::is_same_v<Pred, truthy> && precompiled_sort_type_v<T>)
    return count_entry(dev, t, v);
  else if (on_gpu(dev))
    return gpu_count(dev, t, v, pred);
  else
    return cpu_mapreduce_all(t, v, count_if_true<Pred>{pred}, plus{},
                             reduce_options<std::int64_t>{});
}

// Whether pred holds for some element (Want = true) or fails for some (Want = false): on the cpu
// a search that stops at the first that decides, on a GPU-style device a count.
template <bool Want, class T, class Pred>
bool find_any_front(view<const T> v, const Pred& pred, const loop_options& o,
                    const char* function) {
  const device dev = algorithm_device(function, "src", v.memory());
  if (on_gpu(dev)) {
    const std::int64_t n = count_on(dev, v, pred, function);
    return Want ? n > 0 : n < v.size();
  }
  const map_tuning t = tuning(map_hook{}, dev, tuning_dtype<T>(), o.tuning, {v.size()});
  if constexpr (std::is_same_v<Pred, truthy> && precompiled_sort_type_v<T>)
    return find_any_entry(t, v, Want);
  else
    return cpu_find_any<Want>(t, v, pred);
}

// op over load(i) of every element of v (findmin, findmax, extrema; i its row-major index).
template <class R, template <class> class Load, class T, class Op>
R reduce_indexed_front(view<const T> v, const Op& op, const char* function) {
  const device dev = algorithm_device(function, "src", v.memory());
  if (v.empty()) throw argument_error(function, "src", "at least one element", "none");
  if (on_gpu(dev)) check_gpu_types<T>(function, dev);
  const reduce_tuning t = tuning(reduce_hook{}, dev, tuning_dtype<T>(), tuning_size(v.size()));
  if constexpr (precompiled_sort_type_v<T>)
    return reduce_indexed_entry(dev, t, v, op);  // findmin, findmax, extrema
  else if (on_gpu(dev))
    return gpu_reduce_indexed<R, Load>(dev, t, v, op);
  else
    return cpu_reduce_indexed<R, Load>(t, v, op);
}

// The same along dims: the elements with their indices (an array of R the size of v), reduced
// along the dimensions as ak::reduce does.
template <class R, template <class> class Load, class T, class Op>
array<R> reduce_indexed_along_front(view<const T> v, const Op& op, const dims& d,
                                    const char* function) {
  const device dev = algorithm_device(function, "src", v.memory());
  const along_plan p = plan_along(v.shape(), d, function);
  if (p.per_output == 0 && p.out_shape.size() != 0)
    throw argument_error(function, "src", "at least one element along the dims reduced",
                         "shape " + v.shape().to_string());
  if (on_gpu(dev)) check_gpu_types<T>(function, dev);
  const reduce_tuning t = tuning(reduce_hook{}, dev, tuning_dtype<T>(), tuning_size(v.size()));
  array<R> out(p.out_shape, dev.memory());
  if (out.empty()) return out;
  array<R> indexed(v.shape(), dev.memory());
  if (on_gpu(dev))
    gpu_fill_indexed<R, Load>(dev, t, v, indexed.data());
  else
    cpu_fill_indexed<R, Load>(t, v, indexed.data());
  reduce_options<R> o;
  o.neutral = R{};
  mapreduce_along_run(dev, t, view<const R>(indexed.view()), identity{}, op, p, o, out, function);
  return out;
}

}  // namespace detail

// op over every element, combined once with init: op(init, x0 op x1 op ...). Init, the result
// type, is the element type unless reduce_options<Init> says otherwise.
template <class Src, class Op, class Init = detail::element_t<const Src>>
Init reduce(const Src& src, Op op, const reduce_options<Init>& o = {}) {
  return detail::mapreduce_front(detail::as_const_view(src), identity{}, op, o, "ak::reduce");
}

// op along the dimensions `along`; the result has src's rank with those extents 1.
template <class Src, class Op, class Init = detail::element_t<const Src>>
array<Init> reduce(const Src& src, Op op, const dims& along, const reduce_options<Init>& o = {}) {
  return detail::mapreduce_along_front(detail::as_const_view(src), identity{}, op, along, o,
                                       "ak::reduce");
}

// op over f(x) of every element.
template <
    class Src, class F, class Op,
    class Init = std::remove_cvref_t<std::invoke_result_t<F&, const detail::element_t<const Src>&>>>
Init mapreduce(const Src& src, F f, Op op, const reduce_options<Init>& o = {}) {
  return detail::mapreduce_front(detail::as_const_view(src), f, op, o, "ak::mapreduce");
}

template <
    class Src, class F, class Op,
    class Init = std::remove_cvref_t<std::invoke_result_t<F&, const detail::element_t<const Src>&>>>
array<Init> mapreduce(const Src& src, F f, Op op, const dims& along,
                      const reduce_options<Init>& o = {}) {
  return detail::mapreduce_along_front(detail::as_const_view(src), f, op, along, o,
                                       "ak::mapreduce");
}

template <class Src, class Init = detail::element_t<const Src>>
Init sum(const Src& src, const reduce_options<Init>& o = {}) {
  return reduce(src, plus{}, o);
}
template <class Src, class Init = detail::element_t<const Src>>
array<Init> sum(const Src& src, const dims& along, const reduce_options<Init>& o = {}) {
  return reduce(src, plus{}, along, o);
}
template <class Src, class Init = detail::element_t<const Src>>
Init prod(const Src& src, const reduce_options<Init>& o = {}) {
  return reduce(src, multiplies{}, o);
}
template <class Src, class Init = detail::element_t<const Src>>
array<Init> prod(const Src& src, const dims& along, const reduce_options<Init>& o = {}) {
  return reduce(src, multiplies{}, along, o);
}
// minimum and maximum propagate NaN; of no elements they are +Inf / -Inf (or the type's max /
// lowest), unless init says otherwise.
template <class Src, class Init = detail::element_t<const Src>>
Init minimum(const Src& src, const reduce_options<Init>& o = {}) {
  return reduce(src, minimum_op{}, o);
}
template <class Src, class Init = detail::element_t<const Src>>
array<Init> minimum(const Src& src, const dims& along, const reduce_options<Init>& o = {}) {
  return reduce(src, minimum_op{}, along, o);
}
template <class Src, class Init = detail::element_t<const Src>>
Init maximum(const Src& src, const reduce_options<Init>& o = {}) {
  return reduce(src, maximum_op{}, o);
}
template <class Src, class Init = detail::element_t<const Src>>
array<Init> maximum(const Src& src, const dims& along, const reduce_options<Init>& o = {}) {
  return reduce(src, maximum_op{}, along, o);
}

// findmin, findmax: the smallest (largest) element in ak's order and the first index where it
// occurs (int64, row-major, 0-based), as `.value` and `.index`. NaN propagates as in minimum and
// maximum: the first NaN is both the smallest and the largest. -0.0 is smaller than +0.0. An empty
// array is an argument_error. Along dims, an array of them with the reductions' shape; each
// index is the element's row-major index in src (the elements and their indices are made into an
// array of src's size first).
template <class T>
using found = detail::found_element<T>;
// extrema: findmin and findmax at once, as `.min` and `.max`.
template <class T>
using extrema_result = detail::extrema_element<T>;

template <class Src>
auto findmin(const Src& src) {
  using T = detail::element_t<const Src>;
  return detail::reduce_indexed_front<found<T>, detail::load_found>(
      detail::as_const_view(src), detail::keep_found<false>{}, "ak::findmin");
}
template <class Src>
auto findmin(const Src& src, const dims& along) {
  using T = detail::element_t<const Src>;
  return detail::reduce_indexed_along_front<found<T>, detail::load_found>(
      detail::as_const_view(src), detail::keep_found<false>{}, along, "ak::findmin");
}
template <class Src>
auto findmax(const Src& src) {
  using T = detail::element_t<const Src>;
  return detail::reduce_indexed_front<found<T>, detail::load_found>(
      detail::as_const_view(src), detail::keep_found<true>{}, "ak::findmax");
}
template <class Src>
auto findmax(const Src& src, const dims& along) {
  using T = detail::element_t<const Src>;
  return detail::reduce_indexed_along_front<found<T>, detail::load_found>(
      detail::as_const_view(src), detail::keep_found<true>{}, along, "ak::findmax");
}
template <class Src>
auto extrema(const Src& src) {
  using T = detail::element_t<const Src>;
  return detail::reduce_indexed_front<extrema_result<T>, detail::load_extrema>(
      detail::as_const_view(src), detail::keep_extrema{}, "ak::extrema");
}
template <class Src>
auto extrema(const Src& src, const dims& along) {
  using T = detail::element_t<const Src>;
  return detail::reduce_indexed_along_front<extrema_result<T>, detail::load_extrema>(
      detail::as_const_view(src), detail::keep_extrema{}, along, "ak::extrema");
}

// How many elements satisfy pred (count(src): how many are true / nonzero).
template <class Src, class Pred = detail::truthy>
std::int64_t count(const Src& src, Pred pred = {}) {
  const auto v = detail::as_const_view(src);
  return detail::count_on(detail::algorithm_device("ak::count", "src", v.memory()), v, pred,
                          "ak::count");
}

// Whether pred holds for any element; stops early once one is found.
template <class Src, class Pred = detail::truthy>
bool any(const Src& src, Pred pred = {}, const loop_options& o = {}) {
  return detail::find_any_front<true>(detail::as_const_view(src), pred, o, "ak::any");
}

// Whether pred holds for every element (true for none); stops early at the first that fails.
template <class Src, class Pred = detail::truthy>
bool all(const Src& src, Pred pred = {}, const loop_options& o = {}) {
  return !detail::find_any_front<false>(detail::as_const_view(src), pred, o, "ak::all");
}

}  // namespace ak
