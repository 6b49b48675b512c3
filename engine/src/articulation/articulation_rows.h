#pragma once
// The unilateral rows of one articulation's step - contact normals, their friction pairs, joint
// stops - over its joint velocities q', solved by projected Gauss-Seidel (seed 000's sequential
// impulses in joint space) on their Delassus matrix A = J H^-1 J^T = Z Z^T, Z = D^-1/2 L^-T J^T.
// A contact row is a world spatial force c on each of its (at most two) links, J = Phi^T c: its
// z is the links' Articulation::linkResponse times c, its velocity J q' = c . (the link's world
// velocity), and J^T p is gathered by link; J itself is never stored. A is never
// formed: the sweeps keep y = Z^T p (one entry a DOF), so a row's velocity is J q' + z . y and its
// impulse change dp adds dp z to y - two products the length of q' a row, where a row of A would
// cost the number of rows (a lying ragdoll has ~120 rows on 32 DOF). q' is updated once, at the
// end. Storage only grows (no allocation once warm).

#include <algorithm>
#include <vector>

#include "articulation.h"

namespace impetus {

enum class ArticulationRowKind { Normal, Friction, Stop };

struct ArticulationSolveResult {
  int iterations = 0;
  bool converged = false;
  bool stalled = false;
  double largestVelocityChange = 0.0;  ///< in the last iteration (m/s or rad/s)
};

class ArticulationRows {
 public:
  /// Starts a step's rows for `articulation` (its factor must be current).
  void begin(const Articulation& articulation);
  /// Appends a row of kind `kind` whose Jacobian the caller gives right after (addLinkForces or
  /// setStop); `friction` (a friction row's coefficient) bounds it by the normal row
  /// `normalRow`.
  int add(ArticulationRowKind kind, double impulse, int normalRow = -1, double friction = 0.0);
  /// A stop row: J q' = side q'_link (the link's revolute DOF), and its half-solve z.
  void setStop(int row, int link, double side, const Articulation& articulation);
  /// Adds to rows firstRow .. firstRow + count - 1 each a world spatial force c_k = [moment
  /// about Articulation::motionOrigin; force] on `link` (at most two links a row): J += Phi^T c,
  /// z += Z c (Articulation::linkResponse, computed once a step for each link a row touches).
  void addLinkForces(int firstRow, int count, int link, const Vec6* forces,
                     const Articulation& articulation);
  /// Row velocity J q' at the articulation's velocity when the row's links were first touched
  /// this step (before prepare) or at prepare (after).
  double velocity(int row, const Articulation& articulation) const;
  /// J q' >= target for Normal and Stop rows, = target (within the friction bound) for Friction.
  void setTarget(int row, double target) { rows_[static_cast<size_t>(row)].target = target; }
  /// A Normal or Stop row's position correction: the pseudo-velocity (m/s or rad/s) that would
  /// remove its penetration, solved apart from the velocities (solveCorrection).
  void setCorrection(int row, double speed) { rows_[static_cast<size_t>(row)].correction = speed; }
  /// The rows' Delassus diagonals, their velocities at the current q' and the warm starts'
  /// y = Z^T p (rows may be added after a solve: prepare again and solve on).
  void prepare(const Articulation& articulation);
  /// Iterates to `velocityTolerance` (the largest velocity change a row made in an iteration,
  /// m/s or rad/s), to `maxIterations`, or - `stallVelocity` > 0 - to a slow mode below that
  /// change, as solveBlocks does (SolverSettings::stallVelocity).
  ArticulationSolveResult solve(int maxIterations, double velocityTolerance, double stallVelocity);
  /// q' += H^-1 J^T p with the solved impulses p.
  void applyImpulses(Articulation& articulation);
  /// Split impulses: the pseudo-velocities (dof entries into `pseudo`, zero when nothing
  /// penetrates) whose one-sided rows meet their corrections, by the same sweeps on the same
  /// matrix. They move the bodies this step and are then forgotten, so removing a penetration
  /// adds no velocity (a body resting a little past a stop or in the floor stays at rest). After
  /// a few sweeps short of the tolerance, one exact active-set step (activeCorrectionStep).
  void solveCorrection(const Articulation& articulation, int maxIterations, double tolerance,
                       double* pseudo);
  /// One exact solve of the rows the current impulses have active - pushing normals and stops,
  /// sticking friction - as equalities (a regularised Cholesky of their Delassus matrix
  /// J H^-1 J^T), if there are at most `maxRows`, and the step towards its solution as far as
  /// the bounds allow (a resting or steadily pushed contact set: its statics exact at once,
  /// however uneven the masses); without friction rows if `withFriction` is false. Returns
  /// whether the whole step was taken.
  bool solveActiveSet(int maxRows, bool withFriction = true);
  double impulse(int row) const { return rows_[static_cast<size_t>(row)].impulse; }
  int size() const { return static_cast<int>(rows_.size()); }

