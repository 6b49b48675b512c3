#include "impetus/scene/scene_loader.h"

#include <tinyxml2.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <set>
#include <sstream>

#include "../exercise/exercise_parser.h"
#include "geom_inertia.h"
#include "impetus/exercise/exercise_evaluator.h"
#include "impetus/flex/beam.h"
#include "impetus/joints/cylindrical_joint.h"
#include "impetus/joints/fixed_joint.h"
#include "impetus/joints/prismatic_joint.h"
#include "impetus/joints/revolute_joint.h"
#include "impetus/joints/spherical_joint.h"
#include "impetus/joints/universal_joint.h"
#include "impetus/probes/probe.h"
#include "obj_mesh.h"
#include "read_text_file.h"
#include "visual_reader.h"
#include "xml_reader.h"

namespace impetus {
namespace {

using tinyxml2::XMLElement;

/// Reads one scene document; every error names the file and the element's line.
/// State shared by a scene and the files it includes.
struct LoadState {
  std::vector<std::string> includeStack;  ///< canonical paths, outermost first
  std::vector<std::string> blockFiles;    ///< file of each scheme block (for error lines)
  /// "KIND NAME" -> "FILE:LINE" of every name defined so far (a second definition names the
  /// first: an included robot's name and the scene's own may collide).
  std::map<std::string, std::string> definedAt;
  SceneLoadOptions options;
};

/// An include prefix: a letter, then letters, digits, '_' or '-' (it becomes part of names that
/// probes, signals and CSV headers split at '.', ',' and spaces).
bool validPrefix(const std::string& prefix) {
  if (prefix.empty() || !std::isalpha(static_cast<unsigned char>(prefix[0]))) return false;
  return std::all_of(prefix.begin(), prefix.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

class Loader : private XmlReader {
 public:
  Loader(LoadedScene& out, LoadState& state, std::string file, std::string dir,
         Vec3 basePosition = Vec3::Zero(), Quat baseOrientation = Quat::Identity(),
         std::string prefix = {})
      : XmlReader(std::move(file)),
        out_(out),
        state_(state),
        dir_(std::move(dir)),
        basePosition_(basePosition),
        baseOrientation_(baseOrientation),
        prefix_(std::move(prefix)) {}

  /// Reads a scene (root <scene>) or an included robot (root <robot>, no <world>).
  void load(const std::string& source, bool included) {
    tinyxml2::XMLDocument doc;
    if (doc.Parse(source.c_str(), source.size()) != tinyxml2::XML_SUCCESS)
      throw SceneError(file_, std::max(doc.ErrorLineNum(), 1),
                       std::string("malformed XML: ") + doc.ErrorName());
    const XMLElement* root = doc.RootElement();
    const std::string rootName = included ? "robot" : "scene";
    if (!root || root->Name() != rootName)
      throw SceneError(file_, root ? root->GetLineNum() : 1,
                       "the root element must be <" + rootName + ">");
    allow(root, {"name"});
    if (!included) {
      out_.name = text(root, "name").value_or("scene");
      out_.world = std::make_unique<World>();
    }
    static const std::set<std::string> known = {
        "world",    "material", "pair",    "body",    "include", "motor",
        "repeater", "sensor",   "scheme",  "console", "camera",  "exclude",
        "exercise", "beam",     "grapple", "light",   "fog"};
    for (const XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string element = e->Name();
      if (!known.count(element) ||
          (included && (element == "world" || element == "exercise" || element == "fog")))
        fail(e, "unknown element <" + element +
                    "> (expected one of: " + (included ? "" : "world, ") +
                    "material, pair, body, beam, include, motor, repeater, sensor, grapple, "
                    "scheme, console, camera, light, exclude" +
                    (included ? "" : ", fog, exercise") + ")");
    }
    // Order of building: settings and materials, track motors (geoms refer to them), bodies and
    // includes, material pairs, then what refers to joints and bodies.
    for (const XMLElement* e = root->FirstChildElement("world"); e;
         e = e->NextSiblingElement("world"))
      readWorld(e);
    for (const XMLElement* e = root->FirstChildElement("material"); e;
         e = e->NextSiblingElement("material"))
      readMaterial(e);
    for (const XMLElement* e = root->FirstChildElement("motor"); e;
         e = e->NextSiblingElement("motor"))
      if (!e->Attribute("joint")) readMotor(e);
    for (const XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string name = e->Name();
      if (name == "body") readBody(e, World::kGround, basePosition_, baseOrientation_, true);
      if (name == "beam") readBeam(e, World::kGround, basePosition_, baseOrientation_);
      if (name == "include") readInclude(e);
    }
    // Pairs after the includes: a scene pairs its materials with an included robot's.
    for (const XMLElement* e = root->FirstChildElement("pair"); e;
         e = e->NextSiblingElement("pair"))
      readPair(e);
    for (const XMLElement* e = root->FirstChildElement("exclude"); e;
         e = e->NextSiblingElement("exclude"))
      readExclude(e);
    if (!included && out_.world->bodyCount() <= 1) fail(root, "empty scene: no <body>");
    for (const XMLElement* e = root->FirstChildElement("motor"); e;
         e = e->NextSiblingElement("motor"))
      if (e->Attribute("joint")) readMotor(e);
    for (const XMLElement* e = root->FirstChildElement("repeater"); e;
         e = e->NextSiblingElement("repeater"))
      readRepeater(e);
    for (const XMLElement* e = root->FirstChildElement("sensor"); e;
         e = e->NextSiblingElement("sensor"))
      readSensor(e);
    for (const XMLElement* e = root->FirstChildElement("grapple"); e;
         e = e->NextSiblingElement("grapple"))
      readGrapple(e);
    for (const XMLElement* e = root->FirstChildElement("camera"); e;
         e = e->NextSiblingElement("camera"))
      readCamera(e);
    for (const XMLElement* e = root->FirstChildElement("light"); e;
         e = e->NextSiblingElement("light"))
      readLight(e);
    for (const XMLElement* e = root->FirstChildElement("fog"); e; e = e->NextSiblingElement("fog"))
      readFog(e);
    for (const XMLElement* e = root->FirstChildElement("console"); e;
         e = e->NextSiblingElement("console"))
      readConsole(e);
    for (const XMLElement* e = root->FirstChildElement("scheme"); e;
         e = e->NextSiblingElement("scheme"))
      readScheme(e);
    for (const XMLElement* e = root->FirstChildElement("exercise"); e;
         e = e->NextSiblingElement("exercise")) {
      if (out_.exercise) fail(e, "a scene has at most one <exercise>");
      out_.exercise = readExercise(*this, e);
    }
  }

 private:
  /// A name this file gives or refers to, as the scene knows it (with the include's prefix).
  std::string own(const std::string& name) const { return prefix_ + name; }
  /// Records a name this file defines; a second definition is an error naming the first.
  void claim(const XMLElement* e, const std::string& kind, const std::string& name) {
    const std::string here = file_ + ":" + std::to_string(e->GetLineNum());
    const auto [it, fresh] = state_.definedAt.try_emplace(kind + ' ' + name, here);
    if (fresh) return;
    if (it->second == here)
      fail(e, "duplicate " + kind + " name '" + name + "': this file is included twice " +
                  (prefix_.empty() ? "without a prefix (<include prefix=...> names each copy)"
                                   : "under the prefix '" + prefix_ + "'"));
    fail(e, "duplicate " + kind + " name '" + name + "' (first at " + it->second + ")");
  }

  void readWorld(const XMLElement* e) {
    allow(e, {"gravity", "step", "frame", "velocity_iterations", "position_iterations", "substeps",
              "sleep", "sleep_time"});
    WorldSettings& s = out_.world->settings();
    s.gravity = vec3(e, "gravity", s.gravity);
    out_.step = number(e, "step", 0.01);
    out_.frame = number(e, "frame", 0.04);
    if (!(out_.step > 0) || !(out_.frame >= out_.step)) fail(e, "need 0 < step <= frame");
    s.solver.velocityIterations =
        static_cast<int>(number(e, "velocity_iterations", s.solver.velocityIterations));
    s.solver.positionIterations =
        static_cast<int>(number(e, "position_iterations", s.solver.positionIterations));
    s.solver.substeps = static_cast<int>(number(e, "substeps", s.solver.substeps));
    if (s.solver.velocityIterations < 1 || s.solver.positionIterations < 0 || s.solver.substeps < 1)
      fail(e, "iteration counts must be >= 1 (position >= 0), substeps >= 1");
    s.sleep.enabled = flag(e, "sleep", s.sleep.enabled);
    s.sleep.timeToSleep = number(e, "sleep_time", s.sleep.timeToSleep);
    if (!(s.sleep.timeToSleep > 0.0)) fail(e, "sleep_time must be > 0 (s)");
  }

  static constexpr const char* kCompliantAttributes[] = {
      "contact",    "stiffness",       "damping",         "friction_law",   "stick_speed",
      "slip_speed", "smoothing_speed", "static_friction", "stiction_speed", "dynamic_speed"};
  Material materialFrom(const XMLElement* e, Material m) const {
    m.friction = number(e, "friction", m.friction);
    m.restitution = number(e, "restitution", m.restitution);
    m.rolling = number(e, "rolling", m.rolling);
    m.spinning = number(e, "spinning", m.spinning);
    const std::string contact = text(e, "contact").value_or(m.compliant ? "compliant" : "rigid");
    if (contact == "rigid") {
      for (const char* a : kCompliantAttributes)
        if (std::string(a) != "contact" && e->Attribute(a))
          fail(e, std::string("attribute '") + a + "' needs contact=\"compliant\"");
      m.compliant.reset();
      return m;
    }
    if (contact != "compliant")
      fail(e, "contact must be rigid or compliant, not '" + contact + "'");
    // Seed 003: the friction attribute is c_f of laws I and II, mu_d of law III.
    CompliantLaw law = m.compliant.value_or(CompliantLaw{});
    law.stiffness =
        number(e, "stiffness", m.compliant ? std::optional(law.stiffness) : std::nullopt);
    guarded(e, [&] {
      if (const auto name = text(e, "damping")) law.damping = normalDampingNamed(*name);
      if (const auto name = text(e, "friction_law")) law.friction = frictionLawNamed(*name);
      return 0;
    });
    law.frictionCoefficient = law.dynamicFriction = m.friction;
    law.stickSpeed = number(e, "stick_speed", law.stickSpeed);
    law.slipSpeed = number(e, "slip_speed", law.slipSpeed);
    law.smoothingSpeed = number(e, "smoothing_speed", law.smoothingSpeed);
    law.staticFriction = number(e, "static_friction", law.staticFriction);
    law.stictionSpeed = number(e, "stiction_speed", law.stictionSpeed);
    law.dynamicSpeed = number(e, "dynamic_speed", law.dynamicSpeed);
    m.compliant = law;
    return m;
  }
  /// The material attributes, and the compliant law's.
  std::vector<const char*> materialAttributes(std::initializer_list<const char*> own) const {
    std::vector<const char*> all(own);
    all.insert(all.end(), std::begin(kCompliantAttributes), std::end(kCompliantAttributes));
    return all;
  }
  // A shared material keeps its name in every copy of a robot (rubber is rubber): each copy
  // declares it, and the copies must agree.
  void readMaterial(const XMLElement* e) {
    allow(e,
          materialAttributes({"name", "friction", "restitution", "rolling", "spinning", "shared"}));
    const bool shared = flag(e, "shared", false);
    Material m;
    m.name = shared ? required(e, "name") : own(required(e, "name"));
    m = materialFrom(e, m);
    MaterialTable& table = out_.world->materials();
    const int existing = table.find(m.name);
    if (shared && existing >= 0 && state_.definedAt.count("shared-material " + m.name)) {
      const Material& first = table[existing];
      if (first.friction != m.friction || first.restitution != m.restitution ||
          first.rolling != m.rolling || first.spinning != m.spinning ||
          first.compliant.has_value() != m.compliant.has_value() ||
          (m.compliant && (first.compliant->stiffness != m.compliant->stiffness ||
                           first.compliant->damping != m.compliant->damping ||
                           first.compliant->friction != m.compliant->friction)))
        fail(e, "shared material '" + m.name + "' differs from its declaration at " +
                    state_.definedAt["shared-material " + m.name]);
      return;
    }
    claim(e, "material", m.name);
    if (shared) claim(e, "shared-material", m.name);
    guarded(e, [&] { return table.add(m); });
  }
  /// This file's material of that name, else the scene's (or a shared one).
  int materialIndex(const XMLElement* e, const char* attribute) const {
    const std::string name = required(e, attribute);
    int i = out_.world->materials().find(own(name));
    if (i < 0) i = out_.world->materials().find(name);
    if (i < 0) fail(e, "unknown material '" + name + "'");
    return i;
  }
  void readPair(const XMLElement* e) {
    allow(e, materialAttributes(
                 {"material1", "material2", "friction", "restitution", "rolling", "spinning"}));
    const int a = materialIndex(e, "material1"), b = materialIndex(e, "material2");
    const MaterialTable& t = out_.world->materials();
    guarded(e, [&] {
      out_.world->materials().setPair(a, b, materialFrom(e, t.combine(a, b)));
      return 0;
    });
  }

  ShapeDesc readGeom(const XMLElement* e) {
    allow(e, {"type", "size", "radius", "length", "file", "pos", "quat", "material", "track_motor",
              "track_direction", "sprocket_radius"});
    ShapeDesc s;
    const std::string type = required(e, "type");
    s.position = vec3(e, "pos", Vec3::Zero());
    s.orientation = quat(e, "quat");
    if (e->Attribute("material")) s.material = materialIndex(e, "material");
    if (type == "box") {
      s.type = ShapeType::Box;
      s.size = vec3(e, "size", Vec3::Zero());
      if (!(s.size.minCoeff() > 0))
        fail(e, "box size must be 3 positive numbers (full edge lengths)");
    } else if (type == "sphere" || type == "capsule" || type == "cylinder") {
      s.type = type == "sphere"    ? ShapeType::Sphere
               : type == "capsule" ? ShapeType::Capsule
                                   : ShapeType::Cylinder;
      s.radius = number(e, "radius");
      if (!(s.radius > 0)) fail(e, "radius must be positive");
      if (s.type != ShapeType::Sphere) {
        s.length = number(e, "length");
        if (!(s.length > 0)) fail(e, "length must be positive");
      }
    } else if (type == "plane") {
      s.type = ShapeType::Plane;
    } else if (type == "mesh") {
      s.type = ShapeType::Mesh;
      const std::string file = required(e, "file");
      const std::string path = file.empty() || file[0] == '/' ? file : dir_ + "/" + file;
      std::string content, problem;
      if (!readTextFile(path, content, problem) ||
          !readObjMesh(content, s.vertices, s.triangles, problem))
        fail(e, "mesh '" + file + "': " + problem);
      out_.sources.push_back({path, std::move(content)});
    } else {
      fail(e, "unknown geom type '" + type + "' (box, sphere, capsule, cylinder, plane, mesh)");
    }
    if (e->Attribute("track_motor")) {
      const std::string motor = required(e, "track_motor");
      const DcMotor* m = out_.world->findMotor(own(motor));
      if (!m) fail(e, "unknown track motor '" + motor + "' (a <motor> without a joint)");
      for (int i = 0; i < out_.world->motorCount(); ++i)
        if (&out_.world->motor(i) == m) s.trackMotor = i;
      s.trackDirection = vec3(e, "track_direction", Vec3::UnitX());
      s.sprocketRadius = number(e, "sprocket_radius");
    }
    return s;
  }

  void readBody(const XMLElement* e, BodyId parent, const Vec3& parentPosition,
                const Quat& parentOrientation, bool topLevel) {
    allow(e, {"name", "pos", "quat", "mass", "inertia", "velocity", "angular_velocity", "fixed",
              "bullet"});
    static const std::set<std::string> children = {"geom", "joint", "body", "beam", "visual"};
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement())
      if (!children.count(c->Name()))
        fail(c, std::string("unknown element <") + c->Name() +
                    "> in <body> (geom, visual, joint, body, beam)");
    RigidBodyDesc d;
    d.name = own(required(e, "name"));
    if (d.name == "world") fail(e, "'world' names the ground; a body needs another name");
    claim(e, "body", d.name);
    d.position = parentPosition + parentOrientation * vec3(e, "pos", Vec3::Zero());
    d.orientation = (parentOrientation * quat(e, "quat")).normalized();
    d.linearVelocity = vec3(e, "velocity", Vec3::Zero());
    d.angularVelocity = vec3(e, "angular_velocity", Vec3::Zero());
    const bool fixed = flag(e, "fixed", false);
    d.bullet = flag(e, "bullet", false);
    d.type = fixed ? BodyType::Static : BodyType::Dynamic;
    std::vector<std::pair<const XMLElement*, ShapeDesc>> geoms;
    for (const XMLElement* g = e->FirstChildElement("geom"); g; g = g->NextSiblingElement("geom"))
      geoms.emplace_back(g, readGeom(g));
    if (!fixed) {
      d.mass = number(e, "mass");
      if (!(d.mass > 0)) fail(e, "mass must be positive");
      if (e->Attribute("inertia")) {
        const auto v = numbers(e, "inertia");
        if (v.size() != 3 && v.size() != 6)
          fail(e, "inertia must be 3 numbers (ixx iyy izz) or 6 (+ ixy ixz iyz)");
        d.inertia = Vec3(v[0], v[1], v[2]).asDiagonal();
        if (v.size() == 6) {
          d.inertia(0, 1) = d.inertia(1, 0) = v[3];
          d.inertia(0, 2) = d.inertia(2, 0) = v[4];
          d.inertia(1, 2) = d.inertia(2, 1) = v[5];
        }
      } else {
        std::vector<ShapeDesc> shapes;
        for (auto& [g, s] : geoms) shapes.push_back(s);
        std::string problem;
        if (!inertiaFromGeoms(shapes, d.mass, d.inertia, problem))
          fail(e, "no inertia given and " + problem);
      }
    }
    const BodyId id = guarded(e, [&] { return out_.world->addBody(d); });
    for (auto& [g, s] : geoms) {
      const ShapeDesc& shape = s;  // (clang 14 cannot capture a structured binding)
      guarded(g, [&] {
        out_.world->addShape(id, shape);
        return 0;
      });
      out_.geoms.emplace_back(id, s);
    }
    std::vector<ShapeDesc> shapes;
    for (auto& [g, s] : geoms) shapes.push_back(s);
    for (const XMLElement* v = e->FirstChildElement("visual"); v;
         v = v->NextSiblingElement("visual"))
      if (auto visual = readVisual(*this, v, id, shapes, *out_.world, dir_, prefix_,
                                   state_.options.relocateVisualFile))
        out_.visuals.push_back(std::move(*visual));
    const XMLElement* j = e->FirstChildElement("joint");
    if (j && j->NextSiblingElement("joint"))
      fail(j->NextSiblingElement("joint"), "a body has at most one <joint>");
    if (j) {
      readJoint(j, parent, id, d.position, d.orientation);
    } else if (!topLevel) {  // a nested body without a joint is welded to its parent
      claim(e, "joint", d.name + "_weld");
      guarded(e, [&] {
        return &out_.world->addJoint<FixedJoint>(d.name + "_weld", parent, id, d.position,
                                                 Vec3::UnitX());
      });
    }
    for (const XMLElement* c = e->FirstChildElement("body"); c; c = c->NextSiblingElement("body"))
      readBody(c, id, d.position, d.orientation, false);
    for (const XMLElement* c = e->FirstChildElement("beam"); c; c = c->NextSiblingElement("beam"))
      readBeam(c, id, d.position, d.orientation);
  }

  /// A flexible link (flex/beam.h) mounted on `mount` at pos/quat in its frame; bodies inside
  /// it hang from its tip (pos/quat in the tip's frame, welded unless they have a joint).
  void readBeam(const XMLElement* e, BodyId mount, const Vec3& mountPosition,
                const Quat& mountOrientation) {
    allow(e, {"name", "pos", "quat", "length", "mass_per_length", "axial_stiffness",
              "bending_stiffness", "torsional_stiffness", "damping_time", "segments", "radius",
              "material"});
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement())
      if (std::string(c->Name()) != "body")
        fail(c, std::string("unknown element <") + c->Name() + "> in <beam> (body)");
    BeamDesc d;
    d.name = own(required(e, "name"));
    d.mount = mount;
    d.root = mountPosition + mountOrientation * vec3(e, "pos", Vec3::Zero());
    d.orientation = (mountOrientation * quat(e, "quat")).normalized();
    d.length = number(e, "length");
    d.massPerLength = number(e, "mass_per_length");
    d.axialStiffness = number(e, "axial_stiffness");
    const auto bending = numbers(e, "bending_stiffness");
    if (bending.size() != 1 && bending.size() != 2)
      fail(e, "bending_stiffness must be one number (EI) or two (EI about y, about z)");
    d.bendingStiffnessY = bending[0];
    d.bendingStiffnessZ = bending.back();
    d.torsionalStiffness = number(e, "torsional_stiffness");
    d.dampingTime = number(e, "damping_time", 0.0);
    const double segments = number(e, "segments", 10.0);
    if (!(segments >= 1.0 && segments <= 1000.0) || segments != std::floor(segments))
      fail(e, "segments must be a whole number from 1 to 1000");
    d.segments = static_cast<int>(segments);
    d.sectionRadius = number(e, "radius");
    if (e->Attribute("material")) d.material = materialIndex(e, "material");
    for (int k = 1; k <= d.segments; ++k) {
      claim(e, "body", d.name + "_" + std::to_string(k));
      claim(e, "joint", d.name + "_j" + std::to_string(k));
    }
    const Beam beam = guarded(e, [&] { return addBeam(*out_.world, d); });
    for (size_t k = 0; k < beam.segmentShapes.size(); ++k)
      out_.geoms.emplace_back(beam.segments[k], beam.segmentShapes[k]);
    out_.beams.push_back(shapeOf(*out_.world, d, beam));
    const Vec3 tip = d.root + d.length * (d.orientation * Vec3::UnitX());
    for (const XMLElement* c = e->FirstChildElement("body"); c; c = c->NextSiblingElement("body"))
      readBody(c, beam.segments.back(), tip, d.orientation, false);
  }

  void readJoint(const XMLElement* e, BodyId parent, BodyId child, const Vec3& bodyPosition,
                 const Quat& bodyOrientation) {
    allow(e, {"name", "type", "pos", "axis", "range", "friction", "damping"});
    const std::string name = own(required(e, "name"));
    claim(e, "joint", name);
    const std::string type = required(e, "type");
    const Vec3 anchor = bodyPosition + bodyOrientation * vec3(e, "pos", Vec3::Zero());
    const Vec3 localAxis = vec3(e, "axis", Vec3::UnitX());
    if (localAxis.norm() < 1e-9) fail(e, "joint axis is zero");
    const Vec3 axis = bodyOrientation * localAxis.normalized();
    if (parent == child) fail(e, "joint joins a body to itself");
    Joint* joint = guarded(e, [&]() -> Joint* {
      World& w = *out_.world;
      if (type == "revolute") return &w.addJoint<RevoluteJoint>(name, parent, child, anchor, axis);
      if (type == "prismatic")
        return &w.addJoint<PrismaticJoint>(name, parent, child, anchor, axis);
      if (type == "spherical")
        return &w.addJoint<SphericalJoint>(name, parent, child, anchor, axis);
      if (type == "fixed") return &w.addJoint<FixedJoint>(name, parent, child, anchor, axis);
      if (type == "cylindrical")
        return &w.addJoint<CylindricalJoint>(name, parent, child, anchor, axis);
      if (type == "universal")
        return &w.addJoint<UniversalJoint>(name, parent, child, anchor, axis);
      return nullptr;
    });
    if (!joint)
      fail(e, "unknown joint type '" + type +
                  "' (revolute, prismatic, spherical, fixed, cylindrical, universal)");
    if (e->Attribute("range")) {
      if (type != "revolute" && type != "prismatic")
        fail(e, "range applies to revolute and prismatic joints");
      const auto r = numbers(e, "range");
      if (r.size() != 2 || !(r[0] < r[1])) fail(e, "range must be two increasing numbers (lo hi)");
      if (r[0] > 0 || r[1] < 0) fail(e, "range must contain the assembled position 0");
      joint->limit = {true, r[0], r[1]};
    }
    if (e->Attribute("friction")) {
      const auto f = numbers(e, "friction");
      if (f.empty() || f.size() > 2 || *std::min_element(f.begin(), f.end()) < 0)
        fail(e, "friction must be one or two non-negative numbers (torque [force])");
      const bool sliding = type == "prismatic";
      (sliding ? joint->friction.force : joint->friction.torque) = f[0];
      if (type == "cylindrical") joint->friction.force = f.size() == 2 ? f[1] : f[0];
    }
    joint->damping = number(e, "damping", 0.0);
    if (joint->damping < 0) fail(e, "damping must be >= 0");
  }

  void readMotor(const XMLElement* e) {
    allow(e, {"name", "joint", "stall_torque", "no_load_speed", "time_constant", "rotor_inertia",
              "electrical_time_constant", "gear_ratio", "viscous_friction", "brake_torque", "lead",
              "stall_current", "brake_when_idle", "gear_stiffness", "gear_damping"});
    const std::string name = own(required(e, "name"));
    claim(e, "motor", name);
    DcMotorParams p;
    p.stallTorque = number(e, "stall_torque");
    p.noLoadSpeed = number(e, "no_load_speed");
    p.timeConstant = number(e, "time_constant", 0.0);
    p.rotorInertia = number(e, "rotor_inertia", 0.0);
    p.electricalTimeConstant = number(e, "electrical_time_constant", 0.0);
    p.gearRatio = number(e, "gear_ratio", 1.0);
    p.viscousFriction = number(e, "viscous_friction", 0.0);
    p.brakeTorque = number(e, "brake_torque", 0.0);
    p.lead = number(e, "lead", 0.0);
    p.stallCurrent = number(e, "stall_current", 0.0);
    p.brakeWhenIdle = flag(e, "brake_when_idle", false);
    p.gearStiffness = number(e, "gear_stiffness", 0.0);
    p.gearDamping = number(e, "gear_damping", 0.0);
    if (!e->Attribute("joint")) {
      if (p.compliantGear()) fail(e, "gear_stiffness needs a joint (a track's belt is rigid)");
      guarded(e, [&] { return &out_.world->addMotor(name, p); });
      return;
    }
    const std::string jointName = required(e, "joint");
    Joint* joint = out_.world->findJoint(own(jointName));
    if (!joint) fail(e, "motor '" + name + "': unknown joint '" + jointName + "'");
    guarded(e, [&] { return &out_.world->addMotor(name, *joint, p); });
  }

  void readRepeater(const XMLElement* e) {
    allow(e, {"motor", "joint", "ratio"});
    const std::string motorName = required(e, "motor"), jointName = required(e, "joint");
    DcMotor* motor = out_.world->findMotor(own(motorName));
    if (!motor) fail(e, "repeater: unknown motor '" + motorName + "'");
    Joint* joint = out_.world->findJoint(own(jointName));
    if (!joint) fail(e, "repeater: unknown joint '" + jointName + "'");
    const double k = number(e, "ratio");
    guarded(e, [&] {
      out_.world->addRepeater(*motor, *joint, k);
      return 0;
    });
  }

  void readSensor(const XMLElement* e) {
    allow(e, {"type", "name", "joint", "body"});
    const std::string type = required(e, "type"), name = own(required(e, "name"));
    claim(e, "sensor", name);
    const SensorType* kind = sensorTypeFromName(type);
    if (!kind)
      fail(e, "sensor '" + name + "': unknown type '" + type +
                  "' (expected force_torque, encoder, imu or contact)");
    const bool onJoint = *kind == SensorType::ForceTorque || *kind == SensorType::Encoder;
    const Joint* joint = nullptr;
    BodyId body = -1;
    if (onJoint) {
      if (e->Attribute("body"))
        fail(e, "sensor '" + name + "': a " + type + " sensor takes a joint, not a body");
      const std::string jointName = required(e, "joint");
      joint = out_.world->findJoint(own(jointName));
      if (!joint) fail(e, "sensor '" + name + "': unknown joint '" + jointName + "'");
    } else {
      if (e->Attribute("joint"))
        fail(e, "sensor '" + name + "': a " + type + " sensor takes a body, not a joint");
      const std::string bodyName = required(e, "body");
      body = out_.world->findBody(own(bodyName));
      if (body < 0) fail(e, "sensor '" + name + "': unknown body '" + bodyName + "'");
    }
    guarded(e, [&] {
      out_.world->addSensor(makeSensor(*kind, name, joint, body));
      return 0;
    });
  }

  // <grapple>: a latching end effector and the fixture it catches (joints/grapple.h).
  void readGrapple(const XMLElement* e) {
    allow(e, {"name", "effector", "point", "axis", "target", "fixture", "fixture_axis",
              "capture_distance", "capture_angle"});
    GrappleDesc d;
    d.name = own(required(e, "name"));
    claim(e, "grapple", d.name);
    const auto bodyOf = [&](const char* key) {
      const std::string name = required(e, key);
      const BodyId id = out_.world->findBody(own(name));
      if (id < 0) fail(e, "grapple '" + d.name + "': " + key + ": unknown body '" + name + "'");
      return id;
    };
    d.effector = bodyOf("effector");
    d.target = bodyOf("target");
    d.effectorPoint = vec3(e, "point", Vec3::Zero());
    d.effectorAxis = vec3(e, "axis", Vec3::UnitX());
    d.fixturePoint = vec3(e, "fixture", Vec3::Zero());
    d.fixtureAxis = vec3(e, "fixture_axis", Vec3::UnitZ());
    d.captureDistance = number(e, "capture_distance", d.captureDistance);
    d.captureAngle = number(e, "capture_angle", d.captureAngle);
    guarded(e, [&] {
      out_.world->addGrapple(d);
      return 0;
    });
  }

  // <exclude body1 body2/>: the two bodies never touch (links of one robot whose geoms overlap
  // near a joint they do not share, as MuJoCo's contact exclude).
  void readExclude(const XMLElement* e) {
    allow(e, {"body1", "body2"});
    BodyId ids[2];
    const char* keys[2] = {"body1", "body2"};
    for (int k = 0; k < 2; ++k) {
      const std::string name = required(e, keys[k]);
      ids[k] = out_.world->findBody(own(name));
      if (ids[k] < 0) fail(e, std::string(keys[k]) + ": unknown body '" + name + "'");
    }
    if (ids[0] == ids[1]) fail(e, "a body cannot be excluded from itself");
    out_.world->setCollision(ids[0], ids[1], false);
  }

  /// The body a camera or a light is fixed to (attribute `body`, default the world).
  BodyId mountBody(const XMLElement* e, const std::string& what) const {
    const std::string body = text(e, "body").value_or("world");
    const BodyId id = body == "world" ? World::kGround : out_.world->findBody(own(body));
    if (id < 0) fail(e, what + ": unknown body '" + body + "'");
    return id;
  }

  void readCamera(const XMLElement* e) {
    allow(e, {"name", "body", "pos", "quat", "fov", "resolution"});
    CameraDesc c;
    c.name = own(required(e, "name"));
    claim(e, "camera", c.name);
    c.body = mountBody(e, "camera '" + c.name + "'");
    c.position = vec3(e, "pos", Vec3::Zero());
    c.orientation = quat(e, "quat");
    if (e->Attribute("fov")) {
      c.fieldOfView = number(e, "fov");
      if (!(c.fieldOfView > 0.0 && c.fieldOfView < std::numbers::pi))
        fail(e, "camera '" + c.name + "': fov must be between 0 and 180 degrees (vertical)");
    }
    if (e->Attribute("resolution")) {
      const std::vector<double> r = numbers(e, "resolution");
      if (r.size() != 2 || !(r[0] >= 1 && r[0] <= 16384 && r[1] >= 1 && r[1] <= 16384) ||
          r[0] != std::floor(r[0]) || r[1] != std::floor(r[1]))
        fail(e, "camera '" + c.name + "': resolution must be 2 whole numbers of pixels (w h)");
      c.width = static_cast<int>(r[0]);
      c.height = static_cast<int>(r[1]);
    }
    out_.cameras.push_back(c);
  }

  /// RGB 0..1 from `name` (3 numbers).
  std::array<float, 3> colour(const XMLElement* e, const char* name,
                              std::array<float, 3> fallback) const {
    if (!e->Attribute(name)) return fallback;
    const std::vector<double> c = numbers(e, name);
    if (c.size() != 3) fail(e, std::string(name) + " must be 3 numbers (r g b)");
    for (double x : c)
      if (x < 0.0 || x > 1.0) fail(e, std::string(name) + " components are 0 to 1");
    return {float(c[0]), float(c[1]), float(c[2])};
  }

  void readLight(const XMLElement* e) {
    allow(e, {"name", "body", "pos", "dir", "half_angle", "range", "color", "signal"});
    LightDesc l;
    l.name = own(required(e, "name"));
    claim(e, "light", l.name);
    l.body = mountBody(e, "light '" + l.name + "'");
    l.position = vec3(e, "pos", Vec3::Zero());
    l.direction = vec3(e, "dir", Vec3::UnitX());
    if (!(l.direction.norm() > 1e-9)) fail(e, "light '" + l.name + "': dir is a zero vector");
    l.direction.normalize();
    l.halfAngle = number(e, "half_angle", l.halfAngle);
    if (!(l.halfAngle > 0.0 && l.halfAngle <= std::numbers::pi / 2))
      fail(e, "light '" + l.name + "': half_angle must be above 0 and at most 90 degrees");
    l.range = number(e, "range", l.range);
    if (!(l.range > 0.0)) fail(e, "light '" + l.name + "': range must be > 0 (m)");
    l.colour = colour(e, "color", l.colour);
    if (const auto signal = text(e, "signal")) l.signal = qualifiedSignal(prefix_, *signal);
    l.file = file_;
    l.line = e->GetLineNum();
    out_.lights.push_back(l);
  }

  void readFog(const XMLElement* e) {
    allow(e, {"start", "end", "color"});
    if (out_.fog) fail(e, "a scene has at most one <fog>");
    FogDesc f;
    f.start = number(e, "start", f.start);
    f.end = number(e, "end", f.end);
    if (!(f.start >= 0.0 && f.end > f.start)) fail(e, "fog needs 0 <= start < end (m)");
    f.colour = colour(e, "color", f.colour);
    out_.fog = f;
  }

  void readConsole(const XMLElement* e) {
    allow(e, {});
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      ControlDesc d;
      d.line = c->GetLineNum();
      const std::string kind = c->Name();
      if (kind == "joystick") {
        allow(c, {"name", "label", "x", "y", "spring_return", "invert_x", "keys", "joystick"});
        d.kind = ControlDesc::Kind::Joystick;
        d.channels = {own(required(c, "x")), own(required(c, "y"))};
        d.springReturn = flag(c, "spring_return", true);
        d.invertX = flag(c, "invert_x", false);
      } else if (kind == "toggle" || kind == "button" || kind == "slider") {
        allow(c, {"name", "label", "channel", "keys", "joystick", "min", "max"});
        d.kind = kind == "toggle"   ? ControlDesc::Kind::Toggle
                 : kind == "button" ? ControlDesc::Kind::Button
                                    : ControlDesc::Kind::Slider;
        d.channels = {own(required(c, "channel"))};
        d.minimum = number(c, "min", kind == "slider" ? -1.0 : 0.0);
        d.maximum = number(c, "max", 1.0);
        if (!(d.minimum < d.maximum)) fail(c, "min must be below max");
      } else if (kind == "lamp" || kind == "readout") {
        allow(c, {"name", "label", "signal"});
        d.kind = kind == "lamp" ? ControlDesc::Kind::Lamp : ControlDesc::Kind::Readout;
        d.signal = qualifiedSignal(prefix_, required(c, "signal"));
      } else {
        fail(c, "unknown console control <" + kind +
                    "> (joystick, toggle, button, slider, lamp, readout)");
      }
      d.name = own(required(c, "name"));
      claim(c, "control", d.name);
      d.label = text(c, "label").value_or(required(c, "name"));
      d.robot = prefix_;
      d.keys = text(c, "keys").value_or("");
      if (d.kind == ControlDesc::Kind::Joystick && !d.keys.empty() && d.keys != "arrows" &&
          d.keys.size() != 4)
        fail(c, "keys: 'arrows' or four keys for up, left, down, right (e.g. WASD), not '" +
                    d.keys + "'");
      d.joystickAxis = text(c, "joystick").value_or("");
      for (const std::string& ch : d.channels) {
        const auto [it, fresh] = state_.definedAt.try_emplace(
            "channel " + ch, file_ + ":" + std::to_string(c->GetLineNum()));
        if (!fresh)
          fail(c, "channel '" + ch + "' is fed by two controls (the other at " + it->second + ")");
      }
      out_.console.controls.push_back(d);
    }
  }

