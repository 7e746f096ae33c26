// The cpu half of sort, sort_inplace, sortperm and sort_by_key (the front is sort.hpp): each
// function takes the device and the algorithm the front resolved, and looks neither up again.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/sort_common.hpp"
#include "ak/algorithms/elementwise.hpp"
#include "ak/algorithms/options.hpp"
#include "ak/backends/cpu/comparison_sort.hpp"
#include "ak/backends/cpu/radix_sort.hpp"
#include "ak/backends/cpu/scratch.hpp"
#include "ak/backends/cpu/small_sort.hpp"
#include "ak/runtime/algorithm_values.hpp"

namespace ak::detail {

// A scratch buffer of n elements: the caller's temp storage when given, else memory from the cpu
// scratch allocator (trivially copyable types) or the heap.
template <class T>
class scratch {
 public:
  scratch(std::int64_t n, temp_storage temp, std::string_view function) {
    const std::size_t need = bytes(n);
    if (!temp.empty()) {
      if (temp.size() < need) throw_temp_too_small(function, need, temp.size());
      void* p = temp.data();
      std::size_t space = temp.size();
      data_ = static_cast<T*>(
          std::align(alignof(T), static_cast<std::size_t>(n) * sizeof(T), p, space));
    } else if (n > 0) {
      if constexpr (std::is_trivially_copyable_v<T>) {
        pooled_.allocate(n);
        data_ = pooled_.data();
      } else {
        owned_.reset(new T[static_cast<std::size_t>(n)]);
        data_ = owned_.get();
      }
    }
  }
  static std::size_t bytes(std::int64_t n) { return sort_scratch_bytes<T>(n); }
  T* data() const noexcept { return data_; }

