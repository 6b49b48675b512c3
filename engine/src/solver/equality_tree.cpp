#include "impetus/solver/equality_tree.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "impetus/solver/row_buffer.h"
#include "impetus/solver/sequential_impulse_solver.h"
#include "impetus/solver/small_inverse.h"
#include "impetus/util/headroom.h"

namespace impetus {
namespace {

bool isDynamic(const SolverBodyMass& b) {
  return b.inverseMass > 0.0;
}

/// Whether every row of a block only pushes (0 <= p, no rotor).
bool oneSided(const RowBlock& block, std::span<const ConstraintRow> rows) {
  for (int i = block.first; i < block.first + block.count; ++i) {
    const ConstraintRow& r = rows[static_cast<size_t>(i)];
    if (r.lower != 0.0 || r.upper < 1e299 || r.rotorJacobian != 0.0) return false;
  }
  return block.boundRow < 0;
}

/// A joint limit's lone one-sided row, the kind that may join its joint's tree node.
bool isLimitRow(const RowBlock& block, std::span<const ConstraintRow> rows) {
  return block.treeRole == TreeRole::JointLimit && block.count == 1 &&
         block.kind == BlockKind::Bounded && oneSided(block, rows);
}

/// A contact manifold's normal rows, which may form a tree node of their own.
bool isContactBlock(const RowBlock& block, std::span<const ConstraintRow> rows) {
  return block.treeRole == TreeRole::Contact &&
         (block.kind == BlockKind::Limited || block.kind == BlockKind::Bounded) &&
         oneSided(block, rows);
}

/// A contact point's friction pair, which may form a tree node of its own while it sticks.
bool isFrictionBlock(const RowBlock& block, std::span<const ConstraintRow> rows) {
  return block.treeRole == TreeRole::Friction && block.kind == BlockKind::NormBall &&
         block.boundRow >= 0 && rows[static_cast<size_t>(block.first)].rotorJacobian == 0.0 &&
         rows[static_cast<size_t>(block.first + block.count - 1)].rotorJacobian == 0.0;
}

/// Inverts a node's D, symmetric definite on its leading n x n corner (sign = +1 positive, -1
/// negative definite). The padding past n is set to sign times the corner's largest diagonal
/// entry, so that it neither hides nor fakes a small pivot; nothing couples to it.
bool invertDefinite(Eigen::Matrix<double, 6, 6>& d, int n, double sign, bool ridge,
                    Eigen::Matrix<double, 6, 6>& inverse) {
  double scale = 0.0;
  for (int k = 0; k < n; ++k) scale = std::max(scale, std::abs(d(k, k)));
  // The coplanar points of a face contact are one row too many (3 DOF, 4 rows): the same
  // 1e-10 relative ridge as the swept manifold's picks the impulses of least norm, a face
  // resting evenly on its corners.
  if (ridge)
    for (int k = 0; k < n; ++k) d(k, k) += sign * 1e-10 * scale;
  for (int k = n; k < 6; ++k) d(k, k) = sign * (scale > 0.0 ? scale : 1.0);
  return invertSymmetricDefinite6(d, sign, inverse);
}

/// Flags of a tree under construction (at its union-find root).
constexpr char kGrounded = 1;        ///< it has a constraint with one moving end (its root)
constexpr char kHasContactNode = 2;  ///< a contact between two of its bodies is one of its nodes
constexpr char kHasJoint = 4;        ///< a joint's (an equality block's) node is one of its nodes

/// Compliance of a leaf constraint (one moving end, not the root), relative to its rows' own
/// J M^-1 J^T: its pivot would otherwise be its softness, zero. Only the factorisation sees it
/// (the residuals do not), so the iteration converges to the exact answer; 1e-6 keeps the body's
/// pivot within six digits of its mass (1e-9 lost the ragdoll to round-off).
constexpr double kLeafCompliance = 1e-6;

/// Calls f.template operator()<D>() with D = dim (1..6; 6 for anything larger): the node kernels
/// below are instantiated for the true sizes of a node and its parent (a ball joint's 3 rows, a
/// hinge's 5, a body's 6) rather than padded to 6 x 6.
template <int D = 1, typename F>
void withDim(int dim, F&& f) {
  if constexpr (D < 6) {
    if (dim != D) return withDim<D + 1>(dim, std::forward<F>(f));
  }
  f.template operator()<D>();
}

}  // namespace

template <int I, int P>
void EqualityTree::eliminate(Node& node, Mat6& parentD) {
  // D_p -= A^T D_i^-1 A, keeping gain = D_i^-1 A for the backward sweep.
  const auto coupling = node.coupling.topLeftCorner<I, P>();
  node.gain.topLeftCorner<I, P>().noalias() = node.inverseD.topLeftCorner<I, I>() * coupling;
  parentD.topLeftCorner<P, P>().noalias() -= coupling.transpose() * node.gain.topLeftCorner<I, P>();
}

template <int I, int P>
void EqualityTree::forward(Node& node, const Vec6& y, Vec6& parentY) {
  node.z.head<I>().noalias() = node.inverseD.topLeftCorner<I, I>() * y.head<I>();
  parentY.head<P>().noalias() -= node.coupling.topLeftCorner<I, P>().transpose() * node.z.head<I>();
}

template <int I, int P>
void EqualityTree::backward(Node& node, const Vec6& parentZ) {
  node.z.head<I>().noalias() -= node.gain.topLeftCorner<I, P>() * parentZ.head<P>();
}

bool EqualityTree::closesJointLoop(int bodyA, int bodyB) const {
  const auto nodeOf = [&](int body) {
    return body >= 0 && static_cast<size_t>(body) < bodyNode_.size()
               ? bodyNode_[static_cast<size_t>(body)]
               : -1;
  };
  const auto root = [&](int node) {  // find() without its path halving
    while (unionParent_[static_cast<size_t>(node)] != node)
      node = unionParent_[static_cast<size_t>(node)];
    return node;
  };
  const int a = nodeOf(bodyA), b = nodeOf(bodyB);
  if (a < 0 || b < 0) return false;
  const int tree = root(a);
  return tree == root(b) && (grounded_[static_cast<size_t>(tree)] & kHasJoint) != 0;
}

int EqualityTree::find(int node) {
  while (unionParent_[static_cast<size_t>(node)] != node) {
    int& p = unionParent_[static_cast<size_t>(node)];
    p = unionParent_[static_cast<size_t>(p)];  // path halving
    node = p;
  }
  return node;
}

void EqualityTree::writeLayout(std::span<const ConstraintRow> rows,
                               std::span<const RowBlock> blocks,
                               std::span<const SolverBodyMass> bodies,
                               std::span<const double> rotorInverseInertia,
                               std::vector<std::uint64_t>& layout) {
  // Everything chooseStructure reads: the blocks' shapes and roles, each row's ends, whether
  // they move, and whether it only pushes or drives a rotor. (Only the rows' own bodies and
  // rotors: an island's buffer is one of many, and the world's other bodies are no concern.)
  // Written by index into a vector sized once (the size is the same build after build).
  layout.resize(2 + blocks.size() + 2 * rows.size());
  std::uint64_t* out = layout.data();
  *out++ = blocks.size();
  *out++ = rows.size();
  for (const RowBlock& b : blocks)
    *out++ =
        static_cast<std::uint64_t>(static_cast<std::uint32_t>(b.first)) << 32 |
        static_cast<std::uint64_t>(b.count) << 16 | static_cast<std::uint64_t>(b.kind) << 8 |
        static_cast<std::uint64_t>(b.treeRows) << 24 | static_cast<std::uint64_t>(b.treeRole) << 4 |
        static_cast<std::uint64_t>(b.treeActive) << 1 | static_cast<std::uint64_t>(b.boundRow >= 0);
  for (const ConstraintRow& r : rows) {
    *out++ = static_cast<std::uint64_t>(static_cast<std::uint32_t>(r.bodyA)) << 32 |
             static_cast<std::uint32_t>(r.bodyB);
    const bool pushes = r.lower == 0.0 && r.upper >= 1e299;
    const bool movesA = isDynamic(bodies[static_cast<size_t>(r.bodyA)]);
    const bool movesB = isDynamic(bodies[static_cast<size_t>(r.bodyB)]);
    const bool rotorMoves = rotorInverseInertia[static_cast<size_t>(r.rotor)] > 0.0;
    *out++ = static_cast<std::uint64_t>(movesA) << 63 | static_cast<std::uint64_t>(movesB) << 62 |
             static_cast<std::uint64_t>(rotorMoves) << 61 |
             static_cast<std::uint64_t>(static_cast<std::uint32_t>(r.rotor)) << 2 |
             static_cast<std::uint64_t>(pushes) << 1 |
             static_cast<std::uint64_t>(r.rotorJacobian != 0.0);
  }
}

bool EqualityTree::build(std::span<const ConstraintRow> rows, std::span<RowBlock> blocks,
                         std::span<const SolverBodyMass> bodies,
                         std::span<const double> rotorInverseInertia) {
  // The bodies move a little between builds, the tree's shape mostly not at all (a chain's, a
  // ragdoll's between contacts): the choice of blocks and the elimination order are kept while
  // everything they depend on is unchanged.
  writeLayout(rows, blocks, bodies, rotorInverseInertia, scratchLayout_);
  if (scratchLayout_ != layout_) {
    // Copied, not swapped: each vector's capacity then only grows (a swap would trade them, and
    // the same steps rehearsed from a saved state could find the smaller one in place).
    layout_.assign(scratchLayout_.begin(), scratchLayout_.end());
    structureReady_ = chooseStructure(rows, blocks, bodies, rotorInverseInertia);
    joinable_.clear();
    for (size_t b = 0; b < blocks.size(); ++b)
      if (blocks[b].treeJoinable) joinable_.push_back(static_cast<int>(b));
  } else {
    for (RowBlock& block : blocks) block.direct = block.treeJoinable = false;
    for (int b : joinable_) blocks[static_cast<size_t>(b)].treeJoinable = true;
  }
  released_.clear();
  reserveWithHeadroom(released_, blocks.size());
  if (!structureReady_) return false;
  if (!factorise(rows, blocks, bodies, rotorInverseInertia)) {
    layout_.clear();  // choose afresh next time
    return false;
  }
  return true;
}

bool EqualityTree::chooseStructure(std::span<const ConstraintRow> rows, std::span<RowBlock> blocks,
                                   std::span<const SolverBodyMass> bodies,
                                   std::span<const double> rotorInverseInertia) {
  nodes_.clear();
  blocks_.clear();
  order_.clear();
  unionParent_.clear();
  grounded_.clear();
  bodyNode_.assign(bodies.size(), -1);
  groundContact_.assign(bodies.size(), -1);
  rotorNode_.assign(rotorInverseInertia.size(), -1);
  const auto newNode = [&](NodeKind kind, int index) {
    Node& n = nodes_.emplace_back();
    n.kind = kind;
    n.index = index;
    n.parent = -1;
    unionParent_.push_back(static_cast<int>(nodes_.size()) - 1);
    grounded_.push_back(0);
    return static_cast<int>(nodes_.size()) - 1;
  };

  // Choose the blocks: equality blocks that keep the body-constraint graph a forest. A block
  // over the same two bodies as the node just made (a joint's gear row after its joint) joins it.
  const auto usesRotorColumn = [&](const RowBlock& block) {
    const ConstraintRow& r0 = rows[static_cast<size_t>(block.first)];
    if (r0.rotor <= 0 || !(rotorInverseInertia[static_cast<size_t>(r0.rotor)] > 0.0)) return false;
    for (int i = 0; i < block.count; ++i)
      if (rows[static_cast<size_t>(block.first + i)].rotorJacobian != 0.0) return true;
    return false;
  };
  const auto nodeOf = [&](bool rotor, int index) -> int& {
    return rotor ? rotorNode_[static_cast<size_t>(index)] : bodyNode_[static_cast<size_t>(index)];
  };
  limitCandidates_.clear();
  rootRequired_.clear();
  // A constraint with one end that moves (to the ground, or a contact with it) is the root of its
  // tree: as a leaf its pivot would be its softness, zero. Further ones are loops through the
  // ground: leaves made slightly compliant, or left to the sweep (see below). grounded_ flags the
  // trees (at their union-find roots) that have a root of this kind, and those holding contacts.
  const auto isGrounded = [&](int node) {
    return node >= 0 && (grounded_[static_cast<size_t>(find(node))] & kGrounded) != 0;
  };
  int lastConstraint = -1;
  // The last contact block that may join (the one its points' friction pairs are bounded by), and
  // whether it is a node now: friction joins only with its normal rows.
  int lastContact = -1, lastContactNode = -1;
  for (size_t b = 0; b < blocks.size(); ++b) {
    RowBlock& block = blocks[b];
    block.direct = false;
    block.treeJoinable = false;
    const ConstraintRow& r0 = rows[static_cast<size_t>(block.first)];
    if (isLimitRow(block, rows)) {
      // A limit may join the node of its joint's rows just made (same bodies), once the joint's
      // other rows (a gear after it) have taken their places: see below.
      if (lastConstraint < 0) continue;
      const ConstraintRow& l0 =
          rows[static_cast<size_t>(nodes_[static_cast<size_t>(lastConstraint)].rows[0])];
      if (l0.bodyA == r0.bodyA && l0.bodyB == r0.bodyB)
        limitCandidates_.push_back({static_cast<int>(b), lastConstraint});
      continue;
    }
    const bool contact = isContactBlock(block, rows);
    const bool friction = isFrictionBlock(block, rows);
    int ballSlot = -1;  // friction: the slot of its normal row in that row's node
    if (friction) {
      const RowBlock* normal =
          lastContact >= 0 ? &blocks[static_cast<size_t>(lastContact)] : nullptr;
      if (!normal || block.boundRow < normal->first ||
          block.boundRow >= normal->first + normal->count)
        continue;
      if (lastContactNode < 0) {  // it may join once its normal rows have
        block.treeJoinable = true;
        continue;
      }
      const Node& normalNode = nodes_[static_cast<size_t>(lastContactNode)];
      ballSlot = static_cast<int>(
          std::find(normalNode.rows, normalNode.rows + normalNode.rowCount, block.boundRow) -
          normalNode.rows);
      if (ballSlot == normalNode.rowCount)
        continue;  // its point does not push: swept beside the tree, so is its friction
    } else if (block.kind != BlockKind::Equality && !contact) {
      continue;
    }
    const bool usesRotor = usesRotorColumn(block);
    // Endpoints: bodies that move, and the rotor.
    bool isRotor[3];
    int indices[3], count = 0;
    if (isDynamic(bodies[static_cast<size_t>(r0.bodyA)])) {
      isRotor[count] = false;
      indices[count++] = r0.bodyA;
    }
    if (r0.bodyB != r0.bodyA && isDynamic(bodies[static_cast<size_t>(r0.bodyB)])) {
      isRotor[count] = false;
      indices[count++] = r0.bodyB;
    }
    if (usesRotor) {
      isRotor[count] = true;
      indices[count++] = r0.rotor;
    }
    if (count == 0) continue;
    // Join the previous node: same bodies, room for the rows, and at most a new rotor end.
    if (lastConstraint >= 0 && !contact && !friction &&
        nodes_[static_cast<size_t>(lastConstraint)].frictionBlock < 0) {
      Node& last = nodes_[static_cast<size_t>(lastConstraint)];
      const ConstraintRow& l0 = rows[static_cast<size_t>(last.rows[0])];
      const bool samePair = l0.bodyA == r0.bodyA && l0.bodyB == r0.bodyB;
      const bool rotorFits = !usesRotor || last.ends[2] < 0 ||
                             nodes_[static_cast<size_t>(last.ends[2])].index == r0.rotor;
      if (samePair && rotorFits && last.oneSided == 0 &&
          last.rowCount + block.count <= kMaxBlockRows) {
        if (usesRotor && last.ends[2] < 0) {
          const int rotorNode = rotorNode_[static_cast<size_t>(r0.rotor)];
          if (rotorNode >= 0 && (find(rotorNode) == find(lastConstraint) ||
                                 (isGrounded(rotorNode) && isGrounded(lastConstraint))))
            continue;  // a loop
        }
        Node& joined = nodes_[static_cast<size_t>(lastConstraint)];
        for (int i = 0; i < block.count; ++i) joined.rows[joined.rowCount++] = block.first + i;
        if (usesRotor && joined.ends[2] < 0) {
          int& rotorNode = nodeOf(true, r0.rotor);
          if (rotorNode < 0) rotorNode = newNode(NodeKind::Rotor, r0.rotor);
          nodes_[static_cast<size_t>(lastConstraint)].ends[2] = rotorNode;
          const int root = find(lastConstraint), other = find(rotorNode);
          grounded_[static_cast<size_t>(root)] |= grounded_[static_cast<size_t>(other)];
          unionParent_[static_cast<size_t>(other)] = root;
        }
        blocks_.push_back(static_cast<int>(b));
        continue;
      }
    }
    bool closesLoop = false;
    for (int k = 0; k < count && !closesLoop; ++k)
      for (int m = 0; m < k && !closesLoop; ++m) {
        const int nk = nodeOf(isRotor[k], indices[k]), nm = nodeOf(isRotor[m], indices[m]);
        closesLoop = nk >= 0 && nm >= 0 && find(nk) == find(nm);
      }
    if (closesLoop) continue;  // stays in the Gauss-Seidel sweep
    int groundedTrees = count == 1 ? 1 : 0;
    bool contactTree = contact && count > 1;
    bool jointTree = !contact && !friction;
    for (int k = 0; k < count; ++k) {
      const int end = nodeOf(isRotor[k], indices[k]);
      if (isGrounded(end)) ++groundedTrees;
      const char flags = end >= 0 ? grounded_[static_cast<size_t>(find(end))] : 0;
      contactTree = contactTree || (flags & kHasContactNode) != 0;
      jointTree = jointTree || (flags & kHasJoint) != 0;
    }
    // Sticking friction pays where a tree of joints shares it out (a ragdoll's limbs on the
    // floor: swept beside the tree, it converged at 1 % an iteration); a free box's is exact in
    // its own sweep, and in the tree it would only add a leaf.
    if (friction && !jointTree) continue;
    // A second grounded constraint closes a loop through the ground. One with a single moving
    // end (a limb resting on the floor, a second pin) joins as a leaf, made slightly compliant
    // (kLeafCompliance): a ragdoll lying on the floor is then exact in one solve. Trees of
    // contacts between bodies (a pyramid) keep one: there the exact answer of a statically
    // indeterminate pile pulls on many contacts at once, more than the solver's releases mend.
    if (groundedTrees > 1 && (count > 1 || contactTree)) continue;
    // A body's contacts with a second fixed body (a foot across a ramp's foot or crest) stay in
    // the sweep: as a second leaf on the body their rows, nearly parallel to the first's, make
    // the tree's compliant leaves trade opposite impulses of hundreds of N s.
    if (contact && count == 1) {
      const int fixed = indices[0] == r0.bodyA ? r0.bodyB : r0.bodyA;
      const int first = groundContact_[static_cast<size_t>(indices[0])];
      if (first >= 0 && first != fixed) continue;
    }
    if (contact) {
      lastContact = static_cast<int>(b);
      lastContactNode = block.treeActive ? static_cast<int>(nodes_.size()) : -1;  // made below
    }
    if (contact || friction) {
      block.treeJoinable = true;
      if (!block.treeActive) continue;
    }
    const int constraint = newNode(NodeKind::Constraint, static_cast<int>(b));
    {
      Node& c = nodes_[static_cast<size_t>(constraint)];
      c.rowCount = 0;
      c.oneSided = 0;
      c.oneSidedBlock = contact ? static_cast<int>(b) : -1;
      c.frictionBlock = friction ? static_cast<int>(b) : -1;
      c.ballNode = friction ? lastContactNode : -1;
      c.ballSlot = ballSlot;
      c.released = false;
      for (int i = 0; i < block.count; ++i) {
        if (contact && !(block.treeRows >> i & 1u)) continue;  // a point that does not push
        if (contact) c.oneSided = static_cast<std::uint8_t>(c.oneSided | (1u << c.rowCount));
        c.rows[c.rowCount++] = block.first + i;
      }
      c.ridge = contact && c.rowCount > 1;
      c.ends[0] = c.ends[1] = c.ends[2] = -1;
    }
    if (count == 1) rootRequired_.push_back(constraint);
    if (contact && count == 1 && groundContact_[static_cast<size_t>(indices[0])] < 0)
      groundContact_[static_cast<size_t>(indices[0])] =
          indices[0] == r0.bodyA ? r0.bodyB : r0.bodyA;
    const bool grounded = groundedTrees > 0;
    for (int k = 0; k < count; ++k) {
      int& slot = nodeOf(isRotor[k], indices[k]);
      if (slot < 0) slot = newNode(isRotor[k] ? NodeKind::Rotor : NodeKind::Body, indices[k]);
      const int node = slot;
      Node& c = nodes_[static_cast<size_t>(constraint)];
      c.ends[isRotor[k] ? 2 : (indices[k] == r0.bodyA ? 0 : 1)] = node;
      unionParent_[static_cast<size_t>(find(node))] = find(constraint);
    }
    grounded_[static_cast<size_t>(find(constraint))] =
        static_cast<char>((grounded ? kGrounded : 0) | (contactTree ? kHasContactNode : 0) |
                          (jointTree ? kHasJoint : 0));
    lastConstraint = constraint;
    blocks_.push_back(static_cast<int>(b));
  }
  // Limits into their joints' nodes: one per node (two opposite stops on one axis would make it
  // singular), where the joint's rows left room.
  for (const auto& [b, n] : limitCandidates_) {
    Node& node = nodes_[static_cast<size_t>(n)];
    RowBlock& block = blocks[static_cast<size_t>(b)];
    block.treeJoinable = node.rowCount < kMaxBlockRows && node.oneSided == 0;
    if (!block.treeJoinable || !block.treeActive) continue;
    node.oneSided = static_cast<std::uint8_t>(1u << node.rowCount);
    node.oneSidedBlock = b;
    node.rows[node.rowCount++] = block.first;
    blocks_.push_back(b);
  }
  if (blocks_.size() < 2) {  // one block alone is what the sweep already solves exactly
    blocks_.clear();
    return false;
  }

  // Adjacency (constraint <-> body/rotor), then a breadth-first order from each root; eliminating
  // in reverse breadth-first order takes every child before its parent.
  // One flat list (node i's neighbours: adjacency_[adjacencyStart_[i], adjacencyStart_[i + 1])),
  // its room kept at twice the constraints' ends: a body meeting more contacts than ever before
  // does not allocate a list of its own.
  const size_t n = nodes_.size();
  reserveWithHeadroom(adjacencyStart_, n + 1);
  adjacencyStart_.assign(n + 1, 0);
  size_t ends = 0;
  for (size_t i = 0; i < n; ++i) {
    if (nodes_[i].kind != NodeKind::Constraint) continue;
    for (int e : nodes_[i].ends) {
      if (e < 0) continue;
      ++adjacencyStart_[i + 1];
      ++adjacencyStart_[static_cast<size_t>(e) + 1];
      ends += 2;
    }
  }
  for (size_t i = 0; i < n; ++i) adjacencyStart_[i + 1] += adjacencyStart_[i];
  reserveWithHeadroom(adjacency_, ends);
  adjacency_.resize(ends);
  reserveWithHeadroom(adjacencyFill_, n);
  adjacencyFill_.assign(adjacencyStart_.begin(), adjacencyStart_.end() - 1);
  for (size_t i = 0; i < n; ++i) {
    if (nodes_[i].kind != NodeKind::Constraint) continue;
    for (int e : nodes_[i].ends) {
      if (e < 0) continue;
      adjacency_[static_cast<size_t>(adjacencyFill_[i]++)] = e;
      adjacency_[static_cast<size_t>(adjacencyFill_[static_cast<size_t>(e)]++)] =
          static_cast<int>(i);
    }
  }
  reserveWithHeadroom(visited_, n);
  visited_.assign(n, 0);
  queue_.clear();
  // Trees with a grounded constraint grow from it (see above), the others from any node.
  for (size_t i = 0; i < rootRequired_.size() + n; ++i) {
    const size_t root =
        i < rootRequired_.size() ? static_cast<size_t>(rootRequired_[i]) : i - rootRequired_.size();
    if (visited_[root]) continue;
    visited_[root] = 1;
    queue_.push_back(static_cast<int>(root));
    for (size_t head = queue_.size() - 1; head < queue_.size(); ++head) {
      const int i = queue_[head];
      for (int k = adjacencyStart_[static_cast<size_t>(i)];
           k < adjacencyStart_[static_cast<size_t>(i) + 1]; ++k) {
        const int next = adjacency_[static_cast<size_t>(k)];
        if (visited_[static_cast<size_t>(next)]) continue;
        visited_[static_cast<size_t>(next)] = 1;
        nodes_[static_cast<size_t>(next)].parent = i;
        queue_.push_back(next);
      }
    }
  }
  reserveWithHeadroom(order_, queue_.size());
  order_.assign(queue_.rbegin(), queue_.rend());
  for (Node& node : nodes_) {
    node.dim = static_cast<std::uint8_t>(node.kind == NodeKind::Body    ? 6
                                         : node.kind == NodeKind::Rotor ? 1
                                                                        : node.rowCount);
    node.leaf = true;
  }
  for (const Node& node : nodes_)
    if (node.parent >= 0) nodes_[static_cast<size_t>(node.parent)].leaf = false;
  return true;
}

void EqualityTree::pairHinges(std::span<const ConstraintRow> rows,
                              std::span<const RowBlock> blocks) {
  hinges_.resize(nodes_.size());
  anyFused_ = false;
  for (Node& node : nodes_) node.fusion = 0;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    Node& body = nodes_[i];
    if (body.kind != NodeKind::Body || body.parent < 0) continue;
    Node& hinge = nodes_[static_cast<size_t>(body.parent)];
    if (hinge.kind != NodeKind::Constraint || hinge.rowCount != 5 || hinge.oneSided != 0 ||
        hinge.ridge || hinge.ends[2] >= 0 || hinge.parent < 0 ||
        nodes_[static_cast<size_t>(hinge.parent)].kind != NodeKind::Body)
      continue;
    // The node's rows: one Hinge block, or (the position pass) its two parts, in order.
    const RowBlock& first = blocks[static_cast<size_t>(hinge.index)];
    const bool hingeShape =
        first.shape == RowShape::Hinge ||
        (first.shape == RowShape::AnchorPoint &&
         static_cast<size_t>(hinge.index) + 1 < blocks.size() &&
         blocks[static_cast<size_t>(hinge.index) + 1].shape == RowShape::AxisAlignment);
    if (!hingeShape) continue;
    const ConstraintRow* hingeRows[5];
    bool soft = false;
    for (int k = 0; k < 5; ++k) {
      hingeRows[k] = &rows[static_cast<size_t>(hinge.rows[k])];
      soft = soft || hingeRows[k]->softness != 0.0;
    }
    if (soft) continue;
    hinges_[i].read(hingeRows, hingeRows[0]->bodyB == body.index);
    body.fusion = kFusedBody;
    hinge.fusion = kFusedHinge;
    anyFused_ = true;
  }
}

