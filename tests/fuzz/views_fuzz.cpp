// libFuzzer target: shapes, strides and views. The bytes give a shape and (or not) element strides,
// then a sequence of slice, index, reshape, permute and transpose calls. A model kept beside the
// view (its shape, and the buffer position of each element in row-major order) decides from the
// documented rules alone whether each call must succeed or throw ak::argument_error naming its
// function, and what the result holds; every element of a successful result is read through
// view::at and compared with the model, so a view that reaches outside its buffer is an ASan
// report. Strides that span more than a small buffer (up to the int64 limit that ak::view checks)
// are tried on the constructor alone: a slice of such a view would point outside any allocation.
//
// Built with clang's -fsanitize=fuzzer (tests/fuzz/CMakeLists.txt); scripts/fuzz.sh runs it from
// the committed seed corpus tests/fuzz/corpus/views.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ak/core/error.hpp"
#include "ak/core/shape.hpp"
#include "ak/core/view.hpp"

namespace {

using i64 = std::int64_t;
constexpr i64 i64_max = std::numeric_limits<i64>::max();
constexpr i64 i64_min = std::numeric_limits<i64>::min();
constexpr std::size_t max_model_rank = 5;  // view::at is called with up to 5 indices
constexpr i64 max_buffer = 1 << 14;        // elements

[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "views_fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

// The fuzzer's bytes, read front to back; zeros once they run out.
class reader {
 public:
  reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool done() const { return pos_ >= size_; }
  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  i64 word() {
    std::uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v = (v << 8) | byte();
    return static_cast<i64>(v);
  }
  // Mostly small values in [low, low + span), sometimes a whole int64 or one of its extremes.
  i64 value(i64 low, i64 span) {
    const std::uint8_t b = byte();
    if (b == 255) return word();
    if (b == 254) return i64_max;
    if (b == 253) return i64_min;
    return low + static_cast<i64>(b % span);
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

// e + k, or int64's largest value where that overflows: extents reach it (a reshape to (0, 2^63-1)
// is valid) and the harness draws indices a few past them.
i64 past(i64 e, i64 k) {
  return e > i64_max - k ? i64_max : e + k;
}

// What a view must be: its shape, and the buffer position of each element in row-major order.
struct model {
  std::vector<i64> shape;
  std::vector<i64> positions;

  i64 size() const {
    i64 n = 1;
    for (i64 e : shape) n *= e;
    return n;
  }
  // Row-major contiguous as view::is_contiguous defines it: consecutive positions (or empty).
  bool contiguous() const {
    const auto& p = positions;
    for (std::size_t k = 1; k < p.size(); ++k)
      if (p[k] != p[0] + static_cast<i64>(k)) return false;
    return true;
  }
};

// The shape constructor's rules: rank <= max_rank, extents >= 0, and the product of the extents,
// zeros counted as ones, fits in int64.
bool valid_shape(const std::vector<i64>& extents) {
  if (extents.size() > ak::max_rank) return false;
  unsigned __int128 product = 1;
  for (i64 e : extents) {
    if (e < 0) return false;
    product *= static_cast<unsigned __int128>(e > 0 ? e : 1);
    if (product > static_cast<unsigned __int128>(i64_max)) return false;
  }
  return true;
}

// Calls each row-major multi-index of `shape` with its ordinal.
template <class F>
void for_each_index(const std::vector<i64>& shape, F f) {
  i64 n = 1;
  for (i64 e : shape) n *= e;
  std::vector<i64> idx(shape.size(), 0);
  for (i64 k = 0; k < n; ++k) {
    f(idx, k);
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

i64 element(const ak::view<const i64>& v, const std::vector<i64>& i) {
  switch (i.size()) {
    case 0:
      return v.at();
    case 1:
      return v.at(i[0]);
    case 2:
      return v.at(i[0], i[1]);
    case 3:
      return v.at(i[0], i[1], i[2]);
    case 4:
      return v.at(i[0], i[1], i[2], i[3]);
    case 5:
      return v.at(i[0], i[1], i[2], i[3], i[4]);
    default:
      finding("a rank the target does not read", std::to_string(i.size()));
  }
}

std::string list(const std::vector<i64>& v) {
  std::string s = "(";
  for (std::size_t k = 0; k < v.size(); ++k) s += (k ? ", " : "") + std::to_string(v[k]);
  return s + ")";
}

void compare(const ak::view<const i64>& v, const model& m, const char* after) {
  const std::vector<i64> shape(v.shape().begin(), v.shape().end());
  if (shape != m.shape)
    finding("wrong shape", std::string(after) + ": " + list(shape) + ", expected " + list(m.shape));
  if (v.strides().rank() != shape.size()) finding("strides of another rank", after);
  if (v.size() != m.size()) finding("wrong size", after);
  if (v.is_contiguous() != m.contiguous()) finding("wrong is_contiguous", after);
  for_each_index(m.shape, [&](const std::vector<i64>& idx, i64 k) {
    const i64 got = element(v, idx);
    const i64 want = m.positions[static_cast<std::size_t>(k)];
    if (got != want)
      finding("wrong element", std::string(after) + " at " + list(idx) + ": buffer position " +
                                   std::to_string(got) + ", expected " + std::to_string(want));
  });
}

// Runs `call` where the model says it must succeed (ok) or throw ak::argument_error naming
// `function`; returns whether it succeeded.
template <class Call>
bool expect(bool ok, std::string_view function, Call call) {
  try {
    call();
  } catch (const ak::argument_error& e) {
    if (ok) finding("a valid call threw", std::string(function) + ": " + e.what());
    if (std::string_view(e.what()).substr(0, function.size()) != function)
      finding("an error that does not name its function", e.what());
    return false;
  } catch (const std::exception& e) {
    finding("not an ak::argument_error", std::string(function) + ": " + e.what());
  }
  if (!ok) finding("an invalid call succeeded", std::string(function));
  return true;
}

// The model after keeping, along each dimension, the old indices that `pick` gives for each new
// index (new shape `shape`).
template <class Pick>
model remap(const model& m, std::vector<i64> shape, Pick pick) {
  model r{std::move(shape), {}};
  std::vector<i64> old_strides(m.shape.size(), 1);  // row-major ordinals of the old model
  for (std::size_t d = m.shape.size(); d-- > 1;)
    old_strides[d - 1] = old_strides[d] * std::max<i64>(m.shape[d], 1);
  for_each_index(r.shape, [&](const std::vector<i64>& idx, i64) {
    const std::vector<i64> old = pick(idx);
    i64 ordinal = 0;
    for (std::size_t d = 0; d < old.size(); ++d) ordinal += old[d] * old_strides[d];
    r.positions.push_back(m.positions[static_cast<std::size_t>(ordinal)]);
  });
  return r;
}

std::vector<i64> read_extents(reader& in, std::size_t rank) {
  std::vector<i64> e(rank);
  for (auto& x : e) x = in.value(0, 6);
  return e;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  reader in(data, size);
  const std::uint8_t mode = in.byte();
  const std::size_t rank = in.byte() % 11;  // past max_rank sometimes
  const std::vector<i64> extents = read_extents(in, std::min<std::size_t>(rank, max_model_rank));
  if (rank > max_model_rank) {  // only the constructor's rank check
    std::vector<i64> big(rank, 1);
    expect(rank <= ak::max_rank, "ak::shape", [&] { ak::shape s{std::span<const i64>(big)}; });
    return 0;
  }
  std::optional<ak::shape> shape;
  if (!expect(valid_shape(extents), "ak::shape",
              [&] { shape.emplace(std::span<const i64>(extents)); }))
    return 0;

  std::vector<i64> strides(rank);
  if (mode & 1) {
    for (auto& s : strides) s = in.value(-4, 9);
  } else {
    i64 step = 1;
    for (std::size_t d = rank; d-- > 0;) {
      strides[d] = step;
      step *= std::max<i64>(extents[d], 1);
    }
  }
  // check_strides: sum((max(extent, 1) - 1) * |stride|) fits in int64.
  unsigned __int128 span = 0;
  i64 low = 0;
  i64 high = 0;
  for (std::size_t d = 0; d < rank; ++d) {
    const i64 steps = extents[d] > 1 ? extents[d] - 1 : 0;
    const unsigned __int128 stride =
        strides[d] >= 0 ? static_cast<unsigned __int128>(strides[d])
                        : static_cast<unsigned __int128>(-static_cast<__int128>(strides[d]));
    span += stride * static_cast<unsigned __int128>(steps);
    if (span <= static_cast<unsigned __int128>(i64_max)) {
      const i64 reach = strides[d] * steps;  // fits: |reach| <= span
      (reach < 0 ? low : high) += reach;
    }
  }
  const bool strides_ok = span <= static_cast<unsigned __int128>(i64_max);
  const ak::strides st{std::span<const i64>(strides)};

  const bool small =
      shape->size() <= max_buffer &&
      std::all_of(extents.begin(), extents.end(), [](i64 e) { return e <= max_buffer; });
  if (!strides_ok || !small || high - low >= max_buffer) {  // the constructor alone (see the top)
    const i64 dummy = 0;
    expect(strides_ok, "ak::view", [&] { ak::view<const i64>(&dummy, *shape, st); });
    return 0;
  }
  // The buffer holds each position's own number; the view starts at position -low.
  std::vector<i64> buffer(static_cast<std::size_t>(high - low + 1));
  for (std::size_t k = 0; k < buffer.size(); ++k) buffer[k] = static_cast<i64>(k);
  model m{extents, {}};
  for_each_index(extents, [&](const std::vector<i64>& idx, i64) {
    i64 p = -low;
    for (std::size_t d = 0; d < rank; ++d) p += idx[d] * strides[d];
    m.positions.push_back(p);
  });
  std::optional<ak::view<const i64>> v;
  expect(true, "ak::view", [&] { v.emplace(buffer.data() - low, *shape, st); });
  compare(*v, m, "the constructor");

  for (int op = 0; op < 12 && !in.done(); ++op) {
    const i64 r = static_cast<i64>(m.shape.size());
    switch (in.byte() % 6) {
      case 0: {  // slice
        const i64 dim = in.value(-1, r + 2);
        const i64 extent = dim >= 0 && dim < r ? m.shape[static_cast<std::size_t>(dim)] : 4;
        const i64 begin = in.value(-1, past(extent, 3));
        const i64 end = in.value(-1, past(extent, 3));
        const i64 step = in.value(-3, 7);
        const bool ok = dim >= 0 && dim < r && begin >= 0 && begin <= extent && end >= begin &&
                        end <= extent && step != 0;
        ak::view<const i64> out;
        if (!expect(ok, "ak::view::slice", [&] { out = v->slice(dim, begin, end, step); })) break;
        const std::uint64_t length = static_cast<std::uint64_t>(end - begin);
        const std::uint64_t abs_step =
            step > 0 ? static_cast<std::uint64_t>(step) : 0 - static_cast<std::uint64_t>(step);
        const i64 count = length == 0 ? 0 : static_cast<i64>(1 + (length - 1) / abs_step);
        std::vector<i64> shape_out = m.shape;
        const auto d = static_cast<std::size_t>(dim);
        shape_out[d] = count;
        m = remap(m, shape_out, [&](std::vector<i64> idx) {
          idx[d] = step > 0 ? begin + idx[d] * step : end - 1 + idx[d] * step;
          return idx;
        });
        v = out;
        compare(*v, m, "slice");
        break;
      }
      case 1: {  // index
        const i64 dim = in.value(-1, r + 2);
        const i64 extent = dim >= 0 && dim < r ? m.shape[static_cast<std::size_t>(dim)] : 4;
        const i64 i = in.value(-1, past(extent, 2));
        const bool ok = dim >= 0 && dim < r && i >= 0 && i < extent;
        ak::view<const i64> out;
        if (!expect(ok, "ak::view::index", [&] { out = v->index(dim, i); })) break;
        std::vector<i64> shape_out = m.shape;
        shape_out.erase(shape_out.begin() + dim);
        m = remap(m, shape_out, [&](std::vector<i64> idx) {
          idx.insert(idx.begin() + dim, i);
          return idx;
        });
        v = out;
        compare(*v, m, "index");
        break;
      }
      case 2: {  // reshape, to random extents or to a factoring of the size
        std::vector<i64> to;
        const i64 n = m.size();
        switch (in.byte() % 4) {
          case 0:
            to = read_extents(in, in.byte() % (max_model_rank + 1));
            break;
          case 1:
            to = {n};
            break;
          case 2: {
            i64 a = 1 + in.byte() % 8;
            while (n > 0 && n % a != 0) --a;
            to = {a, n > 0 ? n / a : 0};
            break;
          }
          default:
            to = {1, n, 1};
            break;
        }
        if (!valid_shape(to)) {
          expect(false, "ak::shape", [&] { ak::shape s{std::span<const i64>(to)}; });
          break;
        }
        const ak::shape target{std::span<const i64>(to)};
        ak::view<const i64> out;
        if (!expect(target.size() == n && m.contiguous(), "ak::view::reshape",
                    [&] { out = v->reshape(target); }))
          break;
        m.shape = to;  // the same elements in the same order
        v = out;
        compare(*v, m, "reshape");
        break;
      }
      case 3: {  // permute: a shuffle of 0..rank-1, sometimes broken
        std::vector<i64> dims(static_cast<std::size_t>(r));
        for (i64 k = 0; k < r; ++k) dims[static_cast<std::size_t>(k)] = k;
        for (i64 k = r - 1; k > 0; --k)
          std::swap(dims[static_cast<std::size_t>(k)],
                    dims[static_cast<std::size_t>(in.byte() % (k + 1))]);
        const std::uint8_t breakage = in.byte() % 8;
        if (breakage == 1) dims.push_back(in.value(-1, r + 2));
        if (breakage == 2 && !dims.empty()) dims.pop_back();
        if (breakage == 3 && !dims.empty()) dims[0] = in.value(-1, r + 2);
        std::vector<bool> seen(static_cast<std::size_t>(r), false);
        bool ok = static_cast<i64>(dims.size()) == r;
        for (i64 x : dims) {
          if (x < 0 || x >= r || seen[static_cast<std::size_t>(x)]) {
            ok = false;
            break;
          }
          seen[static_cast<std::size_t>(x)] = true;
        }
        ak::view<const i64> out;
        if (!expect(ok, "ak::view::permute", [&] { out = v->permute(std::span<const i64>(dims)); }))
          break;
        std::vector<i64> shape_out(dims.size());
        for (std::size_t k = 0; k < dims.size(); ++k)
          shape_out[k] = m.shape[static_cast<std::size_t>(dims[k])];
        m = remap(m, shape_out, [&](const std::vector<i64>& idx) {
          std::vector<i64> old(idx.size());
          for (std::size_t k = 0; k < idx.size(); ++k)
            old[static_cast<std::size_t>(dims[k])] = idx[k];
          return old;
        });
        v = out;
        compare(*v, m, "permute");
        break;
      }
      case 4: {  // transpose(): every dimension reversed
        std::vector<i64> shape_out(m.shape.rbegin(), m.shape.rend());
        m = remap(m, shape_out, [](std::vector<i64> idx) {
          std::reverse(idx.begin(), idx.end());
          return idx;
        });
        v = v->transpose();
        compare(*v, m, "transpose()");
        break;
      }
      default: {  // transpose(a, b)
        const i64 a = in.value(-1, r + 2);
        const i64 b = in.value(-1, r + 2);
        const bool ok = a >= 0 && a < r && b >= 0 && b < r;
        ak::view<const i64> out;
        if (!expect(ok, "ak::view::transpose", [&] { out = v->transpose(a, b); })) break;
        std::vector<i64> shape_out = m.shape;
        std::swap(shape_out[static_cast<std::size_t>(a)], shape_out[static_cast<std::size_t>(b)]);
        m = remap(m, shape_out, [&](std::vector<i64> idx) {
          std::swap(idx[static_cast<std::size_t>(a)], idx[static_cast<std::size_t>(b)]);
          return idx;
        });
        v = out;
        compare(*v, m, "transpose(a, b)");
        break;
      }
    }
  }
  return 0;
}
