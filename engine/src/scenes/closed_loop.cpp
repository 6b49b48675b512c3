#include "impetus/scenes/closed_loop.h"

#include <cmath>
#include <numbers>
#include <string>

#include "impetus/joints/revolute_joint.h"
#include "impetus/scenes/hinge_chain.h"

namespace impetus::scenes {

std::vector<BodyId> buildHingeRing(World& world, int links, double linkLength) {
  const double step = 2 * std::numbers::pi / links;
  const double radius = linkLength / (2 * std::sin(step / 2));  // chord = link length
  const Vec3 centre(0, 0, radius + 0.5);
  const auto corner = [&](int i) -> Vec3 {  // Vec3, not an Eigen expression that would dangle
    const double a = i * step;
    return centre + radius * Vec3(std::cos(a), 0, std::sin(a));
  };
  std::vector<BodyId> ids;
  for (int i = 0; i < links; ++i) {
    const Vec3 p0 = corner(i), p1 = corner(i + 1);
    RigidBodyDesc d;
    d.name = "ring" + std::to_string(i);
    d.inertia = boxInertia(1.0, Vec3(linkLength, 0.02, 0.02));
    d.position = 0.5 * (p0 + p1);
    d.orientation = Quat::FromTwoVectors(Vec3::UnitX(), (p1 - p0).normalized()).normalized();
    ids.push_back(world.addBody(d));
  }
  world.addJoint<RevoluteJoint>("pin", World::kGround, ids[0], corner(0), Vec3::UnitY());
  world.addJoint<RevoluteJoint>("pin2", World::kGround, ids[links / 2], corner(links / 2),
                                Vec3::UnitY());
  for (int i = 0; i < links; ++i)
    world.addJoint<RevoluteJoint>("ring_hinge" + std::to_string(i), ids[i], ids[(i + 1) % links],
                                  corner(i + 1), Vec3::UnitY());
  return ids;
}

}  // namespace impetus::scenes
