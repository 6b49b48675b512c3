// libFuzzer target: any bytes as a scene file. The loader must answer with a scene or a
// SceneError (file:line: problem) - never crash, hang or leak; a scene that loads steps cleanly.
#include <cstddef>
#include <cstdint>
#include <string>

#include "impetus/scene/scene_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    impetus::LoadedScene scene = impetus::loadSceneText(text, "fuzz.xml", IMPETUS_SCENES_DIR);
    for (int i = 0; i < 5; ++i) {
      const std::vector<double> channels(scene.console.channels().size(), 0.0);
      if (scene.scheme) scene.scheme->step(channels, scene.step);
      if (!scene.world->step(scene.step).ok) break;  // non-finite: reported, not a crash
    }
  } catch (const impetus::SceneError&) {
  }
  return 0;
}
