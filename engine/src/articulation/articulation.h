#pragma once
// A tree of bodies joined by spherical and revolute joints, stepped in reduced (joint)
// coordinates (Featherstone, "Rigid Body Dynamics Algorithms", 2008): the joints hold by
// construction, so no joint row, no joint drift and no position projection. Per step:
//  - q is read from the bodies' poses (a projection onto the joints when they had drifted);
//  - H(q) by the composite-rigid-body algorithm (RBDA table 6.2), factorised as L^T D L with the
//    tree's sparsity (table 6.3: L_ij != 0 only where DOF j is an ancestor of DOF i);
//  - q' = H^-1 J^T h: the bodies' momenta after the step's free-body integration (gravity,
//    forces, World::integrateBodyVelocity) projected onto the joints' motions - the velocity
//    solve of the rows' engine with its joints exact (projectMomentum says why no Coriolis term);
//  - contact and stop impulses by projected Gauss-Seidel on rows J q' (ArticulationRows);
//  - semi-implicit Euler on q (quaternions for the free root and the balls), bodies written.
// Body frames sit at the centres of mass; spatial vectors are [angular; linear], the links'
// twists in body coordinates (a free root's velocity is its body-frame twist), H, J^T h and the
// rows' motions and forces in world coordinates about the root (motionOrigin).

#include <array>
#include <span>
#include <vector>

#include "impetus/dynamics/rigid_body.h"
#include "impetus/math/types.h"

namespace impetus {

class Joint;

enum class LinkJoint { Free, Spherical, Revolute };

/// How one body hangs in the tree: the joint to its parent link, parents listed first.
struct ArticulationLinkDesc {
  BodyId body = 0;
  int parent = -1;  ///< link index; -1: the static `staticParent` or, Free, none
  LinkJoint joint = LinkJoint::Free;
  BodyId staticParent = -1;  ///< a static body the root is jointed to (fixed base), or -1
  Joint* source = nullptr;   ///< the world's joint (frames, limit, damping); null for Free
};

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;

/// [top; bottom]. (Eigen's comma initialiser of two 3-vector expressions draws GCC 12's
/// -Warray-bounds false positive on its 4-wide loads.)
inline Vec6 spatialVector(const Vec3& top, const Vec3& bottom) {
  Vec6 v;
  v.head<3>() = top;
  v.tail<3>() = bottom;
  return v;
}

class Articulation {
 public:
  /// Throws std::invalid_argument when a parent is not listed before its child.
  Articulation(std::vector<ArticulationLinkDesc> links, std::span<const RigidBody> bodies);

  int dof() const { return dof_; }
  /// DOF on the path from the root to the deepest DOF, itself included.
  int depth() const { return depth_; }
  int linkCount() const { return static_cast<int>(links_.size()); }
  BodyId body(int link) const { return links_[static_cast<size_t>(link)].body; }
  /// Link of a body, -1 if it is not in this articulation.
  int linkOf(BodyId body) const;
  std::span<const BodyId> bodies() const { return bodyIds_; }

  /// q from the bodies' poses (revolute angles unwrapped against the source joints'
  /// coordinates), and the links' poses and transforms at it: a projection onto the joints when
  /// the bodies had drifted from them.
  void readConfiguration(std::span<const RigidBody> bodies);
  /// q' = (H + dt d)^-1 J^T h: the bodies' momenta h [L; m v] - integrated over the step as
  /// free bodies' (gravity, external forces; World::integrateBodyVelocity) - projected onto the
  /// joints' motions in the kinetic-energy metric: the velocity solve of the maximal-coordinate
  /// engine, with its joints exact. Velocity products need no term of their own: last step's
  /// world momenta seen from this step's configuration carry them, and the projection never adds
  /// energy. Each body's inertia is taken at its step-midpoint orientation `midpointRotations`
  /// (by body; the free-rotation rule that keeps a spin's energy bounded). Joint damping d is
  /// implicit. Leaves H's factor for solveMass.
  void projectMomentum(double dt, std::span<const RigidBody> bodies,
                       std::span<const Mat3> midpointRotations);
  /// x = (H + dt d)^-1 x with the step's factor.
  void solveMass(double* x) const;

