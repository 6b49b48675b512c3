#pragma once
// Exact, linear-time solve of the equality blocks whose bodies form a tree (Baraff 1996,
// "Linear-time dynamics using Lagrange multipliers"): the KKT system of those blocks,
//
//   [ M   -J^T ] [dv]   [0]
//   [ -J  -S   ] [dp] = [r]     (r = J v + S p - target: the rows' residuals; S = softness),
//
// is sparse with the shape of the body-constraint graph. When that graph is a forest, eliminating
// it leaves first creates no fill: one LDL^T factorisation per step (blocks of a node's true size:
// 6 for a body, 3 for a ball joint, 5 for a hinge), then each solve is two sweeps. Used as ONE
// block of the Gauss-Seidel iteration, it makes a chain or a ragdoll's joints exact whatever their
// mass ratios (a 0.5 kg hand under a 75 kg body), where sweeping joint by joint needs many
// iterations. Blocks that would close a loop between bodies stay iterative; a loop through the
// ground (a second limb on the floor) joins as a slightly compliant leaf.

#include <Eigen/Core>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "impetus/solver/constraint_row.h"
#include "impetus/solver/hinge_elimination.h"
#include "impetus/solver/row_kernels.h"

namespace impetus {

struct SolverBodyMass;

/// What one unit of impulse on a row outside an EqualityTree does once the tree's rows have
/// answered it: the velocity changes of the bodies and rotors it reaches, the tree rows' impulses,
/// and the row's own velocity change k (the tree's Schur complement, plus the row's softness).
struct TreeResponse {
  double k = 0.0;
  std::vector<std::pair<int, SolverVelocity>> bodies;
  std::vector<std::pair<int, double>> rotors;
  std::vector<std::pair<int, double>> treeImpulses;  ///< (row index, impulse)
};

class EqualityTree {
 public:
  /// Chooses the tree's blocks (marks them RowBlock::direct) and factorises the system. A joint
  /// limit's block joins its joint's node, a contact manifold's normal block forms its own, when
  /// RowBlock::treeActive (build marks every one that could RowBlock::treeJoinable). Returns false
  /// (and marks nothing) when there is nothing to gain or a pivot is singular. The choice of
  /// blocks is kept from the last build while the rows' layout is the same (only the numbers
  /// are redone).
  bool build(std::span<const ConstraintRow> rows, std::span<RowBlock> blocks,
             std::span<const SolverBodyMass> bodies, std::span<const double> rotorInverseInertia);
  bool empty() const { return blocks_.empty(); }
  /// Whether solve() applies the body nodes' solution as it is (joints only: no one-sided rows,
  /// compliant leaves or friction), reading no row's response M^-1 J^T.
  bool bodySolutionExact() const { return bodySolutionExact_; }
  /// Solves the tree's rows exactly at the current velocities: updates their accumulated impulses
  /// and the velocities; returns the largest |dp|. If the answer has a limit or contact row
  /// pulling, only those rows change: they let go (impulse 0) and are listed in released() (the
  /// tree must then be rebuilt without them), and 0 is returned.
  double solve(std::span<ConstraintRow> rows, std::span<SolverVelocity> bodies,
               std::span<double> rotorSpeeds);
  /// Projects the tree's rows onto their position errors: adds to the pseudo-velocities (all zero
  /// on entry) the least-mass-norm change with J v_p = ConstraintRow::correction on every row of
  /// the tree, one Newton step of the joints' position projection at the poses the rows were
  /// built at. Impulses are untouched.
  void project(std::span<const ConstraintRow> rows, std::span<SolverVelocity> pseudoVelocities,
               std::span<double> pseudoRotorSpeeds);
  /// The tree's answer to a unit impulse on `row`, a row outside it (see TreeResponse). A lone
  /// row closing a loop through the tree (a repeater's gear) that steps with it is exact in one
  /// pass, where its own mass lets the tree undo part of every pass. Impulses and velocities are
  /// untouched; `out` keeps its capacity.
  void responseThroughTree(const ConstraintRow& row, std::span<const ConstraintRow> rows,
                           TreeResponse& out);
  /// Whether a row between these bodies closes a loop in one of the trees that holds a joint
  /// (both are its body nodes): swept around the tree, such a row converges at the rate of its
  /// bodies' share of the mechanism's inertia (a gripper jaw pressed against its own hull).
  bool closesJointLoop(int bodyA, int bodyB) const;
  /// Blocks of one-sided rows (limits, contacts) the last solves found pulling; or, when a
  /// solve found a friction pair sliding, every friction pair's block (that solve applied
  /// nothing: see solve).
  std::span<const int> released() const { return released_; }
  void clearReleased() { released_.clear(); }

