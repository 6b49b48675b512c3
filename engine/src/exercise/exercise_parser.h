#pragma once
// Reads a scene's <exercise> element (format: scenes/README.md, "Exercises"); errors name the
// file and line. Names of bodies and probes are checked later, against the built world.

#include "../scene/xml_reader.h"
#include "impetus/exercise/exercise.h"

namespace impetus {

ExerciseDesc readExercise(const XmlReader& reader, const tinyxml2::XMLElement* e);

}  // namespace impetus