bool EqualityTree::factorise(std::span<const ConstraintRow> rows, std::span<RowBlock> blocks,
                             std::span<const SolverBodyMass> bodies,
                             std::span<const double> rotorInverseInertia) {
  // Diagonal blocks (past a node's dim: +-identity, never coupled) and couplings.
  const size_t n = nodes_.size();
  diagonal_.resize(n);
  y_.resize(n);
  pairHinges(rows, blocks);
  bodySolutionExact_ = true;
  anyFriction_ = false;
  for (size_t i = 0; i < n; ++i) {
    Node& node = nodes_[i];
    node.released = false;
    if (node.kind == NodeKind::Constraint &&
        (node.oneSided != 0 || node.ridge || node.leaf || node.frictionBlock >= 0))
      bodySolutionExact_ = false;
    if (node.frictionBlock >= 0) {
      const RowBlock& ball = blocks[static_cast<size_t>(node.frictionBlock)];
      node.ballBound = ball.normBound;
      node.ballCoefficient = ball.boundCoefficient;
      anyFriction_ = true;
    }
    if (node.fusion == kFusedHinge) continue;  // HingeElimination needs none of its numbers
    Mat6& d = diagonal_[i];
    if (node.kind == NodeKind::Body) {
      const SolverBodyMass& m = bodies[static_cast<size_t>(node.index)];
      // Nothing eliminated into it: D^-1 = M^-1 as it is (a paired body needs D = M itself).
      if (node.leaf && node.fusion != kFusedBody) {
        node.inverseD.setZero();
        node.inverseD.topLeftCorner<3, 3>().diagonal().setConstant(m.inverseMass);
        node.inverseD.bottomRightCorner<3, 3>() = m.inverseInertia;
      } else {
        d.setZero();
        d.topLeftCorner<3, 3>().diagonal().setConstant(1.0 / m.inverseMass);
        d.bottomRightCorner<3, 3>() = m.inverseInertia.inverse();
      }
    } else if (node.kind == NodeKind::Rotor) {
      d.setIdentity();
      d(0, 0) = 1.0 / rotorInverseInertia[static_cast<size_t>(node.index)];
    } else {
      d = -Mat6::Identity();
      for (int k = 0; k < node.rowCount; ++k) {
        const ConstraintRow& r = rows[static_cast<size_t>(node.rows[k])];
        d(k, k) = -r.softness;
        if (node.leaf)  // a second grounded constraint of its tree (see chooseStructure)
          d(k, k) -=
              kLeafCompliance * inverseMassAlong(r, bodies[static_cast<size_t>(r.bodyA)],
                                                 bodies[static_cast<size_t>(r.bodyB)],
                                                 rotorInverseInertia[static_cast<size_t>(r.rotor)]);
      }
    }
    // Only the dim_i x dim_parent corner of A is written and read.
    if (node.parent < 0 || node.fusion == kFusedBody) continue;
    const Node& parent = nodes_[static_cast<size_t>(node.parent)];
    // A(constraint, body) = -J (rows x 6); A(body, constraint) = its transpose.
    const bool childIsConstraint = node.kind == NodeKind::Constraint;
    const Node& constraintNode = childIsConstraint ? node : parent;
    const Node& endNode = childIsConstraint ? parent : node;
    const bool sideB = endNode.kind == NodeKind::Body &&
                       rows[static_cast<size_t>(constraintNode.rows[0])].bodyB == endNode.index;
    // Written straight into the matrix (a Vec6 assembled first showed up in the profile as a
    // store-forwarding stall per row).
    for (int k = 0; k < constraintNode.rowCount; ++k) {
      const ConstraintRow& r = rows[static_cast<size_t>(constraintNode.rows[k])];
      if (endNode.kind == NodeKind::Rotor) {
        (childIsConstraint ? node.coupling(k, 0) : node.coupling(0, k)) = -r.rotorJacobian;
        continue;
      }
      const Vec3& linear = sideB ? r.linearB : r.linearA;
      const Vec3& angular = sideB ? r.angularB : r.angularA;
      if (childIsConstraint) {
        node.coupling.block<1, 3>(k, 0) = -linear.transpose();
        node.coupling.block<1, 3>(k, 3) = -angular.transpose();
      } else {
        node.coupling.block<3, 1>(0, k) = -linear;
        node.coupling.block<3, 1>(3, k) = -angular;
      }
    }
  }

  // LDL^T, leaves first: D_p -= A(i,p)^T D_i^-1 A(i,p). A hinge and its child body go as a
  // pair (HingeElimination: no 6 x 6 or 5 x 5 inverse).
  for (int i : order_) {
    Node& node = nodes_[static_cast<size_t>(i)];
    if (node.fusion == kFusedHinge) continue;  // eliminated with its child
    bool regular;                              // the pivot is not singular
    if (node.fusion == kFusedBody) {
      const int grandparent = nodes_[static_cast<size_t>(node.parent)].parent;
      regular = hinges_[static_cast<size_t>(i)].eliminate(
          diagonal_[static_cast<size_t>(i)], diagonal_[static_cast<size_t>(grandparent)]);
    } else {
      const double sign = node.kind == NodeKind::Constraint ? -1.0 : 1.0;
      const bool knownInverse = node.kind == NodeKind::Body && node.leaf;
      regular = knownInverse || invertDefinite(diagonal_[static_cast<size_t>(i)], node.dim, sign,
                                               node.ridge, node.inverseD);
    }
    if (!regular) {
      for (int b : blocks_) blocks[static_cast<size_t>(b)].direct = false;
      blocks_.clear();
      return false;
    }
    if (node.parent < 0 || node.fusion == kFusedBody) continue;
    Mat6& parentD = diagonal_[static_cast<size_t>(node.parent)];
    withDim(node.dim, [&]<int I>() {
      withDim(nodes_[static_cast<size_t>(node.parent)].dim,
              [&]<int P>() { eliminate<I, P>(node, parentD); });
    });
  }
  for (int b : blocks_) blocks[static_cast<size_t>(b)].direct = true;
  return true;
}

