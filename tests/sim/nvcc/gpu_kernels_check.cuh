// The library's GPU kernels (include/ak/gpu/kernels.hpp), instantiated for device code with the
// element types and operators they are used with. A new kernel joins this list.
#include "ak/gpu/kernels.hpp"

namespace akgk = ak::gpu::kernels;

namespace ak_nvcc_check_gpu {

struct plus {
  template <class T>
  AK_KERNEL_FN T operator()(T a, T b) const {
    return a + b;
  }
};
struct minimum {
  template <class T>
  AK_KERNEL_FN T operator()(T a, T b) const {
    return b < a ? b : a;
  }
};
struct square {
  AK_KERNEL_FN double operator()(float x) const { return double(x) * x; }
};
struct store_index {
  std::int64_t* out;
  AK_KERNEL_FN void operator()(std::int64_t i) const { out[i] = i; }
};

}  // namespace ak_nvcc_check_gpu

namespace ak_nvcc_check_gpu {
using ak_nvcc_check::instantiate;
template <class T, class Op>
void scan_and_reduce() {
  instantiate<akgk::reduce_kernel<T, akgk::load_element<T>, Op>>();
  instantiate<akgk::reduce_striped_kernel<T, akgk::load_element<T>, Op>>();
  // Vector loads of two elements (every arithmetic type's pair fits 16 bytes).
  instantiate<akgk::reduce_kernel<T, akgk::load_element<T>, Op, 2>>();
  instantiate<akgk::reduce_striped_kernel<T, akgk::load_element<T>, Op, 2>>();
  instantiate<akgk::scan_kernel<T, Op>>();
}
}  // namespace ak_nvcc_check_gpu

template void
ak_nvcc_check::instantiate<ak::gpu::kernels::foreach_kernel<ak_nvcc_check_gpu::store_index>>();
template void ak_nvcc_check::instantiate<
    ak::gpu::kernels::map_kernel<float, double, ak_nvcc_check_gpu::square>>();
template void ak_nvcc_check::instantiate<ak::gpu::kernels::fill_kernel<int>>();
template void ak_nvcc_check::instantiate<ak::gpu::kernels::fill_kernel<unsigned>>();
template void ak_nvcc_check::instantiate<ak::gpu::kernels::reduce_kernel<
    double, ak::gpu::kernels::load_mapped<double, float, ak_nvcc_check_gpu::square>,
    ak_nvcc_check_gpu::plus>>();
template void ak_nvcc_check::instantiate<ak::gpu::kernels::reduce_striped_kernel<
    double, ak::gpu::kernels::load_mapped<double, float, ak_nvcc_check_gpu::square>,
    ak_nvcc_check_gpu::plus, 4>>();
template void ak_nvcc_check_gpu::scan_and_reduce<float, ak_nvcc_check_gpu::plus>();
template void ak_nvcc_check_gpu::scan_and_reduce<double, ak_nvcc_check_gpu::plus>();
template void ak_nvcc_check_gpu::scan_and_reduce<std::int32_t, ak_nvcc_check_gpu::plus>();
template void ak_nvcc_check_gpu::scan_and_reduce<std::int64_t, ak_nvcc_check_gpu::minimum>();
template void ak_nvcc_check_gpu::scan_and_reduce<std::uint64_t, ak_nvcc_check_gpu::plus>();

// Sort, search and elementwise bodies run through foreach_kernel; the merge sort's windows are
// sorted by a kernel.
namespace ak_nvcc_check_gpu {
struct descending {
  AK_KERNEL_FN bool operator()(int a, int b) const { return a > b; }
};
}  // namespace ak_nvcc_check_gpu
template void ak_nvcc_check::instantiate<
    akgk::window_sort_kernel<double, std::int64_t, akgk::whole_array, ak::isless>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<akgk::piece_merge_body<
    int, unsigned char, akgk::whole_array, ak_nvcc_check_gpu::descending>>>();
