#pragma once
// A minimal Wavefront OBJ reader for collision meshes: `v x y z` and `f i j k ...` (polygons are
// fanned into triangles; `i/t/n` forms and negative indices accepted).

#include <string>
#include <vector>

#include "impetus/math/types.h"

namespace impetus {

/// Parses OBJ text; false and `problem` (with the line) for bad content.
bool readObjMesh(const std::string& text, std::vector<Vec3>& vertices, std::vector<int>& triangles,
                 std::string& problem);

}  // namespace impetus
