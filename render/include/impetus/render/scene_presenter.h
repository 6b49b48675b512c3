#pragma once
// Draws a loaded scene: one transform per body holding its geoms, updated from the body poses
// every frame. Read-only on the engine's types.

#include <osg/Group>
#include <osg/MatrixTransform>
#include <osg/ref_ptr>
#include <span>
#include <vector>

#include "impetus/contact/shape.h"
#include "impetus/dynamics/rigid_body.h"

namespace impetus::render {

class ScenePresenter {
 public:
  /// Replaces what is drawn under `parent` by the given geoms (body id, shape).
  void build(osg::Group* parent, std::span<const RigidBody> bodies,
             std::span<const std::pair<BodyId, ShapeDesc>> geoms);
  /// Moves every body's node to its current pose.
  void update(std::span<const RigidBody> bodies);
  /// The same from poses in body order (a snapshot or a recording).
  void update(std::span<const Vec3> positions, std::span<const Quat> orientations);
  /// Draws the geoms as wire frames (the collision shapes, as the engine sees them).
  void setWireframe(bool on);
  void clear();
  /// The node of a body (nullptr if it has no geoms).
  osg::MatrixTransform* bodyNode(BodyId id) const;

 private:
  osg::ref_ptr<osg::Group> parent_;
  osg::ref_ptr<osg::Group> root_;
  std::vector<osg::ref_ptr<osg::MatrixTransform>> bodyNodes_;
  bool wireframe_ = false;
};

}  // namespace impetus::render
