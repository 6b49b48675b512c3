#pragma once

namespace impetus {
/// Program version, e.g. "0.1.0".
const char* version();
}  // namespace impetus