template <bool Fused>
void EqualityTree::substitute() {
  for (int i : order_) {  // forward: z = D^-1 y, pushing each child's share into its parent
    Node& node = nodes_[static_cast<size_t>(i)];
    const Vec6& y = y_[static_cast<size_t>(i)];
    if (Fused && node.fusion == kFusedHinge) continue;
    if (Fused && node.fusion == kFusedBody) {  // the pair, pushed into the parent
      const Node& hinge = nodes_[static_cast<size_t>(node.parent)];
      hinges_[static_cast<size_t>(i)].forward(y, y_[static_cast<size_t>(node.parent)],
                                              y_[static_cast<size_t>(hinge.parent)]);
      continue;
    }
    if (node.parent < 0) {
      withDim(node.dim, [&]<int I>() {
        node.z.head<I>().noalias() = node.inverseD.topLeftCorner<I, I>() * y.head<I>();
      });
      continue;
    }
    Vec6& parentY = y_[static_cast<size_t>(node.parent)];
    withDim(node.dim, [&]<int I>() {
      withDim(nodes_[static_cast<size_t>(node.parent)].dim,
              [&]<int P>() { forward<I, P>(node, y, parentY); });
    });
  }
  for (auto it = order_.rbegin(); it != order_.rend(); ++it) {  // backward: x = z - D^-1 A x_p
    Node& node = nodes_[static_cast<size_t>(*it)];
    if (node.parent < 0 || (Fused && node.fusion == kFusedHinge)) continue;
    if (Fused && node.fusion == kFusedBody) {  // the pair again, with the parent's motion known
      Node& hinge = nodes_[static_cast<size_t>(node.parent)];
      const HingeElimination& pair = hinges_[static_cast<size_t>(*it)];
      Vec6 yRows = y_[static_cast<size_t>(node.parent)];
      pair.addParentMotion(nodes_[static_cast<size_t>(hinge.parent)].z, yRows);
      pair.solve(y_[static_cast<size_t>(*it)], yRows, node.z, hinge.z);
      continue;
    }
    const Vec6& parentZ = nodes_[static_cast<size_t>(node.parent)].z;
    withDim(node.dim, [&]<int I>() {
      withDim(nodes_[static_cast<size_t>(node.parent)].dim,
              [&]<int P>() { backward<I, P>(node, parentZ); });
    });
  }
}

