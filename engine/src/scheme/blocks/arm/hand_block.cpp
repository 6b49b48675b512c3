// hand: Cartesian teleoperation of a hand as one scheme block (HandTeleoperation). Inputs `x y z`
// and `roll pitch yaw` (about x, y, z), each in [-1, 1] of the top speeds `top_speed` (m/s) and
// `top_turn` (rad/s), steer the hand's target; `frame` high steers in the hand's own frame, low
// in the robot's (the floating base's: x forward, z up); the optional `comply` high adds the
// admittance: the contact force the wrist's force/torque cell reads (`wrist_sensor`) times
// `admittance` (m/s per N) moves the target too, less a dead band. The optional `orbit_x
// orbit_y orbit_z` (rad/s) and `centre_x centre_y centre_z` (m), robot frame, turn the whole
// target about a line, as `wheel_turn` drives a hand along a rim it holds. Outputs one joint
// setpoint per arm joint (named after it, rad or m, for `servo` blocks), the target in the robot
// frame, `target_x target_y target_z` (m), the contact force's magnitude `force` (N), and for
// the overlays the target in the world, `world_x world_y world_z` (m), and the contact force,
// `force_x force_y force_z` (N, world; zero without a wrist sensor). The optional `joint_mode`,
// `joint` and `joint_rate` (all three): while joint_mode is high, joint number `joint` (1 = the
// first of `joints`) moves at joint_rate (in [-1, 1]) of its speed limit and the others hold -
// a space arm's joint mode; Cartesian steering resumes from there. Parameters: see
// scenes/README.md ("hand").
#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "../blocks.h"
#include "../chain_tip.h"
#include "../force_cell.h"
#include "hand_teleoperation.h"
#include "impetus/dynamics/world.h"
#include "impetus/joints/joint.h"
#include "impetus/sensors/sensor.h"
#include "impetus/session/state_stream.h"

namespace impetus::blocks {
namespace {

class HandBlock : public Block {
 public:
  /// The wrist's force/torque cell and what it carries (the hand, its jaws), for the contact
  /// force: the cell reads the contact's force plus the load's weight, taken off.
  struct Wrist {
    ForceCell cell;
    double carriedMass = 0.0;  ///< (unit: kg)
    double admittance = 0.0;   ///< (unit: m/s per N)
    double filterTime = 0.05;  ///< of the contact force (unit: s)
    double deadBand = 3.0;     ///< contact force the admittance ignores (unit: N)
  };
  HandBlock(std::vector<std::string> inputs, std::vector<std::string> outputs, const World& world,
            std::unique_ptr<arm::HandTeleoperation> hand, double topSpeed, double topTurn,
            std::optional<Wrist> wrist, bool hasComply, bool hasOrbit, int jointModeInput)
      : Block(std::move(inputs), std::move(outputs)),
        world_(world),
        hand_(std::move(hand)),
        topSpeed_(topSpeed),
        topTurn_(topTurn),
        wrist_(wrist),
        hasComply_(hasComply),
        hasOrbit_(hasOrbit),
        jointModeInput_(jointModeInput) {}

