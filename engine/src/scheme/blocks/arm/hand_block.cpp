// hand: Cartesian teleoperation of a hand as one scheme block (HandTeleoperation). Inputs `x y z`
// and `roll pitch yaw` (about x, y, z), each in [-1, 1] of the top speeds `top_speed` (m/s) and
// `top_turn` (rad/s), steer the hand's target; `frame` high steers
// in the hand's own frame, low in the robot's (the floating base's: x forward, z up). Outputs one
// joint setpoint per arm joint (named after it, rad or m, for `servo` blocks) and the target in
// the robot frame, `target_x target_y target_z` (m). Parameters: see scenes/README.md ("hand").
#include <algorithm>
#include <cmath>
#include <sstream>

#include "../blocks.h"
#include "../chain_tip.h"
#include "hand_teleoperation.h"
#include "impetus/dynamics/world.h"
#include "impetus/session/state_stream.h"

namespace impetus::blocks {
namespace {

class HandBlock : public Block {
 public:
  HandBlock(std::vector<std::string> outputs, const World& world,
            std::unique_ptr<arm::HandTeleoperation> hand, double topSpeed, double topTurn)
      : Block({"x", "y", "z", "roll", "pitch", "yaw", "frame"}, std::move(outputs)),
        world_(world),
        hand_(std::move(hand)),
        topSpeed_(topSpeed),
        topTurn_(topTurn) {}

  void evaluate(const double* in, double* out, const SchemeContext& ctx) override {
    const auto stick = [&](int i) {
      return std::isfinite(in[i]) ? std::clamp(in[i], -1.0, 1.0) : 0.0;
    };
    arm::HandRates rates;
    rates.linear = topSpeed_ * Vec3(stick(0), stick(1), stick(2));
    rates.angular = topTurn_ * Vec3(stick(3), stick(4), stick(5));
    rates.inHandFrame = isHigh(in[6]);
    const std::vector<double>& command = hand_->step(world_, rates, ctx.dt);
    const size_t n = command.size();
    for (size_t k = 0; k < n; ++k) out[k] = command[k];
    const Vec3& target = hand_->target().position;
    for (int i = 0; i < 3; ++i) out[n + size_t(i)] = target[i];
  }
  void reset() override { hand_->reset(); }
  void saveState(StateWriter& out) const override { hand_->saveState(out); }
  void loadState(StateReader& in) override { hand_->loadState(in); }

 private:
  const World& world_;
  std::unique_ptr<arm::HandTeleoperation> hand_;
  double topSpeed_, topTurn_;  ///< (unit: m/s, rad/s)
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
  std::istringstream names(b.text("joints"));
  for (std::string name; names >> name;) {
    int index = -1;
    for (int j = 0; j < world.jointCount(); ++j)
      if (world.joint(j).name() == name) index = j;
    if (index < 0) b.fail("joint '" + name + "' not found");
    const Joint& joint = world.joint(index);
    const int link = wt.linkOfJoint(index);
    if ((joint.type() != JointType::Revolute && joint.type() != JointType::Prismatic) || link < 0)
      b.fail("joint '" + name + "' must be a revolute or prismatic joint of the tree");
    if (!wt.tree.reachable(tip.link, link))
      b.fail("joint '" + name + "' does not move the tip body '" + tip.body + "'");
    // The drive's top speed at full voltage, a share of it left for the load.
    double rate = 0.0;
    for (const DriveCoupling& d : joint.drives())
      if (d.primary) rate = std::abs(d.ratio) * d.motor->params().noLoadSpeed;
    if (!(rate > 0.0)) b.fail("joint '" + name + "' has no motor");
    links.push_back(link);
    maxRates.push_back(speedShare * rate);
    outputs.push_back(name);
  }
  if (links.size() < 6) b.fail("joints: a hand's pose needs at least six joints");
  std::vector<double> posture(links.size(), 0.0);
  if (b.desc().params.count("posture")) {
    posture = b.numbers("posture");
    if (posture.size() != links.size()) b.fail("posture needs one coordinate per joint (rad or m)");
  }
  for (const char* s : {"target_x", "target_y", "target_z"}) outputs.push_back(s);
  auto hand = std::make_unique<arm::HandTeleoperation>(std::move(wt), base, tip.link, tip.point,
                                                       std::move(links), std::move(maxRates),
                                                       std::move(posture));
  return std::make_unique<HandBlock>(std::move(outputs), world, std::move(hand), topSpeed, topTurn);
}

}  // namespace impetus::blocks
