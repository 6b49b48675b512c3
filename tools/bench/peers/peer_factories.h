#pragma once
// Factories of the engines linked into each benchmark process.

#include <memory>

#include "peer_engine.h"

namespace peers {

std::unique_ptr<PeerEngine> makeImpetusPeer();
std::unique_ptr<PeerEngine> makeMujocoPeer();
std::unique_ptr<PeerEngine> makeOdePeer();
std::unique_ptr<PeerEngine> makeBulletPeer();           ///< rigid bodies + constraints, SI
std::unique_ptr<PeerEngine> makeBulletMultiBodyPeer();  ///< btMultiBody (reduced coordinates)

}  // namespace peers