  void evaluate(const double* in, double* out, const SchemeContext& ctx) override {
    const auto stick = [&](int i) {
      return std::isfinite(in[i]) ? std::clamp(in[i], -1.0, 1.0) : 0.0;
    };
    arm::HandRates rates;
    rates.linear = topSpeed_ * Vec3(stick(0), stick(1), stick(2));
    rates.angular = topTurn_ * Vec3(stick(3), stick(4), stick(5));
    rates.inHandFrame = isHigh(in[6]);
    if (hasOrbit_) {
      const double* orbit = in + (hasComply_ ? 8 : 7);
      const auto finite = [](const double* v) {
        return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
      };
      if (finite(orbit) && finite(orbit + 3)) {
        rates.orbit = Vec3(orbit[0], orbit[1], orbit[2]);
        rates.orbitCentre = Vec3(orbit[3], orbit[4], orbit[5]);
      }
    }
    // The contact's force on the hand: the cell reads the arm's force on the hand, which
    // carries the hand's weight and the contact's push (statics; the hand's own acceleration is
    // neglected).
    Vec3 contact = Vec3::Zero();
    if (wrist_) {
      const Vec3 measured =
          -wrist_->cell.force(world_) - wrist_->carriedMass * world_.settings().gravity;
      // Low-passed: the cell also reads the hand's and jaws' jolts, which the admittance would
      // turn into motion.
      const double share = ctx.dt / (wrist_->filterTime + ctx.dt);
      contactForce_ += share * (measured - contactForce_);
      contact = contactForce_;
    }
    const bool comply = hasComply_ && isHigh(in[7]);
    // Below the dead band, what the cell reads of the hand's own jolts (walking, a swinging
    // arm) moves nothing; above, the band is taken off.
    Vec3 push = Vec3::Zero();
    if (comply && contact.norm() > wrist_->deadBand)
      push = contact * (1.0 - wrist_->deadBand / contact.norm());
    const bool jointMode = jointModeInput_ >= 0 && isHigh(in[jointModeInput_]);
    const std::vector<double>& command =
        jointMode ? hand_->stepJoint(world_, jointIndex(in[jointModeInput_ + 1]),
                                     stick(jointModeInput_ + 2), ctx.dt)
                  : hand_->step(world_, rates, ctx.dt, comply ? &push : nullptr,
                                wrist_ ? wrist_->admittance : 0.0);
    const size_t n = command.size();
    for (size_t k = 0; k < n; ++k) out[k] = command[k];
    const Vec3& target = hand_->target().position;
    for (int i = 0; i < 3; ++i) out[n + size_t(i)] = target[i];
    out[n + 3] = contact.norm();
    // For the overlays: the target and the contact force in the world.
    const Vec3 targetInWorld = hand_->toWorld(world_, target);
    for (int i = 0; i < 3; ++i) {
      out[n + 4 + size_t(i)] = targetInWorld[i];
      out[n + 7 + size_t(i)] = contact[i];
    }
  }
  void reset() override {
    hand_->reset();
    contactForce_.setZero();
  }
  void saveState(StateWriter& out) const override {
    hand_->saveState(out);
    out.put(contactForce_);
  }
  void loadState(StateReader& in) override {
    hand_->loadState(in);
    in.get(contactForce_);
  }

