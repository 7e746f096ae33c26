// A user's translation unit on the precompiled path: every call that DESIGN.md section 3 names,
// on floats (and a bool array for any) with the standard operators, the segmented sorts, and the
// selection family's calls that libak precompiles (precompiled.hpp). precompiled_check.sh proves
// that it instantiates no algorithm or kernel template. With AK_CUSTOM_ORDER it also sorts with a
// lambda, which must instantiate them (the control).
#include <ak/ak.hpp>
#include <vector>

float use_precompiled(std::vector<float>& v) {
  float s = ak::sum(v) + ak::maximum(v) + ak::reduce(v, ak::multiplies{});
  ak::array<float> along = ak::sum(ak::view<const float>(v), ak::dims{0});
  ak::array<float> c = ak::cumsum(v);
  ak::array<float> sorted = ak::sort(v);
  ak::sort_inplace(v);
  ak::array<std::int64_t> p = ak::sortperm(v, {.rev = true});
  ak::array<std::int64_t> f = ak::searchsortedfirst(v, v);
  // The segmented sorts: along a dimension, and over offsets.
  const ak::view<float> matrix = ak::view<float>(v).slice(0, 0, 6).reshape(ak::shape{2, 3});
  ak::array<float> rows = ak::sort(matrix, {.dim = 1});
  ak::sort_inplace(matrix, {.dim = 0});
  ak::array<std::int64_t> row_perm = ak::sortperm(matrix, {.dim = 1});
  const std::vector<std::int64_t> offsets{0, 2, static_cast<std::int64_t>(v.size())};
  ak::array<float> segments = ak::sort(v, ak::offsets{offsets});
  ak::sort_inplace(v, ak::offsets{offsets}, {.rev = true});
  ak::array<std::int64_t> segment_perm = ak::sortperm(v, ak::offsets{offsets});
  const bool some = ak::any(v);
  const bool every = ak::all(v);
  const std::int64_t n = ak::count(v);
  // The selection family with the default predicate and equality, findmin and friends, histograms.
  const ak::array<std::int64_t> nonzero = ak::findall(v);
  const ak::array<float> distinct = ak::unique(v);
  const ak::array<bool> flags(ak::shape{static_cast<std::int64_t>(v.size())}, true);
  const ak::array<float> flagged = ak::copy_if(v, flags);
  const std::int64_t runs = ak::unique_count(v);
  const auto [values, lengths] = ak::run_length_encode(v);
  const ak::found<float> low = ak::findmin(v);
  const ak::found<float> high = ak::findmax(v);
  const ak::extrema_result<float> both = ak::extrema(v);
  const ak::array<std::int64_t> even =
      ak::histogram(v, ak::even_bins<float>{.lower = 0, .upper = 1, .count = 16});
  const std::vector<float> edges{0.0f, 0.5f, 1.0f};
  const ak::array<std::int64_t> by_edges = ak::histogram(v, edges);
  const std::int64_t selected = nonzero.size() + distinct.size() + flagged.size() + runs +
                                values.size() + lengths.size() + low.index + high.index +
                                both.min.index + even.size() + by_edges.size();
#ifdef AK_CUSTOM_ORDER
  ak::sort_inplace(v, ak::sort_options{.lt = [](float a, float b) { return a > b; }});
#endif
  return s + along.data()[0] + c.data()[0] + sorted.data()[0] + rows.data()[0] +
         segments.data()[0] + static_cast<float>(row_perm.data()[0] + segment_perm.data()[0]) +
         static_cast<float>(p.data()[0] + f.data()[0] + n + selected) + (some ? 1.0f : 0.0f) +
         (every ? 1.0f : 0.0f);
}
