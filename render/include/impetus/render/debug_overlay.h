#pragma once
// Debug overlays drawn over the scene, each toggled on its own: contact points with their normals,
// contact forces (arrows scaled by force), joint axes, centres of mass, and a walking robot's
// balance (support polygon, measured ZMP, centre of mass on the ground, capture point, next
// footstep), teleoperated hands (their targets, their wrists' forces as arrows). Lines without
// lighting or depth test so that they show through the bodies. (Collision shapes:
// ScenePresenter::setWireframe.)

#include <optional>
#include <osg/Geode>
#include <osg/Geometry>
#include <osg/Group>
#include <osg/ref_ptr>
#include <span>
#include <vector>

#include "impetus/math/types.h"

namespace impetus::render {

struct ContactMark {
  Vec3 position = Vec3::Zero();  ///< world (m)
  Vec3 normal = Vec3::UnitZ();   ///< world, unit, from body A to body B
  double force = 0.0;            ///< normal force on the last step (N)
};

struct JointMark {
  Vec3 anchor = Vec3::Zero();  ///< world (m)
  Vec3 axis = Vec3::UnitX();   ///< world, unit
};

/// A robot's balance on the ground (BalanceLayer), world frame (m); points lie on the ground.
struct BalanceMarks {
  std::vector<Vec3> support;         ///< support polygon, counter-clockwise; empty: airborne
  std::optional<Vec3> zmp;           ///< measured: the centre of pressure of the ground contacts
  std::optional<Vec3> centreOfMass;  ///< the whole robot's, projected down
  std::optional<Vec3> capturePoint;  ///< the walking controller's measured capture point
  std::optional<Vec3> footstep;      ///< the walking controller's next footstep
};

/// A teleoperated hand (HandsLayer), world frame: where its operator steers it and the contact
/// force its wrist's cell reads.
struct HandMark {
  Vec3 target = Vec3::Zero();  ///< (m)
  Vec3 force = Vec3::Zero();   ///< on the hand (N)
};

class DebugOverlay {
 public:
  enum Layer : unsigned {
    kContactPoints = 1u << 0,
    kContactForces = 1u << 1,
    kJointAxes = 1u << 2,
    kCentresOfMass = 1u << 3,
    kBalance = 1u << 4,
    kHands = 1u << 5,
  };
  static constexpr double kNewtonsPerMetre = 200.0;  ///< force arrow scale
  static constexpr double kAxisLength = 0.15;        ///< joint axis half-length (m)

  DebugOverlay();
  /// Adds the overlay under `parent` (once).
  void attach(osg::Group* parent);
  void setLayers(unsigned layers);
  unsigned layers() const { return layers_; }
  /// The perturbation tool's spring (from the pulled body's centre of mass to where the mouse
  /// pulls it), drawn whatever the layers; nullopt hides it.
  void setSpring(const std::optional<std::pair<Vec3, Vec3>>& spring);
  /// Rebuilds the lines for the current state.
  void update(std::span<const ContactMark> contacts, std::span<const JointMark> joints,
              std::span<const Vec3> centresOfMass, const BalanceMarks& balance = {},
              std::span<const HandMark> hands = {});
  /// Lines drawn in the last update (tests).
  unsigned lineCount() const { return lineCount_; }

 private:
  osg::ref_ptr<osg::Geode> geode_;
  osg::ref_ptr<osg::Geometry> lines_;
  osg::ref_ptr<osg::Vec3Array> vertices_;
  osg::ref_ptr<osg::Vec4Array> colours_;
  osg::ref_ptr<osg::DrawArrays> draw_;
  unsigned layers_ = 0;
  std::optional<std::pair<Vec3, Vec3>> spring_;
  unsigned lineCount_ = 0;
};

}  // namespace impetus::render
