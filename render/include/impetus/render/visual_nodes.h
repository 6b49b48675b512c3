#pragma once
// The scene graph of a <visual> (scenes/README.md): a transform in its body's frame holding the
// mesh or primitive with its colour and texture. Mesh files are read once and shared between
// the visuals that use them (an MF-4's ten road wheels are one mesh).

#include <map>
#include <osg/MatrixTransform>
#include <osg/Node>
#include <osg/TexMat>
#include <osg/ref_ptr>
#include <string>

#include "impetus/scene/visual_desc.h"

namespace impetus::render {

class VisualNodes {
 public:
  /// The visual's node (pose and scale in the body frame; a wheel's roll is added by roll()).
  /// nullptr when its mesh cannot be read now (the loader checked it: a file removed since).
  osg::ref_ptr<osg::MatrixTransform> make(const VisualDesc& visual);
  /// Turns a wheel's node by `angle` (rad) about the visual's own y axis (its axle).
  static void roll(osg::MatrixTransform& node, const VisualDesc& visual, double angle);
  /// The belt's texture matrix (made by make() for a visual with tread_pitch), or nullptr.
  static osg::TexMat* treadTexture(osg::MatrixTransform& node);
  void clear() { meshes_.clear(); }

 private:
  std::map<std::string, osg::ref_ptr<osg::Node>> meshes_;
};

}  // namespace impetus::render
