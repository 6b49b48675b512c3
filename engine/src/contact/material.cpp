#include "impetus/contact/material.h"

#include <algorithm>
#include <cmath>

namespace impetus {
namespace {

void check(const Material& m) {
  const auto bad = [&](const char* what) {
    throw std::invalid_argument("material '" + m.name + "': " + what);
  };
  if (!(m.friction >= 0.0) || !std::isfinite(m.friction)) bad("friction must be >= 0");
  if (!(m.restitution >= 0.0 && m.restitution <= 1.0)) bad("restitution must be in [0, 1]");
  if (!(m.rolling >= 0.0) || !(m.spinning >= 0.0) || !std::isfinite(m.rolling) ||
      !std::isfinite(m.spinning))
    bad("rolling and spinning must be >= 0 (m)");
  if (m.compliant) {
    try {
      checkCompliantLaw(*m.compliant);
    } catch (const std::invalid_argument& e) {
      bad(e.what());
    }
  }
}

}  // namespace

int MaterialTable::add(const Material& m) {
  check(m);
  if (find(m.name) >= 0) throw std::invalid_argument("duplicate material '" + m.name + "'");
  materials_.push_back(m);
  materialLaw_.push_back(-1);
  if (m.compliant) {
    materialLaw_.back() = static_cast<int>(laws_.size());
    laws_.push_back(*m.compliant);
  }
  return size() - 1;
}

int MaterialTable::find(const std::string& name) const {
  for (size_t i = 0; i < materials_.size(); ++i)
    if (materials_[i].name == name) return static_cast<int>(i);
  return -1;
}

void MaterialTable::setPair(int a, int b, const Material& combined) {
  check(combined);
  const std::pair key(std::min(a, b), std::max(a, b));
  pairs_[key] = combined;
  pairLaw_.erase(key);
  if (combined.compliant) {
    pairLaw_[key] = static_cast<int>(laws_.size());
    laws_.push_back(*combined.compliant);
  }
}

ContactCoefficients MaterialTable::coefficients(int a, int b) const {
  const auto of = [](const Material& m, int law) {
    return ContactCoefficients{m.friction, m.restitution, m.rolling, m.spinning, law};
  };
  if (a == b) return of((*this)[a], materialLaw_[static_cast<size_t>(a)]);
  if (!pairs_.empty()) {
    const std::pair key(std::min(a, b), std::max(a, b));
    const auto it = pairs_.find(key);
    if (it != pairs_.end()) {
      const auto law = pairLaw_.find(key);
      return of(it->second, law == pairLaw_.end() ? -1 : law->second);
    }
  }
  const Material& x = (*this)[a];
  const Material& y = (*this)[b];
  // Without a pair entry the softer material's law decides (Hertz's contact stiffness is
  // dominated by the more compliant body).
  const int lawA = materialLaw_[static_cast<size_t>(a)],
            lawB = materialLaw_[static_cast<size_t>(b)];
  const int law =
      lawA < 0   ? lawB
      : lawB < 0 ? lawA
      : laws_[static_cast<size_t>(lawB)].stiffness < laws_[static_cast<size_t>(lawA)].stiffness
          ? lawB
          : lawA;
  return {std::sqrt(x.friction * y.friction), std::max(x.restitution, y.restitution),
          std::sqrt(x.rolling * y.rolling), std::sqrt(x.spinning * y.spinning), law};
}

Material MaterialTable::combine(int a, int b) const {
  if (a == b) return (*this)[a];
  const auto it = pairs_.find({std::min(a, b), std::max(a, b)});
  if (it != pairs_.end()) return it->second;
  const ContactCoefficients c = coefficients(a, b);
  Material m;
  m.name = (*this)[a].name + "/" + (*this)[b].name;
  m.friction = c.friction;
  m.restitution = c.restitution;
  m.rolling = c.rolling;
  m.spinning = c.spinning;
  if (c.compliantLaw >= 0) m.compliant = laws_[static_cast<size_t>(c.compliantLaw)];
  return m;
}

}  // namespace impetus
