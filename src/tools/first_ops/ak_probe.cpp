// The ak side of `ak first-ops`: in a fresh process, on one device (argv[1], default "cpu"), the
// first call of each of the eight operations in order, then each again warm; then a check of every
// result against a plain serial loop, so that no wrong result is ever timed. Prints the device and
// one `first_op` line per operation (first_ops_protocol.hpp); exit status 1 on a wrong result, 2
// on an ak error. Compiled by g++ for cpu and sim (ak_first_ops_probe) and, through
// ak_probe_cuda.cu, by nvcc for cuda devices (ak_first_ops_probe_cuda), where each operation's time
// includes the wait for its kernels.
#include <cstdio>
#include <functional>
#include <string>

#include "ak/ak.hpp"
#include "ak/kernel/config.hpp"
#include "first_ops_protocol.hpp"
#ifdef __CUDACC__
#include "ak/backends/cuda/launch.cuh"
#endif

namespace fo = ak::first_ops;

namespace {

// The predicate of `any` (none of the inputs is above 2): a functor, so that nvcc compiles it for
// the device without --extended-lambda.
struct above_two {
  AK_KERNEL_FN bool operator()(float v) const { return v > 2.0f; }
};

// Waits for the device's queued work: launches on cuda return before their kernels finish.
void finish(const ak::device& dev) {
#ifdef __CUDACC__
  if (dev.backend() == "cuda") ak::cuda::wait(dev);
#else
  (void)dev;
#endif
}

int run(const std::string& device_name) {
  using fo::cols, fo::e, fo::n, fo::rows;
  const ak::device dev(device_name);
  const auto& mem = dev.memory();
  const fo::inputs in;
  const ak::array<float> x(in.x, ak::shape{n}, mem), y(in.y, ak::shape{n}, mem);
  const ak::array<float> m(in.m, ak::shape{rows, cols}, mem);
  const ak::array<float> a4(in.a4, ak::shape{e, e, e, e}, mem),
      b4(in.b4, ak::shape{e, 1, e, 1}, mem);
  const ak::array<std::int64_t> idx(in.idx, ak::shape{n}, mem);

  ak::array<float> broadcast, gather, sum_dims, accumulate, sort, broadcast_4d;
  fo::results r;
  const std::array<std::function<void()>, 8> ops = {
      [&] { broadcast = ak::broadcast(ak::plus{}, x, y), finish(dev); },
      [&] { gather = ak::take(x, idx), finish(dev); },
      [&] { r.sum = ak::sum(x); },
      [&] { sum_dims = ak::sum(m, ak::dims{1}), finish(dev); },
      [&] { accumulate = ak::accumulate(x, ak::plus{}), finish(dev); },
      [&] { sort = ak::sort(x), finish(dev); },
      [&] { r.any = ak::any(x, above_two{}); },
      [&] { broadcast_4d = ak::broadcast(ak::plus{}, a4, b4), finish(dev); },
  };
  const fo::op_times t = fo::time_ops(ops);

  r.broadcast = broadcast.to_vector();
  r.gather = gather.to_vector();
  r.sum_dims = sum_dims.to_vector();
  r.accumulate = accumulate.to_vector();
  r.sort = sort.to_vector();
  r.broadcast_4d = broadcast_4d.to_vector();
  if (fo::count_wrong_results("ak_first_ops_probe", in, r)) return 1;
  fo::print_times(dev.name(), t);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc > 1 ? argv[1] : "cpu");
  } catch (const ak::error& err) {
    std::fprintf(stderr, "ak_first_ops_probe: %s\n", err.what());
    return 2;
  }
}
