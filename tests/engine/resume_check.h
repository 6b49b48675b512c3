#pragma once
// Whether a world loaded from a saved state steps on exactly as the world it came from: the
// check behind replays and crash recovery, shared by the tests of what a step carries over.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "impetus/dynamics/world.h"
#include "impetus/session/state_stream.h"

namespace impetus {

/// Steps a world made by `build` `steps` times, keeping its state after each; then worlds made
/// the same way load every `every`-th state from `first` on and step `span` more. Returns how
/// many of them ended in other bytes than the original there, and how many were checked.
template <class Build>
std::pair<int, int> divergedResumes(const Build& build, int steps, int first, int every, int span,
                                    double dt) {
  World original;
  build(original);
  std::vector<std::vector<std::uint8_t>> states;  // after each step
  for (int i = 0; i < steps; ++i) {
    EXPECT_TRUE(original.step(dt).ok);
    StateWriter out;
    original.saveState(out);
    states.push_back(out.take());
  }
  int diverged = 0, checked = 0;
  for (size_t from = static_cast<size_t>(first); from + static_cast<size_t>(span) < states.size();
       from += static_cast<size_t>(every)) {
    World resumed;
    build(resumed);
    StateReader in(states[from]);
    resumed.loadState(in);
    for (int k = 0; k < span; ++k) EXPECT_TRUE(resumed.step(dt).ok);
    StateWriter out;
    resumed.saveState(out);
    ++checked;
    diverged += out.bytes() == states[from + static_cast<size_t>(span)] ? 0 : 1;
  }
  return {diverged, checked};
}

}  // namespace impetus
