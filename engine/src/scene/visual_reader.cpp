#include "visual_reader.h"

#include <fstream>

#include "obj_mesh.h"
#include "read_text_file.h"

namespace impetus {
namespace {

std::string resolved(const std::string& file, const std::string& dir) {
  return file.empty() || file[0] == '/' ? file : dir + "/" + file;
}

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// The first bytes of an image the renderer's plugins read (PNG, JPEG, BMP, TGA by name).
bool readableImage(const std::string& path, std::string& problem) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    problem = "cannot open '" + path + "'";
    return false;
  }
  char head[8] = {};
  in.read(head, sizeof head);
  static const char kPng[8] = {'\x89', 'P', 'N', 'G', '\r', '\n', '\x1a', '\n'};
  if (endsWith(path, ".png") && !std::equal(head, head + 8, kPng)) {
    problem = "'" + path + "' is not a PNG image";
    return false;
  }
  if (in.gcount() < 8) {
    problem = "'" + path + "' is too short for an image";
    return false;
  }
  return true;
}

}  // namespace

std::optional<VisualDesc> readVisual(
    const XmlReader& r, const tinyxml2::XMLElement* e, BodyId body,
    std::span<const ShapeDesc> bodyGeoms, const World& world, const std::string& dir,
    const std::string& prefix, const std::function<std::string(const std::string&)>& relocate) {
  // A file not where the scene names it may be where `relocate` says (a session's scene).
  const auto locate = [&](const std::string& path) {
    if (!relocate || std::ifstream(path)) return path;
    const std::string elsewhere = relocate(path);
    return std::ifstream(elsewhere) ? elsewhere : path;
  };
  const auto missing = [&](const std::string& path) { return relocate && !std::ifstream(path); };
  r.allow(e, {"mesh", "type", "size", "radius", "length", "pos", "quat", "scale", "color",
              "texture", "track_motor", "roll_radius", "tread_pitch", "texture_repeat"});
  VisualDesc v;
  v.body = body;
  v.position = r.vec3(e, "pos", Vec3::Zero());
  v.orientation = r.quat(e, "quat");
  const auto mesh = r.text(e, "mesh");
  const auto type = r.text(e, "type");
  if (mesh && type) r.fail(e, "a <visual> is a mesh or a primitive type, not both");
  if (mesh) {
    v.kind = VisualDesc::Kind::Mesh;
    v.mesh = locate(resolved(*mesh, dir));
    if (missing(v.mesh)) return std::nullopt;
    std::string content, problem;
    if (!readTextFile(v.mesh, content, problem))
      r.fail(e, "visual mesh '" + *mesh + "': " + problem);
    std::vector<Vec3> vertices;
    std::vector<int> triangles;
    if (endsWith(v.mesh, ".obj") && !readObjMesh(content, vertices, triangles, problem))
      r.fail(e, "visual mesh '" + *mesh + "': " + problem);
  } else if (!type) {
    r.fail(e, "a <visual> needs a mesh file or a type (box, sphere, cylinder, capsule)");
  } else if (*type == "box") {
    v.kind = VisualDesc::Kind::Box;
    v.size = r.vec3(e, "size", Vec3::Zero());
    if (!(v.size.minCoeff() > 0)) r.fail(e, "box size must be 3 positive numbers");
  } else if (*type == "sphere" || *type == "cylinder" || *type == "capsule") {
    v.kind = *type == "sphere"     ? VisualDesc::Kind::Sphere
             : *type == "cylinder" ? VisualDesc::Kind::Cylinder
                                   : VisualDesc::Kind::Capsule;
    v.radius = r.number(e, "radius");
    if (!(v.radius > 0)) r.fail(e, "radius must be positive");
    if (v.kind != VisualDesc::Kind::Sphere) {
      v.length = r.number(e, "length");
      if (!(v.length > 0)) r.fail(e, "length must be positive");
    }
  } else {
    r.fail(e, "unknown visual type '" + *type + "' (box, sphere, cylinder, capsule; or mesh=)");
  }
  if (e->Attribute("scale")) {
    const std::vector<double> s = r.numbers(e, "scale");
    if (s.size() == 1)
      v.scale = Vec3::Constant(s[0]);
    else if (s.size() == 3)
      v.scale = Vec3(s[0], s[1], s[2]);
    else
      r.fail(e, "scale must be 1 or 3 numbers");
    if (!(v.scale.minCoeff() > 0)) r.fail(e, "scale must be positive");
  }
  if (e->Attribute("color")) {
    const std::vector<double> c = r.numbers(e, "color");
    if (c.size() != 3 && c.size() != 4) r.fail(e, "color must be 3 or 4 numbers (r g b [a])");
    for (double x : c)
      if (x < 0.0 || x > 1.0) r.fail(e, "color components are 0 to 1");
    v.colour = std::array<float, 4>{float(c[0]), float(c[1]), float(c[2]),
                                    c.size() == 4 ? float(c[3]) : 1.0f};
  }
  if (const auto texture = r.text(e, "texture")) {
    v.texture = locate(resolved(*texture, dir));
    if (missing(v.texture)) return std::nullopt;
    std::string problem;
    if (!readableImage(v.texture, problem))
      r.fail(e, "visual texture '" + *texture + "': " + problem);
  }
  if (e->Attribute("texture_repeat")) {
    const std::vector<double> repeat = r.numbers(e, "texture_repeat");
    if (repeat.size() != 2 || !(repeat[0] > 0) || !(repeat[1] > 0))
      r.fail(e, "texture_repeat must be 2 positive numbers (u v)");
    if (e->Attribute("tread_pitch")) r.fail(e, "a belt's texture repeats once (tread_pitch)");
    v.textureRepeatU = repeat[0];
    v.textureRepeatV = repeat[1];
  }
  if (const auto motor = r.text(e, "track_motor")) {
    for (const ShapeDesc& g : bodyGeoms)
      if (g.trackMotor >= 0 && world.motor(g.trackMotor).name() == prefix + *motor) {
        v.trackMotor = g.trackMotor;
        v.beltPerRotorRadian = g.sprocketRadius / world.motor(g.trackMotor).params().gearRatio;
      }
    if (v.trackMotor < 0)
      r.fail(e, "track_motor '" + *motor + "' drives no track <geom> of this body");
    if (e->Attribute("roll_radius")) {
      v.rollRadius = r.number(e, "roll_radius");
      if (!(v.rollRadius > 0)) r.fail(e, "roll_radius must be positive");
    }
    if (e->Attribute("tread_pitch")) {
      v.treadPitch = r.number(e, "tread_pitch");
      if (!(v.treadPitch > 0)) r.fail(e, "tread_pitch must be positive");
    }
    if ((v.rollRadius > 0) == (v.treadPitch > 0))
      r.fail(e, "a track's visual is a wheel (roll_radius) or the belt (tread_pitch)");
  } else if (e->Attribute("roll_radius") || e->Attribute("tread_pitch")) {
    r.fail(e, "roll_radius and tread_pitch need the track_motor they follow");
  }
  return v;
}

}  // namespace impetus
