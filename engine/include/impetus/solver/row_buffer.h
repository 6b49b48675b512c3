#pragma once
// Contiguous storage of a step's rows and blocks. Cleared, never shrunk, so that after warm-up a
// step allocates nothing.

#include <span>
#include <vector>

#include "impetus/solver/constraint_row.h"
#include "impetus/solver/equality_tree.h"

namespace impetus {

/// Mass properties of one solver body, as the rows see them.
struct SolverBodyMass {
  double inverseMass = 0.0;
  Mat3 inverseInertia = Mat3::Zero();  ///< world frame
};

/// J M^-1 J^T of one row, from the masses (what sameBodiesCoupling(r, r) gives once the row's
/// responses are filled).
inline double inverseMassAlong(const ConstraintRow& r, const SolverBodyMass& a,
                               const SolverBodyMass& b, double rotorInverseInertia) {
  return a.inverseMass * r.linearA.squaredNorm() + r.angularA.dot(a.inverseInertia * r.angularA) +
         b.inverseMass * r.linearB.squaredNorm() + r.angularB.dot(b.inverseInertia * r.angularB) +
         rotorInverseInertia * r.rotorJacobian * r.rotorJacobian;
}

class RowBuffer {
 public:
  void clear() {
    rows_.clear();
    blocks_.clear();
    matrices_.clear();
    activeSets_.clear();
  }
  /// Buffers solved over many iterations keep each Limited block's active-set inverses (a buffer
  /// solved once, like a position-pass joint, would only pay for them).
  void setCacheActiveSets(bool cache) { cacheActiveSets_ = cache; }
  /// Solve the equality blocks that form a tree exactly (EqualityTree) instead of sweeping them.
  void setDirectEqualities(bool direct) { directEqualities_ = direct; }
  /// The tree of direct blocks of the last finalize, or nullptr when there is none.
  EqualityTree* equalityTree() { return treeActive_ ? &tree_ : nullptr; }
  /// Whether the tree of the last finalize holds every block (one tree solve is then exact).
  bool treeHoldsAll() const { return treeHoldsAll_; }
  /// Whether the tree of the last finalize holds every equality block (a joint's rows, a gear's).
  bool treeHoldsEqualities() const { return treeHoldsEqualities_; }
  /// Whether the tree of the last finalize holds every block and all of them are equalities (a
  /// chain's or an arm's joints alone): one solve is exact from any start.
  bool treeHoldsOnlyEqualities() const { return treeHoldsOnlyEqualities_; }
  /// Whether every block the tree of the last finalize holds is an equality (joints and gears,
  /// no contact, stop or sticking friction that may let go mid-solve).
  bool treeHoldsJointsAlone() const { return treeHoldsJointsAlone_; }
  /// Appends `count` zeroed rows over bodies a, b as one block; returns the first row's index.
  int addBlock(BlockKind kind, int count, int bodyA, int bodyB);
  /// Merges the last `blocks` blocks (same two bodies, <= kMaxBlockRows rows) into one block of
  /// `kind`; for Mixed, the rows of the last merged block are the friction rows and its NormBall
  /// bound (or a Bounded row's upper bound) becomes the Mixed block's bound.
  void mergeLastBlocks(int blocks, BlockKind kind);
  ConstraintRow& row(int i) { return rows_[static_cast<size_t>(i)]; }
  RowBlock& block(int i) { return blocks_[static_cast<size_t>(i)]; }
  RowBlock& lastBlock() { return blocks_.back(); }

  /// Fills each row's response M^-1 J^T and each block's inverse effective mass. The spans must
  /// stay valid while the buffer is solved (the tree is rebuilt when its limits change). When the
  /// tree holds every row, all of them equalities, and applies its solution per body
  /// (EqualityTree::bodySolutionExact), nothing reads the responses and they are left unfilled
  /// (responsesFilled() is false; a warm start would need them: see fillResponses).
  void finalize(std::span<const SolverBodyMass> bodies,
                std::span<const double> rotorInverseInertia);
  /// The limits and contacts the tree's last solves found pulling leave it, and every friction
  /// pair if one was found sliding; returns whether the tree changed.
  bool releasePullingRows();
  /// Limits and contacts outside the tree that push (every impulse > 0) and could join it do;
  /// returns whether the tree changed.
  bool admitPushingRows();
  /// Gives a block its inverse effective mass if it has none yet (a block of the tree has none
  /// until it is swept on its own); the block must be one of this buffer's.
  void prepared(RowBlock& block);

