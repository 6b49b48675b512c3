#pragma once
// A BenchScene as an Impetus world: what the benchmark's Impetus adapter steps, and what tests
// build when they need the World itself (its settings, its statistics).

#include <vector>

#include "bench_scene.h"
#include "impetus/dynamics/world.h"

namespace peers {

/// Adds the scene's ground, bodies, shapes and joints to `world` (gravity and the friction of
/// material 0 from the scene); returns the bodies' ids in scene order.
std::vector<impetus::BodyId> addBenchScene(const BenchScene& scene, impetus::World& world);

}  // namespace peers
