// walking: the humanoid's onboard walking controller as one scheme block (WalkingController).
// Inputs `forward`, `lateral` (left), `turn` (counter-clockwise), each in [-1, 1]; outputs one
// joint reference per leg joint (named after it, rad, for `servo` blocks), `state` (0 standing,
// 1 walking, 2 stopping, 3 fallen), `drives` (1, or 0 once fallen: the servos let go), and for
// plots and overlays the measured centre of mass `com_x com_y`, the capture point `cp_x cp_y`,
// the commanded ZMP `zmp_x zmp_y` and the next footstep `step_x step_y` (m, world).
// Parameters: see scenes/README.md ("walking").
#include <sstream>

#include "../blocks.h"
#include "../force_cell.h"
#include "impetus/dynamics/world.h"
#include "impetus/sensors/sensor.h"
#include "walking_controller.h"

namespace impetus::blocks {
namespace {
using walking::WalkingController;

constexpr const char* kSignals[] = {"state",  "drives", "com_x",     "com_y",    "cp_x",
                                    "cp_y",   "zmp_x",  "zmp_y",     "step_x",   "step_y",
                                    "plan_x", "plan_y", "cp_plan_x", "cp_plan_y"};

class WalkingBlock : public Block {
 public:
  WalkingBlock(std::vector<std::string> outputs, const World& world,
               std::unique_ptr<WalkingController> controller, const Sensor& imu,
               std::array<int, 3> imuComponents, std::array<ForceCell, 2> cells)
      : Block({"forward", "lateral", "turn"}, std::move(outputs)),
        world_(world),
        controller_(std::move(controller)),
        imu_(imu),
        imuComponents_(imuComponents),
        cells_(cells) {}

  void evaluate(const double* in, double* out, const SchemeContext& ctx) override {
    const Vec3 attitude(imu_.value(imuComponents_[0]), imu_.value(imuComponents_[1]),
                        imu_.value(imuComponents_[2]));
    // Each ankle cell's wrench - the leg's force on the foot and its moment about the cell's
    // centre (it reads them in its frame) - turned to the world.
    std::array<walking::AnkleWrench, 2> ankles;
    for (size_t s = 0; s < 2; ++s) {
      ankles[s].force = cells_[s].force(world_);
      ankles[s].torque = cells_[s].torque(world_);
      ankles[s].centre = cells_[s].centre(world_);
    }
    const walking::WalkingOutputs& o =
        controller_->step(world_, Vec3(in[0], in[1], in[2]), attitude, ankles, ctx.dt);
    for (int k = 0; k < 12; ++k) out[k] = o.legAngles[size_t(k)];
    const double signals[] = {double(static_cast<int>(o.state)),
                              o.drivesEnabled ? 1.0 : 0.0,
                              o.comMeasured.x(),
                              o.comMeasured.y(),
                              o.capturePoint.x(),
                              o.capturePoint.y(),
                              o.zmpCommanded.x(),
                              o.zmpCommanded.y(),
                              o.nextStep.position.x(),
                              o.nextStep.position.y(),
                              o.comPlanned.x(),
                              o.comPlanned.y(),
                              o.capturePointPlanned.x(),
                              o.capturePointPlanned.y()};
    static_assert(std::size(signals) == std::size(kSignals));
    for (size_t k = 0; k < std::size(signals); ++k) out[12 + k] = signals[k];
  }
  void reset() override { controller_->reset(); }
  void saveState(StateWriter& out) const override { controller_->saveState(out); }
  void loadState(StateReader& in) override { controller_->loadState(in); }

