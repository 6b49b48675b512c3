#pragma once
// The hinge chain of ../shared/BENCH-SCENES.md ("chain30"): links of box 0.1 x 0.02 x 0.02 m, 1 kg,
// centres at ((i + 0.5) L, 0, 0); hinge i joins link i-1 (the ground for i = 0) and link i at
// (i L, 0, 0), axis +y. Built once here for the tests, the benchmarks and the GUI.

#include <vector>

#include "impetus/dynamics/world.h"
#include "impetus/joints/revolute_joint.h"

namespace impetus::scenes {

struct HingeChainOptions {
  int links = 30;
  double linkLength = 0.1;  ///< (unit: m)
  double linkWidth = 0.02;  ///< square section (unit: m)
  double linkMass = 1.0;    ///< (unit: kg)
};

struct HingeChain {
  std::vector<BodyId> links;
  std::vector<RevoluteJoint*> hinges;
};

/// Inertia of a uniform solid box with full edge lengths (sx, sy, sz) about its centre.
Mat3 boxInertia(double mass, const Vec3& size);

HingeChain buildHingeChain(World& world, const HingeChainOptions& options = {});

/// Potential energy of the chain hanging straight down at rest, the benchmark's energy zero (J).
double hangingChainPotential(const World& world, const HingeChainOptions& options);

}  // namespace impetus::scenes