 private:
  struct Row {
    ArticulationRowKind kind = ArticulationRowKind::Normal;
    double target = 0.0;
    double correction = 0.0;
    double impulse = 0.0;
    double inverseK = 0.0;  ///< 1 / A_ii
    double k = 0.0;
    int normalRow = -1;
    double friction = 0.0;
    /// Its J and z are zero from here on (a multiple of 4 past its links' last path DOF): the
    /// DOF numbering puts a tree's early links first, so the sweeps skip the tails.
    int extent = 0;
    double normalCoupling = 0.0;  ///< a contact block's friction row: z . z of its normal row
    bool blockStart = false;      ///< contactBlock(this row), from prepare
    int link[2] = {-1, -1};       ///< J = sum Phi_l^T force_l over these links ...
    Vec6 force[2] = {Vec6::Zero(), Vec6::Zero()};
    int stopDof = -1;  ///< ... or, a stop, J = stopSide e_stopDof
    double stopSide = 0.0;
  };
  /// Phi x over `link`'s path: the link's world spatial velocity [w; v at the motion origin] at
  /// q' = x.
  Vec6 phiTimes(int link, const double* x, const Articulation& articulation) const;
  /// out += J^T p for the rows' impulses p (one a row).
  void addTransposed(const double* impulses, const Articulation& articulation, double* out);
  /// solveActiveSet on the split impulses of solveCorrection (its rows without friction).
  void activeCorrectionStep();
  /// Whether `row` starts a contact block: a normal row and its friction pair, all three live
  /// (solved together: one pass for their velocities, one for their update).
  bool contactBlock(int row) const;
  /// One sweep step of the contact block at `row`; returns its largest velocity change.
  double solveContactBlock(int row);
  /// Row `row` reaches DOF `dof`.
  void widen(int row, int dof) {
    int& extent = rows_[static_cast<size_t>(row)].extent;
    extent = std::max(extent, std::min((dof + 4) / 4 * 4, stride_));
  }
  const double* zeta(int row) const { return &zeta_[static_cast<size_t>(row) * stride_]; }
  double* zeta(int row) { return &zeta_[static_cast<size_t>(row) * stride_]; }
  /// J q' + z . y: the row's velocity with the impulses not yet in q'.
  double rowVelocity(int row) const;
  /// y += dp z: row `row`'s impulse changed by dp.
  void apply(int row, double dp);
  /// The largest share of the step in rowStep_ that keeps every row in its bounds, and the row
  /// that blocks more (-1: none).
  double feasibleShare(int m, int& blocking) const;
  /// Friction row `row` sticks: its pair's impulse strictly inside the disk mu p_n, its contact
  /// slipping no faster than kSlidingSpeed.
  bool sticking(int row) const;
  /// The other friction row of `row`'s contact, or -1.
  int frictionPartner(int row) const;
  /// Its solve of the m rows in active_ into activeStep_: by their Delassus matrix's own factor
  /// (m <= dof) ...
  bool solveActiveByRows(int m);
  /// ... or by its pseudo-inverse through the dof x dof Gram matrix (m > dof).
  bool solveActiveByGram(int m);

  int dof_ = 0;
  int stride_ = 0;  ///< dof_ padded to a multiple of 4 (zeros): whole vectors a row
  std::vector<Row> rows_;
  std::vector<double> zeta_;             ///< rows x stride_, row-major
  std::vector<double> baseVelocity_;     ///< J q' at the current q'
  std::vector<double> impulseResponse_;  ///< y = Z^T (p - applied), stride_ entries
  std::vector<double> applied_;          ///< impulses already in q' (the warm start's)
  std::vector<double> linkZeta_;  ///< by link: Z's 6 columns, stride_ each (zero off the path)
  std::vector<double> compactZeta_;
  std::vector<char> linkReady_;
  std::vector<Vec6> linkVelocity_, linkImpulse_;  ///< by link: Phi q'; a J^T p's forces
  std::vector<double> generalized_;
  std::vector<double> scratch_;
  std::vector<int> active_;
  std::vector<double> rowStep_;  ///< by row: the active-set solve's step (zero off the set)
  std::vector<int> sweepRows_;   ///< solveCorrection's: the one-sided rows with a response
  /// active x active (upper triangle, rows padded to a multiple of 4); its solution
  std::vector<double> delassus_, activeStep_;
  std::vector<double> zeroZeta_;  ///< a zero row of Z (the padding rows of delassus_)
  // solveActiveByGram's: the active rows' z, extents and right-hand sides, G and its scratch.
  std::vector<const double*> activeZeta_;
  std::vector<int> activeExtent_;
  std::vector<double> activeRhs_;
  std::vector<double> gram_, gramWork_;
};

}  // namespace impetus