  void readInclude(const XMLElement* e) {
    allow(e, {"file", "pos", "quat", "prefix"});
    const std::string file = required(e, "file");
    const std::optional<std::string> prefix = text(e, "prefix");
    if (prefix && !validPrefix(*prefix))
      fail(e, "prefix '" + *prefix +
                  "': a letter, then letters, digits, '_' or '-' (e.g. prefix=\"red_\")");
    const std::filesystem::path path =
        file[0] == '/' ? std::filesystem::path(file) : std::filesystem::path(dir_) / file;
    const std::string canonical = std::filesystem::weakly_canonical(path).string();
    auto& stack = state_.includeStack;
    const auto seen = std::find(stack.begin(), stack.end(), canonical);
    if (seen != stack.end()) {
      std::string cycle;
      for (auto it = seen; it != stack.end(); ++it)
        cycle += std::filesystem::path(*it).filename().string() + " -> ";
      fail(e, "include cycle: " + cycle + path.filename().string());
    }
    std::string source, problem;
    if (!readTextFile(path.string(), source, problem))
      fail(e, "cannot include '" + file + "': " + problem);
    const Vec3 position = basePosition_ + baseOrientation_ * vec3(e, "pos", Vec3::Zero());
    const Quat orientation = (baseOrientation_ * quat(e, "quat")).normalized();
    stack.push_back(canonical);
    out_.sources.push_back({path.string(), source});
    Loader(out_, state_, path.string(), path.parent_path().string(), position, orientation,
           prefix_ + prefix.value_or(""))
        .load(source, true);
    stack.pop_back();
  }

