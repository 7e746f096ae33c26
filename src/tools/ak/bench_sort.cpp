// `ak bench`'s sort: numbers in the default order, in place, against every sorting peer.
// (sort_custom and sort_struct are in bench_sort_custom.cpp: each translation unit of sorts
// takes minutes to compile, so they are split for parallel builds.)
#include "bench_sort_peers.hpp"

namespace ak::tool::bench {

void add_sort_ops(std::vector<op_spec>& ops) {
  ops.push_back({"sort",
                 "sort",
                 {dtype::uint32, dtype::int64, dtype::float64},
                 nullptr,
                 sort_default_n,
                 [](dtype t, std::int64_t n, key_dist d) {
                   return visit_numeric(t, [&]<class T>() {
                     return sort_values<T>("sort", n, std::less<T>{}, true, d);
                   });
                 }});
}

}  // namespace ak::tool::bench
