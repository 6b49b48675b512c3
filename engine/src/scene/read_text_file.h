#pragma once
// Reads a scene's file (scene, include, mesh, input script) whole, refusing what is not a
// regular file or is implausibly large: `<include file="/dev/zero"/>` must fail, not hang.

#include <string>

namespace impetus {

/// Largest file a scene may consist of (unit: bytes).
constexpr long long kMaxSceneFileBytes = 256ll << 20;

/// True and `content` on success; false and `problem` ("cannot open the file", "not a regular
/// file", "larger than 256 MB") otherwise.
bool readTextFile(const std::string& path, std::string& content, std::string& problem);

}  // namespace impetus
