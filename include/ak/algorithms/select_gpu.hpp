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
    map_tuning m{};
    m.block_size = t_.block_size;
    m.items_per_thread = t_.items_per_thread;
    gpu::detail::foreachindex_run(dev_, m, n, body);
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
