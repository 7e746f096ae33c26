// What the GPU halves of the families share: views in device memory turned into the pointer-based
// ak::gpu algorithms. Every public algorithm branches once, in its front, on the device its data
// is on; the cpu halves use nothing here.
//
// Strided views (slices, transposes, negative strides) are supported: a strided GPU kernel packs
// them into contiguous device memory (and writes results back through the same kind of kernel)
// where the GPU algorithm wants contiguous data; reductions and scans along dims read the strides
// directly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/gpu/gpu.hpp"

namespace ak::detail {

// The extents and element strides of a view as the ak::gpu n-d algorithms take them (a rank-0
// view is one element of shape (1)).
inline std::vector<std::int64_t> gpu_extents(const shape& s) {
  if (s.rank() == 0) return {1};
  return std::vector<std::int64_t>(s.begin(), s.end());
}
template <class T>
std::vector<std::int64_t> gpu_strides(const view<T>& v) {
  if (v.rank() == 0) return {1};
  return std::vector<std::int64_t>(v.strides().begin(), v.strides().end());
}

// f(a) converted to Out, as a two-operand body for the strided broadcast kernel.
template <class Out, class F>
struct gpu_unary {
  F f;
  template <class A, class B>
  AK_KERNEL_FN Out operator()(const A& a, const B&) const {
    return static_cast<Out>(f(a));
  }
};
struct gpu_same {
  template <class A>
  AK_KERNEL_FN A operator()(const A& a) const {
    return a;
  }
};

// dst = f(src) element-wise over their (equal) shapes, any strides.
template <class Out, class In, class F>
void gpu_map_strided(const device& dev, view<Out> dst, view<const In> src, const F& f) {
  if (src.empty()) return;
  const auto ext = gpu_extents(src.shape());
  const auto ss = gpu_strides(src);
  gpu::broadcast(dev, ext, src.data(), ss, src.data(), ss, dst.data(), gpu_unary<Out, F>{f},
                 gpu_strides(dst));
}

// The elements of a view, row-major and contiguous in device memory: the view's own memory when
// it is contiguous, else a packed copy made on the device.
template <class T>
class gpu_dense {
 public:
  gpu_dense(const device& dev, view<const T> v)
      : own_(dev, v.is_contiguous() ? 0 : v.size()),
        p_(v.is_contiguous() ? v.data() : own_.data()) {
    if (!v.is_contiguous())
      gpu_map_strided(dev, view<T>(own_.data(), v.shape(), dev.memory()), v, gpu_same{});
  }
  const T* data() const noexcept { return p_; }

 private:
  gpu::device_buffer<T> own_;
  const T* p_;
};

// A writable contiguous stand-in for a view: the view itself when contiguous, else a device
// buffer (filled from the view when `load`) that write_back() copies into the view.
template <class T>
class gpu_work {
 public:
  gpu_work(const device& dev, view<T> v, bool load)
      : dev_(dev),
        v_(v),
        own_(dev, v.is_contiguous() ? 0 : v.size()),
        p_(v.is_contiguous() ? v.data() : own_.data()) {
    if (load && !v.is_contiguous())
      gpu_map_strided(dev, view<T>(own_.data(), v.shape(), dev.memory()), view<const T>(v),
                      gpu_same{});
  }
  T* data() const noexcept { return p_; }
  void write_back() {
    if (!v_.is_contiguous())
      gpu_map_strided(dev_, v_, view<const T>(own_.data(), v_.shape(), dev_.memory()), gpu_same{});
  }

 private:
  device dev_;
  view<T> v_;
  gpu::device_buffer<T> own_;
  T* p_;
};

[[noreturn]] void throw_gpu_needs_neutral(std::string_view function, const device& dev);
[[noreturn]] void throw_gpu_unsupported(std::string_view function, const device& dev,
                                        std::string_view what);
// Every array argument of a GPU call must be on the device of the first.
void check_same_device(std::string_view function, std::string_view argument, const device& dev,
                       const memory_space& memory);
// float64 needs the device's float64 capability.
void throw_no_float64(std::string_view function, const device& dev);

template <class... T>
void check_gpu_types(std::string_view function, const device& dev) {
  if constexpr ((std::is_same_v<T, double> || ...))
    if (!dev.caps().float64) throw_no_float64(function, dev);
}

// op(init, x) for every x: the caller's init applied after a GPU reduction or scan seeded with
// the neutral element.
template <class R, class Op>
struct gpu_apply_init {
  Op op;
  R init;
  AK_KERNEL_FN R operator()(const R& x) const { return static_cast<R>(op(init, x)); }
};

}  // namespace ak::detail
