#include "hand_marks.h"

#include "block_ports.h"

namespace impetus::app {

void measureHands(const Scheme* scheme, std::vector<render::HandMark>& out) {
  out.clear();
  if (!scheme) return;
  for (const std::vector<int>& s : blocksWithPorts(
           *scheme, {"world_x", "world_y", "world_z", "force_x", "force_y", "force_z"})) {
    render::HandMark mark;
    for (int i = 0; i < 3; ++i) {
      mark.target[i] = scheme->signalAt(s[size_t(i)]);
      mark.force[i] = scheme->signalAt(s[size_t(3 + i)]);
    }
    out.push_back(mark);
  }
}

}  // namespace impetus::app