template void
ak_nvcc_check::instantiate<akgk::foreach_kernel<akgk::search_body<double, ak::isless>>>();
template void
ak_nvcc_check::instantiate<akgk::foreach_kernel<akgk::search_body<std::int8_t, ak::isless>>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<akgk::reverse_body<float>>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<akgk::reverse_copy_body<float>>>();
template void
ak_nvcc_check::instantiate<akgk::foreach_kernel<akgk::gather_body<double, std::int64_t>>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<akgk::copy_body<double>>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<akgk::iota_body<std::int64_t>>>();

// Radix sort.
#include "ak/gpu/kernels/radix_sort.hpp"
template void ak_nvcc_check::instantiate<akgk::radix_count_kernel<float>>();
template void ak_nvcc_check::instantiate<akgk::radix_histogram_kernel<std::int64_t>>();
template void
ak_nvcc_check::instantiate<akgk::radix_scatter_kernel<std::uint32_t, unsigned char>>();
template void ak_nvcc_check::instantiate<akgk::radix_scatter_kernel<double, std::int64_t>>();
template void ak_nvcc_check::instantiate<akgk::radix_scatter_kernel<std::int8_t, float>>();
template void
ak_nvcc_check::instantiate<akgk::radix_single_tile_kernel<std::uint32_t, unsigned char>>();
template void ak_nvcc_check::instantiate<akgk::radix_single_tile_kernel<double, std::int64_t>>();
template void
ak_nvcc_check::instantiate<akgk::foreach_kernel<akgk::fill_body<unsigned long long>>>();

// Reductions and scans along dimensions.
#include "ak/gpu/kernels/dims.hpp"
template void
ak_nvcc_check::instantiate<akgk::reduce_dims_group_kernel<double, ak_nvcc_check_gpu::plus>>();
template void ak_nvcc_check::instantiate<
    akgk::foreach_kernel<akgk::reduce_dims_item_body<float, ak_nvcc_check_gpu::minimum>>>();
template void
ak_nvcc_check::instantiate<akgk::scan_dim_group_kernel<std::int64_t, ak_nvcc_check_gpu::plus>>();
template void ak_nvcc_check::instantiate<
    akgk::foreach_kernel<akgk::scan_dim_item_body<float, ak_nvcc_check_gpu::plus>>>();
namespace ak_nvcc_check_gpu {
struct mul_add {
  AK_KERNEL_FN double operator()(float x, int y) const { return double(x) * y + 1.0; }
};
}  // namespace ak_nvcc_check_gpu
template void ak_nvcc_check::instantiate<
    akgk::foreach_kernel<akgk::broadcast_body<float, int, double, ak_nvcc_check_gpu::mul_add>>>();

// Selection (findall, copy_if, partition, unique, run_length_encode), findmin/findmax/extrema and
// histograms, with the flags, writers, loads and bins of the algorithms layer.
#include "ak/algorithms/detail/histogram_common.hpp"
#include "ak/algorithms/detail/select_common.hpp"
#include "ak/gpu/kernels/histogram.hpp"
#include "ak/gpu/kernels/select.hpp"
namespace akd = ak::detail;
template void ak_nvcc_check::instantiate<akgk::reduce_kernel<
    std::int64_t, akgk::load_flag<akd::pred_flag<float, akd::truthy>>, akgk::sum_op>>();
template void ak_nvcc_check::instantiate<akgk::select_write_kernel<
    akd::run_head_flag<double, ak::isequal>, akd::write_run_start<double>>>();
template void ak_nvcc_check::instantiate<
    akgk::select_write_kernel<akd::array_flag<bool>, akd::write_partition<std::int8_t>>>();
template void ak_nvcc_check::instantiate<akgk::select_write_kernel<
    akd::pred_flag<std::int32_t, akd::truthy>, akd::write_selected_pair<std::int32_t, float>>>();
template void ak_nvcc_check::instantiate<
    akgk::select_write_kernel<akd::pred_flag<std::uint16_t, akd::truthy>, akd::write_index>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<akd::run_lengths>>();
template void ak_nvcc_check::instantiate<akgk::reduce_striped_kernel<
    akd::found_element<double>, akd::load_found<double>, akd::keep_found<false>>>();
template void ak_nvcc_check::instantiate<akgk::reduce_kernel<
    akd::extrema_element<std::int64_t>, akd::load_extrema<std::int64_t>, akd::keep_extrema>>();
