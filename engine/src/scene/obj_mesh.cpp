#include "obj_mesh.h"

#include <cmath>
#include <sstream>

namespace impetus {

bool readObjMesh(const std::string& text, std::vector<Vec3>& vertices, std::vector<int>& triangles,
                 std::string& problem) {
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream words(line);
    std::string tag;
    if (!(words >> tag)) continue;
    if (tag == "v") {
      Vec3 v;
      if (!(words >> v.x() >> v.y() >> v.z()) || !v.allFinite()) {
        problem = "line " + std::to_string(number) + ": bad vertex";
        return false;
      }
      vertices.push_back(v);
    } else if (tag == "f") {
      std::vector<int> face;
      std::string corner;
      while (words >> corner) {
        const int i = std::atoi(corner.substr(0, corner.find('/')).c_str());
        const int index = i < 0 ? static_cast<int>(vertices.size()) + i : i - 1;
        if (i == 0 || index < 0 || index >= static_cast<int>(vertices.size())) {
          problem = "line " + std::to_string(number) + ": vertex index out of range";
          return false;
        }
        face.push_back(index);
      }
      for (size_t k = 2; k < face.size(); ++k)
        triangles.insert(triangles.end(), {face[0], face[k - 1], face[k]});
    }
  }
  if (triangles.empty()) {
    problem = "no triangles";
    return false;
  }
  return true;
}

}  // namespace impetus
