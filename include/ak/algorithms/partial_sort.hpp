// partialsort and partialsortperm: the k smallest elements of a 1-d array in sorted order, or
// their indices (Julia's partialsort/partialsortperm with a range 1:k; std::partial_sort_copy;
// CUB's DeviceTopK).
//
//   auto top = ak::partialsort(v, 100, {.rev = true});   // the 100 largest, largest first
//   auto idx = ak::partialsortperm(v, 10);               // int64 indices of the 10 smallest
//
// The order is sort's (`.by`, `.lt`, `.rev`; ak's float order by default, NaN last). Results are
// those of the full stable sort cut to k: partialsort(v, k) is the first k of sort(v), and
// partialsortperm(v, k) the first k of sortperm(v), so equal elements come in index order. k may
// be 0 to src.size(); anything else is an argument_error.
//
// How: where k is a small part of n, a threshold is taken from a sorted sample (its element at a
// rank a little above k's share of the sample), the elements not after it are selected
// (copy_if; findall for the indices: one read of the data), and only those are sorted. Should
// fewer than k be selected (a sample that misled), the rank is raised, and at the top of the
// sample the whole array is sorted. On GPU-style devices, numbers in ak's order take the
// threshold from radix selection instead (partial_sort_gpu.hpp: a histogram of the top digits,
// digit by digit, until the k-th element's bucket and those before it hold at most 2k + 4096
// elements or its key is found whole), which is never short. Where k is a large part of n, the
// whole array is sorted. The steps are ak's own calls, so every backend runs them; the result is
// the same on all of them.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/elementwise.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/algorithms/partial_sort_gpu.hpp"
#include "ak/algorithms/select.hpp"
#include "ak/algorithms/sort.hpp"

namespace ak {

namespace detail {

// not_after's `plain` for a threshold t in the order of `o`.
template <class T, class By, class Lt>
int plain_threshold(const T& t, const sort_options<By, Lt>& o) {
  if constexpr (std::is_same_v<By, identity> && std::is_same_v<Lt, isless> &&
                std::is_arithmetic_v<T>) {
    if constexpr (std::is_floating_point_v<T>)
      if (t != t || t == 0) return 0;
    return o.rev ? -1 : 1;
  } else {
    return 0;
  }
}

// The first k elements of a 1-d array, as a new array on its device.
template <class T>
array<T> first_of(const array<T>& a, std::int64_t k) {
  return copy(a.view().slice(0, 0, k));
}

// The selection that holds the k first elements in the order: select(pred) for a threshold pred
// that lets through at least k elements, or nothing (an empty optional) where the whole array
// is to be sorted instead. Select is copy_if for partialsort, findall for partialsortperm.
template <class T, class By, class Lt, class Select>
auto partial_selection(view<const T> v, std::int64_t k, const sort_options<By, Lt>& o,
                       const Select& select, const char* function)
    -> std::optional<decltype(select(std::declval<const not_after<T, sort_less<By, Lt>>&>()))> {
  const std::int64_t n = v.size();
  // Small inputs, and k a large part of n: the whole sort costs little more.
  if (n < (std::int64_t{1} << 14) || k > n / 8) return std::nullopt;
  const sort_less<By, Lt> less{o.by, o.lt, o.rev};
  auto not_after_t = [&](const T& t) {
    return select(not_after<T, sort_less<By, Lt>>{t, less, plain_threshold(t, o)});
  };
  // Numbers in ak's order on GPU-style devices: the threshold by radix selection, never short.
  if constexpr (gpu_radix_order_v<T, By, Lt>) {
    if (k > 0 && on_gpu_memory(v.memory())) {
      const device dev = algorithm_device(function, "src", v.memory());
      check_gpu_types<T>(function, dev);
      return not_after_t(gpu_partial_threshold(dev, v, k, o.rev, 2 * k + 4096));
    }
  }
  // An evenly spread sample (one element from each of s strides, at a hashed offset), sorted on
  // the host.
  const std::int64_t s = 4096, stride = n / s;
  std::vector<std::int64_t> at(static_cast<std::size_t>(s));
  for (std::int64_t j = 0; j < s; ++j)
    at[static_cast<std::size_t>(j)] =
        j * stride + static_cast<std::int64_t>(
                         (static_cast<std::uint64_t>(j + 1) * 0x9e3779b97f4a7c15ULL >> 17) %
                         static_cast<std::uint64_t>(stride));
  const array<std::int64_t> where(at, v.memory());
  std::vector<T> sample = take(v, where).to_vector();
  std::sort(sample.begin(), sample.end(), [&](const T& a, const T& b) { return less(a, b); });
  // k's share of the sample, with room for the sample's error (a few standard deviations).
  const double share = static_cast<double>(k) * static_cast<double>(s) / static_cast<double>(n);
  auto rank = static_cast<std::int64_t>(std::ceil(share + 4 * std::sqrt(share) + 8));
  while (rank < s - 1) {
    auto selected = not_after_t(sample[static_cast<std::size_t>(rank)]);
    if (selected.size() >= k) return selected;
    rank = std::min(s - 1, 2 * rank + 1);
  }
  return std::nullopt;
}

template <class T, class By, class Lt>
view<const T> partial_sort_input(view<const T> v, std::int64_t k, const sort_options<By, Lt>& o,
                                 const char* function) {
  if (v.rank() != 1) throw_rank(function, "src", "a 1-d array", v.rank());
  if (o.dim) checked_dim(function, "dim", *o.dim, 1);
  if (k < 0 || k > v.size())
    throw argument_error(function, "k", "0 <= k <= " + std::to_string(v.size()) + " (src's length)",
                         std::to_string(k));
  return v;
}

}  // namespace detail

// The k smallest elements of a 1-d src in the order of `o` (the largest with .rev), sorted, as a
// new 1-d array on src's device: the first k of ak::sort(src, o).
template <class Src, class By = identity, class Lt = isless>
auto partialsort(const Src& src, std::int64_t k, const sort_options<By, Lt>& o = {}) {
  using T = detail::element_t<const Src>;
  const view<const T> v =
      detail::partial_sort_input(detail::as_const_view(src), k, o, "ak::partialsort");
  auto selected = detail::partial_selection(
      v, k, o, [&](const auto& pred) { return copy_if(v, pred); }, "ak::partialsort");
  return detail::first_of(selected ? sort(*selected, o) : sort(v, o), k);
}

// The indices (int64, 0-based) of the k smallest elements of a 1-d src in the order of `o`, in
// that order, equal elements by index: the first k of ak::sortperm(src, o).
template <class Src, class By = identity, class Lt = isless>
array<std::int64_t> partialsortperm(const Src& src, std::int64_t k,
                                    const sort_options<By, Lt>& o = {}) {
  using T = detail::element_t<const Src>;
  const view<const T> v =
      detail::partial_sort_input(detail::as_const_view(src), k, o, "ak::partialsortperm");
  auto selected = detail::partial_selection(
      v, k, o, [&](const auto& pred) { return findall(v, pred); }, "ak::partialsortperm");
  if (!selected) return detail::first_of(sortperm(v, o), k);
  // The selected indices ascend, and sortperm is stable: equal elements stay in index order.
  const array<std::int64_t> order = sortperm(take(v, *selected), o);
  return take(*selected, detail::first_of(order, k));
}

}  // namespace ak
