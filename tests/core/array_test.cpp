#include "ak/core/array.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ak/core/dtype.hpp"
#include "ak/core/error.hpp"
#include "error_message.hpp"
#include "test_memory.hpp"

namespace {

using ak::test::contains;
using ak::test::error_message;

using ak::array;
using ak::shape;

// Distinct-looking test values of any dtype (negative ones for signed types).
template <class T>
T value_at(std::int64_t i) {
  if constexpr (std::is_same_v<T, bool>) {
    return i % 3 == 0;
  } else {
    return static_cast<T>((i * 37) % 101 - 50);
  }
}

template <class T>
std::vector<T> test_values(std::int64_t n) {
  std::vector<T> values;
  for (std::int64_t i = 0; i < n; ++i) values.push_back(value_at<T>(i));
  return values;
}

// ---------------------------------------------------------------------------------------------
// Every dtype.

template <class T>
class ArrayOfDtype : public ::testing::Test {};

using dtypes =
    ::testing::Types<bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                     std::uint16_t, std::uint32_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(ArrayOfDtype, dtypes);

TYPED_TEST(ArrayOfDtype, FromVectorRoundTrips) {
  using T = TypeParam;
  static_assert(ak::has_dtype_v<T>);
  // std::vector<bool> is not contiguous: it goes through the element-wise path.
  const std::vector<T> values = test_values<T>(12);
  const array<T> a(values);
  EXPECT_EQ(a.rank(), 1u);
  EXPECT_EQ(a.shape(), shape{12});
  EXPECT_EQ(a.size(), 12);
  EXPECT_EQ(a.device_name(), "cpu:0");
  EXPECT_EQ(&a.memory(), &ak::host_memory());
  EXPECT_EQ(a.to_vector(), values);
  for (std::int64_t i = 0; i < 12; ++i) EXPECT_EQ(a(i), values[static_cast<std::size_t>(i)]);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % ak::host_alignment, 0u);
}

TYPED_TEST(ArrayOfDtype, FromSpanWithShape) {
  using T = TypeParam;
  const std::vector<T> values = test_values<T>(12);
  std::unique_ptr<T[]> host(new T[12]);
  for (std::size_t i = 0; i < 12; ++i) host[i] = values[i];
  const std::span<const T> source(host.get(), 12);
  const array<T> a(source, shape{3, 4});
  EXPECT_EQ(a.shape(), (shape{3, 4}));
  EXPECT_EQ(a(2, 1), values[9]);
  EXPECT_EQ(a.at(1, 3), values[7]);
  EXPECT_EQ(a.to_vector(), values);

  const std::string message = error_message([&] { array<T>(source, shape{5, 2}); });
  EXPECT_EQ(message,
            "ak::array: argument 'data': expected 10 elements (shape (5, 2)), got 12 elements");
}

TYPED_TEST(ArrayOfDtype, CopyTo) {
  using T = TypeParam;
  const std::vector<T> values = test_values<T>(6);
  const array<T> a(values, shape{2, 3});
  std::unique_ptr<T[]> out(new T[6]{});
  a.copy_to(std::span<T>(out.get(), 6));
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(out[i], values[i]);

  // A destination of the wrong size is an error, and nothing is written to it.
  std::unique_ptr<T[]> small(new T[5]);
  for (std::size_t i = 0; i < 5; ++i) small[i] = value_at<T>(100 + static_cast<std::int64_t>(i));
  const std::string message = error_message([&] { a.copy_to(std::span<T>(small.get(), 5)); });
  EXPECT_EQ(message,
            "ak::array::copy_to: argument 'destination': expected 6 elements, got 5 elements");
  for (std::size_t i = 0; i < 5; ++i)
    EXPECT_EQ(small[i], value_at<T>(100 + static_cast<std::int64_t>(i)));
}

TYPED_TEST(ArrayOfDtype, FillAndCopyFrom) {
  using T = TypeParam;
  array<T> a(shape{2, 2}, value_at<T>(1));
  EXPECT_EQ(a.to_vector(), std::vector<T>(4, value_at<T>(1)));
  const std::vector<T> values = test_values<T>(4);
  std::unique_ptr<T[]> host(new T[4]);
  for (std::size_t i = 0; i < 4; ++i) host[i] = values[i];
  a.copy_from(std::span<const T>(host.get(), 4));
  EXPECT_EQ(a.to_vector(), values);
  EXPECT_THROW(a.copy_from(std::span<const T>(host.get(), 3)), ak::argument_error);
  EXPECT_EQ(a.to_vector(), values);
}

