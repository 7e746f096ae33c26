// Group-level collective (as CUB's block/): the reduction of one value per work-item, which every
// item of the group calls convergently. The kernel language's sub-group operations are the level
// below; the kernels of include/ak/gpu/kernels/ the level above.
#pragma once

#include <cstdint>
#include "ak/kernel/kernel.hpp"

namespace ak::gpu::kernels {

// The group's reduction of each item's `v`, in item order; valid in sub-group 0 (item 0 is where
// callers read it). `scratch` holds at least num_sub_groups() T of local memory.
template <class T, class Ctx, class Span, class Op>
AK_KERNEL_FN T group_reduce(Ctx& ctx, Span scratch, T v, Op op, T init) {
  const T r = ctx.sub_group_reduce(v, op);
  if (ctx.sub_group_lane() == 0) scratch[ctx.sub_group_id()] = r;
  ctx.barrier();
  T acc = init;
  if (ctx.sub_group_id() == 0) {
    const int nsg = ctx.num_sub_groups(), w = ctx.sub_group_size(), lane = ctx.sub_group_lane();
    for (int c = 0; c < nsg; c += w) {
      const T x = c + lane < nsg ? scratch[c + lane] : init;
      acc = op(acc, ctx.sub_group_reduce(x, op));
    }
  }
  ctx.barrier();  // scratch may be reused
  return acc;
}

}  // namespace ak::gpu::kernels
