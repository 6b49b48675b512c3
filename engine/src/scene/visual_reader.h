#pragma once
// <visual>: what the renderer draws for a body (scenes/README.md). Read with the body's geoms at
// hand (a track's parts follow the belt of one of them) and checked as the physics is: a mesh or
// texture that cannot be read is an error naming the scene file's line and the file.

#include <functional>
#include <optional>
#include <span>
#include <string>

#include "impetus/contact/shape.h"
#include "impetus/dynamics/world.h"
#include "impetus/scene/visual_desc.h"
#include "xml_reader.h"

namespace impetus {

/// `dir`: the declaring file's folder, against which relative paths resolve; `prefix`: the
/// include's, which the file's own names (track_motor) carry in the world. `relocate`:
/// SceneLoadOptions::relocateVisualFile (when set, a visual whose files are found nowhere is
/// left out: nullopt).
std::optional<VisualDesc> readVisual(
    const XmlReader& reader, const tinyxml2::XMLElement* e, BodyId body,
    std::span<const ShapeDesc> bodyGeoms, const World& world, const std::string& dir,
    const std::string& prefix, const std::function<std::string(const std::string&)>& relocate);

}  // namespace impetus