// ---------------------------------------------------------------------------------------------

TEST(Array, ShapeOnlyAndRankZero) {
  array<float> a(shape{2, 3, 4});
  EXPECT_EQ(a.size(), 24);
  EXPECT_NE(a.data(), nullptr);
  a(1, 2, 3) = 5.0f;
  EXPECT_EQ(a.view()(1, 2, 3), 5.0f);
  EXPECT_EQ(a.data()[23], 5.0f);

  array<double> scalar(shape{}, 1.5);
  EXPECT_EQ(scalar.rank(), 0u);
  EXPECT_EQ(scalar.size(), 1);
  EXPECT_EQ(scalar(), 1.5);
  EXPECT_EQ(scalar.to_vector(), std::vector<double>{1.5});
}

TEST(Array, BracesMeanAShape) {
  // A braced list is a shape, never data (see array.hpp).
  const array<float> a({2, 3});
  EXPECT_EQ(a.shape(), (shape{2, 3}));
  const array<std::int64_t> b({4});
  EXPECT_EQ(b.shape(), shape{4});
}

TEST(Array, Empty) {
  const ak_test::counting_memory memory(true);
  for (const shape& s : {shape{0}, shape{3, 0}, shape{0, 5, 2}}) {
    const array<int> a(s, memory);
    EXPECT_EQ(a.size(), 0);
    EXPECT_TRUE(a.empty());
    EXPECT_EQ(a.data(), nullptr);
    EXPECT_EQ(a.shape(), s);
    EXPECT_TRUE(a.to_vector().empty());
    a.copy_to(std::span<int>());
    EXPECT_TRUE(a.clone().empty());
    const ak::view<const int> v = a;
    EXPECT_TRUE(v.empty());
  }
  const array<int> from_empty(std::vector<int>{}, memory);
  EXPECT_EQ(from_empty.shape(), shape{0});
  EXPECT_EQ(memory.allocations, 0);
  EXPECT_EQ(memory.copies_from_host + memory.copies_to_host, 0);

  const array<double> by_default;
  EXPECT_EQ(by_default.shape(), shape{0});
  EXPECT_EQ(by_default.data(), nullptr);
  EXPECT_EQ(by_default.device_name(), "cpu:0");
}

TEST(Array, TooManyBytesIsAnError) {
  // 2^62 elements fit in int64, but not their 2^65 bytes.
  const std::string message = error_message([] {
    array<double>(shape{std::int64_t{1} << 31, std::int64_t{1} << 31});
  });
  EXPECT_TRUE(contains(message, "ak::array: argument 'shape'")) << message;
  EXPECT_TRUE(contains(message, "got (2147483648, 2147483648) with 4611686018427387904 elements"))
      << message;
}

struct particle {
  float x;
  float y;
  std::int32_t id;
  bool operator==(const particle&) const = default;
};

TEST(Array, CustomElementType) {
  static_assert(!ak::has_dtype_v<particle>);
  const std::vector<particle> values{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}};
  array<particle> a(values, shape{2, 2});
  EXPECT_EQ(a(1, 0), (particle{7, 8, 9}));
  a.at(0, 1).id = 42;
  EXPECT_EQ(a.to_vector()[1].id, 42);
  const array<particle> filled(shape{3}, particle{0.5f, 0.25f, -1});
  EXPECT_EQ(filled.to_vector(), std::vector<particle>(3, particle{0.5f, 0.25f, -1}));
}

