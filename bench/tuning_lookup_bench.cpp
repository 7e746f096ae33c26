// The cost of one tuning lookup (target: under 50 ns, small next to any launch).
//   build/bin/ak_bench_tuning --benchmark_repetitions=5 --benchmark_report_aggregates_only
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "ak/runtime/algorithm_values.hpp"
#include "ak/runtime/tuning.hpp"

namespace {

void BM_tuning_lookup(benchmark::State& state) {
  ak::device dev("cpu");
  for (auto _ : state) {
    auto t = ak::tuning(ak::reduce_hook{}, dev, ak::dtype::float32);
    benchmark::DoNotOptimize(t);
  }
}
BENCHMARK(BM_tuning_lookup);

void BM_tuning_lookup_alternating_dtypes(benchmark::State& state) {
  ak::device dev("cpu");
  std::size_t i = 0;
  for (auto _ : state) {
    auto t = ak::tuning(ak::sort_hook{}, dev, ak::all_dtypes[i++ % ak::dtype_count]);
    benchmark::DoNotOptimize(t);
  }
}
BENCHMARK(BM_tuning_lookup_alternating_dtypes);

void BM_tuning_lookup_with_call_options(benchmark::State& state) {
  ak::device dev("cpu");
  for (auto _ : state) {
    auto t = ak::tuning(ak::reduce_hook{}, dev, ak::dtype::float32, {.block_size = 512});
    benchmark::DoNotOptimize(t);
  }
}
BENCHMARK(BM_tuning_lookup_with_call_options);

void BM_tuning_lookup_under_scoped_override(benchmark::State& state) {
  ak::device dev("cpu");
  ak::scoped_tuning s(ak::reduce_hook{}, {.cpu_grain = 1024});
  for (auto _ : state) {
    auto t = ak::tuning(ak::reduce_hook{}, dev, ak::dtype::float32);
    benchmark::DoNotOptimize(t);
  }
}
BENCHMARK(BM_tuning_lookup_under_scoped_override);

void BM_resolve_sort_alg(benchmark::State& state) {
  ak::device dev("cpu");
  for (auto _ : state) {
    auto r = ak::resolve(ak::sort_alg{ak::auto_alg{}}, dev, ak::dtype::uint32, {});
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_resolve_sort_alg);

// A lookup with the call's size where entries measured at sizes are in force (an inline
// AK_TUNING with three sizes), cycling through sizes of three power-of-two classes.
void BM_tuning_lookup_by_size(benchmark::State& state) {
  ::setenv("AK_TUNING",
           R"({"cpu": {"reduce": {"float32": {"by_size": {"1000": {"cpu_grain": 1024},
              "1000000": {"cpu_grain": 65536}, "100000000": {"cpu_grain": 1048576}}}}}})",
           1);
  ak::reload_tuning_files();
  ak::device dev("cpu");
  const std::int64_t sizes[] = {900, 1'200'000, 90'000'000};
  std::size_t i = 0;
  for (auto _ : state) {
    auto t = ak::tuning(ak::reduce_hook{}, dev, ak::dtype::float32, sizes[i++ % 3]);
    benchmark::DoNotOptimize(t);
  }
  ::unsetenv("AK_TUNING");
  ak::reload_tuning_files();
}
BENCHMARK(BM_tuning_lookup_by_size);

// The uncached path with provenance, as `ak info` uses it: not for hot paths.
void BM_explain_tuning(benchmark::State& state) {
  ak::device dev("cpu");
  for (auto _ : state) {
    auto e = ak::explain_tuning(ak::reduce_hook{}, dev, ak::dtype::float32);
    benchmark::DoNotOptimize(e);
  }
}
BENCHMARK(BM_explain_tuning);

}  // namespace

BENCHMARK_MAIN();
