#pragma once
// How the shadowed scene is lit: the sun (OpenGL light 0), the lamps robots carry (lights 1 to
// 4), the sun's shadows and the fog. Without shadows or a lamp on, the fixed-function pipeline
// lights the vertices (cheapest under software GL). A lamp's cone on a large face (a 30 m yard
// is two triangles) needs its light per pixel, and shadows their test per pixel: each has its
// program (see Pipeline).

#include <map>
#include <optional>
#include <osg/Fog>
#include <osg/Group>
#include <osg/LightSource>
#include <osg/Program>
#include <osg/Texture2D>
#include <osg/Vec3>
#include <osg/Vec4>
#include <osg/ref_ptr>
#include <vector>

#include "impetus/scene/light_desc.h"

namespace impetus::render {

class SceneLighting {
 public:
  /// Lights `scene` (the shadowed scene: the sun, the ground, the bodies).
  explicit SceneLighting(osg::Group* scene);

  /// Shadows on (their map on texture unit 1) and the filter: a texel step > 0 averages four taps.
  void setShadows(bool on, float texelStep);
  /// The scene's lamps, all off until placed.
  void setLamps(const std::vector<LightDesc>& lamps);
  /// A lamp's pose this frame (world: where it is and its beam's axis) and whether it is on.
  struct LampState {
    osg::Vec3 position, direction{1, 0, 0};
    bool on = false;
  };
  /// Every lamp's state (setLamps order). The first kMaxLights that are on light the scene
  /// (OpenGL lights 1 to 4); the lamps of a fifth robot on the ground wait for one to go off.
  void placeLamps(const std::vector<LampState>& lamps);
  /// How many lamps light the scene now.
  int lampsLit() const { return lampsLit_; }
  /// Distance fog, or none.
  void setFog(const std::optional<FogDesc>& fog);
  /// What draws the scene: FixedFunction (no shadows, no lamp lit); Lamps (no shadows: the sun
  /// per vertex, the lamps per pixel); Shadowed (the shadow test and the lamps per pixel, and
  /// at High the sun with its gloss too).
  enum class Pipeline { FixedFunction, Lamps, Shadowed };
  Pipeline pipeline() const { return pipeline_; }

  /// Marks a state set as coloured by its vertex colours (osg::Material's colour mode
  /// AMBIENT_AND_DIFFUSE), which the program must be told; the default is the material's.
  static void markColourMaterial(osg::StateSet& state);
  /// Marks a state set as drawn by the fixed-function pipeline under any program (GL_LIGHTING
  /// off: lines keep their colour).
  static void markUnlit(osg::StateSet& state);

 private:
  osg::ref_ptr<osg::Group> scene_;
  osg::ref_ptr<osg::Group> lampGroup_;
  std::map<int, osg::ref_ptr<osg::Program>> programs_;  ///< compiled as first needed
  osg::ref_ptr<osg::Program> program_;                  ///< the scene's now, or none
  osg::ref_ptr<osg::Texture2D> white_;  ///< on unit 0 where a body has no texture of its own
  osg::ref_ptr<osg::Fog> fog_;
  std::vector<osg::ref_ptr<osg::LightSource>> slots_;  ///< OpenGL lights 1 to kMaxLights
  std::vector<LightDesc> lamps_;
  int lampsLit_ = 0;
  int shadowTaps_ = 0;  ///< 0: no shadows; 1 or 4 (High's filter)
  bool fogOn_ = false;
  Pipeline pipeline_ = Pipeline::FixedFunction;
  int programKey_ = -1;
  /// Puts the program on or takes it off, as shadows and lamps need.
  void choosePipeline();
};

}  // namespace impetus::render
