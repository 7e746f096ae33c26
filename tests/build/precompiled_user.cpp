// A user's translation unit on the precompiled path: it sums, scans, sorts and searches floats
// with the standard operators. precompiled_check.sh proves it instantiates no algorithm
// template. With AK_CUSTOM_ORDER it also sorts with a lambda, which must instantiate one.
#include <ak/ak.hpp>
#include <vector>

float use_precompiled(std::vector<float>& v) {
  float s = ak::sum(v) + ak::maximum(v) + ak::reduce(v, ak::multiplies{});
  ak::array<float> along = ak::sum(ak::view<const float>(v), ak::dims{0});
  ak::array<float> c = ak::cumsum(v);
  ak::sort_inplace(v);
  ak::array<std::int64_t> p = ak::sortperm(v, {.rev = true});
  ak::array<std::int64_t> f = ak::searchsortedfirst(v, v);
#ifdef AK_CUSTOM_ORDER
  ak::sort_inplace(v, ak::sort_options{.lt = [](float a, float b) { return a > b; }});
#endif
  return s + along.data()[0] + c.data()[0] + static_cast<float>(p.data()[0] + f.data()[0]);
}
