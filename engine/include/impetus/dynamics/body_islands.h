#pragma once
// Islands of bodies: disjoint sets under "linked by a joint or a contact" (union-find with path
// halving), for the world's sleep bookkeeping and its solver islands (solver_islands.h).

#include <vector>

#include "impetus/dynamics/rigid_body.h"

namespace impetus {

class BodyIslands {
 public:
  /// Every body its own island; keeps capacity (no allocation once warm).
  void reset(size_t bodyCount);
  /// Puts a and b in one island. The smaller root index stays the root, so the partition and
  /// its roots depend on the links alone, not on their order.
  void join(BodyId a, BodyId b);
  /// The representative body of b's island.
  BodyId root(BodyId b);
  size_t size() const { return parent_.size(); }

 private:
  std::vector<BodyId> parent_;
};

}  // namespace impetus
