// FNV-1a, 64 bits: the one digest ak keeps of texts and bytes (the autotune cache's schema stamp,
// the calls that ak::dist's ranks compare, the results that ak tune compares). Not for security.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ak::detail {

class fnv1a64 {
 public:
  fnv1a64& bytes(const void* data, std::size_t n) noexcept {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) step(p[i]);
    return *this;
  }
  // The text, then a separator byte that no UTF-8 text holds, so that texts added one after
  // another digest apart: ("ab", "c") differs from ("a", "bc").
  fnv1a64& text(std::string_view s) noexcept {
    bytes(s.data(), s.size());
    step(0xffu);
    return *this;
  }
  std::uint64_t value() const noexcept { return h_; }

 private:
  void step(unsigned char c) noexcept { h_ = (h_ ^ c) * 0x100000001b3ULL; }
  std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

}  // namespace ak::detail
