#pragma once
// The sky: a dome around the eye, blue overhead and hazy at the horizon, drawn behind everything
// (the far plane's depth, before the scene). Fog, when the scene has it, takes the horizon.

#include <optional>
#include <osg/Geometry>
#include <osg/Node>
#include <osg/Vec4>
#include <osg/ref_ptr>

namespace impetus::render {

class SkyDome {
 public:
  SkyDome();
  /// The node to add first under the view's root (it follows whichever camera draws it).
  osg::Node* node() const { return node_.get(); }
  /// Blends the horizon and the ground below it into the fog's colour, or back to haze.
  void setFogColour(std::optional<osg::Vec4> fog);
  /// The colour the sky is drawn with at `elevation` (rad above the horizon; below it the
  /// distant ground), as its rings interpolate it.
  osg::Vec4 colourAt(double elevation) const;

 private:
  osg::ref_ptr<osg::Node> node_;
  osg::ref_ptr<osg::Geometry> dome_;
  std::optional<osg::Vec4> fog_;
  void paint();
  /// Ring r's colour (r = 0 straight down, kRings straight up).
  osg::Vec4 ringColour(int ring) const;
};

}  // namespace impetus::render
