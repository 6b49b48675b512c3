#pragma once
// Loads an XML scene (format: scenes/README.md) into a ready world, its functional scheme and its
// console description. Errors name the file, the line and the problem.

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "impetus/dynamics/world.h"
#include "impetus/exercise/exercise.h"
#include "impetus/flex/beam.h"
#include "impetus/scene/light_desc.h"
#include "impetus/scene/visual_desc.h"
#include "impetus/scheme/scheme.h"
#include "impetus/scheme/scheme_desc.h"

namespace impetus {

/// A bad scene: what() is "FILE:LINE: problem".
class SceneError : public std::runtime_error {
 public:
  SceneError(const std::string& file, int line, const std::string& problem)
      : std::runtime_error(file + ":" + std::to_string(line) + ": " + problem),
        file_(file),
        line_(line) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }

 private:
  std::string file_;
  int line_;
};

struct CameraDesc {
  std::string name;
  BodyId body = World::kGround;
  Vec3 position = Vec3::Zero();             ///< in the body frame (m)
  Quat orientation = Quat::Identity();      ///< looks along its -z, up +y (OpenGL convention)
  double fieldOfView = 1.0471975511965976;  ///< vertical (rad; 60 degrees unless given)
  int width = 640, height = 480;            ///< the picture it gives (pixels): its aspect
};

struct LoadedScene {
  std::string name;
  std::string file;
  double step = 0.01;   ///< physics step (s)
  double frame = 0.04;  ///< render frame (s)
  std::unique_ptr<World> world;
  std::optional<Scheme> scheme;
  SchemeDesc schemeDesc;
  ConsoleDesc console;
  std::vector<CameraDesc> cameras;
  /// Every file the scene was read from (the scene, its includes, meshes): path as opened and
  /// the content read, which a session recording embeds. A scene loaded from text lists only
  /// what it included.
  struct SourceFile {
    std::string path;
    std::string content;
  };
  std::vector<SourceFile> sources;
  /// Geoms as loaded, per body (the renderer draws them).
  std::vector<std::pair<BodyId, ShapeDesc>> geoms;
  /// Flexible links, which the renderer draws as smooth tubes (their segments' geoms are in
  /// `geoms` too, as the collision shapes).
  std::vector<BeamShape> beams;
  /// What the renderer draws in place of the geoms of the bodies that have any (<visual>).
  std::vector<VisualDesc> visuals;
  /// Lamps carried by bodies (<light>), and the scene's fog (<fog>), if any.
  std::vector<LightDesc> lights;
  std::optional<FogDesc> fog;
  /// The training exercise the scene sets, if any.
  std::optional<ExerciseDesc> exercise;
};

struct SceneLoadOptions {
  /// Where else to look for a <visual>'s mesh or texture that is not where the scene names it,
  /// given the path looked at. When set, a visual found in neither place is left out (its body
  /// is drawn from its geoms) rather than an error: a session's embedded scene, extracted to a
  /// temporary folder, draws the assets beside the recorded scene file, or its geoms.
  std::function<std::string(const std::string&)> relocateVisualFile;
};

/// Parses and builds; throws SceneError.
LoadedScene loadScene(const std::string& path, const SceneLoadOptions& options = {});
/// The same from text (`name` stands for the file in messages; includes resolve against `dir`).
LoadedScene loadSceneText(const std::string& text, const std::string& name,
                          const std::string& dir = ".", const SceneLoadOptions& options = {});

}  // namespace impetus
