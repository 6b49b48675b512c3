#pragma once
// The islands a step solves one at a time: the moving bodies and rotors that this step's rows
// link (a joint's and its drives', a contact's and its track drive's). Each island's rows are
// built, solved to the island's own convergence and position-corrected apart from the others', so
// that robots that do not touch step exactly as each would alone, and a step's cost grows with
// the number of robots rather than with the worst one's iterations times their number.

#include <span>
#include <vector>

#include "impetus/contact/contact_point.h"
#include "impetus/dynamics/body_islands.h"

namespace impetus {

class SolverIslands {
 public:
  struct Island {
    size_t contactBegin = 0, contactEnd = 0;  ///< its contacts: the world's [begin, end)
    int jointBegin = 0, jointEnd = 0;         ///< its joints: joints()[begin, end)
    int motorBegin = 0, motorEnd = 0;         ///< its track drives: trackMotors()[begin, end)
    int bodyBegin = 0, bodyEnd = 0;           ///< its moving bodies: bodies()[begin, end)
  };

  /// Starts a step's partition: every body and rotor alone. `movable` (by body) marks the bodies
  /// the rows move; the others (static, sleeping, stepped by an articulation) link nothing.
  void reset(std::span<const char> movable, size_t rotorCount);
  /// Links what one row set holds: bodies a and b (ignored where not movable) and a rotor slot
  /// (0: none).
  void linkBodies(BodyId a, BodyId b);
  void linkRotor(BodyId body, int rotorSlot);
  /// The island a joint, track drive or contact joins is that of the node given here (a movable
  /// body, or a rotor); items are listed in the order added.
  void addJoint(int joint, BodyId a, BodyId b, int rotorSlot);
  void addTrackMotor(int motor, int rotorSlot);
  /// Rows over bodies a and b that the world keeps elsewhere (a compliant contact's friction): an
  /// island holds them even with no joint or contact of its own.
  void addOtherRows(BodyId a, BodyId b);
  /// Ends the partition: islands ordered by their lowest body (or rotor); `contacts` reordered so
  /// that each island's are contiguous, in their order before.
  void finish(std::span<ContactPoint> contacts);

  std::span<const Island> islands() const { return islands_; }
  std::span<const int> joints(const Island& i) const {
    return std::span<const int>(joints_).subspan(size_t(i.jointBegin),
                                                 size_t(i.jointEnd - i.jointBegin));
  }
  std::span<const int> trackMotors(const Island& i) const {
    return std::span<const int>(motors_).subspan(size_t(i.motorBegin),
                                                 size_t(i.motorEnd - i.motorBegin));
  }
  std::span<const BodyId> bodies(const Island& i) const {
    return std::span<const BodyId>(bodies_).subspan(size_t(i.bodyBegin),
                                                    size_t(i.bodyEnd - i.bodyBegin));
  }

 private:
  int bodyNode(BodyId b) const { return b >= 0 && movable_[size_t(b)] ? int(b) : -1; }
  int rotorNode(int slot) const { return slot > 0 ? int(bodyCount_) + slot : -1; }
  /// The node an item over bodies a, b and a rotor belongs to (the spare node when none moves).
  int nodeOf(BodyId a, BodyId b, int rotorSlot) const;
  /// The island index of `node`'s set (finish() numbers them).
  int islandOf(int node) { return islandOfRoot_[size_t(sets_.root(node))]; }
  void count(std::vector<int>& counts, int island);

  std::span<const char> movable_;
  size_t bodyCount_ = 0;
  BodyIslands sets_;  ///< union-find over bodies, then rotors, then one spare node
  struct Item {
    int index, node;
  };
  std::vector<Item> jointItems_, motorItems_;
  std::vector<int> otherNodes_;
  std::vector<int> islandOfRoot_;
  std::vector<Island> islands_;
  std::vector<int> joints_, motors_;
  std::vector<BodyId> bodies_;
  std::vector<int> contactIsland_, fill_;
  std::vector<ContactPoint> scratch_;
};

}  // namespace impetus