void EqualityTree::substitute() {
  if (anyFused_)
    substitute<true>();
  else
    substitute<false>();
}

void EqualityTree::applyVelocityChanges(std::span<SolverVelocity> bodies,
                                        std::span<double> rotorSpeeds) const {
  // The body and rotor unknowns of the KKT system are the velocity changes M^-1 J^T dp
  // themselves: one update per body, not one per row.
  for (const Node& node : nodes_) {
    if (node.kind == NodeKind::Body) {
      SolverVelocity& v = bodies[static_cast<size_t>(node.index)];
      v.linear += node.z.head<3>();
      v.angular += node.z.segment<3>(3);
    } else if (node.kind == NodeKind::Rotor) {
      rotorSpeeds[static_cast<size_t>(node.index)] += node.z(0);
    }
  }
}

double EqualityTree::solve(std::span<ConstraintRow> rows, std::span<SolverVelocity> bodies,
                           std::span<double> rotorSpeeds) {
  const size_t n = nodes_.size();
  for (size_t i = 0; i < n; ++i) {
    Vec6& y = y_[i];
    y.setZero();  // bodies and rotors: only what their children push in
    if (nodes_[i].kind != NodeKind::Constraint) continue;
    for (int k = 0; k < nodes_[i].rowCount; ++k) {
      const ConstraintRow& r = rows[static_cast<size_t>(nodes_[i].rows[k])];
      y(k) =
          rowVelocity(r, bodies[static_cast<size_t>(r.bodyA)], bodies[static_cast<size_t>(r.bodyB)],
                      rotorSpeeds[static_cast<size_t>(r.rotor)]) +
          r.softness * r.impulse - r.target;
    }
  }
  substitute();
  if (anyFriction_ && frictionSlides(rows)) return 0.0;
  double largest = 0.0;
  if (bodySolutionExact_) {
    // Joints only (a chain's, an arm's): nothing to clamp, and the bodies' unknowns are the
    // velocity changes the impulses make, so they are applied as they are.
    for (const Node& node : nodes_) {
      if (node.kind != NodeKind::Constraint) continue;
      for (int k = 0; k < node.rowCount; ++k) {
        rows[static_cast<size_t>(node.rows[k])].impulse += node.z(k);
        largest = std::max(largest, std::abs(node.z(k)));
      }
    }
    applyVelocityChanges(bodies, rotorSpeeds);
    return largest;
  }
  if (releasePullingRows(rows, bodies, rotorSpeeds)) return 0.0;
  for (Node& node : nodes_) {
    if (node.kind != NodeKind::Constraint) continue;
    for (int k = 0; k < node.rowCount; ++k) {
      ConstraintRow& r = rows[static_cast<size_t>(node.rows[k])];
      const double dp = node.z(k);
      r.impulse += dp;
      // Row by row, not the body nodes' solution (applyVelocityChanges): a face contact's
      // dependent rows amplify round-off there, and the velocities must be exactly what the
      // accumulated impulses say (friction bounds, warm start).
      applyImpulse(r, dp, bodies[static_cast<size_t>(r.bodyA)],
                   bodies[static_cast<size_t>(r.bodyB)], rotorSpeeds[static_cast<size_t>(r.rotor)]);
      largest = std::max(largest, std::abs(dp));
    }
  }
  return largest;
}

