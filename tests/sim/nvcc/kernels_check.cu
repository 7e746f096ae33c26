// Compiles kernels written in ak's kernel language as CUDA device code with the cuda backend's
// context (compile only; CI runs `nvcc -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -c` on this
// file when nvcc is present). Kernels that exercise every primitive of the language, and the
// library's GPU kernels as they come (include/ak/gpu).
#include "ak/backends/cuda/launch.cuh"

namespace ak_nvcc_check {
// Instantiates the cuda backend's entry kernel for `Kernel`, as a launch would.
template <class Kernel>
void instantiate() {
  auto* f = &ak::cuda::detail::kernel_entry<Kernel>;
  (void)f;
}
}  // namespace ak_nvcc_check

namespace {

using ak::kernel::memory_order;
using ak::kernel::memory_scope;

struct add_op {
  template <class T>
  AK_KERNEL_FN T operator()(T a, T b) const {
    return a + b;
  }
};

// Every primitive of the kernel language, once.
struct everything {
  float* out;
  int* counter;
  std::int64_t n;
  template <class Ctx>
  AK_KERNEL_FN void operator()(Ctx& ctx) const {
    auto tile = ak::kernel::local_array<float>(ctx, 0, static_cast<std::size_t>(ctx.local_size(0)));
    const auto i = ctx.global_id(0);
    const int l = ctx.local_id(0);
    tile[l] = i < n ? out[i] : 0.0f;
    ctx.barrier();
    float v = tile[(l + 1) % ctx.local_size(0)];
    v += ctx.shuffle(v, 0) + ctx.shuffle_up(v, 1) + ctx.shuffle_down(v, 1) + ctx.shuffle_xor(v, 1);
    v += ctx.sub_group_reduce(v, add_op{});
    v += ctx.sub_group_inclusive_scan(v, add_op{});
    v += ctx.sub_group_exclusive_scan(v, add_op{}, 0.0f);
    double d = ctx.sub_group_broadcast(static_cast<double>(v), 3);
    const bool any = ctx.sub_group_any(v > 0.0f), all = ctx.sub_group_all(v > 0.0f);
    const std::uint64_t bits = ctx.ballot(any && all) & ctx.sub_group_match_any(l % 3) &
                               ctx.sub_group_match_any(std::int64_t{i} / 5) &
                               ctx.sub_group_match_any_by_ballots(l % 7, 3);
    ctx.atomic_add(counter, static_cast<int>(bits & 1), memory_order::relaxed,
                   memory_scope::device);
    ctx.atomic_min(counter + 1, l, memory_order::relaxed, memory_scope::device);
    ctx.atomic_max(counter + 2, l, memory_order::relaxed, memory_scope::device);
    ctx.atomic_exchange(counter + 3, l, memory_order::acq_rel, memory_scope::device);
    int expected = 0;
    ctx.atomic_compare_exchange(counter + 4, expected, 1, memory_order::acq_rel,
                                memory_scope::device);
    ctx.fence(memory_order::release, memory_scope::device);
    ctx.atomic_store(counter + 5,
                     ctx.atomic_load(counter + 4, memory_order::acquire, memory_scope::device),
                     memory_order::release, memory_scope::device);
    ctx.atomic_add(&tile[0], 1.0f, memory_order::relaxed, memory_scope::work_group);
    if (i < n) out[i] = v + static_cast<float>(d) + static_cast<float>(ctx.global_linear_id());
  }
};

}  // namespace

template void ak_nvcc_check::instantiate<everything>();

// The library's GPU kernels.
#include "gpu_kernels_check.cuh"
