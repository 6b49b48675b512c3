#pragma once
// A minimal Wavefront OBJ reader for collision meshes: `v x y z` and `f i j k ...` (polygons are
// fanned into triangles; `i/t/n` forms and negative indices accepted).

#include <string>
#include <vector>

#include "impetus/math/types.h"

namespace impetus {

bool readObjMesh(const std::string& path, std::vector<Vec3>& vertices, std::vector<int>& triangles,
                 std::string& problem);

}  // namespace impetus
