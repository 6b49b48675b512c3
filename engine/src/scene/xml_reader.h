#pragma once
// Reading a scene file's elements: attributes with units, and errors that name the file and the
// element's line (SceneError). Shared by the scene loader and the parts it hands elements to.

#include <tinyxml2.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <numbers>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "impetus/math/types.h"
#include "impetus/scene/scene_loader.h"

namespace impetus {

/// "a, b, c".
std::string joined(const std::vector<std::string>& names);

class XmlReader {
 public:
  using XMLElement = tinyxml2::XMLElement;
  explicit XmlReader(std::string file) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }

  [[noreturn]] void fail(const XMLElement* e, const std::string& problem) const {
    throw SceneError(file_, e ? e->GetLineNum() : 1, problem);
  }

  void allow(const XMLElement* e, std::initializer_list<const char*> names) const {
    allow(e, std::span<const char* const>(names.begin(), names.size()));
  }
  void allow(const XMLElement* e, std::span<const char* const> names) const {
    for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
      if (std::any_of(names.begin(), names.end(),
                      [&](const char* n) { return std::string(n) == a->Name(); }))
        continue;
      std::vector<std::string> list(names.begin(), names.end());
      fail(e, std::string("unknown attribute '") + a->Name() + "' on <" + e->Name() +
                  "> (allowed: " + joined(list) + ")");
    }
  }

  static std::optional<std::string> text(const XMLElement* e, const char* name) {
    const char* v = e->Attribute(name);
    return v ? std::optional<std::string>(v) : std::nullopt;
  }
  std::string required(const XMLElement* e, const char* name) const {
    const auto v = text(e, name);
    if (!v || v->empty())
      fail(e, std::string("<") + e->Name() + "> needs attribute '" + name + "'");
    return *v;
  }

  /// Numbers with optional unit words: "49 rpm" (-> rad/s), "30 deg" (-> rad), "5 mm" (-> m).
  std::vector<double> numbers(const XMLElement* e, const char* name) const {
    std::istringstream in(required(e, name));
    std::vector<double> values;
    std::string token;
    while (in >> token) {
      static const std::pair<const char*, double> units[] = {{"rpm", 2 * std::numbers::pi / 60},
                                                             {"deg", std::numbers::pi / 180},
                                                             {"mm", 1e-3},
                                                             {"cm", 1e-2}};
      bool unit = false;
      for (const auto& [word, scale] : units)
        if (token == word) {
          if (values.empty())
            fail(e, std::string("attribute '") + name + "': unit '" + word + "' without a number");
          values.back() *= scale;
          unit = true;
        }
      if (unit) continue;
      char* end = nullptr;
      const double v = std::strtod(token.c_str(), &end);
      if (end == token.c_str() || *end != '\0')
        fail(e, std::string("attribute '") + name + "': '" + token + "' is not a number");
      if (!std::isfinite(v))
        fail(e, std::string("attribute '") + name + "': '" + token + "' is not finite");
      values.push_back(v);
    }
    return values;
  }
  double number(const XMLElement* e, const char* name,
                std::optional<double> fallback = std::nullopt) const {
    if (!e->Attribute(name)) {
      if (fallback) return *fallback;
      fail(e, std::string("<") + e->Name() + "> needs attribute '" + name + "'");
    }
    const auto v = numbers(e, name);
    if (v.size() != 1) fail(e, std::string("attribute '") + name + "' must be one number");
    return v[0];
  }
  Vec3 vec3(const XMLElement* e, const char* name, const Vec3& fallback) const {
    if (!e->Attribute(name)) return fallback;
    const auto v = numbers(e, name);
    if (v.size() != 3) fail(e, std::string("attribute '") + name + "' must be 3 numbers");
    return {v[0], v[1], v[2]};
  }
  Quat quat(const XMLElement* e, const char* name) const {
    if (!e->Attribute(name)) return Quat::Identity();
    const auto v = numbers(e, name);
    if (v.size() != 4) fail(e, std::string("attribute '") + name + "' must be 4 numbers (w x y z)");
    Quat q(v[0], v[1], v[2], v[3]);
    if (q.norm() < 1e-9) fail(e, std::string("attribute '") + name + "' is a zero quaternion");
    return q.normalized();
  }
  bool flag(const XMLElement* e, const char* name, bool fallback) const {
    const auto v = text(e, name);
    if (!v) return fallback;
    if (*v == "true" || *v == "1") return true;
    if (*v == "false" || *v == "0") return false;
    fail(e, std::string("attribute '") + name + "' must be true or false");
  }
  template <class Fn>
  auto guarded(const XMLElement* e, Fn fn) const {  // engine validation errors get a line
    try {
      return fn();
    } catch (const std::invalid_argument& x) {
      fail(e, x.what());
    }
  }

 protected:
  std::string file_;
};

}  // namespace impetus