 private:
  const World& world_;
  std::unique_ptr<WalkingController> controller_;
  const Sensor& imu_;
  std::array<int, 3> imuComponents_;
  std::array<ForceCell, 2> cells_;
};

std::array<std::string, 6> sixNames(const BlockBuild& b, const std::string& key) {
  std::istringstream in(b.text(key));
  std::array<std::string, 6> names;
  int n = 0;
  for (std::string name; in >> name; ++n)
    if (n < 6) names[size_t(n)] = b.qualified(name);
  if (n != 6) b.fail(key + " needs six joint names, hip to ankle (yaw roll pitch knee pitch roll)");
  return names;
}
}  // namespace

std::unique_ptr<Block> makeWalking(const BlockBuild& b) {
  const World& world = b.world();
  walking::LeggedRobotNames names;
  names.pelvis = b.qualifiedText("pelvis");
  names.feet = {b.qualifiedText("foot_left"), b.qualifiedText("foot_right")};
  names.legJoints = {sixNames(b, "leg_left"), sixNames(b, "leg_right")};
  const std::string imuName = b.qualifiedText("imu");
  const Sensor* imu = world.findSensor(imuName);
  if (!imu || imu->type() != SensorType::Imu) b.fail("imu '" + imuName + "' is not an imu sensor");
  std::array<int, 3> components{};
  const char* wanted[] = {"roll", "pitch", "yaw"};
  for (int k = 0; k < 3; ++k) {
    int index = 0;
    for (const char* c : imu->components()) {
      if (std::string(c) == wanted[k]) components[size_t(k)] = index;
      ++index;
    }
  }
  std::array<ForceCell, 2> cells{};
  const char* cellKeys[] = {"ft_left", "ft_right"};
  for (size_t s = 0; s < 2; ++s) {
    const std::string name = b.qualifiedText(cellKeys[s]);
    const Sensor* cell = world.findSensor(name);
    if (!cell || cell->type() != SensorType::ForceTorque)
      b.fail(std::string(cellKeys[s]) + " '" + name + "' is not a force_torque sensor");
    const Joint* ankle = b.world().findJoint(names.legJoints[s][5]);
    if (!ankle || world.body(ankle->child()).name != names.feet[s])
      b.fail(std::string(cellKeys[s]) + ": the foot must be the child of the ankle roll joint");
    cells[s] = ForceCell::inJoint(*cell, *ankle);  // in the last ankle joint
  }
  walking::WalkingParams p;
  p.stepTime = b.number("step_time", p.stepTime);
  p.doubleSupportTime = b.number("double_support", p.doubleSupportTime);
  p.swingHeight = b.number("swing_height", p.swingHeight);
  p.ankleHeight = b.number("ankle_height", p.ankleHeight);
  p.soleLength = b.number("sole_length", p.soleLength);
  p.soleWidth = b.number("sole_width", p.soleWidth);
  p.soleForward = b.number("sole_forward", p.soleForward);
  p.topForward = b.number("top_forward", p.topForward);
  p.topBackward = b.number("top_backward", p.topBackward);
  p.topLateral = b.number("top_lateral", p.topLateral);
  p.topTurn = b.number("top_turn", p.topTurn);
  p.dcmGain = b.number("dcm_gain", p.dcmGain);
  p.stabiliserGain = b.number("stabiliser_gain", p.stabiliserGain);
  p.forceGain = b.number("force_gain", p.forceGain);
  p.ankleDamping = b.number("ankle_damping", p.ankleDamping);
  p.ankleTimeConstant = b.number("ankle_time_constant", p.ankleTimeConstant);
  p.velocityFilterTime = b.number("velocity_filter", p.velocityFilterTime);
  p.landingHandover = b.number("landing_handover", p.landingHandover);
  p.swingMomentumGain = b.number("swing_momentum_gain", p.swingMomentumGain);
  p.limits.halfWidth = b.number("half_width", p.limits.halfWidth);
  p.maxStepDown = b.number("max_step_down", p.maxStepDown);
  if (!(p.maxStepDown >= 0.0)) b.fail("max_step_down must be zero (no limit) or positive");
  p.maxStepUp = b.number("max_step_up", p.maxStepUp);
  if (!(p.maxStepUp >= 0.0)) b.fail("max_step_up must be zero (no limit) or positive");
  if (!(p.stepTime > p.doubleSupportTime && p.doubleSupportTime > 0.0))
    b.fail("step_time must exceed double_support, which must be positive");
  if (!(p.soleLength > 2 * p.zmpMargin && p.soleWidth > 2 * p.zmpMargin))
    b.fail("the sole must be larger than twice the ZMP margin (2 cm)");
  std::unique_ptr<WalkingController> controller;
  try {
    controller = std::make_unique<WalkingController>(world, names, p);
  } catch (const std::invalid_argument& e) {
    b.fail(e.what());
  }
  std::vector<std::string> outputs;
  for (int s = 0; s < 2; ++s)
    for (const std::string& n : names.legJoints[size_t(s)])
      outputs.push_back(n.substr(b.desc().prefix.size()));  // the robot's own joint name
  for (const char* s : kSignals) outputs.emplace_back(s);
  return std::make_unique<WalkingBlock>(std::move(outputs), world, std::move(controller), *imu,
                                        components, cells);
}

}  // namespace impetus::blocks
