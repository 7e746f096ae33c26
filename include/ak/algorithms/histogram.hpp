// histogram: how many elements fall in each bin, as int64 counts (CUB's
// DeviceHistogram::HistogramEven and HistogramRange, oneDPL's histogram).
//
//   auto h = ak::histogram(v, ak::even_bins<float>{.lower = 0, .upper = 1, .count = 256});
//   auto g = ak::histogram(v, edges);   // bin j: [edges[j], edges[j + 1]), the last one closed
//
// Even bins: `count` equal bins over [lower, upper], the last one closed at `upper`; the bin of
// x is floor((x - lower) * (count / (upper - lower))) computed in double for floating-point
// types (of x, lower and upper times a power of two where upper - lower or count over it would
// overflow double: detail::even_bin), and exactly
// floor((x - lower) * count / (upper - lower)) for integers, compared numerically (-0.0 and +0.0
// are the same value); lower and upper must be finite. With edges (a 1-d array of at least two,
// ascending in ak's order, no NaN): the bin of x is the j with edges[j] <= x < edges[j + 1] in
// ak's order, x equal to the last edge in the last bin. Values outside the bins and NaN are not
// counted. Deterministic: counts are exact.
//
// This is the family's front: it checks the bins (before anything is written), finds the device
// and looks the `select` tuning up once, then runs the cpu half (histogram_cpu.hpp) or the GPU
// half (histogram_gpu.hpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/algorithms/detail/histogram_common.hpp"
#include "ak/algorithms/elementwise.hpp"
#include "ak/algorithms/histogram_cpu.hpp"
#include "ak/algorithms/histogram_gpu.hpp"
#include "ak/algorithms/precompiled.hpp"
#include "ak/algorithms/select.hpp"

namespace ak {

// `count` equal bins over [lower, upper], the last one closed.
template <class T>
struct even_bins {
  T lower{};
  T upper{};
  std::int64_t count = 0;
};

namespace detail {

template <class T, class Bin>
array<std::int64_t> histogram_front(const device& dev, view<const T> v, const Bin& bin,
                                    std::int64_t bins, const select_options& o) {
  if (on_gpu(dev)) check_gpu_types<T>("ak::histogram", dev);
  const select_tuning t = tuning(select_hook{}, dev, tuning_dtype<T>(), o.tuning, {v.size()});
  if constexpr (precompiled_type_v<T>)
    return histogram_entry(dev, t, v, bin, bins);  // even bins or edges
  else if (on_gpu(dev))
    return gpu_histogram(dev, t, v, bin, bins);
  else
    return cpu_histogram(t, v, bin, bins);
}

}  // namespace detail

template <class Src, class T = detail::element_t<const Src>>
array<std::int64_t> histogram(const Src& src, const even_bins<T>& bins,
                              const select_options& o = {}) {
  constexpr const char* function = "ak::histogram";
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>,
                "ak::histogram with even bins takes numbers (integers, floating point)");
  const view<const T> v = detail::as_const_view(src);
  const device dev = detail::algorithm_device(function, "src", v.memory());
  if (bins.count < 1)
    throw argument_error(function, "bins.count", "at least 1", std::to_string(bins.count));
  if constexpr (std::is_floating_point_v<T>)
    if (!std::isfinite(bins.lower) || !std::isfinite(bins.upper))
      throw argument_error(
          function, "bins", "finite lower and upper",
          "lower " + std::to_string(bins.lower) + ", upper " + std::to_string(bins.upper));
  if (!(bins.lower < bins.upper))
    throw argument_error(
        function, "bins", "lower < upper",
        "lower " + std::to_string(bins.lower) + ", upper " + std::to_string(bins.upper));
  return detail::histogram_front(
      dev, v, detail::even_bin<T>::make(bins.lower, bins.upper, bins.count), bins.count, o);
}

// Bins between sorted edges (an array of at least two, on src's device).
template <class Src, class Edges>
requires detail::array_like<Edges> array<std::int64_t> histogram(const Src& src, const Edges& edges,
                                                                 const select_options& o = {}) {
  constexpr const char* function = "ak::histogram";
  using T = detail::element_t<const Src>;
  const view<const T> v = detail::as_const_view(src);
  const view<const T> e(detail::as_const_view(edges));
  const device dev = detail::algorithm_device(function, "src", v.memory());
  detail::check_same_device(function, "edges", dev, e.memory());
  if (e.rank() != 1) detail::throw_rank(function, "edges", "a 1-d array", e.rank());
  if (e.size() < 2)
    throw argument_error(function, "edges", "at least 2 edges", std::to_string(e.size()));
  // The edges on the host (checked there; few, so copied one by one where strided), then dense on
  // src's device.
  std::vector<T> host(static_cast<std::size_t>(e.size()));
  if (e.is_contiguous())
    e.memory().copy_to_host(host.data(), e.data(), host.size() * sizeof(T));
  else
    for (std::size_t i = 0; i < host.size(); ++i)
      e.memory().copy_to_host(&host[i], e.data() + static_cast<std::int64_t>(i) * e.strides()[0],
                              sizeof(T));
  for (std::size_t i = 0; i < host.size(); ++i) {
    bool bad = false;
    if constexpr (std::is_floating_point_v<T>) bad = host[i] != host[i];
    if (bad || (i > 0 && isless{}(host[i], host[i - 1])))
      throw argument_error(function, "edges", "ascending in ak's order, without NaN",
                           "a NaN or a descent at edge " + std::to_string(i));
  }
  const array<T> dense(host, dev.memory());
  return detail::histogram_front(dev, v, detail::edge_bin<T>{dense.data(), e.size()}, e.size() - 1,
                                 o);
}

}  // namespace ak