TEST(Array, Move) {
  const ak_test::counting_memory memory(true, "counted");
  array<int> a(std::vector<int>{1, 2, 3}, memory);
  const int* data = a.data();
  array<int> b(std::move(a));
  EXPECT_EQ(b.data(), data);
  EXPECT_EQ(b.to_vector(), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(b.device_name(), "counted");
  // The source is empty, and still usable.
  EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move): checking the moved-from state
  EXPECT_EQ(a.shape(), shape{0});
  EXPECT_TRUE(a.to_vector().empty());

  array<int> c(shape{10}, 0, memory);
  EXPECT_EQ(memory.allocations, 2);
  c = std::move(b);  // frees c's old elements
  EXPECT_EQ(memory.deallocations, 1);
  EXPECT_EQ(c.data(), data);
  EXPECT_EQ(b.data(), nullptr);  // NOLINT(bugprone-use-after-move)
  array<int>& alias = c;
  c = std::move(alias);  // self-move keeps the elements
  EXPECT_EQ(c.to_vector(), (std::vector<int>{1, 2, 3}));
  a = std::move(c);
  EXPECT_EQ(a.to_vector(), (std::vector<int>{1, 2, 3}));
  { array<int> dropped(std::move(a)); }
  EXPECT_EQ(memory.deallocations, 2);
  EXPECT_EQ(memory.live_bytes, 0u);

  static_assert(!std::is_copy_constructible_v<array<int>>);
  static_assert(!std::is_copy_assignable_v<array<int>>);
  static_assert(std::is_nothrow_move_constructible_v<array<int>>);
  static_assert(std::is_nothrow_move_assignable_v<array<int>>);
}

// truncate keeps the first elements where they are; the whole allocation is freed with the array
// (the counting memory checks that deallocate gets the bytes allocate gave).
TEST(Array, Truncate) {
  const ak_test::counting_memory memory(true, "counted");
  {
    array<int> a(std::vector<int>{1, 2, 3, 4, 5}, memory);
    const int* data = a.data();
    a.truncate(5);
    a.truncate(2);
    EXPECT_EQ(a.data(), data);
    EXPECT_EQ(a.shape(), shape{2});
    EXPECT_EQ(a.to_vector(), (std::vector<int>{1, 2}));
    EXPECT_EQ(a.clone().to_vector(), (std::vector<int>{1, 2}));
    EXPECT_THROW(a.truncate(3), ak::argument_error);
    EXPECT_THROW(a.truncate(-1), ak::argument_error);
    EXPECT_EQ(a.shape(), shape{2});
    array<int> b(std::move(a));  // the allocation moves with the elements
    EXPECT_EQ(b.data(), data);
    EXPECT_EQ(memory.live_bytes, 5 * sizeof(int));  // b's; the clone is freed
  }
  EXPECT_EQ(memory.live_bytes, 0u);
  array<int> c(shape{4}, 7, memory);
  c.truncate(0);  // empty: nothing held
  EXPECT_EQ(c.data(), nullptr);
  EXPECT_EQ(memory.live_bytes, 0u);
  array<int> square(shape{2, 2}, 0, memory);
  EXPECT_THROW(square.truncate(1), ak::argument_error);
  EXPECT_EQ(square.shape(), (shape{2, 2}));
}

TEST(Array, Clone) {
  array<int> a(std::vector<int>{1, 2, 3, 4}, shape{2, 2});
  array<int> b = a.clone();
  EXPECT_NE(b.data(), a.data());
  b(0, 0) = 9;
  EXPECT_EQ(a(0, 0), 1);
  EXPECT_EQ(b.to_vector(), (std::vector<int>{9, 2, 3, 4}));
  EXPECT_EQ(b.shape(), a.shape());
}

int sum_of(ak::view<const int> v) {
  int total = 0;
  for (std::int64_t i = 0; i < v.shape()[0]; ++i)
    for (std::int64_t j = 0; j < v.shape()[1]; ++j) total += v(i, j);
  return total;
}

void add_one(ak::view<int> v) {
  for (std::int64_t i = 0; i < v.shape()[0]; ++i)
    for (std::int64_t j = 0; j < v.shape()[1]; ++j) v(i, j) += 1;
}

TEST(Array, ConvertsToViews) {
  array<int> a(std::vector<int>{1, 2, 3, 4, 5, 6}, shape{2, 3});
  EXPECT_EQ(sum_of(a), 21);
  add_one(a);
  EXPECT_EQ(sum_of(a), 27);
  const array<int>& const_ref = a;
  EXPECT_EQ(sum_of(const_ref), 27);
  static_assert(!std::is_convertible_v<const array<int>&, ak::view<int>>);
  EXPECT_EQ(a.view().transpose()(2, 1), 7);
  EXPECT_TRUE(a.view().is_contiguous());
  // Deduced types.
  ak::view v(a);
  static_assert(std::is_same_v<decltype(v), ak::view<int>>);
  ak::view cv(const_ref);
  static_assert(std::is_same_v<decltype(cv), ak::view<const int>>);
  ak::array d(std::vector<float>{1, 2});
  static_assert(std::is_same_v<decltype(d), ak::array<float>>);
  ak::array e(std::vector<float>{1, 2}, shape{2, 1});
  EXPECT_EQ(e.shape(), (shape{2, 1}));
}

