#include "impetus/dynamics/world.h"
#include "impetus/session/session_file.h"

#include "fnv1a.h"

namespace impetus {

std::uint64_t stateHash(const World& world) {
  session::Fnv1a f;
  for (const RigidBody& b : world.bodies()) {
    f.add(b.position.data(), 3 * sizeof(double));
    f.add(b.orientation.coeffs().data(), 4 * sizeof(double));
    f.add(b.linearVelocity.data(), 3 * sizeof(double));
    f.add(b.angularMomentum.data(), 3 * sizeof(double));
  }
  for (int i = 0; i < world.motorCount(); ++i) {
    const DcMotor& m = world.motor(i);
    const double rotor[2] = {m.angle(), m.speed()};
    f.add(rotor, sizeof rotor);
  }
  return f.value;
}

}  // namespace impetus
