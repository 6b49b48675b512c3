#include "impetus/scheme/block_library.h"

#include <utility>

#include "blocks/blocks.h"

namespace impetus {
namespace {

// The scene names of the built-in blocks; a new block type is one file in blocks/ and one line
// here.
constexpr std::pair<const char*, BlockFactory> kBlockTypes[] = {
    {"constant", blocks::makeConstant},
    {"input", blocks::makeInput},
    {"sensor", blocks::makeSensor},
    {"gain", blocks::makeGain},
    {"sum", blocks::makeSum},
    {"product", blocks::makeProduct},
    {"saturation", blocks::makeSaturation},
    {"deadzone", blocks::makeDeadZone},
    {"rate_limiter", blocks::makeRateLimiter},
    {"lag", blocks::makeLag},
    {"integrator", blocks::makeIntegrator},
    {"pid", blocks::makePid},
    {"selector", blocks::makeSelector},
    {"router", blocks::makeRouter},
    {"comparator", blocks::makeComparator},
    {"and", blocks::makeAnd},
    {"or", blocks::makeOr},
    {"not", blocks::makeNot},
    {"toggle", blocks::makeToggle},
    {"latch", blocks::makeLatch},
    {"lookup", blocks::makeLookup},
    {"mixer", blocks::makeMixer},
    {"delay", blocks::makeDelay},
    {"motor", blocks::makeMotorOutput},
    {"brake", blocks::makeBrakeOutput},
    {"grapple", blocks::makeGrappleBlock},
    {"ik", blocks::makeCartesianIk},
    {"hand", blocks::makeHand},
    {"wheel_turn", blocks::makeWheelTurn},
    {"servo", blocks::makeServo},
    {"walking", blocks::makeWalking},
};

}  // namespace

BlockFactory findBlockType(const std::string& type) {
  for (const auto& [name, factory] : kBlockTypes)
    if (type == name) return factory;
  return nullptr;
}

std::vector<std::string> blockTypeNames() {
  std::vector<std::string> names;
  for (const auto& entry : kBlockTypes) names.emplace_back(entry.first);
  return names;
}

}  // namespace impetus
