// The CUDA baseline of `ak first-ops` (ak_first_ops_thrust): the same eight operations on the
// same inputs as ak_probe.cpp, written with Thrust (on CUB) on one device (argv[1], "cuda:N"), each
// followed by a wait for the device, as the ak probe waits. The CUDA context is created with the
// first device allocation, before the operations, as ak's is when its inputs are put on the device;
// both count in the total wall time. Same output and exit status as the other probes.
#include <cuda_runtime.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/gather.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/logical.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "first_ops_protocol.hpp"

namespace fo = ak::first_ops;

namespace {

struct above_two {
  __host__ __device__ bool operator()(float v) const { return v > 2.0f; }
};
struct row_of {
  __host__ __device__ std::int64_t operator()(std::int64_t i) const { return i / fo::cols; }
};
struct gather_at {
  const float* x;
  __host__ __device__ float operator()(std::int64_t i) const { return x[i]; }
};
struct broadcast_4d_at {
  const float* a;
  const float* b;
  __host__ __device__ float operator()(std::int64_t i) const {
    constexpr std::int64_t e = fo::e;
    return a[i] + b[i / (e * e * e) * e + (i / e) % e];
  }
};

void finish() {
  if (cudaError_t err = cudaDeviceSynchronize(); err != cudaSuccess) {
    std::fprintf(stderr, "ak_first_ops_thrust: %s\n", cudaGetErrorString(err));
    std::exit(2);
  }
}

std::vector<float> to_host(const thrust::device_vector<float>& v) {
  std::vector<float> h(v.size());
  thrust::copy(v.begin(), v.end(), h.begin());
  return h;
}

// The device: "cuda" (device 0) or "cuda:N".
int run(const std::string& device_name) {
  using fo::e, fo::n, fo::rows;
  const int ordinal = device_name.rfind("cuda:", 0) == 0 ? std::stoi(device_name.substr(5)) : 0;
  if (cudaError_t err = cudaSetDevice(ordinal); err != cudaSuccess) {
    std::fprintf(stderr, "ak_first_ops_thrust: %s: %s\n", device_name.c_str(),
                 cudaGetErrorString(err));
    return 2;
  }
  const fo::inputs in;
  const thrust::device_vector<float> x(in.x.begin(), in.x.end()), y(in.y.begin(), in.y.end());
  const thrust::device_vector<float> m(in.m.begin(), in.m.end());
  const thrust::device_vector<float> a4(in.a4.begin(), in.a4.end()), b4(in.b4.begin(), in.b4.end());
  const thrust::device_vector<std::int64_t> idx(in.idx.begin(), in.idx.end());
  finish();

  thrust::device_vector<float> broadcast, gather, sum_dims, accumulate, sort, broadcast_4d;
  fo::results r;
  const auto count = thrust::make_counting_iterator<std::int64_t>(0);
  const std::array<std::function<void()>, 8> ops = {
      [&] {
        broadcast = thrust::device_vector<float>(n);
        thrust::transform(x.begin(), x.end(), y.begin(), broadcast.begin(), thrust::plus<float>());
        finish();
      },
      [&] {
        gather = thrust::device_vector<float>(n);
        thrust::transform(idx.begin(), idx.end(), gather.begin(),
                          gather_at{thrust::raw_pointer_cast(x.data())});
        finish();
      },
      [&] { r.sum = thrust::reduce(x.begin(), x.end(), 0.0f); },
      [&] {
        sum_dims = thrust::device_vector<float>(rows);
        thrust::reduce_by_key(thrust::make_transform_iterator(count, row_of{}),
                              thrust::make_transform_iterator(count + rows * fo::cols, row_of{}),
                              m.begin(), thrust::make_discard_iterator(), sum_dims.begin());
        finish();
      },
      [&] {
        accumulate = thrust::device_vector<float>(n);
        thrust::inclusive_scan(x.begin(), x.end(), accumulate.begin());
        finish();
      },
      [&] {
        sort = x;
        thrust::sort(sort.begin(), sort.end());
        finish();
      },
      [&] { r.any = thrust::any_of(x.begin(), x.end(), above_two{}); },
      [&] {
        broadcast_4d = thrust::device_vector<float>(e * e * e * e);
        thrust::transform(count, count + e * e * e * e, broadcast_4d.begin(),
                          broadcast_4d_at{thrust::raw_pointer_cast(a4.data()),
                                          thrust::raw_pointer_cast(b4.data())});
        finish();
      },
  };
  const fo::op_times t = fo::time_ops(ops);

  r.broadcast = to_host(broadcast);
  r.gather = to_host(gather);
  r.sum_dims = to_host(sum_dims);
  r.accumulate = to_host(accumulate);
  r.sort = to_host(sort);
  r.broadcast_4d = to_host(broadcast_4d);
  if (fo::count_wrong_results("ak_first_ops_thrust", in, r)) return 1;
  int dev = 0;
  cudaGetDevice(&dev);
  fo::print_times("cuda:" + std::to_string(dev), t);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc > 1 ? argv[1] : "cuda");
  } catch (const std::exception& err) {  // Thrust's errors: no device, out of memory
    std::fprintf(stderr, "ak_first_ops_thrust: %s\n", err.what());
    return 2;
  }
}
