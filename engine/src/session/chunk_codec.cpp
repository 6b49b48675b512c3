#include "chunk_codec.h"

#include <zstd.h>

#include <cstring>

#include "impetus/session/session_file.h"

namespace impetus::session {
namespace {

/// Largest chunk a reader accepts (a corrupt size field must not allocate gigabytes).
constexpr unsigned long long kMaxChunkBytes = 256ull << 20;

}  // namespace

std::vector<std::uint8_t> packBytes(std::span<const std::uint8_t> bytes, int level) {
  std::vector<std::uint8_t> out(ZSTD_compressBound(bytes.size()));
  ZSTD_CCtx* context = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1);
  const size_t n = ZSTD_compress2(context, out.data(), out.size(), bytes.data(), bytes.size());
  ZSTD_freeCCtx(context);
  if (ZSTD_isError(n)) throw SessionError(std::string("zstd: ") + ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

std::vector<std::uint8_t> unpackBytes(std::span<const std::uint8_t> packed,
                                      const std::string& what) {
  const unsigned long long size = ZSTD_getFrameContentSize(packed.data(), packed.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > kMaxChunkBytes)
    throw SessionError(what + ": damaged (not a compressed chunk)");
  std::vector<std::uint8_t> out(static_cast<size_t>(size));
  const size_t n = ZSTD_decompress(out.data(), out.size(), packed.data(), packed.size());
  if (ZSTD_isError(n) || n != out.size())
    throw SessionError(what + ": damaged (" +
                       (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "size mismatch") + ")");
  return out;
}

std::vector<std::uint8_t> packDoubles(std::span<const double> values, int level) {
  const size_t n = values.size();
  std::vector<std::uint8_t> shuffled(n * sizeof(double));
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(values.data());
  for (size_t i = 0; i < n; ++i)
    for (size_t b = 0; b < sizeof(double); ++b) shuffled[b * n + i] = bytes[i * sizeof(double) + b];
  return packBytes(shuffled, level);
}

std::vector<double> unpackDoubles(std::span<const std::uint8_t> packed, const std::string& what) {
  const std::vector<std::uint8_t> shuffled = unpackBytes(packed, what);
  if (shuffled.size() % sizeof(double)) throw SessionError(what + ": damaged (odd size)");
  const size_t n = shuffled.size() / sizeof(double);
  std::vector<double> values(n);
  auto* bytes = reinterpret_cast<std::uint8_t*>(values.data());
  for (size_t i = 0; i < n; ++i)
    for (size_t b = 0; b < sizeof(double); ++b) bytes[i * sizeof(double) + b] = shuffled[b * n + i];
  return values;
}

}  // namespace impetus::session
