#pragma once
// Factories of the built-in block types (one file each; listed in block_library.cpp).

#include <memory>

#include "impetus/scheme/block.h"

namespace impetus::blocks {

#define IMPETUS_BLOCK(factory) std::unique_ptr<Block> factory(const BlockBuild& build);
IMPETUS_BLOCK(makeConstant)
IMPETUS_BLOCK(makeInput)
IMPETUS_BLOCK(makeSensor)
IMPETUS_BLOCK(makeGain)
IMPETUS_BLOCK(makeSum)
IMPETUS_BLOCK(makeProduct)
IMPETUS_BLOCK(makeSaturation)
IMPETUS_BLOCK(makeDeadZone)
IMPETUS_BLOCK(makeRateLimiter)
IMPETUS_BLOCK(makeLag)
IMPETUS_BLOCK(makeIntegrator)
IMPETUS_BLOCK(makePid)
IMPETUS_BLOCK(makeSelector)
IMPETUS_BLOCK(makeRouter)
IMPETUS_BLOCK(makeComparator)
IMPETUS_BLOCK(makeAnd)
IMPETUS_BLOCK(makeOr)
IMPETUS_BLOCK(makeNot)
IMPETUS_BLOCK(makeToggle)
IMPETUS_BLOCK(makeLatch)
IMPETUS_BLOCK(makeLookup)
IMPETUS_BLOCK(makeMixer)
IMPETUS_BLOCK(makeDelay)
IMPETUS_BLOCK(makeMotorOutput)
IMPETUS_BLOCK(makeBrakeOutput)
IMPETUS_BLOCK(makeGrappleBlock)
IMPETUS_BLOCK(makeCartesianIk)
IMPETUS_BLOCK(makeHand)
IMPETUS_BLOCK(makeWheelTurn)
IMPETUS_BLOCK(makeServo)
IMPETUS_BLOCK(makeWalking)
#undef IMPETUS_BLOCK

/// Logic level of a signal: true above 0.5.
inline bool isHigh(double v) {
  return v > 0.5;
}

}  // namespace impetus::blocks
