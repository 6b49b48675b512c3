#pragma once
// Compression of a session file's chunks: arrays of doubles are byte-shuffled (all first bytes,
// then all second bytes, ...: sign/exponent bytes of slowly varying values line up and
// compress) and zstd-compressed with a content checksum, so a damaged chunk is detected.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace impetus::session {

/// Shuffles `values` and compresses them at zstd `level`.
std::vector<std::uint8_t> packDoubles(std::span<const double> values, int level);
/// The inverse; throws SessionError (naming `what`) for a damaged chunk.
std::vector<double> unpackDoubles(std::span<const std::uint8_t> packed, const std::string& what);
/// Plain zstd with checksum, for byte data (keyframes, embedded files).
std::vector<std::uint8_t> packBytes(std::span<const std::uint8_t> bytes, int level);
std::vector<std::uint8_t> unpackBytes(std::span<const std::uint8_t> packed,
                                      const std::string& what);

}  // namespace impetus::session
