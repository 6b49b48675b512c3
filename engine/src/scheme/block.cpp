#include "impetus/scheme/block.h"

#include <cmath>
#include <sstream>

namespace impetus {

std::string blockContext(const BlockDesc& desc) {
  std::string s = "block '" + desc.name + "' (" + desc.type;
  if (desc.line > 0) s += ", line " + std::to_string(desc.line);
  return s + "): ";
}

void BlockBuild::fail(const std::string& what) const {
  throw SchemeError(blockContext(desc_) + what);
}

std::vector<double> BlockBuild::numbers(const std::string& key) const {
  const auto it = desc_.params.find(key);
  if (it == desc_.params.end()) fail("missing parameter '" + key + "'");
  std::istringstream in(it->second);
  std::vector<double> values;
  std::string token;
  while (in >> token) {
    char* end = nullptr;
    const double v = std::strtod(token.c_str(), &end);
    if (end == token.c_str() || *end != '\0' || !std::isfinite(v))
      fail("parameter '" + key + "': '" + token + "' is not a finite number");
    values.push_back(v);
  }
  return values;
}

double BlockBuild::number(const std::string& key) const {
  const std::vector<double> v = numbers(key);
  if (v.size() != 1) fail("parameter '" + key + "' must be one number");
  return v[0];
}

double BlockBuild::number(const std::string& key, double fallback) const {
  return desc_.params.count(key) ? number(key) : fallback;
}

std::string BlockBuild::text(const std::string& key) const {
  const auto it = desc_.params.find(key);
  if (it == desc_.params.end()) fail("missing parameter '" + key + "'");
  return it->second;
}

std::string BlockBuild::text(const std::string& key, const std::string& fallback) const {
  const auto it = desc_.params.find(key);
  return it == desc_.params.end() ? fallback : it->second;
}

std::vector<std::string> BlockBuild::numberedInputs(int fallbackCount) const {
  const double n = number("inputs", fallbackCount);
  if (n < 1 || n > 64 || n != std::floor(n)) fail("'inputs' must be a whole number from 1 to 64");
  std::vector<std::string> names;
  for (int i = 1; i <= static_cast<int>(n); ++i) names.push_back("in" + std::to_string(i));
  return names;
}

}  // namespace impetus
