#pragma once
// The solver's only currency. Everything that constrains motion — joints, limits, joint friction
// (seed 000), motor couplings (seed 001), contacts (seed 002) — becomes ROWS:
//
//   one scalar equation   J v + softness * p = target,   J = [J_vA J_wA J_vB J_wB | J_m]
//
// over two bodies (6 columns each) and optionally one motor rotor (a 1-DOF entity). Rows are
// grouped into BLOCKS of 1-6 rows over the same two bodies that are solved together exactly:
//
//   Equality : p free (a whole joint: 5 rows of a hinge, 6 of a weld)
//   Bounded  : lower <= p <= upper (one row); with boundRow >= 0 the box is +-coef * p[boundRow]
//   NormBall : ||p|| <= normBound + coef * p[boundRow]  (seed 000 eq. 9-10; seed 002 eq. 21)
//   Mixed    : leading equality rows + `frictionCount` trailing rows under one NormBall bound —
//              a joint together with its friction (seed 000), so that the friction impulse sees
//              the joint's true effective mass and static friction holds exactly
//   Limited  : equality rows plus up to four one-sided rows (p >= 0), solved as an exact small
//              LCP by trying each active set — a motor's gear row with its joint's limits (a stop
//              on a light link holds against the heavy reflected rotor); the normal rows of a
//              contact manifold (a box face rests on all four corners at once)
//
// The solver never learns what produced a row; joint types only write rows in a prepare phase.

#include <cstdint>

#include "impetus/math/types.h"

namespace impetus {

struct ConstraintRow {
  // User-provided, so that emplace_back() runs only the member initializers below: value-
  // initialising a class with an implicit constructor zero-fills it first, and that fill of the
  // whole row (the responses too) was 9 % of a chain30 step.
  ConstraintRow() {}
  // Velocity Jacobian (world frame).
  Vec3 linearA = Vec3::Zero(), angularA = Vec3::Zero();
  Vec3 linearB = Vec3::Zero(), angularB = Vec3::Zero();
  double rotorJacobian = 0.0;  ///< J_m on the rotor's speed (1/r for a gear motor)

  // M^-1 J^T, written by RowBuffer::finalize before any solve: how one unit of impulse changes
  // each velocity. Not initialised here (rows are rebuilt many times a step).
  Vec3 responseLinearA, responseAngularA;
  Vec3 responseLinearB, responseAngularB;
  double responseRotor;

  int bodyA = 0;  ///< solver body index (0 is the static ground)
  int bodyB = 0;
  int rotor = 0;  ///< rotor slot; 0 is the "no rotor" slot whose speed is always 0