 private:
  const World& world_;
  std::unique_ptr<arm::HandTeleoperation> hand_;
  double topSpeed_, topTurn_;  ///< (unit: m/s, rad/s)
  std::optional<Wrist> wrist_;
  bool hasComply_, hasOrbit_;
  int jointModeInput_;  ///< index of input joint_mode (joint, joint_rate follow), -1: none
  /// Input `joint` (1-based, rounded) as an index into the joints; -1 when out of range.
  static int jointIndex(double joint) {
    return std::isfinite(joint) && joint >= 0.5 && joint < 1000.0
               ? static_cast<int>(std::lround(joint)) - 1
               : -1;
  }
  Vec3 contactForce_ = Vec3::Zero();  ///< filtered (unit: N, world)
};

}  // namespace

std::unique_ptr<Block> makeHand(const BlockBuild& b) {
  const World& world = b.world();
  tree::WorldTree wt = tree::treeFromWorld(world);
  const ChainTip tip = chainTip(b, wt);

  // The robot frame: the floating base the hand hangs from, if any.
  int base = -1;
  for (size_t body = 0; body < wt.floatingBaseFirstLink.size(); ++body) {
    const int first = wt.floatingBaseFirstLink[body];
    if (first >= 0 && wt.tree.reachable(tip.link, first + 5)) base = first;
  }

  const double topSpeed = b.number("top_speed", 0.1), topTurn = b.number("top_turn", 0.5);
  if (!(topSpeed > 0.0) || !(topTurn > 0.0)) b.fail("top_speed and top_turn must be > 0");
  const double speedShare = b.number("speed", 0.7);
  if (!(speedShare > 0.0 && speedShare <= 1.0)) b.fail("speed must be in (0, 1]");
  std::vector<int> links;
  std::vector<double> maxRates;
  std::vector<std::string> outputs;
  int lastJoint = -1;
  std::istringstream names(b.text("joints"));
  for (std::string name; names >> name;) {
    const ChainJoint chain = chainJoint(b, wt, tip, name);
    const Joint& joint = world.joint(chain.index);
    // The drive's top speed at full voltage, a share of it left for the load.
    double rate = 0.0;
    for (const DriveCoupling& d : joint.drives())
      if (d.primary) rate = std::abs(d.ratio) * d.motor->params().noLoadSpeed;
    if (!(rate > 0.0)) b.fail("joint '" + name + "' has no motor");
    links.push_back(chain.link);
    lastJoint = chain.index;
    maxRates.push_back(speedShare * rate);
    outputs.push_back(name);
  }
  if (links.size() < 6) b.fail("joints: a hand's pose needs at least six joints");
  std::vector<double> posture(links.size(), 0.0);
  if (b.desc().params.count("posture")) {
    posture = b.numbers("posture");
    if (posture.size() != links.size()) b.fail("posture needs one coordinate per joint (rad or m)");
  }
  // The wrist's cell (in the last joint) for the contact force and the admittance.
  std::optional<HandBlock::Wrist> wrist;
  if (b.desc().params.count("wrist_sensor")) {
    const std::string name = b.text("wrist_sensor");
    const Sensor* cell = world.findSensor(b.qualified(name));
    if (!cell || cell->type() != SensorType::ForceTorque)
      b.fail("wrist_sensor '" + name + "' is not a force_torque sensor");
    const Joint& last = world.joint(lastJoint);
    HandBlock::Wrist w;
    w.cell = ForceCell::inJoint(*cell, last);
    const int carrier = wt.bodyLink[static_cast<size_t>(last.child())];
    for (size_t body = 0; body < world.bodies().size(); ++body) {
      const int link = wt.bodyLink[body];
      if (link >= 0 && wt.tree.reachable(link, carrier)) w.carriedMass += world.bodies()[body].mass;
    }
    w.admittance = b.number("admittance", 0.002);
    if (!(w.admittance > 0.0)) b.fail("admittance must be > 0 (m/s per N)");
    w.filterTime = b.number("force_filter", w.filterTime);
    if (!(w.filterTime >= 0.0)) b.fail("force_filter must be >= 0 (s)");
    w.deadBand = b.number("force_dead_band", w.deadBand);
    if (!(w.deadBand >= 0.0)) b.fail("force_dead_band must be >= 0 (N)");
    wrist = w;
  }
  const bool hasComply = b.desc().inputs.count("comply") > 0;
  if (hasComply && !wrist) b.fail("input comply needs a wrist_sensor");
  std::vector<std::string> inputs{"x", "y", "z", "roll", "pitch", "yaw", "frame"};
  if (hasComply) inputs.emplace_back("comply");
  const bool hasOrbit = b.desc().inputs.count("orbit_x") > 0;
  if (hasOrbit)
    for (const char* s : {"orbit_x", "orbit_y", "orbit_z", "centre_x", "centre_y", "centre_z"})
      inputs.emplace_back(s);
  int jointModeInput = -1;
  const int jointModeParts =
      static_cast<int>(b.desc().inputs.count("joint_mode") + b.desc().inputs.count("joint") +
                       b.desc().inputs.count("joint_rate"));
  if (jointModeParts != 0 && jointModeParts != 3)
    b.fail("joint mode needs all three inputs: joint_mode, joint and joint_rate");
  if (jointModeParts == 3) {
    jointModeInput = static_cast<int>(inputs.size());
    for (const char* s : {"joint_mode", "joint", "joint_rate"}) inputs.emplace_back(s);
  }
  for (const char* s : {"target_x", "target_y", "target_z", "force", "world_x", "world_y",
                        "world_z", "force_x", "force_y", "force_z"})
    outputs.push_back(s);
  auto hand = std::make_unique<arm::HandTeleoperation>(std::move(wt), base, tip.link, tip.point,
                                                       std::move(links), std::move(maxRates),
                                                       std::move(posture));
  return std::make_unique<HandBlock>(std::move(inputs), std::move(outputs), world, std::move(hand),
                                     topSpeed, topTurn, wrist, hasComply, hasOrbit, jointModeInput);
}

}  // namespace impetus::blocks
