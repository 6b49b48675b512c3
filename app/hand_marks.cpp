#include "hand_marks.h"

#include <string>

namespace impetus::app {

void measureHands(const Scheme* scheme, std::vector<render::HandMark>& out) {
  out.clear();
  if (!scheme) return;
  const std::string key = ".world_x";
  for (const std::string& name : scheme->signalNames()) {
    if (name.size() <= key.size() || name.compare(name.size() - key.size(), key.size(), key) != 0)
      continue;
    const std::string block = name.substr(0, name.size() - key.size());
    int index[6];
    bool complete = true;
    const char* ports[6] = {".world_x", ".world_y", ".world_z", ".force_x", ".force_y", ".force_z"};
    for (int i = 0; i < 6; ++i)
      complete = complete && (index[i] = scheme->signalIndex(block + ports[i])) >= 0;
    if (!complete) continue;
    render::HandMark mark;
    for (int i = 0; i < 3; ++i) {
      mark.target[i] = scheme->signalAt(index[i]);
      mark.force[i] = scheme->signalAt(index[3 + i]);
    }
    out.push_back(mark);
  }
}

}  // namespace impetus::app
