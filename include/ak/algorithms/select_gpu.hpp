// The GPU half of the selection family (the front is select.hpp): the same steps as the cpu half
// (select_cpu.hpp), on a GPU-style device, with the tuning the front resolved: ak::gpu's
// selection (a count of each tile, a scan of the counts, a ranked write), loops and strided
// copies.
#pragma once

#include <cstdint>

#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/gpu/select.hpp"

namespace ak::detail {

class gpu_selection {
 public:
  gpu_selection(const device& dev, const select_tuning& t) : dev_(dev), t_(t) {}

  const memory_space& memory() const { return dev_.memory(); }

  template <class T>
  class dense : public gpu_dense<T> {
   public:
    dense(const gpu_selection& s, view<const T> v) : gpu_dense<T>(s.dev_, v) {}
  };

  template <class T>
  dense<T> dense_of(view<const T> v) const {
    return dense<T>(*this, v);
  }

  // The count, then make_writer(count) gives the writer of outputs of exactly that size, then
  // the writes; returns the count.
  template <class Flag, class MakeWriter>
  std::int64_t select(std::int64_t n, const Flag& flag, const MakeWriter& make_writer) const {
    const auto c = count(n, flag);
    const auto w = make_writer(c.total);
    if (c.total > 0) write(c, n, flag, w);
    return c.total;
  }
  template <class Flag>
  gpu::detail::select_counts count(std::int64_t n, const Flag& flag) const {
    if (n == 0) return {0, 1, gpu::device_buffer<std::int64_t>(dev_, 0), 0};
    return gpu::detail::select_count_run(dev_, t_, n, flag);
  }
  template <class Flag, class Write>
  void write(const gpu::detail::select_counts& c, std::int64_t n, const Flag& flag,
             const Write& w) const {
    if (n > 0) gpu::detail::select_write_run(dev_, c, n, flag, w);
  }
  template <class Body>
  void for_each(std::int64_t n, const Body& body) const {
    if (n == 0) return;
    gpu::detail::foreachindex_run(dev_, loop_tuning(t_), n, body);
  }
  template <class T>
  void copy_into(view<T> dst, view<const T> src) const {
    gpu_map_strided(dev_, dst, src, gpu_same{});
  }

 private:
  device dev_;
  select_tuning t_;
};

}  // namespace ak::detail
