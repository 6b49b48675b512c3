#include "quality_meter.h"

#include <algorithm>
#include <cmath>

namespace peers {

QualityMeter::QualityMeter(const BenchScene& scene) : scene_(scene) {
  // All bodies start with identity orientation: body-frame vectors are world offsets at t = 0.
  for (const BenchJoint& j : scene.joints) {
    const Vec3 parentOrigin = j.parent >= 0 ? scene.bodies[j.parent].position : Vec3::Zero();
    anchorInParent_.push_back(j.anchor - parentOrigin);
    anchorInChild_.push_back(j.anchor - scene.bodies[j.child].position);
    axisInParent_.push_back(j.axis.normalized());
    axisInChild_.push_back(j.axis.normalized());
  }
}

double QualityMeter::energy(const std::vector<BodyState>& states) const {
  double e = -scene_.potentialZero;
  for (size_t i = 0; i < states.size(); ++i) {
    const BenchBody& b = scene_.bodies[i];
    const BodyState& s = states[i];
    const Vec3 wBody = s.orientation.conjugate() * s.angularVelocity;
    e += 0.5 * b.mass * s.linearVelocity.squaredNorm() +
         0.5 * wBody.dot(b.inertia.cwiseProduct(wBody)) - b.mass * scene_.gravity * s.position.z();
  }
  return e;
}

void QualityMeter::record(int step, const std::vector<BodyState>& states) {
  const double t = step * scene_.dt;
  const double e = energy(states);
  if (step == 0) {
    initialEnergy_ = e;
    quality_.finalEnergyRatio = quality_.peakEnergyRatio = 1.0;
    return;
  }
  bool finite = std::isfinite(e);
  for (const BodyState& s : states)
    finite = finite && s.position.allFinite() && s.linearVelocity.norm() < 1e3;
  if (!finite || e > 10.0 * std::abs(initialEnergy_) + 1.0) {
    if (!quality_.diverged) {
      quality_.diverged = true;
      quality_.divergedAt = t;
    }
    return;
  }
  quality_.finalEnergyRatio = e / initialEnergy_;
  quality_.peakEnergyRatio = std::max(quality_.peakEnergyRatio, quality_.finalEnergyRatio);
  for (size_t k = 0; k < scene_.joints.size(); ++k) {
    const BenchJoint& j = scene_.joints[k];
    const Eigen::Quaterniond qp =
        j.parent >= 0 ? states[j.parent].orientation.normalized() : Eigen::Quaterniond::Identity();
    const Vec3 pp = j.parent >= 0 ? states[j.parent].position : Vec3::Zero();
    const Eigen::Quaterniond qc = states[j.child].orientation.normalized();
    const Vec3 anchorP = pp + qp * anchorInParent_[k];
    const Vec3 anchorC = states[j.child].position + qc * anchorInChild_[k];
    quality_.peakAnchorGap = std::max(quality_.peakAnchorGap, (anchorP - anchorC).norm());
    if (j.kind != JointKind::Hinge) continue;
    const Vec3 axisP = qp * axisInParent_[k], axisC = qc * axisInChild_[k];
    quality_.peakAxisError =
        std::max(quality_.peakAxisError, std::atan2(axisP.cross(axisC).norm(), axisP.dot(axisC)));
    if (!j.limited) continue;
    // Twist of the child relative to the parent about the hinge axis (parent frame).
    Eigen::Quaterniond rel = qp.conjugate() * qc;
    if (rel.w() < 0) rel.coeffs() = -rel.coeffs();
    const double angle = 2.0 * std::atan2(rel.vec().dot(axisInParent_[k]), rel.w());
    quality_.peakLimitOvershoot =
        std::max({quality_.peakLimitOvershoot, j.lower - angle, angle - j.upper});
  }
  if (scene_.topBody >= 0) {
    const Vec3 d = states[scene_.topBody].position - scene_.bodies[scene_.topBody].position;
    quality_.topDrift = std::hypot(d.x(), d.y());
  }
}

Quality worstOf(const Quality& a, const Quality& b) {
  Quality w;
  w.peakAnchorGap = std::max(a.peakAnchorGap, b.peakAnchorGap);
  w.peakAxisError = std::max(a.peakAxisError, b.peakAxisError);
  w.peakLimitOvershoot = std::max(a.peakLimitOvershoot, b.peakLimitOvershoot);
  w.finalEnergyRatio = std::max(a.finalEnergyRatio, b.finalEnergyRatio);
  w.peakEnergyRatio = std::max(a.peakEnergyRatio, b.peakEnergyRatio);
  w.topDrift = std::max(a.topDrift, b.topDrift);
  w.diverged = a.diverged || b.diverged;
  w.divergedAt = !a.diverged   ? b.divergedAt
                 : !b.diverged ? a.divergedAt
                               : std::min(a.divergedAt, b.divergedAt);
  const bool warnedA = a.engineWarningAt >= 0.0, warnedB = b.engineWarningAt >= 0.0;
  w.engineWarningAt = !warnedA   ? b.engineWarningAt
                      : !warnedB ? a.engineWarningAt
                                 : std::min(a.engineWarningAt, b.engineWarningAt);
  return w;
}

}  // namespace peers
