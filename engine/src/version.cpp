#include "impetus/version.h"

namespace impetus {
const char* version() {
  return "0.1.0";
}
}  // namespace impetus
