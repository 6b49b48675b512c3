#pragma once
// The unilateral rows of one articulation's step - contact normals, their friction pairs, joint
// stops - over its joint velocities q', solved by projected Gauss-Seidel (seed 000's sequential
// impulses in joint space). Each row keeps J and its response H^-1 J^T, so an iteration costs two
// dense n-vector products a row and the joints never open. Storage only grows (no allocation
// once warm).

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
  /// Appends a row of kind `kind` whose Jacobian the caller fills through `jacobian()` right
  /// after; `friction` (a friction row's coefficient) bounds it by the normal row `normalRow`.
  int add(ArticulationRowKind kind, double impulse, int normalRow = -1, double friction = 0.0);
  double* jacobian(int row) { return &jacobian_[static_cast<size_t>(row) * dof_]; }
  /// Its response H^-1 J^T, filled by the caller or by computeResponse.
  double* response(int row) { return &response_[static_cast<size_t>(row) * dof_]; }
  void computeResponse(int row, const Articulation& articulation);
  /// Adds to a row's J and response a world spatial force c on `link` (Articulation::
  /// linkResponse, computed once a step for each link a row touches).
  void addLinkForce(int row, int link, const Vec6& force, const Articulation& articulation);
  /// Row velocity J q' at the articulation's current velocity.
  double velocity(int row, const Articulation& articulation) const;
  /// J q' >= target for Normal and Stop rows, = target (within the friction bound) for Friction.
  void setTarget(int row, double target) { rows_[static_cast<size_t>(row)].target = target; }
  /// Effective mass of every row; applies the warm-start impulses.
  void prepare(Articulation& articulation);
  /// Iterates to `velocityTolerance` (the largest velocity change a row made in an iteration,
  /// m/s or rad/s), to `maxIterations`, or - `stallVelocity` > 0 - to a slow mode below that
  /// change, as solveBlocks does (SolverSettings::stallVelocity).
  ArticulationSolveResult solve(Articulation& articulation, int maxIterations,
                                double velocityTolerance, double stallVelocity);
  double impulse(int row) const { return rows_[static_cast<size_t>(row)].impulse; }
  int size() const { return static_cast<int>(rows_.size()); }

 private:
  struct Row {
    ArticulationRowKind kind = ArticulationRowKind::Normal;
    double target = 0.0;
    double impulse = 0.0;
    double inverseK = 0.0;  ///< 1 / (J H^-1 J^T)
    double k = 0.0;
    int normalRow = -1;
    double friction = 0.0;
  };
  /// q' += W_row dp.
  void apply(int row, double dp, Articulation& articulation) const;
  /// One exact solve of the rows the warm start has active - pushing normals and stops, sticking
  /// friction - as equalities (a regularised Cholesky of their Delassus matrix J H^-1 J^T). Kept
  /// when the impulses it finds stay in their bounds (a resting or steadily pushed contact set:
  /// its statics exact at once, however uneven the masses); otherwise undone, and the sweeps
  /// start from the warm start. Returns whether it was kept.
  bool solveActiveSet(Articulation& articulation);

  int dof_ = 0;
  std::vector<Row> rows_;
  std::vector<double> jacobian_, response_;  ///< rows x dof, row-major
  std::vector<double> linkPhi_, linkPsi_;    ///< by link: dof x 6, row-major
  std::vector<char> linkReady_;
  std::vector<int> active_;
  std::vector<double> delassus_, activeStep_;  ///< active x active, row-major; its solution
};

}  // namespace impetus
