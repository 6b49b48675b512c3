#pragma once
// Draws a loaded scene: one transform per body holding its visuals (or, for a body without any,
// its geoms), updated from the body poses every frame. Read-only on the engine's types.

#include <osg/Geometry>
#include <osg/Group>
#include <osg/MatrixTransform>
#include <osg/ref_ptr>
#include <span>
#include <vector>

#include "impetus/contact/shape.h"
#include "impetus/dynamics/rigid_body.h"
#include "impetus/flex/beam.h"
#include "impetus/render/visual_nodes.h"
#include "impetus/scene/visual_desc.h"

namespace impetus::render {

class ScenePresenter {
 public:
  /// Replaces what is drawn under `parent` by the given geoms (body id, shape), beams (one
  /// smooth tube each, bent through its segments' poses; their segments' own geoms are not drawn)
  /// and visuals (a body with any is drawn by them; its geoms only as the collision overlay).
  void build(osg::Group* parent, std::span<const RigidBody> bodies,
             std::span<const std::pair<BodyId, ShapeDesc>> geoms,
             std::span<const BeamShape> beams = {}, std::span<const VisualDesc> visuals = {});
  /// Moves every body's node to its current pose.
  void update(std::span<const RigidBody> bodies);
  /// The same from poses in body order (a snapshot or a recording).
  void update(std::span<const Vec3> positions, std::span<const Quat> orientations);
  /// Moves the tracks' parts: belts' treads and wheels follow the rotor angles of their track
  /// motors (rad, World motor order).
  void updateTracks(std::span<const double> rotorAngles);
  /// Draws the geoms as wire frames (the collision shapes, as the engine sees them), over the
  /// visuals of the bodies that have them.
  void setWireframe(bool on);
  /// Draws the beams' bending `scale` times as large (1: as it is): each tube keeps its ends and
  /// its deviation from the straight line between them is magnified, as finite-element viewers
  /// scale a deformation. Takes effect at the next update.
  void setFlexScale(double scale) { flexScale_ = scale; }
  double flexScale() const { return flexScale_; }
  void clear();
  /// The node of a body (nullptr if it has no geoms).
  osg::MatrixTransform* bodyNode(BodyId id) const;
  size_t visualCount() const { return visuals_.size(); }
  /// The node of visual `index` (scene order), or nullptr (its mesh could not be read).
  osg::MatrixTransform* visualNode(size_t index) const {
    return index < visuals_.size() ? visuals_[index].node.get() : nullptr;
  }
  /// The tube of beam `index` (world-frame vertices, rings root to tip), or nullptr.
  const osg::Geometry* beamTube(size_t index) const {
    return index < beams_.size() ? beams_[index].geometry.get() : nullptr;
  }

 private:
  struct BeamTube {
    BeamShape shape;
    osg::ref_ptr<osg::Geometry> geometry;
    osg::ref_ptr<osg::Vec3Array> vertices, normals;
  };
  /// Bends every tube through its segments' poses (`pose(id)` gives position and orientation).
  template <class PoseOf>
  void bendBeams(const PoseOf& pose);
  struct DrawnVisual {
    VisualDesc desc;
    osg::ref_ptr<osg::MatrixTransform> node;
  };
  std::vector<BeamTube> beams_;
  VisualNodes visualNodes_;
  std::vector<DrawnVisual> visuals_;
  /// Geoms of bodies drawn by visuals: shown only as the collision overlay.
  std::vector<osg::ref_ptr<osg::Node>> hiddenGeoms_;
  osg::ref_ptr<osg::Group> parent_;
  osg::ref_ptr<osg::Group> root_;
  std::vector<osg::ref_ptr<osg::MatrixTransform>> bodyNodes_;
  bool wireframe_ = false;
  double flexScale_ = 1.0;
};

}  // namespace impetus::render
