#pragma once
// What the renderer draws for a body in place of its collision geoms (scenes/README.md,
// <visual>): a mesh file or a primitive, posed and scaled in the body frame, coloured or
// textured. The physics never reads it; a body without visuals is drawn from its geoms.

#include <array>
#include <optional>
#include <string>

#include "impetus/math/types.h"

namespace impetus {

struct VisualDesc {
  enum class Kind { Mesh, Box, Sphere, Cylinder, Capsule };
  int body = 0;  ///< BodyId of the body it moves with
  Kind kind = Kind::Mesh;
  std::string mesh;     ///< file as opened (OBJ with its MTL, STL, .osgt), Kind::Mesh
  std::string texture;  ///< image file laid over it (empty: the mesh's own materials)
  /// How many times the texture repeats across each face along u and v (a 40 m yard's 2 m
  /// concrete: 20 20). Not with tread_pitch.
  double textureRepeatU = 1.0, textureRepeatV = 1.0;
  Vec3 size = Vec3::Zero();                    ///< box: full edge lengths (m)
  double radius = 0.0;                         ///< sphere, cylinder, capsule (m)
  double length = 0.0;                         ///< cylinder, capsule: along the local z axis (m)
  Vec3 position = Vec3::Zero();                ///< in the body frame (m)
  Quat orientation = Quat::Identity();         ///< in the body frame
  Vec3 scale = Vec3::Ones();                   ///< of the mesh, along its own axes
  std::optional<std::array<float, 4>> colour;  ///< RGBA 0..1, over the mesh's materials
  /// A track's parts (a <geom> of the body drives a belt from this motor): the belt has moved
  /// beltPerRotorRadian * rotor angle (m) along its run.
  int trackMotor = -1;              ///< World motor index, or -1
  double beltPerRotorRadian = 0.0;  ///< sprocket radius / gear ratio (m/rad)
  /// > 0: a wheel on the belt, turning about its own y axis (its axle) by belt travel / this (m).
  double rollRadius = 0.0;
  /// > 0: the belt itself: its texture moves one repeat along u per this much belt travel (m).
  double treadPitch = 0.0;
};

}  // namespace impetus
