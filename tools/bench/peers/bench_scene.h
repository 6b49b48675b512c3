#pragma once
// The benchmark scenes of ../shared/BENCH-SCENES.md in an engine-neutral form: every peer adapter
// (Impetus, MuJoCo, ODE, Bullet) builds its own world from exactly these numbers. Conventions as
// there: x forward, y left, z up; every body starts with identity orientation, frame origin at
// its centre of mass, principal axes along the world axes; anchors and axes in world coordinates.

#include <Eigen/Core>
#include <string>
#include <vector>

namespace peers {

using Vec3 = Eigen::Vector3d;

enum class ShapeKind { Box, Sphere, Capsule };

struct BenchBody {
  std::string name;
  ShapeKind shape = ShapeKind::Box;
  Vec3 boxSize = Vec3::Zero();  ///< full edge lengths (m)
  double radius = 0.0;          ///< sphere, capsule (m)
  double length = 0.0;          ///< capsule: between the cap centres (m)
  int capsuleAxis = 2;          ///< 0 x, 1 y, 2 z
  double mass = 0.0;            ///< (kg)
  Vec3 inertia = Vec3::Zero();  ///< principal moments about the centre of mass (kg m^2)
  Vec3 position = Vec3::Zero();
};

enum class JointKind { Hinge, Ball };

struct BenchJoint {
  std::string name;
  JointKind kind = JointKind::Hinge;
  int parent = -1;  ///< body index, -1 = the world
  int child = 0;
  Vec3 anchor = Vec3::Zero();
  Vec3 axis = Vec3::UnitY();  ///< hinge: unit
  bool limited = false;
  double lower = 0.0, upper = 0.0;  ///< hinge angle of child relative to parent (rad)
};

struct BenchScene {
  std::string name;
  std::vector<BenchBody> bodies;
  std::vector<BenchJoint> joints;
  bool ground = false;      ///< plane z = 0
  bool collisions = false;  ///< false: no collision geometry at all (the chains)
  double friction = 0.8;    ///< Coulomb mu of every pair
  double dt = 0.01;         ///< (s)
  int steps = 1000;         ///< 10 s
  double gravity = -9.81;   ///< along z (m/s^2)
  /// Potential energy of the reference configuration (the chains: hanging straight down at
  /// rest), so that E = KE + sum m g z - potentialZero.
  double potentialZero = 0.0;
  int topBody = -1;  ///< stack: the body whose horizontal drift decides "standing"
  /// Run as copies raised by each of these (m) and reported together (peer_runner: the mean
  /// cost of a step, the worst quality): where a dropped ragdoll lands, and so what its landing
  /// costs, changes chaotically with the height. Empty: the scene as it is.
  std::vector<double> variantRaises;
};

BenchScene chainScene(int links);  ///< chain30 (links = 30), chain100
BenchScene stack10Scene();
BenchScene ragdollScene();
/// The ragdoll dropped from 12 heights, soles 0.6 to 2.5 m above the ground ("ragdoll-drops").
BenchScene ragdollDropsScene();
/// The scene with every body and joint anchor `dz` higher (m); no variants of its own.
BenchScene raisedScene(const BenchScene& scene, double dz);
/// The scene by name ("chain30", "chain100", "stack10", "ragdoll", "ragdoll-drops"); throws on
/// an unknown name.
BenchScene sceneByName(const std::string& name);

}  // namespace peers
