#include "impetus/contact/compliant_law.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace impetus {
namespace {

/// The cubic step from h0 at x0 to h1 at x1, flat at both ends (MSC ADAMS' STEP).
double cubicStep(double x, double x0, double h0, double x1, double h1) {
  const double s = std::clamp((x - x0) / (x1 - x0), 0.0, 1.0);
  return h0 + (h1 - h0) * s * s * (3.0 - 2.0 * s);
}

/// The rebound ratio of x'' = -5/4 x^1.5 max(1 + chi x', 0) from x = 0, x' = 1 (classical RK4;
/// the force is smooth while it pushes, and tau = 1e-3 resolves a contact of ~3 units).
double reboundOf(double chi) {
  constexpr double h = 1e-3;
  const auto acceleration = [chi](double x, double v) {
    return x > 0.0 ? -1.25 * x * std::sqrt(x) * std::max(1.0 + chi * v, 0.0) : 0.0;
  };
  double x = 0.0, v = 1.0;
  // Past 20 units (a contact of ~3 undamped) a heavily damped body only creeps out at ~1/chi.
  for (int i = 0; i < 20000; ++i) {
    const double k1x = v, k1v = acceleration(x, v);
    const double k2x = v + 0.5 * h * k1v, k2v = acceleration(x + 0.5 * h * k1x, v + 0.5 * h * k1v);
    const double k3x = v + 0.5 * h * k2v, k3v = acceleration(x + 0.5 * h * k2x, v + 0.5 * h * k2v);
    const double k4x = v + h * k3v, k4v = acceleration(x + h * k3x, v + h * k3v);
    const double nx = x + h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
    const double nv = v + h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
    if (nx <= 0.0 && i > 0) return std::max(-nv, 0.0);
    x = nx;
    v = nv;
  }
  return std::max(-v, 0.0);
}

/// chi for restitution e: e(chi) tabulated once over log-spaced chi and inverted by linear
/// interpolation (e falls monotonically with chi).
double exactHysteresisFactor(double e) {
  constexpr int kPoints = 421;  // chi from 1e-4 to 1e3, 60 a decade
  struct Table {
    double chi[kPoints], rebound[kPoints];
    Table() {
      for (int i = 0; i < kPoints; ++i) {
        chi[i] = std::pow(10.0, -4.0 + 7.0 * i / (kPoints - 1));
        rebound[i] = reboundOf(chi[i]);
      }
    }
  };
  static const Table table;
  if (e >= table.rebound[0]) return table.chi[0] * (1.0 - e) / (1.0 - table.rebound[0]);
  // The first value at or below e (the rebounds fall with chi): a bisection, once a point a step.
  const double* at = std::lower_bound(table.rebound + 1, table.rebound + kPoints, e,
                                      [](double rebound, double x) { return rebound > x; });
  if (at == table.rebound + kPoints) return table.chi[kPoints - 1];
  const auto i = at - table.rebound;
  const double s = (e - table.rebound[i - 1]) / (table.rebound[i] - table.rebound[i - 1]);
  return std::exp(std::log(table.chi[i - 1]) +
                  s * (std::log(table.chi[i]) - std::log(table.chi[i - 1])));
}

}  // namespace

double hysteresisFactor(NormalDamping damping, double e) {
  e = std::clamp(e, 0.0, 1.0);
  switch (damping) {
    case NormalDamping::LankaraniNikravesh:
      return 0.75 * (1.0 - e * e);
    case NormalDamping::Flores:
      // e = 0 has no finite chi: the pair then sticks as hard as the step can resolve.
      return e > 0.0 ? 1.6 * (1.0 - e) / e : 1e3;
    case NormalDamping::Exact:
      return e >= 1.0 ? 0.0 : exactHysteresisFactor(e);
  }
  return 0.0;
}

void checkCompliantLaw(const CompliantLaw& law) {
  const auto positive = [](double x) { return x > 0.0 && std::isfinite(x); };
  const auto bad = [](const char* what) { throw std::invalid_argument(what); };
  if (!positive(law.stiffness)) bad("compliant contact: stiffness must be > 0 (N/m^1.5)");
  if (!positive(law.leastImpactSpeed)) bad("compliant contact: least impact speed must be > 0");
  switch (law.friction) {
    case FrictionLaw::Piecewise:
      if (!(law.frictionCoefficient >= 0.0) || !(law.stickSpeed >= 0.0) ||
          !(law.slipSpeed > law.stickSpeed) || !std::isfinite(law.slipSpeed))
        bad("friction law piecewise: needs c_f >= 0 and 0 <= v0 < v1 (m/s)");
      break;
    case FrictionLaw::Smooth:
      if (!(law.frictionCoefficient >= 0.0) || !positive(law.smoothingSpeed))
        bad("friction law smooth: needs c_f >= 0 and a smoothing speed > 0 (m/s)");
      break;
    case FrictionLaw::Stribeck:
      if (!(law.staticFriction >= 0.0) || !(law.dynamicFriction >= 0.0) ||
          !positive(law.stictionSpeed) || !(law.dynamicSpeed > law.stictionSpeed) ||
          !std::isfinite(law.dynamicSpeed))
        bad("friction law stribeck: needs mu_s, mu_d >= 0 and 0 < v_s < v_d (m/s)");
      break;
  }
}

CompliantNormal compliantNormal(const CompliantLaw& law, double restitution, double d,
                                double impactSpeed) {
  if (!(d > 0.0)) return {};
  const double elastic = law.stiffness * d * std::sqrt(d);
  return {elastic, 1.5 * elastic / d,
          elastic * hysteresisFactor(law.damping, restitution) /
              std::max(impactSpeed, law.leastImpactSpeed)};
}

double compliantFriction(const CompliantLaw& law, double v) {
  v = std::abs(v);
  switch (law.friction) {
    case FrictionLaw::Piecewise:
      return law.frictionCoefficient *
             std::clamp((v - law.stickSpeed) / (law.slipSpeed - law.stickSpeed), 0.0, 1.0);
    case FrictionLaw::Smooth:
      return law.frictionCoefficient * std::tanh(v / law.smoothingSpeed);
    case FrictionLaw::Stribeck:
      if (v < law.stictionSpeed)
        return cubicStep(v, -law.stictionSpeed, -law.staticFriction, law.stictionSpeed,
                         law.staticFriction);
      return cubicStep(v, law.stictionSpeed, law.staticFriction, law.dynamicSpeed,
                       law.dynamicFriction);
  }
  return 0.0;
}

NormalDamping normalDampingNamed(const std::string& name) {
  if (name == "lankarani-nikravesh") return NormalDamping::LankaraniNikravesh;
  if (name == "flores") return NormalDamping::Flores;
  if (name == "exact") return NormalDamping::Exact;
  throw std::invalid_argument("unknown damping '" + name +
                              "' (expected lankarani-nikravesh, flores or exact)");
}

FrictionLaw frictionLawNamed(const std::string& name) {
  if (name == "piecewise") return FrictionLaw::Piecewise;
  if (name == "smooth") return FrictionLaw::Smooth;
  if (name == "stribeck") return FrictionLaw::Stribeck;
  throw std::invalid_argument("unknown friction law '" + name +
                              "' (expected piecewise, smooth or stribeck)");
}

}  // namespace impetus