bool EqualityTree::releasePullingRows(std::span<ConstraintRow> rows,
                                      std::span<SolverVelocity> bodies,
                                      std::span<double> rotorSpeeds) {
  // A stop or a contact only pushes. One the answer has pulling invalidates the whole answer
  // (every other row's impulse assumed it pulled): nothing of it is applied, the pulling rows let
  // go of what they held and leave the tree, which is then rebuilt and solved again. Clamping
  // them in place instead applied the rest of the answer: joints left open by hundreds of m/s
  // for the sweep to take back (a gripper jaw pressed into the ground, the MF-4 thrown).
  bool pulls = false;
  for (Node& node : nodes_) {
    if (node.kind != NodeKind::Constraint || node.oneSided == 0) continue;
    for (int k = 0; k < node.rowCount; ++k) {
      ConstraintRow& r = rows[static_cast<size_t>(node.rows[k])];
      if (!(node.oneSided >> k & 1u) || r.impulse + node.z(k) >= 0.0) continue;
      pulls = true;
      applyImpulse(r, -r.impulse, bodies[static_cast<size_t>(r.bodyA)],
                   bodies[static_cast<size_t>(r.bodyB)], rotorSpeeds[static_cast<size_t>(r.rotor)]);
      r.impulse = 0.0;
      // Listed once (the list must not grow when the tree is solved again as it is).
      if (!node.released) released_.push_back(node.oneSidedBlock);
      node.released = true;
    }
  }
  return pulls;
}

