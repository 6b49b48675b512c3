#pragma once
// Test helper: a recorded session replays bit for bit, whole and resumed from a step (which
// loads the keyframe before it, so the scheme's and the world's saved states are exercised).

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "impetus/session/session_reader.h"
#include "impetus/session/session_replay.h"

namespace impetus::testing {

inline void expectReplaysBitForBit(const std::string& path, std::int64_t resumeAt) {
  SessionReader reader(path);
  SessionReplay replay(reader);
  const auto divergence = replay.verify();
  EXPECT_FALSE(divergence.has_value()) << divergence->what;
  SessionReplay resumed(reader);
  resumed.seek(resumeAt);
  while (resumed.advance()) ASSERT_TRUE(resumed.matchesRecording()) << resumed.position();
}

}  // namespace impetus::testing
