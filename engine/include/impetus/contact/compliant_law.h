#pragma once
// A continuous (compliant) contact law for a pair of materials (seed 003, eq. 11-17): the normal
// force grows with the penetration as Hertz's K d^1.5, with a hysteresis damping term that makes
// the impact lose what the coefficient of restitution says; the tangential force is a smoothed
// Coulomb law of the sliding speed, -c_f c_d(v_T) F_n.

#include <string>

namespace impetus {

/// How the normal force's damping term depends on the restitution e (both of the form
/// F = K d^1.5 (1 + chi d'/d'0), d'0 the approach speed at impact).
enum class NormalDamping {
  /// chi = 3 (1 - e^2) / 4 (Lankarani-Nikravesh; seed 003 eq. 11). Derived for e near 1: at
  /// e = 0.5 the bodies leave faster than e says (see docs/engine.md "Compliant contact").
  LankaraniNikravesh,
  /// chi = 8 (1 - e) / (5 e) (Flores et al. 2011): closer over the range (0.47 leaving at
  /// e = 0.5), exact at neither end.
  Flores,
  /// chi such that the impact's rebound speed is e times its approach speed: the force law scales
  /// (d = d_max x, t = d_max / d'0 tau gives x'' = -5/4 x^1.5 (1 + chi x') for every K, mass and
  /// speed), so e(chi) is one curve, integrated once and inverted (exactHysteresisFactor).
  Exact,
};

/// Seed 003's three smoothings of Coulomb's law, mu(v_T) = c_f c_d(v_T) (v_T: sliding speed).
enum class FrictionLaw {
  /// I: c_d = 0 below v0, rises linearly to 1 at v1, 1 above (the contact sticks below v0).
  Piecewise,
  /// II: c_d = tanh(v_T / smoothingSpeed), a smooth step (the paper's form did not survive its
  /// OCR; this is the usual hyperbolic-tangent smoothing).
  Smooth,
  /// III: Stribeck - mu_s at the stiction speed v_s, falling to mu_d at v_d (cubic steps, the
  /// ADAMS form, step(x, x0, h0, x1, h1) = h0 + (h1 - h0) s^2 (3 - 2 s), s = (x - x0)/(x1 - x0)):
  /// mu = step(v, -v_s, -mu_s, v_s, mu_s) below v_s, step(v, v_s, mu_s, v_d, mu_d) up to v_d,
  /// mu_d beyond.
  Stribeck,
};

struct CompliantLaw {
  double stiffness = 0.0;  ///< K (N/m^1.5): F = K d^1.5 for a penetration d (m)
  NormalDamping damping = NormalDamping::LankaraniNikravesh;
  FrictionLaw friction = FrictionLaw::Piecewise;
  double frictionCoefficient = 0.1;                      ///< c_f (I, II)
  double stickSpeed = 0.001;                             ///< v0 (m/s, I)
  double slipSpeed = 0.05;                               ///< v1 (m/s, I)
  double smoothingSpeed = 0.01;                          ///< (m/s, II)
  double staticFriction = 0.95, dynamicFriction = 0.85;  ///< mu_s, mu_d (III)
  double stictionSpeed = 0.04, dynamicSpeed = 0.05;      ///< v_s, v_d (m/s, III)
  /// Smallest approach speed d'0 the damping is scaled by (m/s): a contact that starts at rest
  /// would otherwise divide by zero.
  double leastImpactSpeed = 1e-3;
};

/// Throws std::invalid_argument naming what is wrong (non-positive K, v0 >= v1, ...).
void checkCompliantLaw(const CompliantLaw& law);

/// The normal force F = K d^1.5 (1 + chi d'/d'0) at penetration d (m) of an impact that began
/// closing at impactSpeed (m/s), with restitution e, in the parts a step linearises it into:
/// F = elastic + damping d' about the state at d, the elastic part growing as spring (dF/dd).
struct CompliantNormal {
  double elastic = 0.0;  ///< K d^1.5 (N)
  double spring = 0.0;   ///< 1.5 K d^0.5 (N/m)
  double damping = 0.0;  ///< K d^1.5 chi / d'0 (N s/m)
};
CompliantNormal compliantNormal(const CompliantLaw& law, double restitution, double d,
                                double impactSpeed);

/// The hysteresis factor chi of the law's damping for restitution e.
double hysteresisFactor(NormalDamping damping, double restitution);

/// mu(v): the friction force over the normal force at sliding speed v (m/s, >= 0).
double compliantFriction(const CompliantLaw& law, double slidingSpeed);

/// "lankarani-nikravesh" / "flores" / "exact"; "piecewise" / "smooth" / "stribeck". Throw on other
/// names.
NormalDamping normalDampingNamed(const std::string& name);
FrictionLaw frictionLawNamed(const std::string& name);

}  // namespace impetus
