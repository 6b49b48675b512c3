#pragma once
// Collision geometry attached to a body (several per body). Dimensions in metres, pose in the
// body frame (relative to the centre of mass).

#include <cstdint>
#include <vector>

#include "impetus/math/types.h"

namespace impetus {

enum class ShapeType { Plane, Box, Sphere, Capsule, Cylinder, ConvexHull, Mesh, Heightfield };

struct ShapeDesc {
  ShapeType type = ShapeType::Box;
  Vec3 size = Vec3::Ones();      ///< Box: full edge lengths (m)
  double radius = 0.5;           ///< Sphere, Capsule, Cylinder (m)
  double length = 1.0;           ///< Capsule (between cap centres), Cylinder (m); along local z
  std::vector<Vec3> vertices;    ///< ConvexHull, Mesh (body frame before `position`/`orientation`)
  std::vector<int> triangles;    ///< Mesh: 3 vertex indices per triangle (static bodies only)
  int rows = 0, columns = 0;     ///< Heightfield: samples along x and y
  double cellSize = 1.0;         ///< Heightfield spacing (m)
  std::vector<double> heights;   ///< Heightfield: rows * columns heights (m), row-major along x
  Vec3 position = Vec3::Zero();  ///< in the body frame; a Plane is the local z = 0 plane
  Quat orientation = Quat::Identity();
  int material = 0;  ///< index into the world's MaterialTable
  /// A track (caterpillar belt): its ground-side surface moves relative to the body, driven by
  /// motor `trackMotor` (World::motor index) through a sprocket: belt speed = sprocketRadius / r
  /// times rotor speed; a positive rotor speed drives the body toward +trackDirection.
  int trackMotor = -1;
  Vec3 trackDirection = Vec3::UnitX();  ///< body frame, unit
  double sprocketRadius = 0.0;          ///< (unit: m)
  std::uint32_t group = 1;              ///< collision group bits
  std::uint32_t mask = 0xffffffffu;     ///< collides with groups in this mask (both ways)
};

}  // namespace impetus
