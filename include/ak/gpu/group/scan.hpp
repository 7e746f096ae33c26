// Group-level collective (as CUB's block/): the exclusive scan of one value per work-item, which
// every item of the group calls convergently.
#pragma once

#include <cstdint>
#include "ak/kernel/kernel.hpp"

namespace ak::gpu::kernels {

// Each item's exclusive prefix of the items' `v` in item order (item 0 gets init); `total` gets
// the group's reduction in every item. `scratch` holds at least num_sub_groups() + 1 T.
template <class T, class Ctx, class Span, class Op>
AK_KERNEL_FN T group_exclusive_scan(Ctx& ctx, Span scratch, T v, Op op, T init, T& total) {
  const int lane = ctx.sub_group_lane(), sg = ctx.sub_group_id(), w = ctx.sub_group_size();
  const int nsg = ctx.num_sub_groups();
  const T inc = ctx.sub_group_inclusive_scan(v, op);
  T exc = ctx.shuffle_up(inc, 1);
  if (lane == 0) exc = init;
  if (lane == w - 1) scratch[sg] = inc;
  ctx.barrier();
  if (sg == 0) {
    T carry = init;
    for (int c = 0; c < nsg; c += w) {
      const T x = c + lane < nsg ? scratch[c + lane] : init;
      const T xi = ctx.sub_group_inclusive_scan(x, op);
      T xe = ctx.shuffle_up(xi, 1);
      if (lane == 0) xe = init;
      if (c + lane < nsg) scratch[c + lane] = op(carry, xe);
      carry = op(carry, ctx.shuffle(xi, w - 1));
    }
    if (lane == 0) scratch[nsg] = carry;
  }
  ctx.barrier();
  const T prefix = scratch[sg];
  total = scratch[nsg];
  ctx.barrier();  // scratch may be reused
  return op(prefix, exc);
}

}  // namespace ak::gpu::kernels
