#pragma once
// Contact materials and the pair table (seed 002: Coulomb cone, restitution, rolling and spinning
// friction). Two geoms of the same material use its values as written; two different materials
// use their pair entry, or else the documented combination (friction and rolling/spinning: the
// geometric mean; restitution: the larger). A material or pair may carry a compliant law (seed
// 003): its contacts then push with a continuous force instead of the rigid rows.

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "impetus/contact/compliant_law.h"

namespace impetus {

struct Material {
  std::string name;
  double friction = 0.8;     ///< Coulomb mu (dimensionless)
  double restitution = 0.0;  ///< e in [0, 1]
  double rolling = 0.0;      ///< rolling resistance arm: torque <= rolling * N (unit: m)
  double spinning = 0.0;     ///< spinning friction arm: torque <= spinning * N (unit: m)
  /// A continuous contact law in place of the rigid rows; its restitution is `restitution`.
  std::optional<CompliantLaw> compliant;
};

/// The coefficients a contact uses (a Material without its name: looked up every step for every
/// contact, so it must not copy strings).
struct ContactCoefficients {
  double friction = 0.8;
  double restitution = 0.0;
  double rolling = 0.0;   ///< (unit: m)
  double spinning = 0.0;  ///< (unit: m)
  int compliantLaw = -1;  ///< MaterialTable::compliantLaw index, -1: rigid contact
};

class MaterialTable {
 public:
  MaterialTable() { materials_.push_back(Material{"default", 0.8, 0.0, 0.0, 0.0, std::nullopt}); }
  /// Adds a material; returns its index. Throws on a duplicate name or non-physical values.
  int add(const Material& m);
  /// Index of a material by name, or -1.
  int find(const std::string& name) const;
  /// Overrides the combination of two different materials.
  void setPair(int a, int b, const Material& combined);
  /// The coefficients for a contact between materials a and b.
  Material combine(int a, int b) const;
  /// The same coefficients without the name (no allocation: the per-step lookup).
  ContactCoefficients coefficients(int a, int b) const;
  const Material& operator[](int i) const { return materials_.at(static_cast<size_t>(i)); }
  Material& operator[](int i) { return materials_.at(static_cast<size_t>(i)); }
  int size() const { return static_cast<int>(materials_.size()); }
  const CompliantLaw& compliantLaw(int i) const { return laws_.at(static_cast<size_t>(i)); }
  int compliantLawCount() const { return static_cast<int>(laws_.size()); }

 private:
  std::vector<Material> materials_;
  std::map<std::pair<int, int>, Material> pairs_;
  // The laws of materials and pairs, by index (the per-step lookup copies no law).
  std::vector<CompliantLaw> laws_;
  std::vector<int> materialLaw_{-1};            ///< by material
  std::map<std::pair<int, int>, int> pairLaw_;  ///< by pair
};

}  // namespace impetus
