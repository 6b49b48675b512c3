// libFuzzer target: any bytes as a session file. Opening, reading records, poses, keyframes,
// the embedded scene and re-simulating must end in data or a SessionError - never a crash.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "impetus/session/session_reader.h"
#include "impetus/session/session_replay.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/impetus-fuzz-" + std::to_string(getpid()) + ".session";
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  for (const char* suffix : {"-wal", "-shm"}) std::remove((path + suffix).c_str());
  try {
    impetus::SessionReader reader(path);
    const auto first = reader.info().firstStep;
    if (reader.endStep() > first) reader.stepRecord(first);
    reader.posesAt(reader.endStep());
    impetus::SessionReplay replay(reader);
    for (int i = 0; i < 20 && replay.advance(); ++i) replay.matchesRecording();
  } catch (const impetus::SessionError&) {
  } catch (const impetus::SceneError&) {
  }
  return 0;
}