  /// The DOFs from the root to a link, the link's own last, ascending (each an ancestor in the
  /// DOF tree of every later one): the only DOFs a force on the link moves.
  std::span<const int> pathDofs(int link) const {
    const auto begin = pathBegin_[static_cast<size_t>(link)];
    return {pathDofs_.data() + begin,
            static_cast<size_t>(pathBegin_[static_cast<size_t>(link) + 1] - begin)};
  }
  /// A DOF's motion [w; v at motionOrigin()] this step: a row J = Phi^T c for a world spatial
  /// force c = [moment about motionOrigin(); force] on a link has these, over the link's
  /// pathDofs, as Phi's columns, and Phi q' is the link's spatial velocity.
  const Vec6& worldMotion(int dof) const { return worldMotion_[static_cast<size_t>(dof)]; }
  /// The point (world, m) the step's motions and forces are taken about: the root link's
  /// position at the step's start (projectMomentum).
  const Vec3& motionOrigin() const { return motionOrigin_; }
  /// A link's response to spatial forces: the half-solves Z c = D^-1/2 L^-T Phi^T c on its
  /// pathDofs (path x 6, row-major, k-th row the k-th path DOF; zero off the path): every contact
  /// row on the link is then a 6-vector c away, and two rows' coupling J_r H^-1 J_s^T is z_r . z_s.
  void linkResponse(int link, double* zeta) const;
  /// x = D^-1/2 L^-T x with the step's factor (the half of solveMass a Delassus entry needs),
  /// for an x that is zero off a link's pathDofs (a row on the link); so is the result.
  void halfSolve(int link, double* x) const;
  /// Revolute coordinate (rad) of a link's joint; its DOF index.
  double angle(int link) const { return links_[static_cast<size_t>(link)].angle; }
  int dofIndex(int link) const { return links_[static_cast<size_t>(link)].dof; }
  LinkJoint jointKind(int link) const { return links_[static_cast<size_t>(link)].joint; }
  Joint* sourceJoint(int link) const { return links_[static_cast<size_t>(link)].source; }

  Eigen::VectorXd& velocity() { return qd_; }
  const Eigen::VectorXd& velocity() const { return qd_; }

  /// After the solve: the bodies' velocities J(q) q' at this step's configuration (the momenta
  /// the next step projects), kept for jointImpulses and integrateAndWrite.
  void finishVelocities();
  /// Given each link's external impulses this step beyond gravity and the bodies' forces (the
  /// contacts'; world [moment about the world origin; force], N m s and N s), replaces them with
  /// the impulse each link's joint passed it from its parent, in the same form: its subtree's
  /// momentum change less what acted on the subtree from outside.
  void jointImpulses(std::span<Vec6> impulses) const;
  /// q += dt (q' + pseudo) (exponential map for rotations; `pseudo`, dof entries or null, the
  /// split impulses' position correction), the poses and finishVelocities' velocities written
  /// to the bodies.
  void integrateAndWrite(double dt, std::span<RigidBody> bodies, const double* pseudo = nullptr);