 private:
  using Mat6 = Eigen::Matrix<double, 6, 6>;
  using Vec6 = Eigen::Matrix<double, 6, 1>;
  enum class NodeKind : std::uint8_t { Body, Rotor, Constraint };
  struct Node {
    Node() {}  // no zero fill of the matrices on emplace_back (see ConstraintRow)
    NodeKind kind = NodeKind::Body;
    int index = 0;  ///< body index or rotor slot (constraint nodes: their first block)
    // Constraint nodes: the rows of one block, or of a joint's block and its gear row's block
    // (same two bodies; the gear adds the rotor), solved as one node.
    int rows[kMaxBlockRows];
    int rowCount = 0;
    int ends[3];                ///< body A, body B, rotor node (-1: none)
    int parent = -1;            ///< node index, -1 for a root
    std::uint8_t oneSided = 0;  ///< bit k: rows[k] only pushes (a limit, a contact)
    bool ridge = false;         ///< a face contact's rows (one too many: see invertDefinite)
    int oneSidedBlock = -1;     ///< their block (a node's one-sided rows are one block's)
    /// A contact point's friction pair (its block, or -1): in the tree while its impulse stays
    /// inside the Coulomb ball ||p|| <= ballBound + ballCoefficient * p_n, p_n the impulse of
    /// row ballSlot of node ballNode (its normal row; that node is a contact's, made before).
    int frictionBlock = -1;
    int ballNode = -1, ballSlot = 0;
    double ballBound = 0.0, ballCoefficient = 0.0;
    std::uint8_t dim = 0;   ///< 6 (body), 1 (rotor), rowCount (constraint)
    bool leaf = false;      ///< nothing is eliminated into it
    bool released = false;  ///< found pulling since the last build (listed once)
    /// Eliminated as a pair with HingeElimination: kFusedBody (a body, with its parent hinge)
    /// or kFusedHinge (the hinge, with its child body); 0 for the one-by-one LDL^T.
    std::uint8_t fusion = 0;
    // The leading dim x dim (or dim x dim_parent) corners hold the numbers; the rest is unused.
    Mat6 coupling;  ///< A(i, parent)
    Mat6 inverseD;  ///< D_i^-1
    Mat6 gain;      ///< D_i^-1 A(i, parent): backward sweep x_i = z_i - gain x_parent
    Vec6 z;         ///< forward sweep: D_i^-1 y_i
  };
  int find(int node);
  template <int I, int P>
  static void eliminate(Node& node, Mat6& parentD);
  template <int I, int P>
  static void forward(Node& node, const Vec6& y, Vec6& parentY);
  template <int I, int P>
  static void backward(Node& node, const Vec6& parentZ);
  /// Forward and back substitution: each node's z from the right sides in y_.
  void substitute();
  /// After substitute(): lets go of the one-sided rows the answer has pulling (impulse 0, listed
  /// in released_); true if any did, and then nothing else of the answer may be applied.
  bool releasePullingRows(std::span<ConstraintRow> rows, std::span<SolverVelocity> bodies,
                          std::span<double> rotorSpeeds);
  template <bool Fused>
  void substitute();  ///< Fused: some pairs go through HingeElimination
  /// Whether a friction pair's answer in y_/z leaves its Coulomb ball; if so every friction pair
  /// is listed in released_.
  bool frictionSlides(std::span<const ConstraintRow> rows);
  /// Adds the body and rotor nodes' solution (their velocity changes) to the velocities.
  void applyVelocityChanges(std::span<SolverVelocity> bodies, std::span<double> rotorSpeeds) const;
  static void writeLayout(std::span<const ConstraintRow> rows, std::span<const RowBlock> blocks,
                          std::span<const SolverBodyMass> bodies,
                          std::span<const double> rotorInverseInertia,
                          std::vector<std::uint64_t>& layout);
  /// Chooses the blocks, makes the nodes and the elimination order (false: nothing to gain).
  bool chooseStructure(std::span<const ConstraintRow> rows, std::span<RowBlock> blocks,
                       std::span<const SolverBodyMass> bodies,
                       std::span<const double> rotorInverseInertia);
  /// The numbers: D and the couplings at the current rows, then LDL^T (false: a singular pivot).
  bool factorise(std::span<const ConstraintRow> rows, std::span<RowBlock> blocks,
                 std::span<const SolverBodyMass> bodies,
                 std::span<const double> rotorInverseInertia);

  static constexpr std::uint8_t kFusedBody = 1, kFusedHinge = 2;
  /// Marks each body whose parent node is a hinge HingeElimination can take, with that hinge,
  /// and reads the hinge's shape.
  void pairHinges(std::span<const ConstraintRow> rows, std::span<const RowBlock> blocks);

  std::vector<Node> nodes_;
  std::vector<HingeElimination> hinges_;  ///< by the fused body's node index
  bool anyFused_ = false;
  bool anyFriction_ = false;  ///< some node is a friction pair
  /// Only equality rows, none a compliant leaf or a face's ridge: the body and rotor nodes'
  /// solution is exactly M^-1 J^T dp, applied as it is (one update a body, not one a row).
  bool bodySolutionExact_ = false;
  std::vector<int> order_;   ///< elimination order: children before parents
  std::vector<int> blocks_;  ///< the direct blocks
  std::vector<int> bodyNode_, rotorNode_, unionParent_;
  std::vector<int> groundContact_;   ///< by body: the fixed body whose contact is its node, or -1
  std::vector<int> adjacency_;       ///< every node's neighbours, node by node
  std::vector<int> adjacencyStart_;  ///< node i's: [start_[i], start_[i + 1]) of adjacency_
  std::vector<int> adjacencyFill_;   ///< building them: where node i's next one goes
  std::vector<Mat6> diagonal_;
  std::vector<Vec6> y_;
  std::vector<SolverVelocity> scratchVelocities_;  ///< responseThroughTree's, zero between calls
  std::vector<double> scratchRotorSpeeds_;
  std::vector<int> queue_;
  std::vector<int> released_;
  std::vector<std::pair<int, int>> limitCandidates_;  ///< (limit block, its joint's node)
  std::vector<int> rootRequired_;  ///< constraints with one moving end: roots of their trees
  std::vector<char> grounded_;     ///< per union-find root: kGrounded, kHasContactNode flags
  std::vector<char> visited_;
  std::vector<std::uint64_t> layout_, scratchLayout_;  ///< what the structure was chosen for
  std::vector<int> joinable_;                          ///< blocks it marked treeJoinable
  bool structureReady_ = false;
};

}  // namespace impetus