  std::span<ConstraintRow> rows() { return rows_; }
  std::span<const ConstraintRow> rows() const { return rows_; }
  std::span<RowBlock> blocks() { return blocks_; }
  std::span<const RowBlock> blocks() const { return blocks_; }
  std::span<const BlockMatrices> matrices() const { return matrices_; }
  std::span<ActiveSetInverses> activeSets() { return activeSets_; }
  /// By RowBlock::treeResponse: how a lone equality row outside the tree moves it.
  std::span<const TreeResponse> treeResponses() const { return treeResponses_; }
  /// The tree's answer to each pushing-capable one-sided row outside it whose bodies are links of
  /// one jointed tree (EqualityTree::closesJointLoop: a gripper jammed between its robot's hull
  /// and turret), for the solver's extended iterations, which step such rows with it. Computed
  /// on demand, dropped when the tree is rebuilt. A row whose answer's mass is below
  /// `redundantShare` of its own two bodies' keeps their mass (the tree holds it already).
  void respondToLoopRows(double redundantShare);
  bool loopResponsesReady() const { return loopResponsesReady_; }
  /// Block i has rows with a loop response (respondToLoopRows).
  bool closesLoop(size_t block) const { return block < loopBlocks_.size() && loopBlocks_[block]; }
  /// Row i's loop response, or nullptr.
  const TreeResponse* loopResponse(int row) const {
    const int index = loopResponseOfRow_[static_cast<size_t>(row)];
    return index < 0 ? nullptr : &loopResponses_[static_cast<size_t>(index)];
  }
  int rowCount() const { return static_cast<int>(rows_.size()); }
  /// Whether every row's response M^-1 J^T is filled (see finalize).
  bool responsesFilled() const { return responsesFilled_; }
  /// Fills the responses finalize left out (nothing to do when they are filled).
  void fillResponses();

 private:
  std::vector<ConstraintRow> rows_;
  std::vector<RowBlock> blocks_;
  std::vector<BlockMatrices> matrices_;
  std::vector<ActiveSetInverses> activeSets_;
  std::vector<TreeResponse> treeResponses_;  ///< entries keep their capacity between builds
  size_t treeResponseCount_ = 0;
  std::vector<TreeResponse> loopResponses_;  ///< keep their capacity between steps
  std::vector<int> loopResponseOfRow_;       ///< by row: index into loopResponses_, or -1
  std::vector<char> loopBlocks_;             ///< by block: some row has a loop response
  bool loopResponsesReady_ = false;
  /// Re-chooses and refactorises the tree after its limits changed.
  void rebuildTree();
  /// Lone equality rows outside an active tree get its answer to their impulse
  /// (EqualityTree::responseThroughTree): the sweep then steps them with it.
  void respondThroughTree();
  /// treeHoldsAll_, treeHoldsEqualities_ and treeHoldsOnlyEqualities_ from the blocks' direct
  /// flags.
  void noteTreeCoverage();
  void prepareBlock(RowBlock& block);
  /// The rows that push (impulse > 0), if all ask the same normal speed, else 0 (see the .cpp).
  std::uint8_t pushingRows(const RowBlock& block) const;
  /// A friction pair's impulse is inside its Coulomb ball (see the .cpp).
  bool sticks(const RowBlock& block) const;

  std::span<const SolverBodyMass> bodies_;
  std::span<const double> rotorInverseInertia_;
  bool cacheActiveSets_ = false;
  bool directEqualities_ = false;
  bool treeActive_ = false;
  bool treeHoldsAll_ = false;
  bool treeHoldsEqualities_ = false;
  bool treeHoldsOnlyEqualities_ = false;
  bool treeHoldsJointsAlone_ = false;
  bool frictionInTree_ = true;  ///< no friction pair slid out of the tree this step
  bool responsesFilled_ = false;
  EqualityTree tree_;
};

}  // namespace impetus
