#pragma once
// Test helper: a scheme block description in one expression.

#include <map>
#include <string>

#include "impetus/scheme/scheme_desc.h"

namespace impetus::testing {

inline BlockDesc block(std::string type, std::string name,
                       std::map<std::string, std::string> params = {},
                       std::map<std::string, std::string> inputs = {}) {
  BlockDesc b;
  b.type = std::move(type);
  b.name = std::move(name);
  b.params = std::move(params);
  b.inputs = std::move(inputs);
  return b;
}

}  // namespace impetus::testing