  void readScheme(const XMLElement* e) {
    allow(e, {});
    for (const XMLElement* b = e->FirstChildElement(); b; b = b->NextSiblingElement()) {
      if (std::string(b->Name()) != "block")
        fail(b, std::string("unknown element <") + b->Name() + "> in <scheme> (block)");
      BlockDesc d;
      d.line = b->GetLineNum();
      d.type = required(b, "type");
      d.name = own(required(b, "name"));
      d.prefix = prefix_;
      for (const tinyxml2::XMLAttribute* a = b->FirstAttribute(); a; a = a->Next()) {
        const std::string key = a->Name();
        if (key == "type" || key == "name") continue;
        if (key == "inputs") {
          std::istringstream in(a->Value());
          std::string wire;
          while (in >> wire) {
            const size_t eq = wire.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == wire.size())
              fail(b, "inputs: '" + wire + "' is not PORT=SOURCE");
            d.inputs[wire.substr(0, eq)] = own(wire.substr(eq + 1));  // BLOCK[.PORT]
          }
        } else {
          d.params[key] = a->Value();
        }
      }
      out_.schemeDesc.blocks.push_back(d);
      state_.blockFiles.push_back(file_);
    }
  }

  LoadedScene& out_;
  LoadState& state_;
  std::string dir_;
  Vec3 basePosition_;
  Quat baseOrientation_;
  std::string prefix_;  ///< of the includes that brought this file in, outermost first
};

