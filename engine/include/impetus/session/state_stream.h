#pragma once
// The byte stream a simulation's full state is saved to and restored from (keyframes of a
// recorded session, take-over, tests). Values are written as their in-memory bytes (IEEE-754
// doubles, little-endian on every machine Impetus targets): a restored state is bit-identical.
// Each part of the world writes its own fields in a fixed order and reads them back in that order.

#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "impetus/math/types.h"

namespace impetus {

/// A state that does not fit: truncated, or recorded from a different world.
class StateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class StateWriter {
 public:
  template <class T>
  requires std::is_arithmetic_v<T>
  void put(T value) { append(&value, sizeof(T)); }
  void put(const Vec3& v) { putRaw(v.data(), 3); }
  void put(const Quat& q) { putRaw(q.coeffs().data(), 4); }
  void put(const Mat3& m) { putRaw(m.data(), 9); }
  /// A length-prefixed array.
  void put(std::span<const double> values) {
    put(static_cast<std::uint64_t>(values.size()));
    putRaw(values.data(), values.size());
  }
  /// A section marker: reading checks it, so a mismatch is caught where it starts.
  void tag(std::uint32_t fourCharacters) { put(fourCharacters); }

  const std::vector<std::uint8_t>& bytes() const { return bytes_; }
  std::vector<std::uint8_t> take() { return std::move(bytes_); }

 private:
  void putRaw(const double* values, size_t n) { append(values, n * sizeof(double)); }
  void append(const void* data, size_t n) {
    const size_t at = bytes_.size();
    bytes_.resize(at + n);
    if (n) std::memcpy(bytes_.data() + at, data, n);
  }
  std::vector<std::uint8_t> bytes_;
};

class StateReader {
 public:
  explicit StateReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  template <class T>
  requires std::is_arithmetic_v<T> T get() {
    if constexpr (std::is_same_v<T, bool>) {
      const std::uint8_t byte = *take(1);
      if (byte > 1) throw StateError("state: corrupt flag byte " + std::to_string(byte));
      return byte == 1;
    } else {
      T value;
      std::memcpy(&value, take(sizeof(T)), sizeof(T));
      return value;
    }
  }
  template <class T>
  requires std::is_arithmetic_v<T>
  void get(T& value) { value = get<T>(); }
  void get(Vec3& v) { getRaw(v.data(), 3); }
  void get(Quat& q) { getRaw(q.coeffs().data(), 4); }
  void get(Mat3& m) { getRaw(m.data(), 9); }
  /// A length-prefixed array; `maxSize` guards against a corrupt length.
  void get(std::vector<double>& values, size_t maxSize = size_t(1) << 24) {
    const auto n = get<std::uint64_t>();
    if (n > maxSize || n * sizeof(double) > remaining())
      throw StateError("state: array of " + std::to_string(n) + " values does not fit");
    values.resize(static_cast<size_t>(n));
    getRaw(values.data(), values.size());
  }
  /// Checks a section marker written by StateWriter::tag.
  void expect(std::uint32_t fourCharacters, const char* what) {
    if (get<std::uint32_t>() != fourCharacters)
      throw StateError(std::string("state: ") + what + " section missing or out of place");
  }
  /// Consumes an optional section marker: true when the next four bytes are it, else reads
  /// nothing (sections added later, absent from older recordings).
  bool accept(std::uint32_t fourCharacters) {
    std::uint32_t next = 0;
    if (remaining() < sizeof(next)) return false;
    std::memcpy(&next, bytes_.data() + offset_, sizeof(next));
    if (next != fourCharacters) return false;
    offset_ += sizeof(next);
    return true;
  }
  /// Throws unless `recorded` == `actual` (counts of bodies, joints, ... of the world).
  static void requireSame(std::uint64_t recorded, std::uint64_t actual, const char* what) {
    if (recorded != actual)
      throw StateError("state does not fit this scene: " + std::to_string(recorded) + " " + what +
                       " recorded, " + std::to_string(actual) + " in the scene");
  }
  size_t remaining() const { return bytes_.size() - offset_; }
  bool atEnd() const { return offset_ == bytes_.size(); }

 private:
  const std::uint8_t* take(size_t n) {
    if (n > remaining())
      throw StateError("state: truncated at byte " + std::to_string(offset_) + " of " +
                       std::to_string(bytes_.size()));
    const std::uint8_t* p = bytes_.data() + offset_;
    offset_ += n;
    return p;
  }
  void getRaw(double* values, size_t n) {
    const std::uint8_t* p = take(n * sizeof(double));
    if (n) std::memcpy(values, p, n * sizeof(double));  // (an empty vector has no data())
  }
  std::span<const std::uint8_t> bytes_;
  size_t offset_ = 0;
};

/// A four-character section tag, e.g. stateTag("BODY").
constexpr std::uint32_t stateTag(const char (&s)[5]) {
  return std::uint32_t(std::uint8_t(s[0])) | std::uint32_t(std::uint8_t(s[1])) << 8 |
         std::uint32_t(std::uint8_t(s[2])) << 16 | std::uint32_t(std::uint8_t(s[3])) << 24;
}

}  // namespace impetus
