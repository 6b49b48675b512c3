#include "impetus/session/push.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace impetus {

ScheduledPush parsePush(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    throw std::invalid_argument("push '" + text + "': " + why + " (expected BODY@T=FX,FY,FZ)");
  };
  const size_t at = text.rfind('@');
  const size_t eq = text.find('=', at == std::string::npos ? 0 : at);
  if (at == std::string::npos || at == 0 || eq == std::string::npos) bad("malformed");
  ScheduledPush p;
  p.body = text.substr(0, at);
  const auto number = [&](const std::string& field) {
    char* end = nullptr;
    const double v = std::strtod(field.c_str(), &end);
    if (field.empty() || *end != '\0' || !std::isfinite(v)) bad("'" + field + "' is not a number");
    return v;
  };
  p.time = number(text.substr(at + 1, eq - at - 1));
  if (p.time < 0.0) bad("the time is negative");
  std::string rest = text.substr(eq + 1);
  for (int k = 0; k < 3; ++k) {
    const size_t comma = rest.find(',');
    if ((k < 2) != (comma != std::string::npos)) bad("needs three impulse components");
    p.impulse[k] = number(rest.substr(0, comma));
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
  }
  return p;
}

std::string formatPush(const ScheduledPush& p) {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, "@%.17g=%.17g,%.17g,%.17g", p.time, p.impulse.x(),
                p.impulse.y(), p.impulse.z());
  return p.body + buffer;
}

}  // namespace impetus
