#include "impetus/scheme/scheme_desc.h"

namespace impetus {

std::vector<std::string> ConsoleDesc::channels() const {
  std::vector<std::string> result;
  for (const ControlDesc& c : controls)
    for (const std::string& ch : c.channels) result.push_back(ch);
  return result;
}

}  // namespace impetus