bool EqualityTree::frictionSlides(std::span<const ConstraintRow> rows) {
  // The friction pairs' sticking answers (Coulomb's ball at the normal impulses of this solve,
  // seed 002 eq. 21), checked before anything is applied: one that slides invalidates the whole
  // answer (every other row's impulse assumed it held), and clamped in place it would leave the
  // joints open by what it lost. The step's friction then goes back to the sweep.
  bool slides = false;
  for (const Node& node : nodes_) {
    if (node.frictionBlock < 0) continue;
    const Node& normal = nodes_[static_cast<size_t>(node.ballNode)];
    const double pn = std::max(
        rows[static_cast<size_t>(normal.rows[node.ballSlot])].impulse + normal.z(node.ballSlot),
        0.0);
    const double limit = node.ballBound + node.ballCoefficient * pn;
    const double p0 = rows[static_cast<size_t>(node.rows[0])].impulse + node.z(0);
    const double p1 = rows[static_cast<size_t>(node.rows[1])].impulse + node.z(1);
    if (p0 * p0 + p1 * p1 > limit * limit) {
      slides = true;
      break;
    }
  }
  if (!slides) return false;
  for (Node& node : nodes_) {
    if (node.frictionBlock < 0 || node.released) continue;
    released_.push_back(node.frictionBlock);
    node.released = true;
  }
  return true;
}