  /// Moves the bodies of a tree stepped by the rows onto its joints: the pose the joint
  /// coordinates give that is nearest, in the bodies' mass metric, to the bodies' integrated
  /// poses (Newton in joint coordinates, each step one articulated-body solve, halved while it
  /// would not bring the poses nearer; at most `maxIterations`, until no joint coordinate
  /// changes by more than `tolerance`, rad). The joints then hold to rounding
  /// whatever the iterations; the energy the step keeps depends on reaching the nearest pose.
  /// Fixed base only. Returns the iterations taken, -1 (bodies untouched) when it cannot.
  /// `dt` > 0 (a tree of hinges whose velocities projectVelocities just set, the configuration
  /// still the step's start): the start is that configuration advanced by dt q' instead of the
  /// angles read from the bodies.
  int projectOntoJoints(std::span<RigidBody> bodies, int maxIterations, double tolerance,
                        double dt = 0.0);
  /// readConfiguration for a tree of hinges: the angles, then placeHinges (the transforms to
  /// the parents are not kept: only what projectVelocities, jointImpulses and projectOntoJoints
  /// read).
  void readHingeConfiguration(std::span<const RigidBody> bodies);
  /// A tree of hinges only (projectVelocities).
  bool hingesOnly() const { return hingesOnly_; }
  /// For a fixed-base tree of hinges stepped with its joints exact (World's projected trees):
  /// the bodies' momenta after the step's free-body integration projected onto the joints in
  /// the kinetic-energy metric - the rows' velocity solve, by one articulated-body solve - and
  /// the bodies' velocities set to J q' (q' in velocity(); jointImpulses reads the change).
  /// Reads the configuration as it is (readConfiguration first).
  void projectVelocities(double dt, std::span<RigidBody> bodies,
                         std::span<const Mat3> midpointRotations);
  /// The root hangs from a static body (or the world), not free.
  bool fixedBase() const;
  /// Longest fixed-base tree stepFree takes (links). A pendulum and a double pendulum keep their
  /// energy to 1e-4 and 2e-3 over 10 s; longer passive chains are stiff - the tension of a
  /// whipping chain gives its links transverse modes past what an explicit step of 10 ms
  /// resolves (measured: 5 links end at 0.2-0.6 of their energy, 30 links need more than four
  /// substeps a step), and the rows' projection, which damps those modes, steps them better.
  static constexpr int kFreeStepMaxLinks = 2;
  bool freeStepSuits() const;
  /// One step of a fixed-base tree with no contact and no joint stop within reach: classical
  /// Runge-Kutta on (q, q'), q'' by the articulated-body algorithm with the velocity products,
  /// from the bodies' momenta at the step's start (their momenta less the step's gravity and
  /// forces, which World::integrateBodyVelocity added). Writes the bodies (and the joint
  /// read-out's final momenta, jointImpulses) and returns true; returns false with the bodies
  /// and the configuration untouched when the tree is not fixed-base, a joint's damping is too
  /// stiff for an explicit step, or the step gained energy (a motion the step cannot follow):
  /// the caller steps it the other way.
  bool stepFree(double dt, const Vec3& gravity, std::span<RigidBody> bodies);
  /// One classical Runge-Kutta step of h from the current q and q' (qd_, twists current); false
  /// when its energy balance is off by more than kFreeStepEnergyTolerance (or a joint's damping
  /// is too stiff for it).
  bool rungeKuttaStep(double h, const Vec3& gravity, std::span<RigidBody> bodies, bool forced);

 private:
  struct Link {
    BodyId body = 0;
    int parent = -1;
    LinkJoint joint = LinkJoint::Free;
    BodyId staticParent = -1;
    Joint* source = nullptr;
    int dof = 0, dofCount = 0;
    int pathOffset = 0;  ///< DOFs of its strict ancestors: where its own sit in a path
    // Joint geometry (body frames, relative to the centres of mass).
    Vec3 anchorInParent = Vec3::Zero(), anchorInChild = Vec3::Zero();
    Quat frameInParent = Quat::Identity(), frameInChild = Quat::Identity();
    Mat6 motionSubspace = Mat6::Zero();  ///< S, first dofCount columns
    double mass = 0.0;
    Mat3 inertia = Mat3::Zero();      ///< about the centre of mass, body frame
    Mat3 stepInertia = Mat3::Zero();  ///< the same at the step's midpoint orientation
    bool principalInertia = false;    ///< inertia diagonal: the body frame is principal
    // Configuration: a Free root's pose, a ball's rotation child -> parent, a hinge's angle.
    Vec3 position = Vec3::Zero();
    Quat orientation = Quat::Identity();
    Quat relative = Quat::Identity();
    double angle = 0.0;
    // Kinematics at the current state.
    Mat3 rotation = Mat3::Identity();  ///< body -> world
    Vec3 worldPosition = Vec3::Zero();
    Mat3 parentToChild = Mat3::Identity();  ///< E of the parent -> child transform
    Vec3 childOrigin = Vec3::Zero();        ///< r: the child origin in parent coordinates
    Vec6 twist = Vec6::Zero();
  };

