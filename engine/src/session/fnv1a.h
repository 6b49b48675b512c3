#pragma once
// FNV-1a, 64 bit: the session files' fingerprint of states and embedded scenes (not a security
// hash: it detects change and damage, which is what a session needs).

#include <cstddef>
#include <cstdint>

namespace impetus::session {

struct Fnv1a {
  std::uint64_t value = 1469598103934665603ull;
  void add(const void* data, std::size_t n) {
    const auto* p = static_cast<const std::uint8_t*>(data);
    for (std::size_t i = 0; i < n; ++i) value = (value ^ p[i]) * 1099511628211ull;
  }
};

}  // namespace impetus::session