  double target = 0.0;  ///< desired J v (unit of the row: m/s or rad/s)
  /// Velocity rows of a joint's equalities: the pseudo-velocity J v_p that removes the row's
  /// position error in one step (-C / dt), for the step's pre-projection, which reuses the rows'
  /// tree factorisation (World::preProjectJoints); 0 holds the row where it is.
  double correction = 0.0;
  double softness = 0.0;  ///< compliance per step: J v + softness p = target (damping, springs)
  double lower = -1e300;  ///< impulse bounds for Bounded blocks (unit: N s or N m s)
  double upper = 1e300;
  double impulse = 0.0;  ///< accumulated impulse, warm-started (unit: N s or N m s)
};

/// J_a M^-1 J_b^T for two rows over the same two bodies and rotor (b's responses filled in).
inline double sameBodiesCoupling(const ConstraintRow& a, const ConstraintRow& b) {
  return a.linearA.dot(b.responseLinearA) + a.angularA.dot(b.responseAngularA) +
         a.linearB.dot(b.responseLinearB) + a.angularB.dot(b.responseAngularB) +
         a.rotorJacobian * b.responseRotor;
}

enum class BlockKind : std::uint8_t { Equality, Bounded, NormBall, Mixed, Limited };

/// The known shape of a joint block's rows, where a solver can use it (HingeElimination).
enum class RowShape : std::uint8_t {
  Other,
  AnchorPoint,    ///< parts::point: e_k . (v + w x r) on each side, k = 0..2
  AxisAlignment,  ///< parts::axisAlignment: t_i . w on each side (t_i orthonormal), i = 0..1
  Hinge,          ///< an AnchorPoint block merged with the AxisAlignment block after it
};

/// One-sided blocks that may be solved in the EqualityTree while they push (see RowBlock).
enum class TreeRole : std::uint8_t {
  None,
  JointLimit,  ///< a joint limit's row: joins its joint's node
  Contact,     ///< a contact manifold's normal rows: a node of their own
  Friction,    ///< a contact point's friction pair: a node of its own while it sticks
};

constexpr int kMaxBlockRows = 6;
using BlockVector = Eigen::Matrix<double, kMaxBlockRows, 1>;
using BlockMatrix = Eigen::Matrix<double, kMaxBlockRows, kMaxBlockRows>;

/// Effective-mass matrices of a multi-row block; only the leading count x count corner is used
/// (left uninitialised past it: finalize runs for every joint of every position iteration).
struct BlockMatrices {
  BlockMatrices() {}            // no zeroing
  BlockMatrix k;                ///< J M^-1 J^T (+ softness on the diagonal)
  BlockMatrix inverseK;         ///< its inverse
  BlockMatrix inverseEquality;  ///< Mixed: inverse of the leading equality corner
};

/// A Limited block's active-set matrices inverted, each the first time an iteration tries that
/// set in this step: K is fixed within a step, the iterations only change the right side, so a
/// resting manifold pays one matrix-vector product per iteration instead of a factorisation.
struct ActiveSetInverses {
  ActiveSetInverses() {}               // matrices filled on demand
  static constexpr int kMaxSets = 16;  ///< 2^4 one-sided rows at most
  BlockMatrix inverse[kMaxSets];
  std::uint16_t ready = 0;     ///< bit m: inverse[m] holds active set m
  std::int8_t lastValid = -1;  ///< the active set the last sweep accepted (-1: none yet)
};

struct RowBlock {
  int first = 0;  ///< rows [first, first + count)
  int count = 1;  ///< 1..kMaxBlockRows
  BlockKind kind = BlockKind::Equality;
  int frictionCount = 0;          ///< Mixed: trailing rows under the NormBall bound
  double normBound = 0.0;         ///< fixed part of the NormBall radius (e.g. F_max * dt)
  double boundCoefficient = 0.0;  ///< times the accumulated impulse of `boundRow` (e.g. mu)
  int boundRow = -1;              ///< row whose impulse scales the bound, or -1
  double inverseK = 0.0;          ///< single-row blocks: 1 / (J M^-1 J^T + softness)
  double k = 0.0;                 ///< single-row blocks: J M^-1 J^T + softness
  int matrices = -1;              ///< multi-row blocks: index into RowBuffer::matrices()
  int activeSets = -1;            ///< Limited blocks of an iterated buffer: index into activeSets()
  /// Lone equality rows swept around an EqualityTree: index into RowBuffer::treeResponses()
  /// (their step moves the tree with them), or -1.
  int treeResponse = -1;
  bool direct = false;  ///< solved exactly with the other blocks of the EqualityTree
  // A joint's limit (one one-sided row), a contact manifold's pushing normal rows, or a contact
  // point's friction pair while it sticks may be solved in the EqualityTree as equalities: a stop
  // then holds exactly against the whole tree's inertia (a hand under a falling body), a stack's
  // contacts carry its weight in one solve, a ragdoll's limbs share their friction, where the
  // sweep, seeing two bodies at a time, needs many iterations. The solver keeps the set of
  // pushing (sticking) blocks (see solveBlocks).
  TreeRole treeRole = TreeRole::None;  ///< set by whoever made the block
  RowShape shape = RowShape::Other;    ///< set by whoever made the block
  bool treeActive = false;  ///< asked to be in the tree (it pushes, or its stop is violated)
  /// A contact block: bit k, row first + k is asked to be (and, when direct, is) in the tree: the
  /// points that push. The others are swept beside it one by one (a corner of a resting face
  /// lifting off must not keep the other three out of the tree).
  std::uint8_t treeRows = 0;
  /// A contact block: bit k, row first + k left the tree this step because it pulled there. It
  /// stays beside it for the step: a face's four corners are one row too many, and the tree's
  /// least-norm answer may pull at a corner the sweep then finds pushing again (the MF-4's hull
  /// went in and out of the tree until the iterations ran out).
  std::uint8_t releasedRows = 0;
  bool treeJoinable = false;  ///< written by EqualityTree::build: there is room for it
};

/// A direct (tree) contact block with points swept beside the tree (RowBlock::treeRows).
inline bool hasRowsBesideTree(const RowBlock& block) {
  return block.treeRole == TreeRole::Contact && block.treeRows != (1u << block.count) - 1u;
}

}  // namespace impetus
