// Loops over n-d index spaces with several strided operands: the engine under map, broadcast,
// copy, reverse and every n-d algorithm of the cpu backend.
//
// An index space is a shape plus, for each of K operands, element strides (0 for a broadcast
// dimension, negative for a reversed one). Adjacent dimensions that every operand walks
// contiguously are merged first, so a row-major array, or a broadcast of one, runs as one long
// row and the innermost loop is a plain vectorisable loop.
#pragma once

#include <array>
#include <cstdint>

#include "ak/backends/cpu/parallel.hpp"
#include "ak/core/shape.hpp"

namespace ak::cpu {

template <std::size_t K>
struct strided_space {
  std::size_t rank = 0;
  std::array<std::int64_t, max_rank> extent{};
  std::array<std::array<std::int64_t, max_rank>, K> stride{};

  std::int64_t size() const noexcept {
    std::int64_t n = 1;
    for (std::size_t d = 0; d < rank; ++d) n *= extent[d];
    return n;
  }
  std::int64_t row_length() const noexcept { return rank == 0 ? 1 : extent[rank - 1]; }
  std::int64_t row_stride(std::size_t k) const noexcept {
    return rank == 0 ? 0 : stride[k][rank - 1];
  }
};

// Drops extent-1 dimensions and merges dimension d into d+1 where every operand has
// stride[d] == stride[d+1] * extent[d+1]. An empty space keeps one dimension of extent 0.
template <std::size_t K>
strided_space<K> coalesce(const strided_space<K>& in) {
  strided_space<K> out;
  for (std::size_t d = 0; d < in.rank; ++d) {
    if (in.extent[d] == 0) {
      out.rank = 1;
      out.extent[0] = 0;
      return out;
    }
    if (in.extent[d] == 1) continue;
    bool merge = out.rank > 0;
    for (std::size_t k = 0; merge && k < K; ++k)
      merge = out.stride[k][out.rank - 1] == in.stride[k][d] * in.extent[d];
    if (merge) {
      out.extent[out.rank - 1] *= in.extent[d];
      for (std::size_t k = 0; k < K; ++k) out.stride[k][out.rank - 1] = in.stride[k][d];
    } else {
      out.extent[out.rank] = in.extent[d];
      for (std::size_t k = 0; k < K; ++k) out.stride[k][out.rank] = in.stride[k][d];
      ++out.rank;
    }
  }
  if (out.rank == 0) {  // every extent was 1: one element
    out.rank = 1;
    out.extent[0] = 1;
  }
  return out;
}

// Calls row(offsets, length) for the rows of the flat (row-major) index range [begin, end) of
// the space, in order: offsets[k] is operand k's element offset of the row's first element and
// the row continues with stride space.row_stride(k).
template <std::size_t K, class Row>
void visit_rows(const strided_space<K>& s, std::int64_t begin, std::int64_t end, Row&& row) {
  if (begin >= end) return;
  const std::size_t r = s.rank;
  const std::int64_t len = s.row_length();
  // Coordinates of `begin`.
  std::array<std::int64_t, max_rank> coord{};
  std::int64_t rest = begin;
  for (std::size_t d = r; d-- > 0;) {
    coord[d] = rest % s.extent[d];
    rest /= s.extent[d];
  }
  std::array<std::int64_t, K> offset{};
  for (std::size_t k = 0; k < K; ++k)
    for (std::size_t d = 0; d < r; ++d) offset[k] += coord[d] * s.stride[k][d];
  std::int64_t at = begin;
  while (at < end) {
    const std::int64_t inner = r == 0 ? 0 : coord[r - 1];
    const std::int64_t count = std::min(len - inner, end - at);
    row(offset, count);
    at += count;
    if (at >= end) break;
    // Next row: the innermost coordinate wraps to 0 and the carry ripples outwards.
    for (std::size_t k = 0; k < K; ++k) offset[k] -= inner * s.stride[k][r - 1];
    coord[r - 1] = 0;
    for (std::size_t d = r - 1; d-- > 0;) {
      for (std::size_t k = 0; k < K; ++k) offset[k] += s.stride[k][d];
      if (++coord[d] < s.extent[d]) break;
      for (std::size_t k = 0; k < K; ++k) offset[k] -= coord[d] * s.stride[k][d];
      coord[d] = 0;
    }
  }
}

// visit_rows over the whole space, cut into tasks of at least `grain` elements.
template <std::size_t K, class Row>
void parallel_rows(const strided_space<K>& s, std::int64_t grain, Row&& row) {
  const chunks c = plan_chunks(s.size(), grain, balanced_task_limit(), 64);
  parallel_tasks(c.count, [&](std::int64_t t) { visit_rows(s, c.begin(t), c.end(t), row); });
}

}  // namespace ak::cpu