  /// Link poses and the parent -> child transforms at q.
  void updatePoses(std::span<const RigidBody> bodies);
  /// Link twists (body frames) at q' with the current transforms.
  void updateTwists();
  /// Pose of the static parent (or identity when none).
  void staticParentPose(const Link& link, std::span<const RigidBody> bodies, Mat3& rotation,
                        Vec3& position) const;
  /// The parent link's pose at q (its rotation and centre), or the static parent's.
  void parentPose(const Link& link, std::span<const RigidBody> bodies, Mat3& rotation,
                  Vec3& position) const;
  /// The parent body's orientation (a static parent's, or identity for a free root).
  Quat parentOrientation(const Link& link, std::span<const RigidBody> bodies) const;
  /// Rotation child -> parent at the link's configuration.
  Quat relativeRotation(const Link& link) const;
  void factorise();
  /// worldMotion_ at the current poses about motionOrigin_.
  void updateWorldMotions();
  /// A link's DOFs' motions [R s_w; R s_v + r x R s_w] (the velocity of the body point at the
  /// motion origin, the same for every link below it), r its centre less motionOrigin_. Always
  /// inlined: compiled apart, the same arithmetic rounds differently (fused multiply-adds), and
  /// the bench ragdoll's chaotic landing then ends with its head rolling on the floor for good,
  /// never asleep, at a third of the speed.
  [[gnu::always_inline]] void setWorldMotions(const Link& l, const Vec3& r) {
    for (int k = 0; k < l.dofCount; ++k) {
      const Vec6& s = l.motionSubspace.col(k);
      Vec6& m = worldMotion_[static_cast<size_t>(l.dof + k)];
      m.head<3>() = l.rotation * s.head<3>();
      m.tail<3>() = l.rotation * s.tail<3>() + r.cross(m.head<3>());
    }
  }
  /// result = H^-1 (J^T f - d q' - C q') at the current poses (articulated_body.cpp): f the
  /// links' world spatial forces about motionOrigin_, d q' the joints' damping and C q' the
  /// velocity products at the joint rates `rates`; with rates null, H^-1 J^T f alone. Fixed base.
  /// `addedInertia` (by link, world about motionOrigin_) joins each link's spatial inertia; it
  /// may be non-symmetric (projectOntoJoints' stiffness): a hinge's elimination is then still
  /// exact (its U = X s, D = s^T X s), a ball's uses the 3 x 3 D as it is. False when a joint's
  /// damping is too stiff for an explicit step of dt.
  bool articulatedSolve(const double* rates, std::span<const Vec6> linkForces, double dt,
                        double* result, std::span<const Mat6> addedInertia = {});
  /// The joint coordinates at the step's start (q0) advanced by h rates, poses not updated.
  void setConfiguration(double h, const double* rates);
  /// linkForces_: gravity and the bodies' forces and torques at the current poses.
  void linkForcesAt(const Vec3& gravity, std::span<const RigidBody> bodies);
  /// A hinge's angle from its relative rotation child -> parent, unwrapped against its joint's
  /// coordinate.
  double hingeAngle(const Link& l, const Quat& relative) const;
  /// The hinge angle `raw` (rad, within a turn) unwrapped to the turn nearest its joint's
  /// continuous coordinate.
  double unwrappedAngle(const Link& l, double raw) const;
  /// A link's inertia about its centre in the world at body rotation `rotation`.
  Mat3 worldInertia(const Link& l, const Mat3& rotation) const;
  /// One Newton step of projectOntoJoints into momentum_ (dq) from the current configuration
  /// towards the bodies' poses (offsets_); false when the recursion fails.
  bool projectionStep();
  /// projectionStep for a tree of hinges (hingesOnly_), with or without the offsets' stiffness;
  /// false when the step would not descend (or, with it, a pivot is not positive).
  bool hingeProjectionStep(bool stiffness);
  /// The articulated-body recursion for a tree of hinges from linkForces_, linkInertia_ and
  /// linkArm_ (articulation_projection.cpp); false when a pivot is not positive.
  bool hingeSolve();
  /// offsets_ from the links' poses to the target poses (targetRotation_, targetPosition_),
  /// and half their squared length in the bodies' mass metric (m^2 kg).
  double measureOffsets();
  /// One link's offset (offsets_[i]) and its squared length in the mass metric.
  double measureOffset(size_t i);
  /// The links' rotations and centres at q for a tree of hinges (updatePoses' arithmetic in
  /// matrices, the transforms to the parent not kept), and, with `measure`, measureOffsets'
  /// value (else 0).
  double placeHinges(std::span<const RigidBody> bodies, bool measure);
  /// Kinetic (from the twists) plus gravity's potential energy (J).
  double mechanicalEnergy(const Vec3& gravity) const;
  double kineticEnergy() const;
  /// The joint coordinates back at stepFree's start (stepStartAngle_, stepStartRelative_), poses
  /// updated.
  void restoreStepStart(std::span<const RigidBody> bodies);
  /// The links' poses and finalVelocity_'s momenta to their bodies.
  void writeBodies(std::span<RigidBody> bodies) const;
  /// Power (W) of the joints' damping at qd_ and, when `forced`, of the bodies' own forces and
  /// torques at the twists; gravity's is in the potential.
  double forcePower(std::span<const RigidBody> bodies, bool forced) const;
  /// Row i of L (H's lower half before factorise): one entry for each of ancestorDofs(i).
  double* factorRow(int i) { return factor_.data() + factorStart_[static_cast<size_t>(i)]; }
  const double* factorRow(int i) const {
    return factor_.data() + factorStart_[static_cast<size_t>(i)];
  }
  /// The ancestors of DOF i in the expanded DOF tree (its link's earlier DOFs and its ancestor
  /// links'), ascending: where the factor's row i has its off-diagonal entries.
  std::span<const int> ancestorDofs(int i) const {
    const auto link = static_cast<size_t>(dofLink_[static_cast<size_t>(i)]);
    const int end = pathBegin_[link + 1] - (links_[link].dof + links_[link].dofCount - i);
    return {pathDofs_.data() + pathBegin_[link], static_cast<size_t>(end - pathBegin_[link])};
  }