/// Compiles the scheme of all files once every console channel is known.
void compileScheme(LoadedScene& out, const LoadState& state) {
  if (out.schemeDesc.blocks.empty()) return;
  try {
    out.scheme.emplace(Scheme::compile(out.schemeDesc, *out.world, out.console.channels()));
  } catch (const SchemeError& x) {
    // Name the block's own file and line when the message carries it.
    std::string file = state.blockFiles.front();
    int line = out.schemeDesc.blocks.front().line;
    for (size_t i = 0; i < out.schemeDesc.blocks.size(); ++i)
      if (std::string(x.what()).rfind("block '" + out.schemeDesc.blocks[i].name + "' ", 0) == 0) {
        file = state.blockFiles[i];
        line = out.schemeDesc.blocks[i].line;
      }
    throw SceneError(file, line, x.what());
  }
}

/// Every light's switching signal exists in the built world and scheme.
void checkLights(LoadedScene& scene) {
  for (const LightDesc& l : scene.lights) {
    if (l.signal.empty()) continue;
    try {
      resolveIndicatorSignal(*scene.world, scene.scheme ? &*scene.scheme : nullptr, l.signal);
    } catch (const std::invalid_argument& x) {
      throw SceneError(l.file, l.line, "light '" + l.name + "': signal: " + x.what());
    }
  }
}

