#pragma once
// Factories of the engines linked into each benchmark process.

#include <memory>

#include "peer_engine.h"

namespace peers {

std::unique_ptr<PeerEngine> makeImpetusPeer();         ///< defaults: sleeping on
std::unique_ptr<PeerEngine> makeImpetusNoSleepPeer();  ///< sleeping off
std::unique_ptr<PeerEngine> makeMujocoPeer();
std::unique_ptr<PeerEngine> makeOdePeer();             ///< ODE's default: no auto-disable
std::unique_ptr<PeerEngine> makeOdeAutoDisablePeer();  ///< ODE's sleeping, its default thresholds
std::unique_ptr<PeerEngine> makeBulletPeer();          ///< rigid bodies + constraints, SI
/// The same with Bullet's default deactivation (its sleeping) left on.
std::unique_ptr<PeerEngine> makeBulletDeactivationPeer();
std::unique_ptr<PeerEngine> makeBulletMultiBodyPeer();  ///< btMultiBody (reduced coordinates)

}  // namespace peers
