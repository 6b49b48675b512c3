// ik: Cartesian teleoperation of a chain tip through inverse kinematics (seed 004's tree view of
// the scene). Each step it reads the joint coordinates from the world, moves its target and
// solves damped least squares from its last command, and outputs one joint coordinate setpoint
// per chosen joint (rad or m), for position loops (pid -> motor) to follow.
//   mode="velocity" (default): inputs x, y, z are the tip's velocity (m/s, world), integrated;
//     the target is pulled back to the solution, so holding a jog past the reach does not wind up.
//   mode="position": inputs x, y, z are the target point (m, world), e.g. a valve rim.
#include <cmath>
#include <sstream>

#include "blocks.h"
#include "chain_tip.h"
#include "impetus/dynamics/world.h"
#include "impetus/session/state_stream.h"
#include "impetus/tree/inverse_kinematics.h"
#include "impetus/tree/tree_from_world.h"

namespace impetus::blocks {
namespace {

class CartesianIk : public Block {
 public:
  CartesianIk(std::vector<std::string> outputs, const World& world, tree::WorldTree wt, int tipLink,
              const Vec3& tipPoint, std::vector<int> links, bool velocityMode)
      : Block({"x", "y", "z"}, std::move(outputs)),
        world_(world),
        wt_(std::make_unique<tree::WorldTree>(std::move(wt))),
        ik_(wt_->tree, tipLink, tipPoint, links),
        links_(std::move(links)),
        velocityMode_(velocityMode),
        command_(static_cast<Eigen::Index>(links_.size())) {
    options_.maxIterations = 10;  // per 10 ms step; the target moves little between steps
  }

  void evaluate(const double* in, double* out, const SchemeContext& ctx) override {
    tree::coordinatesFromWorld(*wt_, world_, q_, qd_);
    if (!started_) {
      for (size_t k = 0; k < links_.size(); ++k)
        command_[static_cast<Eigen::Index>(k)] = q_[links_[k]];
      target_ = ik_.tipPosition(q_);
      started_ = true;
    }
    const Vec3 input(in[0], in[1], in[2]);
    if (input.allFinite()) target_ = velocityMode_ ? Vec3(target_ + input * ctx.dt) : input;
    for (size_t k = 0; k < links_.size(); ++k)
      q_[links_[k]] = command_[static_cast<Eigen::Index>(k)];
    ik_.solve(q_, target_, nullptr, options_);
    for (size_t k = 0; k < links_.size(); ++k) {
      command_[static_cast<Eigen::Index>(k)] = q_[links_[k]];
      out[k] = q_[links_[k]];
    }
    if (velocityMode_) target_ = ik_.tipPosition(q_);
  }
  void reset() override { started_ = false; }

  void saveState(StateWriter& out) const override {
    out.put(target_);
    out.put(started_);
    out.put(std::span<const double>(command_.data(), size_t(command_.size())));
  }
  void loadState(StateReader& in) override {
    in.get(target_);
    in.get(started_);
    std::vector<double> command;
    in.get(command, 64);
    StateReader::requireSame(command.size(), size_t(command_.size()), "ik joints");
    for (size_t k = 0; k < command.size(); ++k) command_[Eigen::Index(k)] = command[k];
  }

 private:
  const World& world_;
  std::unique_ptr<tree::WorldTree> wt_;  // stable address: the solver keeps a pointer to its tree
  tree::InverseKinematics ik_;
  std::vector<int> links_;
  bool velocityMode_;
  tree::VectorX command_, q_, qd_;
  Vec3 target_ = Vec3::Zero();
  tree::IkOptions options_;
  bool started_ = false;
};

}  // namespace

std::unique_ptr<Block> makeCartesianIk(const BlockBuild& b) {
  const World& world = b.world();
  tree::WorldTree wt = tree::treeFromWorld(world);
  const ChainTip tip = chainTip(b, wt);
  const std::string mode = b.text("mode", "velocity");
  if (mode != "velocity" && mode != "position") b.fail("mode must be velocity or position");

  std::vector<int> links;
  std::vector<std::string> outputs;
  std::istringstream names(b.text("joints", ""));
  for (std::string name; names >> name;) {
    links.push_back(chainJoint(b, wt, tip, name).link);
    outputs.push_back(name);
  }
  if (links.empty()) {
    // Default: every revolute and prismatic joint between the tip and the root or floating base.
    for (int j = 0; j < world.jointCount(); ++j) {
      const int link = wt.linkOfJoint(j);
      const JointType type = world.joint(j).type();
      if (link < 0 || (type != JointType::Revolute && type != JointType::Prismatic)) continue;
      if (!wt.tree.reachable(tip.link, link)) continue;
      links.push_back(link);
      const std::string& name = world.joint(j).name();  // the robot's own name is the port
      const std::string& prefix = b.desc().prefix;
      outputs.push_back(name.rfind(prefix, 0) == 0 ? name.substr(prefix.size()) : name);
    }
    if (links.empty())
      b.fail("no revolute or prismatic joint moves the tip body '" + tip.body + "'");
  }
  return std::make_unique<CartesianIk>(std::move(outputs), world, std::move(wt), tip.link,
                                       tip.point, std::move(links), mode == "velocity");
}

}  // namespace impetus::blocks