template void
ak_nvcc_check::instantiate<akgk::histogram_kernel<std::uint64_t, akd::even_bin<std::uint64_t>>>();
template void
ak_nvcc_check::instantiate<akgk::histogram_kernel<std::int16_t, akd::even_bin<std::int16_t>>>();
template void ak_nvcc_check::instantiate<akgk::histogram_kernel<float, akd::even_bin<float>>>();
template void ak_nvcc_check::instantiate<akgk::histogram_kernel<double, akd::edge_bin<double>>>();

// Keyed and segmented reductions and scans (the segmented scan of items and the loops around
// it), and merge path, with the bodies of the algorithms layer.
#include "ak/algorithms/detail/keyed_common.hpp"
#include "ak/algorithms/detail/merge_common.hpp"
#include "ak/algorithms/options.hpp"
template void ak_nvcc_check::instantiate<
    akgk::scan_kernel<akd::segment_item<double>, akd::segmented_op<ak_nvcc_check_gpu::plus>>>();
template void ak_nvcc_check::instantiate<akgk::scan_kernel<
    akd::segment_item<std::int32_t>, akd::segmented_op<ak_nvcc_check_gpu::minimum>>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<akd::store_items<
    double, akd::item_load<float, double, akd::run_head_flag<std::int64_t, ak::isequal>>>>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<
    akd::finish_items<double, akd::scan_finish<double, ak_nvcc_check_gpu::plus>>>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<
    akd::finish_items<std::int64_t, akd::run_finish<float, std::int64_t, ak_nvcc_check_gpu::plus,
                                                    akd::run_head_flag<float, ak::isequal>>>>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<
    akd::finish_items<float, akd::segment_finish<float, ak_nvcc_check_gpu::minimum>>>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<akd::empty_segments<float>>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<akd::mark_heads>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<
    akd::merge_chunks<double, std::int64_t, akd::sort_less<ak::identity, ak::isless>>>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<
    akd::merge_chunks<std::int8_t, std::int8_t, akd::sort_less<ak::identity, ak::isless>>>>();
// The segmented sorts: windows sorted in local memory, pieces merged (keys alone and with the
// indices of sortperm), indices within segments, and the count of pieces.
#include "ak/algorithms/sort_gpu.hpp"
template void ak_nvcc_check::instantiate<akgk::window_sort_kernel<
    double, std::int64_t, akd::sort_segments, akd::sort_less<ak::identity, ak::isless>>>();
template void ak_nvcc_check::instantiate<akgk::window_sort_kernel<
    std::int8_t, unsigned char, akd::sort_segments, akd::sort_less<ak::identity, ak::isless>>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<akgk::piece_merge_body<
    float, std::int64_t, akd::sort_segments, akd::sort_less<ak::identity, ak::isless>>>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<akgk::piece_merge_body<
    int, unsigned char, akd::sort_segments, ak_nvcc_check_gpu::descending>>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<akgk::window_insertion_body<
    double, std::int64_t, akd::sort_segments, akd::sort_less<ak::identity, ak::isless>>>>();
template void ak_nvcc_check::instantiate<akgk::foreach_kernel<akd::segment_iota>>();
template void ak_nvcc_check::instantiate<akgk::reduce_striped_kernel<
    std::int64_t, akgk::load_segment_pieces<akd::sort_segments>, ak::maximum_op>>();
// partialsort's threshold by radix selection (histograms of a digit of the keys with a prefix)
// and its selection by the threshold (then ak's sorts, above).
#include "ak/algorithms/partial_sort.hpp"
template void ak_nvcc_check::instantiate<
    akgk::histogram_kernel<float, ak::gpu::detail::select_digit_bin<float>>>();
template void ak_nvcc_check::instantiate<
    akgk::histogram_kernel<std::int8_t, ak::gpu::detail::select_digit_bin<std::int8_t>>>();
template void ak_nvcc_check::instantiate<akgk::select_write_kernel<
    akd::pred_flag<float, akd::not_after<float, akd::sort_less<ak::identity, ak::isless>>>,
    akd::write_index>>();