TEST(Array, AtErrors) {
  const array<int> a(shape{2, 3}, 0);
  std::string message = error_message([&] { (void)a.at(2, 0); });
  EXPECT_EQ(message, "ak::view::at: argument 'indices[0]': expected 0 <= indices[0] < 2, got 2");
  message = error_message([&] { (void)a.at(0); });
  EXPECT_TRUE(contains(message, "argument 'indices'") && contains(message, "got 1")) << message;
}

// ---------------------------------------------------------------------------------------------
// Memory that the host cannot touch: everything goes through copy_to_host / copy_from_host.

TEST(DeviceArray, CopiesThroughTheMemorySpace) {
  const ak_test::counting_memory device(false);
  const std::vector<double> values = test_values<double>(10);
  const array<double> a(values, device);
  EXPECT_EQ(&a.memory(), &device);
  EXPECT_EQ(a.device_name(), "fake:0");
  EXPECT_EQ(device.allocations, 1);
  EXPECT_EQ(device.copies_from_host, 1);
  EXPECT_EQ(a.to_vector(), values);
  EXPECT_EQ(device.copies_to_host, 1);
  EXPECT_THROW((void)a.at(0), ak::argument_error);
  EXPECT_EQ(a.view().device_name(), "fake:0");

  const array<double> b = a.clone();
  EXPECT_EQ(&b.memory(), &device);
  EXPECT_EQ(b.to_vector(), values);
}

TEST(DeviceArray, VectorOfBool) {
  const ak_test::counting_memory device(false);
  const std::vector<bool> values = test_values<bool>(9);
  const array<bool> a(values, shape{3, 3}, device);
  EXPECT_EQ(a.to_vector(), values);
  EXPECT_EQ(device.copies_from_host, 1);
}

TEST(DeviceArray, FillInChunks) {
  const ak_test::counting_memory device(false);
  // More than one 64 KiB staging chunk of int64.
  const std::int64_t n = 3 * 8192 + 5;
  const array<std::int64_t> a(shape{n}, -7, device);
  EXPECT_EQ(device.copies_from_host, 4);
  EXPECT_EQ(a.to_vector(), std::vector<std::int64_t>(static_cast<std::size_t>(n), -7));
}

TEST(DeviceArray, NothingLeaksWhenACopyFails) {
  ak_test::counting_memory device(false);
  device.fail_copies_from_host = true;
  const std::vector<int> values{1, 2, 3};
  EXPECT_THROW(array<int>(values, device), std::runtime_error);
  EXPECT_THROW(array<int>(values, shape{3, 1}, device), std::runtime_error);
  EXPECT_THROW(array<int>(shape{3}, 1, device), std::runtime_error);
  EXPECT_THROW(array<bool>(std::vector<bool>{true, false}, device), std::runtime_error);
  EXPECT_EQ(device.allocations, 4);
  EXPECT_EQ(device.deallocations, 4);
  EXPECT_EQ(device.live_bytes, 0u);

  device.fail_copies_from_host = false;
  const array<int> a(values, device);
  device.fail_copies_from_host = true;
  EXPECT_THROW((void)a.clone(), std::runtime_error);
  EXPECT_EQ(device.live_bytes, 3 * sizeof(int));
}

TEST(DeviceArray, HostAccessibleSpacesAreTouchedDirectly) {
  // E.g. managed memory: element access works, fills need no staging.
  const ak_test::counting_memory managed(true, "managed:0");
  array<int> a(shape{4}, 3, managed);
  EXPECT_EQ(managed.copies_from_host, 0);
  a.at(2) = 5;
  EXPECT_EQ(a.to_vector(), (std::vector<int>{3, 3, 5, 3}));
}

}  // namespace