/// The exercise's bodies and probes exist in the built world and scheme.
void checkExercise(LoadedScene& scene) {
  if (!scene.exercise) return;
  try {
    ExerciseEvaluator check(*scene.exercise, *scene.world, scene.scheme ? &*scene.scheme : nullptr);
  } catch (const std::invalid_argument& x) {
    const std::string what = x.what();
    int line = 1;
    for (const ExerciseObjective& o : scene.exercise->objectives)
      if (what.rfind("objective '" + o.name + "'", 0) == 0) line = o.line;
    for (const ExerciseLimit& l : scene.exercise->limits)
      if (what.rfind("limit '" + l.name + "'", 0) == 0) line = l.line;
    for (const ExerciseHint& h : scene.exercise->hints)
      if (what.rfind("hint '" + h.name + "'", 0) == 0) line = h.line;
    throw SceneError(scene.file, line, what);
  }
}

}  // namespace

LoadedScene loadSceneText(const std::string& text, const std::string& name, const std::string& dir,
                          const SceneLoadOptions& options) {
  LoadedScene scene;
  scene.file = name;
  LoadState state;
  state.options = options;
  state.includeStack.push_back(
      std::filesystem::weakly_canonical(std::filesystem::path(dir) /
                                        std::filesystem::path(name).filename())
          .string());
  Loader(scene, state, name, dir).load(text, false);
  compileScheme(scene, state);
  checkLights(scene);
  checkExercise(scene);
  return scene;
}

LoadedScene loadScene(const std::string& path, const SceneLoadOptions& options) {
  std::string text, problem;
  if (!readTextFile(path, text, problem)) throw SceneError(path, 0, problem);
  const size_t slash = path.find_last_of('/');
  LoadedScene scene =
      loadSceneText(text, path, slash == std::string::npos ? "." : path.substr(0, slash), options);
  scene.sources.insert(scene.sources.begin(), {path, std::move(text)});
  return scene;
}

}  // namespace impetus