 private:
  struct no_pool {};
  std::conditional_t<std::is_trivially_copyable_v<T>, cpu::scratch_buffer<T>, no_pool> pooled_;
  std::unique_ptr<T[]> owned_;
  T* data_ = nullptr;
};

// The bytes radix sort treats as fitting in cache: the L2 caches of the workers (1 MiB when
// the device does not say).
inline std::int64_t sort_cache_bytes(const device& dev) {
  const std::int64_t l2 = dev.info().l2_cache_bytes;
  return l2 > 0 ? l2 * cpu::num_threads() : std::int64_t{1} << 20;
}

// The cpu radix sort's in-cache rules from the resolved tuning.
inline cpu::radix_rules radix_rules_of(const resolved_sort& r) {
  return {static_cast<int>(r.tuning.radix_msd_passes), static_cast<int>(r.tuning.radix_msd_run),
          r.tuning.radix_vector_run};
}

// The sample sort's rules from the resolved tuning.
inline cpu::sample_rules sample_rules_of(const resolved_sort& r) {
  return {r.tuning.sample_oversampling, r.tuning.sample_leaf_size};
}

// The grain that keeps a sort on the calling thread (a segment sorted inside a task).
inline constexpr std::int64_t one_task = std::numeric_limits<std::int64_t>::max() / 4;

// Sorts a contiguous run with a resolved algorithm; tmp holds n elements. grain: elements per
// task at least (one_task: on the calling thread). Runs of at most the tuning's insertion_run
// elements are insertion sorted before an algorithm is chosen, and radix sort takes runs of
// radix_min_run elements or more (below that its counts cost more than the comparisons they save;
// merge sort takes them). Both matter most for the segmented sorts, whose segments are often
// this short.
template <class T, class By, class Lt>
void sort_run(T* p, T* tmp, std::int64_t n, const resolved_sort& r, const sort_options<By, Lt>& o,
              std::int64_t cache_bytes, std::int64_t grain) {
  const sort_less<const By&, const Lt&> less{o.by, o.lt, o.rev};
  if (n <= r.tuning.insertion_run) {
    cpu::insertion_sort(p, p + n, less);
    return;
  }
  switch (r.algorithm) {
    case sort_algorithm::radix:
      if constexpr (radix_order_v<T, By, Lt>) {
        if (n >= r.tuning.radix_min_run) {
          cpu::radix_sort<T, void, By>(p, tmp, nullptr, nullptr, n,
                                       static_cast<int>(r.tuning.radix_digit_bits), o.rev, grain,
                                       cache_bytes, o.by, radix_rules_of(r));
          break;
        }
      }
      cpu::merge_sort(p, tmp, n, grain, less, cache_bytes / cpu::num_threads());
      break;
    case sort_algorithm::sample:
      cpu::sample_sort(p, tmp, n, grain, sample_rules_of(r), less,
                       cache_bytes / cpu::num_threads());
      break;
    default:
      cpu::merge_sort(p, tmp, n, grain, less, cache_bytes / cpu::num_threads());
      break;
  }
}

// Sets idx[0, n) to the stable permutation that sorts keys[0, n), with key_tmp and idx_tmp (n
// elements each) as scratch; radix sort moves the keys along (except when it packs keys of at most
// 4 bytes with their indices: radix_packed_run), the comparison sorts leave them. grain as for
// sort_run.
template <class T, class By, class Lt>
void sortperm_run(T* keys, T* key_tmp, std::int64_t* idx, std::int64_t* idx_tmp, std::int64_t n,
                  const resolved_sort& r, const sort_options<By, Lt>& o, std::int64_t cache_bytes,
                  std::int64_t grain) {
  [[maybe_unused]] const bool radix = r.algorithm == sort_algorithm::radix &&
                                      n > r.tuning.insertion_run && n >= r.tuning.radix_min_run;
  if constexpr (radix_order_v<T, By, Lt> && cpu::packable_key_v<cpu::radix_key_of_t<T, By>>) {
    if (radix && r.tuning.radix_packed_run > 0 && n <= std::int64_t{1} << 32) {
      cpu::radix_rules rules = radix_rules_of(r);
      rules.vector_run = r.tuning.radix_packed_run;
      cpu::radix_sortperm_packed<T, By>(keys, idx, idx_tmp, n,
                                        static_cast<int>(r.tuning.radix_digit_bits), o.rev, grain,
                                        cache_bytes, o.by, rules);
      return;
    }
  }
  cpu::parallel_for(n, grain, [&](std::int64_t i) { idx[i] = i; });
  if constexpr (radix_order_v<T, By, Lt>) {
    if (radix) {
      cpu::radix_sort<T, std::int64_t, By>(keys, key_tmp, idx, idx_tmp, n,
                                           static_cast<int>(r.tuning.radix_digit_bits), o.rev,
                                           grain, cache_bytes, o.by, radix_rules_of(r));
      return;
    }
  }
  const sort_less<const By&, const Lt&> less{o.by, o.lt, o.rev};
  auto by_index = [&](std::int64_t a, std::int64_t b) { return less(keys[a], keys[b]); };
  if (n <= r.tuning.insertion_run)
    cpu::insertion_sort(idx, idx + n, by_index);
  else if (r.algorithm == sort_algorithm::sample)
    cpu::sample_sort(idx, idx_tmp, n, grain, sample_rules_of(r), by_index,
                     cache_bytes / cpu::num_threads());
  else
    cpu::merge_sort(idx, idx_tmp, n, grain, by_index, cache_bytes / cpu::num_threads());
}

// Each segment of p[0, n) sorted on its own; with idx, idx set within each segment to the
// permutation that sorts it instead (indices within the segment). tmp and
// idx_tmp: n elements of scratch each. A segment longer than a task's share is sorted by the
// parallel sort, one after another; the others go to tasks of about equal numbers of elements,
// each segment sorted on one thread (insertion sort when short, merge sort below radix sort's
// minimum, else the resolved algorithm). One segment of n elements is the plain sort. Slices of
// 2 to 16 numbers in the default order (sort, not sortperm) are sorted by a sorting network
// across rows (cpu::sort_rows_small), whatever the algorithm: the result is the same.
template <class T, class By, class Lt>
void sort_segments_run(T* p, T* tmp, std::int64_t* idx, std::int64_t* idx_tmp, std::int64_t n,
                       const sort_segments& seg, const resolved_sort& r,
                       const sort_options<By, Lt>& o, std::int64_t cache_bytes) {
  if (n == 0) return;
  // Short slices of numbers in the default order: a sorting network across rows.
  if constexpr (std::is_same_v<By, identity> && std::is_same_v<Lt, isless> &&
                cpu::small_sortable_v<T>) {
    if (!idx && !seg.offsets && cpu::small_sort_length(seg.length)) {
      const sort_less<const By&, const Lt&> less{o.by, o.lt, o.rev};
      const std::int64_t length = seg.length;
      const cpu::chunks rc =
          cpu::plan_chunks(seg.count, std::max<std::int64_t>(1, r.tuning.cpu_grain / length),
                           cpu::balanced_task_limit());
      cpu::parallel_tasks(rc.count, [&](std::int64_t k) {
        cpu::sort_rows_small(p + rc.begin(k) * length, rc.end(k) - rc.begin(k),
                             static_cast<int>(length), o.rev, less);
      });
      return;
    }
  }
  auto sort_one = [&](std::int64_t s, std::int64_t grain) {
    const std::int64_t b = seg.start(s), len = seg.start(s + 1) - b;
    if (idx) {
      sortperm_run(p + b, tmp + b, idx + b, idx_tmp + b, len, r, o, cache_bytes, grain);
    } else {
      sort_run(p + b, tmp + b, len, r, o, cache_bytes, grain);
    }
  };
  const cpu::chunks c = cpu::plan_chunks(n, r.tuning.cpu_grain, cpu::balanced_task_limit());
  const std::int64_t longest = std::max(r.tuning.cpu_grain, c.size);
  std::vector<std::vector<std::int64_t>> longer(static_cast<std::size_t>(c.count));
  cpu::parallel_tasks(c.count, [&](std::int64_t k) {
    const std::int64_t last = k + 1 < c.count ? seg.first_from(c.begin(k + 1)) : seg.count;
    for (std::int64_t s = seg.first_from(c.begin(k)); s < last; ++s) {
      if (seg.start(s + 1) - seg.start(s) > longest)
        longer[static_cast<std::size_t>(k)].push_back(s);
      else
        sort_one(s, one_task);
    }
  });
  for (const auto& task : longer)
    for (const std::int64_t s : task) sort_one(s, r.tuning.cpu_grain);
}

// Sorts each segment of v (any shape and strides; its elements in row-major order make the
// segments) in place.
template <class T, class By, class Lt>
void cpu_sort(const device& dev, const resolved_sort& r, view<T> v, const sort_segments& seg,
              const sort_options<By, Lt>& o, std::string_view function) {
  const std::int64_t n = v.size();
  scratch<T> tmp(n, o.temp, function);
  if (n <= 1) return;
  if (v.is_contiguous()) {
    sort_segments_run<T>(v.data(), tmp.data(), nullptr, nullptr, n, seg, r, o,
                         sort_cache_bytes(dev));
    return;
  }
  array<T> packed = copy_on_cpu(dev, view<const T>(v), loop_options{});
  sort_segments_run<T>(packed.data(), tmp.data(), nullptr, nullptr, n, seg, r, o,
                       sort_cache_bytes(dev));
  identity_copy id;
  elementwise(v, id, r.tuning.cpu_grain, view<const T>(packed.view()));
}

// A copy of v (row-major, v's shape) with the segments of its slices along dim sorted.
template <class T, class By, class Lt>
array<T> cpu_sort_copy(const device& dev, const resolved_sort& r, view<const T> v, std::size_t dim,
                       const sort_segments& seg, const sort_options<By, Lt>& o,
                       std::string_view function) {
  array<T> out = copy_on_cpu(dev, v, loop_options{});
  cpu_sort(dev, r, slices_last(out.view(), dim), seg, o, function);
  return out;
}

// perm (v's shape, any strides) = the stable permutation that sorts each segment of v (its
// elements in row-major order), as indices within the segment.
template <class T, class By, class Lt>
void cpu_sortperm(const device& dev, const resolved_sort& r, view<const T> v,
                  view<std::int64_t> perm, const sort_segments& seg, const sort_options<By, Lt>& o,
                  std::string_view function) {
  const std::int64_t n = v.size();
  scratch<T> tmp(n, o.temp, function);
  if (n == 0) return;
  cpu::scratch_buffer<std::int64_t> idx_tmp(n);
  array<T> keys = copy_on_cpu(dev, v, loop_options{});
  array<std::int64_t> packed;
  if (!perm.is_contiguous()) packed = array<std::int64_t>(v.shape());
  std::int64_t* idx = perm.is_contiguous() ? perm.data() : packed.data();
  sort_segments_run(keys.data(), tmp.data(), idx, idx_tmp.data(), n, seg, r, o,
                    sort_cache_bytes(dev));
  if (!perm.is_contiguous()) {
    identity_copy id;
    elementwise(perm, id, r.tuning.cpu_grain, view<const std::int64_t>(packed.view()));
  }
}

// Sorts k in place and applies the same permutation to v (same shape).
template <class K, class V, class By, class Lt>
void cpu_sort_by_key(const device& dev, const resolved_sort& r, view<K> k, view<V> v,
                     const sort_options<By, Lt>& o, std::string_view function) {
  const std::int64_t n = k.size();
  scratch<K> tmp(n, o.temp, function);
  if (n <= 1) return;
  if constexpr (radix_order_v<K, By, Lt>) {
    if (r.algorithm == sort_algorithm::radix && k.is_contiguous() && v.is_contiguous()) {
      cpu::scratch_buffer<V> vtmp(n);
      cpu::radix_sort<K, V, By>(k.data(), tmp.data(), v.data(), vtmp.data(), n,
                                static_cast<int>(r.tuning.radix_digit_bits), o.rev,
                                r.tuning.cpu_grain, sort_cache_bytes(dev), o.by, radix_rules_of(r));
      return;
    }
  }
  // Otherwise: the stable permutation, then both arrays gathered through it.
  array<std::int64_t> perm(shape{n});
  cpu_sortperm(dev, r, view<const K>(k), perm.view(), whole_segment(n), o, function);
  array<K> sorted_keys = take(view<const K>(k), perm);
  array<V> sorted_values = take(view<const V>(v), perm);
  identity_copy id;
  elementwise(k, id, r.tuning.cpu_grain, view<const K>(sorted_keys.view()));
  elementwise(v, id, r.tuning.cpu_grain, view<const V>(sorted_values.view()));
}

}  // namespace ak::detail
