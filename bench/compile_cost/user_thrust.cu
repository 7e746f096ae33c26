// The same translation unit as user_ak.cpp with Thrust (on CUB) under nvcc, on the GPU.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/logical.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <cstdio>

struct above {
  __host__ __device__ bool operator()(float x) const { return x > 499; }
};

int main() {
  thrust::host_vector<float> h(1 << 20);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<float>((i * 7919) % 1000) - 500;
  thrust::device_vector<float> v = h;
  const float total = thrust::reduce(v.begin(), v.end(), 0.0f);
  thrust::device_vector<float> prefix(v.size());
  thrust::inclusive_scan(v.begin(), v.end(), prefix.begin());
  thrust::sort(v.begin(), v.end());
  const bool has_big = thrust::any_of(v.begin(), v.end(), above{});
  std::printf("%g %g %g %d\n", total, static_cast<float>(prefix.back()),
              static_cast<float>(v.front()), has_big);
}
