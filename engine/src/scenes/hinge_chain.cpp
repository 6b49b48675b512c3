#include "impetus/scenes/hinge_chain.h"

#include <string>

namespace impetus::scenes {

Mat3 boxInertia(double mass, const Vec3& size) {
  const Vec3 s2 = size.cwiseProduct(size);
  return (mass / 12.0 * Vec3(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y())).asDiagonal();
}

HingeChain buildHingeChain(World& world, const HingeChainOptions& options) {
  HingeChain chain;
  const double l = options.linkLength;
  const Vec3 size(l, options.linkWidth, options.linkWidth);
  BodyId previous = World::kGround;
  for (int i = 0; i < options.links; ++i) {
    RigidBodyDesc link;
    link.name = "link" + std::to_string(i);
    link.mass = options.linkMass;
    link.inertia = boxInertia(options.linkMass, size);
    link.position = Vec3((i + 0.5) * l, 0.0, 0.0);
    const BodyId id = world.addBody(link);
    chain.hinges.push_back(&world.addJoint<RevoluteJoint>("hinge" + std::to_string(i), previous, id,
                                                          Vec3(i * l, 0.0, 0.0), Vec3::UnitY()));
    chain.links.push_back(id);
    previous = id;
  }
  return chain;
}

double hangingChainPotential(const World& world, const HingeChainOptions& options) {
  // Link i hangs with its centre at z = -(i + 0.5) L.
  const double g = -world.settings().gravity.z();
  double e = 0.0;
  for (int i = 0; i < options.links; ++i)
    e -= options.linkMass * g * (i + 0.5) * options.linkLength;
  return e;
}

}  // namespace impetus::scenes
