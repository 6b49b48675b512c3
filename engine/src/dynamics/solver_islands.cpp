#include "impetus/dynamics/solver_islands.h"

#include <algorithm>

namespace impetus {
namespace {
constexpr int kUnused = -1, kUsed = -2;  // islandOfRoot_ before finish() numbers the islands
}  // namespace

void SolverIslands::reset(std::span<const char> movable, size_t rotorCount) {
  movable_ = movable;
  bodyCount_ = movable.size();
  // Bodies, rotor slots (slot 0 is "no rotor" and stays alone), and a spare node for items
  // over nothing that moves.
  sets_.reset(bodyCount_ + rotorCount + 1);
  jointItems_.clear();
  motorItems_.clear();
  otherNodes_.clear();
}

void SolverIslands::linkBodies(BodyId a, BodyId b) {
  const int na = bodyNode(a), nb = bodyNode(b);
  if (na >= 0 && nb >= 0) sets_.join(na, nb);
}

void SolverIslands::linkRotor(BodyId body, int rotorSlot) {
  const int nb = bodyNode(body), nr = rotorNode(rotorSlot);
  if (nb >= 0 && nr >= 0) sets_.join(nb, nr);
}

int SolverIslands::nodeOf(BodyId a, BodyId b, int rotorSlot) const {
  if (const int n = bodyNode(a); n >= 0) return n;
  if (const int n = bodyNode(b); n >= 0) return n;
  if (const int n = rotorNode(rotorSlot); n >= 0) return n;
  return static_cast<int>(sets_.size()) - 1;
}

void SolverIslands::addJoint(int joint, BodyId a, BodyId b, int rotorSlot) {
  jointItems_.push_back({joint, nodeOf(a, b, rotorSlot)});
}

void SolverIslands::addTrackMotor(int motor, int rotorSlot) {
  motorItems_.push_back({motor, nodeOf(-1, -1, rotorSlot)});
}

void SolverIslands::addOtherRows(BodyId a, BodyId b) {
  linkBodies(a, b);
  otherNodes_.push_back(nodeOf(a, b, 0));
}

void SolverIslands::finish(std::span<ContactPoint> contacts) {
  const size_t nodes = sets_.size();
  islandOfRoot_.assign(nodes, kUnused);
  const auto use = [&](int node) { islandOfRoot_[size_t(sets_.root(node))] = kUsed; };
  for (const Item& item : jointItems_) use(item.node);
  for (const Item& item : motorItems_) use(item.node);
  for (const int node : otherNodes_) use(node);
  contactIsland_.resize(contacts.size());
  for (size_t k = 0; k < contacts.size(); ++k) {
    const int node = nodeOf(contacts[k].bodyA, contacts[k].bodyB, 0);
    use(node);
    contactIsland_[k] = node;  // the node for now; its island below
  }
  // Numbered by their lowest node: a union-find root is its set's lowest (BodyIslands::join).
  int count = 0;
  for (size_t node = 0; node < nodes; ++node)
    if (islandOfRoot_[node] == kUsed) islandOfRoot_[node] = count++;
  const size_t n = size_t(count);
  islands_.assign(n, Island{});

  // Counting sorts, stable: each island's items keep their order. fill_[i + 1] counts island
  // i's items, then `ranges` turns the counts into each island's [begin, end) and fill_[i] into
  // where its next item goes.
  const auto ranges = [&](auto setRange) {
    for (size_t i = 0; i < n; ++i) {
      fill_[i + 1] += fill_[i];
      setRange(islands_[i], fill_[i], fill_[i + 1]);
    }
  };
  const auto sortItems = [&](const std::vector<Item>& items, std::vector<int>& out,
                             int Island::*begin, int Island::*end) {
    fill_.assign(n + 1, 0);
    for (const Item& item : items) ++fill_[size_t(islandOf(item.node)) + 1];
    ranges([&](Island& i, int first, int last) { i.*begin = first, i.*end = last; });
    out.resize(items.size());
    for (const Item& item : items) out[size_t(fill_[size_t(islandOf(item.node))]++)] = item.index;
  };
  sortItems(jointItems_, joints_, &Island::jointBegin, &Island::jointEnd);
  sortItems(motorItems_, motors_, &Island::motorBegin, &Island::motorEnd);

  fill_.assign(n + 1, 0);
  for (int& island : contactIsland_) {
    island = islandOf(island);
    ++fill_[size_t(island) + 1];
  }
  ranges([](Island& i, int begin, int end) {
    i.contactBegin = size_t(begin);
    i.contactEnd = size_t(end);
  });
  scratch_.resize(contacts.size());
  for (size_t k = 0; k < contacts.size(); ++k)
    scratch_[size_t(fill_[size_t(contactIsland_[k])]++)] = contacts[k];
  std::copy(scratch_.begin(), scratch_.end(), contacts.begin());

  // The moving bodies of each island, in body order (the position pass moves only these).
  const auto islandOfBody = [&](size_t b) {
    return movable_[b] ? islandOfRoot_[size_t(sets_.root(int(b)))] : kUnused;
  };
  fill_.assign(n + 1, 0);
  for (size_t b = 0; b < bodyCount_; ++b)
    if (const int i = islandOfBody(b); i >= 0) ++fill_[size_t(i) + 1];
  ranges([](Island& i, int begin, int end) { i.bodyBegin = begin, i.bodyEnd = end; });
  bodies_.resize(size_t(fill_[n]));
  for (size_t b = 0; b < bodyCount_; ++b)
    if (const int i = islandOfBody(b); i >= 0) bodies_[size_t(fill_[size_t(i)]++)] = BodyId(b);
}

}  // namespace impetus
