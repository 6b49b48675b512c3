#pragma once
// Mass properties of a body from its geoms at uniform density (a scene may omit `inertia`).
// The body origin is taken as the centre of mass (scenes/README.md).

#include <string>
#include <vector>

#include "impetus/contact/shape.h"

namespace impetus {

/// Inertia about the body origin of `mass` spread uniformly over the geoms' volumes; false (with
/// the reason) when the geoms have no volume.
bool inertiaFromGeoms(const std::vector<ShapeDesc>& geoms, double mass, Mat3& inertia,
                      std::string& problem);

}  // namespace impetus