  std::vector<Link> links_;
  std::vector<BodyId> bodyIds_;
  std::vector<int> linkOfBody_;            ///< by BodyId, -1 outside
  std::vector<int> dofLink_;               ///< link of each DOF
  std::vector<int> pathDofs_, pathBegin_;  ///< link l's path: [pathBegin_[l], pathBegin_[l + 1])
  int dof_ = 0;
  int depth_ = 0;
  Eigen::VectorXd qd_;
  /// H's strictly lower half, then L of its L^T D L factor in place, by rows, each only over its
  /// DOF's ancestors (ancestorDofs: the only nonzero entries), in their order; H's diagonal,
  /// then D.
  std::vector<double> factor_;
  std::vector<int> factorStart_;  ///< by DOF, into factor_
  Eigen::VectorXd pivot_;
  Eigen::VectorXd pivotInverseRoot_;  ///< D^-1/2 of the factor, by DOF
  Eigen::VectorXd momentum_;          ///< J^T h, then q'
  /// A link's subtree's inertia in world coordinates: mass, first moment h = m c (c: its centre
  /// of mass relative to motionOrigin_) and rotational inertia about motionOrigin_ (RBDA
  /// section 2.13).
  struct CompositeInertia {
    double mass = 0.0;
    Vec3 moment = Vec3::Zero();
    Mat3 rotational = Mat3::Zero();
  };
  std::vector<CompositeInertia> composite_;
  Vec3 motionOrigin_ = Vec3::Zero();
  std::vector<Vec6> worldMotion_;    ///< by DOF: its motion [w; v at motionOrigin_], this step
  std::vector<Vec6> momentumAbout_;  ///< by link: its subtree's [L about motionOrigin_; p]
  std::vector<Vec6> inputMomentum_;  ///< by link: [L about the COM; m v], world, before the solve
  std::vector<Vec6> finalVelocity_;  ///< by link: [v; L about the COM], world, after it

