#include "block_ports.h"

namespace impetus::app {

std::vector<std::vector<int>> blocksWithPorts(const Scheme& scheme,
                                              const std::vector<std::string>& ports) {
  std::vector<std::vector<int>> found;
  if (ports.empty()) return found;
  const std::string first = "." + ports.front();
  for (const std::string& name : scheme.signalNames()) {
    if (name.size() <= first.size() ||
        name.compare(name.size() - first.size(), first.size(), first) != 0)
      continue;
    const std::string block = name.substr(0, name.size() - first.size());
    std::vector<int> indices;
    for (const std::string& port : ports) {
      const int index = scheme.signalIndex(block + "." + port);
      if (index < 0) break;
      indices.push_back(index);
    }
    if (indices.size() == ports.size()) found.push_back(std::move(indices));
  }
  return found;
}

}  // namespace impetus::app
