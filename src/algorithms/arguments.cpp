// Argument checks and errors shared by every algorithm (see detail/arguments.hpp).
#include "ak/algorithms/detail/arguments.hpp"
#include "ak/algorithms/detail/gpu_dispatch.hpp"
#include "ak/algorithms/detail/segments.hpp"
#include "precompiled/gpu_entries.hpp"

#include <string>
#include <vector>

namespace ak::detail {

device algorithm_device(std::string_view function, std::string_view argument,
                        const memory_space& memory) {
  if (&memory == &host_memory()) {
    static const device cpu("cpu");  // loads the cpu backend (and its thread cap) once
    return cpu;
  }
  device dev = device_of(memory);
  // The backends with algorithms: the built-in cpu (native algorithms), and every plugin that
  // exports a table of precompiled GPU entries (sim and cuda: portable kernels compiled by the
  // plugin). Another plugin's devices hold data, not algorithms.
  if (dev.backend() != "cpu" && !has_gpu_entries(dev))
    throw capability_error(std::string(function) + ": argument '" + std::string(argument) +
                           "' is on device '" + dev.name() + "', and backend '" + dev.backend() +
                           "' has no algorithms: its plugin exports no table of precompiled GPU "
                           "entries (" AK_GPU_ENTRY_TABLE_SYMBOL
                           ", as sim and cuda do); copy "
                           "the data to host memory first");
  return dev;
}

bool on_gpu_memory(const memory_space& memory) {
  if (&memory == &host_memory()) return false;
  return device_of(memory).info().kind != device_kind::cpu;
}

void check_same_device(std::string_view function, std::string_view argument, const device& dev,
                       const memory_space& memory) {
  if (&memory == &dev.memory() || algorithm_device(function, argument, memory) == dev) return;
  const std::string where = &memory == &host_memory() ? "host memory" : device_of(memory).name();
  throw argument_error(std::string(function) + ": argument '" + std::string(argument) + "' is in " +
                       where + ", but the call runs on device '" + dev.name() +
                       "' where its first array is; every array must be on that device");
}

void throw_gpu_needs_neutral(std::string_view function, const device& dev) {
  throw argument_error(std::string(function) + ": on device '" + dev.name() +
                       "' (GPU-style) partial results start from the operator's neutral element, "
                       "and this operator has no known one; pass .neutral");
}

void throw_gpu_unsupported(std::string_view function, const device& dev, std::string_view what) {
  throw capability_error(std::string(function) + ": on device '" + dev.name() +
                         "': " + std::string(what));
}

void throw_no_float64(std::string_view function, const device& dev) {
  throw capability_error(std::string(function) + ": device '" + dev.name() +
                         "' has no float64 (its capabilities say so); use float32 data or "
                         "another device");
}

void throw_shape_mismatch(std::string_view function, std::string_view argument,
                          const shape& expected, const shape& actual) {
  throw argument_error(function, argument, "shape " + expected.to_string(),
                       "shape " + actual.to_string());
}

void throw_not_broadcastable(std::string_view function, const shape& a, const shape& b) {
  throw argument_error(std::string(function) + ": shapes " + a.to_string() + " and " +
                       b.to_string() +
                       " cannot broadcast: aligned from the last dimension, each pair of "
                       "extents must be equal or one of them 1");
}

void throw_bad_dims(std::string_view function, std::span<const std::int64_t> dims,
                    std::size_t rank) {
  std::string got = "{";
  for (std::size_t i = 0; i < dims.size(); ++i) got += (i ? ", " : "") + std::to_string(dims[i]);
  got += "}";
  throw argument_error(function, "dims",
                       "1 to " + std::to_string(rank == 0 ? 1 : rank) +
                           " dimensions, each in [0, " + std::to_string(rank) + ")",
                       got);
}

void throw_no_init(std::string_view function, std::string_view why) {
  throw argument_error(std::string(function) + ": argument 'init': needed " + std::string(why) +
                       ", and the operator has no known neutral element; pass .init (or "
                       ".neutral)");
}

void throw_temp_too_small(std::string_view function, std::size_t need, std::size_t got) {
  throw argument_error(function, "temp", "at least " + std::to_string(need) + " bytes",
                       std::to_string(got) + " bytes");
}

void throw_rank(std::string_view function, std::string_view argument, std::string_view expected,
                std::size_t rank) {
  throw argument_error(function, argument, expected, "rank " + std::to_string(rank));
}

void throw_index_out_of_range(std::string_view function, std::int64_t position, std::int64_t index,
                              std::int64_t size) {
  throw argument_error(function, "indices", "every index in [0, " + std::to_string(size) + ")",
                       std::to_string(index) + " at position " + std::to_string(position));
}

void throw_overlap(std::string_view function, std::string_view a, std::string_view b) {
  throw argument_error(std::string(function) + ": arguments '" + std::string(a) + "' and '" +
                       std::string(b) + "' overlap in memory; they must be distinct");
}

std::uint32_t dims_mask(std::string_view function, std::span<const std::int64_t> dims,
                        std::size_t rank) {
  if (dims.empty() || dims.size() > max_rank) throw_bad_dims(function, dims, rank);
  std::uint32_t mask = 0;
  for (std::int64_t d : dims) {
    if (d < 0 || d >= static_cast<std::int64_t>(rank)) throw_bad_dims(function, dims, rank);
    mask |= 1u << d;
  }
  return mask;
}

dense_offsets checked_offsets(const device& dev, const offsets& seg, std::int64_t n,
                              const char* function) {
  const view<const std::int64_t> o = seg.values();
  check_same_device(function, "offsets", dev, o.memory());
  if (o.rank() != 1) throw_rank(function, "offsets", "a 1-d array", o.rank());
  if (o.size() < 1)
    throw argument_error(function, "offsets", "m + 1 >= 1 values (CSR offsets)", "none");
  const std::int64_t m = o.size() - 1;
  // The values on the host, in order (a view of them where the host can read them in place).
  std::vector<std::int64_t> copied;
  const std::int64_t* h = o.data();
  std::int64_t step = o.strides()[0];
  if (!o.memory().host_accessible()) {
    copied.resize(static_cast<std::size_t>(m + 1));
    if (o.is_contiguous())
      o.memory().copy_to_host(copied.data(), o.data(), copied.size() * sizeof(std::int64_t));
    else
      for (std::int64_t s = 0; s <= m; ++s)
        o.memory().copy_to_host(&copied[static_cast<std::size_t>(s)], o.data() + s * step,
                                sizeof(std::int64_t));
    h = copied.data();
    step = 1;
  }
  if (h[0] != 0) throw argument_error(function, "offsets", "offsets[0] == 0", std::to_string(h[0]));
  if (h[m * step] != n)
    throw argument_error(function, "offsets",
                         "offsets[m] == " + std::to_string(n) + " (the length of src)",
                         std::to_string(h[m * step]));
  for (std::int64_t s = 0; s < m; ++s)
    if (h[s * step] > h[(s + 1) * step])
      throw argument_error(function, "offsets", "offsets that never decrease",
                           "offsets[" + std::to_string(s) + "] = " + std::to_string(h[s * step]) +
                               " > offsets[" + std::to_string(s + 1) +
                               "] = " + std::to_string(h[(s + 1) * step]));
  dense_offsets d;
  d.count = m;
  if (o.is_contiguous()) {
    d.data = o.data();
  } else {
    d.own = on_gpu(dev) ? array<std::int64_t>(shape{m + 1}, dev.memory())
                        : array<std::int64_t>(shape{m + 1});
    if (copied.empty())
      for (std::int64_t s = 0; s <= m; ++s) d.own.data()[s] = h[s * step];
    else
      d.own.memory().copy_from_host(d.own.data(), copied.data(),
                                    copied.size() * sizeof(std::int64_t));
    d.data = d.own.data();
  }
  return d;
}

}  // namespace ak::detail
