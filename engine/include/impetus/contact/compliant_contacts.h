#pragma once
// The contacts of compliant pairs (seed 003), kept out of the rigid contact rows. Each point is a
// one-sided row whose impulse is the law's normal force over the step, linearised about the
// step's start - F = F(d) + (c + beta h k) d'(t + h), k = dF/dd, c the hysteresis damping - and
// a Coulomb pair bounded by mu(v_T) times it, solved with the island's other rows. beta = 0 (the
// spring explicit, as symplectic Euler keeps an impact's energy) while the contact's frequency
// allows it (omega h <= sqrt 2), rising to 1/2 (unconditionally stable) on coarse steps.

#include <span>
#include <vector>

#include "impetus/contact/contact_point.h"
#include "impetus/contact/material.h"
#include "impetus/dynamics/rigid_body.h"
#include "impetus/dynamics/solver_islands.h"
#include "impetus/solver/row_buffer.h"

namespace impetus {

/// One compliant contact's push over the last (sub)step.
struct CompliantForce {
  double normal = 0.0;             ///< F_n on B along the contact normal (N, >= 0)
  Vec3 tangential = Vec3::Zero();  ///< friction on B (world, N)
  double penetration = 0.0;        ///< d (m, > 0 while touching)
  double slidingSpeed = 0.0;       ///< |v_T| at the step's start (m/s)
};

class CompliantContacts {
 public:
  /// Moves the compliant points (ContactPoint::compliantLaw >= 0) out of `contacts`, the others
  /// keeping their order; returns how many of them were among the first `awake`.
  size_t take(std::vector<ContactPoint>& contacts, size_t awake);
  /// Appends them to last step's rigid points, for the detection to match them again (each
  /// keeps its impact speed and impulses).
  void restore(std::vector<ContactPoint>& previous) const;
  /// Each point's law at the step's poses and velocities (its rows' numbers).
  void prepare(std::span<const RigidBody> bodies, const MaterialTable& materials, double dt);
  /// Which of the step's solver islands each point's rows join.
  void assignIslands(const SolverIslands& islands, size_t bodyCount);
  /// The rows of an island's touching points.
  void addRows(int island, RowBuffer& rows, std::span<const RigidBody> bodies, bool warmStart);
  /// Reads their impulses back after the island's solve (forces(), the next warm start).
  void storeImpulses(int island, const RowBuffer& rows);

  std::span<const ContactPoint> points() const { return points_; }
  /// By point, from the last step.
  std::span<const CompliantForce> forces() const { return forces_; }
  void clear() {
    points_.clear();
    forces_.clear();
  }

 private:
  struct Linearised {
    double force = 0.0;      ///< F(d) at the step's start (N)
    double stiffness = 0.0;  ///< beta h k + c (N s/m): how the force grows with d'(t + h)
    double friction = 0.0;   ///< mu(v_T)
  };
  std::vector<ContactPoint> points_;
  std::vector<CompliantForce> forces_;
  std::vector<Linearised> laws_;   ///< by point
  std::vector<int> island_;        ///< by point, -1: nothing of it moves
  std::vector<int> islandOfBody_;  ///< scratch
  double dt_ = 0.0;
};

}  // namespace impetus