void EqualityTree::project(std::span<const ConstraintRow> rows,
                           std::span<SolverVelocity> pseudoVelocities,
                           std::span<double> pseudoRotorSpeeds) {
  // The pseudo-velocities start at zero, so each row's residual is minus its correction; every
  // row is an equality here (a contact or a stop in the tree holds, correction 0).
  const size_t n = nodes_.size();
  for (size_t i = 0; i < n; ++i) {
    Vec6& y = y_[i];
    y.setZero();
    if (nodes_[i].kind != NodeKind::Constraint) continue;
    for (int k = 0; k < nodes_[i].rowCount; ++k)
      y(k) = -rows[static_cast<size_t>(nodes_[i].rows[k])].correction;
  }
  substitute();
  applyVelocityChanges(pseudoVelocities, pseudoRotorSpeeds);
}

void EqualityTree::responseThroughTree(const ConstraintRow& row,
                                       std::span<const ConstraintRow> rows, TreeResponse& out) {
  // The row's unit impulse moves its bodies by u = M^-1 J^T (its responses); the tree's rows
  // answer with the impulses that cancel what u does to them (a solve whose residuals are J u).
  // Zero between calls (each call clears what it touched); sized once for the bodies and rotors.
  if (scratchVelocities_.size() != bodyNode_.size())
    scratchVelocities_.assign(bodyNode_.size(), SolverVelocity{});
  if (scratchRotorSpeeds_.size() != rotorNode_.size())
    scratchRotorSpeeds_.assign(rotorNode_.size(), 0.0);
  std::span<SolverVelocity> u = scratchVelocities_;
  std::span<double> rotors = scratchRotorSpeeds_;
  const auto push = [&](const ConstraintRow& r, double dp) {
    applyImpulse(r, dp, u[static_cast<size_t>(r.bodyA)], u[static_cast<size_t>(r.bodyB)],
                 rotors[static_cast<size_t>(r.rotor)]);
    rotors[0] = 0.0;  // the "no rotor" slot stays still
  };
  push(row, 1.0);
  const size_t n = nodes_.size();
  for (size_t i = 0; i < n; ++i) {
    Vec6& y = y_[i];
    y.setZero();
    if (nodes_[i].kind != NodeKind::Constraint) continue;
    for (int k = 0; k < nodes_[i].rowCount; ++k) {
      const ConstraintRow& r = rows[static_cast<size_t>(nodes_[i].rows[k])];
      y(k) = rowVelocity(r, u[static_cast<size_t>(r.bodyA)], u[static_cast<size_t>(r.bodyB)],
                         rotors[static_cast<size_t>(r.rotor)]);
    }
  }
  substitute();
  out.treeImpulses.clear();
  for (const Node& node : nodes_) {
    if (node.kind != NodeKind::Constraint) continue;
    for (int k = 0; k < node.rowCount; ++k) {
      const double dp = node.z(k);
      if (dp == 0.0) continue;
      push(rows[static_cast<size_t>(node.rows[k])], dp);
      out.treeImpulses.emplace_back(node.rows[k], dp);
    }
  }
  out.k = rowVelocity(row, u[static_cast<size_t>(row.bodyA)], u[static_cast<size_t>(row.bodyB)],
                      rotors[static_cast<size_t>(row.rotor)]) +
          row.softness;
  // Collected sparsely (and the scratch zeroed again for the next row): only the ends of the row
  // and of the tree's rows were pushed, so the world's other bodies are not looked at (a step
  // solves many islands, each with its own tree).
  out.bodies.clear();
  out.rotors.clear();
  const auto collectBody = [&](int i) {
    SolverVelocity& v = u[static_cast<size_t>(i)];
    if (v.linear == Vec3::Zero() && v.angular == Vec3::Zero()) return;
    out.bodies.emplace_back(i, v);
    v = SolverVelocity{};
  };
  const auto collectRotor = [&](int i) {
    double& speed = rotors[static_cast<size_t>(i)];
    if (i <= 0 || speed == 0.0) return;
    out.rotors.emplace_back(i, speed);
    speed = 0.0;
  };
  collectBody(row.bodyA);
  collectBody(row.bodyB);
  collectRotor(row.rotor);
  for (const Node& node : nodes_) {
    if (node.kind != NodeKind::Constraint) continue;
    for (int k = 0; k < node.rowCount; ++k) {
      const ConstraintRow& r = rows[static_cast<size_t>(node.rows[k])];
      collectBody(r.bodyA);
      collectBody(r.bodyB);
      collectRotor(r.rotor);
    }
  }
}

}  // namespace impetus
