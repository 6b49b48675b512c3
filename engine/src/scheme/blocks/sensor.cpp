// sensor: out = a probe of the simulation, e.g. joint.elbow.position, motor.m1.speed.
#include <stdexcept>

#include "blocks.h"
#include "impetus/probes/probe.h"

namespace impetus::blocks {
namespace {
class Sensor : public Block {
 public:
  explicit Sensor(Probe p) : Block({}, {"out"}), probe_(std::move(p)) {}
  void evaluate(const double*, double* out, const SchemeContext&) override { out[0] = probe_(); }

 private:
  Probe probe_;
};
}  // namespace
std::unique_ptr<Block> makeSensor(const BlockBuild& b) {
  try {
    return std::make_unique<Sensor>(
        resolveProbe(b.world(), qualifiedSignal(b.desc().prefix, b.text("probe"))));
  } catch (const std::invalid_argument& e) {
    b.fail(e.what());
  }
}
}  // namespace impetus::blocks