  /// A Runge-Kutta step whose energy balance is off by more than this share of its kinetic
  /// energies (start and end) is halved (stepFree): classical Runge-Kutta's own error at the
  /// 0.2-0.3 rad a pendulum's joint turns in 10 ms is ~1e-6 of it.
  static constexpr double kFreeStepEnergyTolerance = 1e-4;
  /// Most substeps stepFree halves a step into before it gives the step back.
  static constexpr int kMaxFreeSubsteps = 4;
  /// Per link, the articulated-body algorithm's quantities (world, about motionOrigin_).
  struct AbaLink {
    Mat6 inertia = Mat6::Zero();  ///< the link's, then its articulated inertia I^A
    Vec6 bias = Vec6::Zero();     ///< bias force p^A
    Vec6 velocity = Vec6::Zero(), velocityProduct = Vec6::Zero(), acceleration = Vec6::Zero();
    Eigen::Matrix<double, 6, 3> response = Eigen::Matrix<double, 6, 3>::Zero();  ///< U = I^A S
    Mat3 inverseInertia = Mat3::Zero();  ///< D^-1 = (S^T U)^-1, zero past the link's DOFs
    Vec3 torque = Vec3::Zero();          ///< u = Q - S^T p^A
  };
  std::vector<AbaLink> aba_;
  /// by link: the geometric stiffness of its offset force (projectOntoJoints), world about
  /// motionOrigin_
  std::vector<Mat6> offsetStiffness_;
  /// by link: [turn; shift] from its pose at q to its body's (projectOntoJoints), world
  std::vector<Vec6> offsets_;
  /// by link: the pose projectOntoJoints projects (its body's when it started), world
  std::vector<Mat3> targetRotation_;
  std::vector<Vec3> targetPosition_;
  /// by link: its world inertia about its centre and g for hingeSolve
  std::vector<Mat3> linkInertia_;
  std::vector<Vec3> linkArm_;
  /// by link: hingeSolve's articulated inertia X, bias force, U = X s (s the DOF's
  /// worldMotion_), 1 / s^T U, u and the link's motion
  struct HingeAba {
    Mat6 inertia = Mat6::Zero();
    Vec6 bias = Vec6::Zero(), response = Vec6::Zero(), motion = Vec6::Zero();
    double inversePivot = 0.0, torque = 0.0;
  };
  std::vector<HingeAba> hingeAba_;
  std::vector<Vec3> driftVelocity_;  ///< by link: projectVelocities' curvature translation u
  /// Every link hangs from a hinge: projectOntoJoints takes placeHinges and hingeProjectionStep.
  bool hingesOnly_ = false;
  /// by link, a hinge's rotation child -> parent fixed + cos(theta) cosine + sin(theta) sine
  /// and the same matrices times the child's anchor (placeHinges)
  struct HingeFrames {
    Mat3 fixed = Mat3::Zero(), cosine = Mat3::Zero(), sine = Mat3::Zero();
    Vec3 fixedArm = Vec3::Zero(), cosineArm = Vec3::Zero(), sineArm = Vec3::Zero();
    /// the joint frames' y and z axes in the parent's and the child's body frames
    Vec3 parentY = Vec3::Zero(), parentZ = Vec3::Zero(), childY = Vec3::Zero(),
         childZ = Vec3::Zero();
  };
  std::vector<HingeFrames> hingeFrames_;
  std::vector<double> hingeCos_, hingeSin_;          ///< by link: its angle's (placeHinges)
  std::vector<double> stepStartCos_, stepStartSin_;  ///< the same at a Newton step's start
  std::vector<Vec6> linkForces_;
  std::vector<double> startAngle_, stepStartAngle_;  ///< q0 of the substep, of the step
  std::vector<Quat> startRelative_, stepStartRelative_;
  Eigen::VectorXd initialRates_;
  std::array<Eigen::VectorXd, 4> stageRates_;
  Eigen::VectorXd stageAcceleration_, rateSum_, accelerationSum_;
};

}  // namespace impetus
