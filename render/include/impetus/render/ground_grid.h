#pragma once
// The ground the viewport always shows: a lit plane at z = 0 with a metre grid and the world axes.

#include <osg/Node>
#include <osg/Vec4>
#include <osg/ref_ptr>

namespace impetus::render {

struct GroundGridStyle {
  double halfExtent = 20.0;  ///< grid covers [-halfExtent, halfExtent]^2 (unit: m)
  double spacing = 1.0;      ///< distance between grid lines (unit: m)
  osg::Vec4 planeColor{0.42f, 0.45f, 0.48f, 1.0f};
  osg::Vec4 lineColor{0.78f, 0.80f, 0.82f, 1.0f};
  osg::Vec4 xAxisColor{0.90f, 0.15f, 0.12f, 1.0f};  ///< +x drawn red
  osg::Vec4 yAxisColor{0.15f, 0.75f, 0.20f, 1.0f};  ///< +y drawn green
};

/// Builds the ground: a lit plane slightly below z = 0, grid lines and the +x/+y axis lines on it.
osg::ref_ptr<osg::Node> makeGroundGrid(const GroundGridStyle& style = {});

}  // namespace impetus::render
