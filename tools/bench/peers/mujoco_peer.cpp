// MuJoCo 2.2.2 in the side-by-side benchmark: the scene as MJCF (generalized coordinates: a
// kinematic tree, free joints for unjointed bodies), Newton solver, 10 iterations, Euler.
#include <mujoco/mujoco.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "peer_factories.h"

namespace peers {
namespace {

/// MuJoCo reports instability (and resets the state) through a warning callback: count them
/// instead of printing them into the table.
int& warnings() {
  static int count = 0;
  return count;
}
void countWarning(const char*) {
  ++warnings();
}

std::string vec(const Vec3& v) {
  std::ostringstream s;
  s.precision(17);
  s << v.x() << ' ' << v.y() << ' ' << v.z();
  return s.str();
}

class MujocoPeer final : public PeerEngine {
 public:
  ~MujocoPeer() override { release(); }
  std::string label() const override { return "MuJoCo 2.2.2 Newton"; }
  bool supports(const BenchScene& scene, std::string& why) const override {
    // MJCF nests a chain's bodies; MuJoCo's XML parser (TinyXML2) stops at depth 100.
    if (treeDepth(scene) > 95) {
      why = "MJCF cannot nest " + std::to_string(treeDepth(scene)) +
            " bodies (XML parser depth limit 100)";
      return false;
    }
    return true;
  }
  std::string settings() const override {
    return "solver Newton, iterations 10, integrator Euler, cone pyramidal, condim 3, "
           "default solref/solimp";
  }
  void build(const BenchScene& scene) override {
    release();
    mju_user_warning = &countWarning;
    warnings() = 0;
    const std::string xml = mjcf(scene);
    auto vfs = std::make_unique<mjVFS>();
    mj_defaultVFS(vfs.get());
    if (mj_makeEmptyFileVFS(vfs.get(), "scene.xml", static_cast<int>(xml.size())) != 0)
      throw std::runtime_error("MuJoCo: VFS full");
    const int f = mj_findFileVFS(vfs.get(), "scene.xml");
    std::copy(xml.begin(), xml.end(), static_cast<char*>(vfs->filedata[f]));
    char error[1000] = "";
    model_ = mj_loadXML("scene.xml", vfs.get(), error, sizeof error);
    mj_deleteVFS(vfs.get());
    if (!model_) throw std::runtime_error(std::string("MuJoCo: ") + error);
    data_ = mj_makeData(model_);
    ids_.clear();
    for (const BenchBody& b : scene.bodies)
      ids_.push_back(mj_name2id(model_, mjOBJ_BODY, b.name.c_str()));
  }
  void step() override { mj_step(model_, data_); }
  bool warned() const override { return warnings() > 0; }
  void read(std::vector<BodyState>& states) override {
    // After mj_step the derived quantities are those of the step's start: recompute poses and
    // velocities from the new qpos/qvel (no solver; the trajectory is unchanged).
    mj_kinematics(model_, data_);
    mj_comPos(model_, data_);
    mj_comVel(model_, data_);
    states.resize(ids_.size());
    for (size_t i = 0; i < ids_.size(); ++i) {
      const int id = ids_[i];
      BodyState& s = states[i];
      s.position = Vec3(data_->xpos[3 * id], data_->xpos[3 * id + 1], data_->xpos[3 * id + 2]);
      const mjtNum* q = data_->xquat + 4 * id;
      s.orientation = Eigen::Quaterniond(q[0], q[1], q[2], q[3]);
      mjtNum v[6];
      mj_objectVelocity(model_, data_, mjOBJ_BODY, id, v, 0);
      s.angularVelocity = Vec3(v[0], v[1], v[2]);
      s.linearVelocity = Vec3(v[3], v[4], v[5]);
    }
  }

 private:
  void release() {
    if (data_) mj_deleteData(data_);
    if (model_) mj_deleteModel(model_);
    data_ = nullptr;
    model_ = nullptr;
  }

  static int treeDepth(const BenchScene& scene) {
    int deepest = 0;
    for (size_t i = 0; i < scene.bodies.size(); ++i) {
      int depth = 1;
      for (int body = static_cast<int>(i);;) {
        int parent = -1;
        for (const BenchJoint& j : scene.joints)
          if (j.child == body) parent = j.parent;
        if (parent < 0) break;
        body = parent;
        ++depth;
      }
      deepest = std::max(deepest, depth);
    }
    return deepest;
  }

  static std::string mjcf(const BenchScene& scene) {
    std::ostringstream x;
    x.precision(17);
    x << "<mujoco model=\"" << scene.name << "\">\n"
      << "<compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
      << "<option timestep=\"" << scene.dt << "\" iterations=\"10\" solver=\"Newton\" "
      << "integrator=\"Euler\" gravity=\"0 0 " << scene.gravity << "\"/>\n"
      << "<size njmax=\"4000\" nconmax=\"1000\"/>\n<worldbody>\n";
    if (scene.ground)
      x << "<geom type=\"plane\" size=\"0 0 1\" friction=\"" << scene.friction << " 0 0\"/>\n";
    std::vector<int> parentJoint(scene.bodies.size(), -1);
    for (size_t k = 0; k < scene.joints.size(); ++k)
      parentJoint[scene.joints[k].child] = static_cast<int>(k);
    // Depth-first: children of body p (p = -1: the world) nest inside it.
    const auto emit = [&](auto&& self, int parent) -> void {
      for (size_t i = 0; i < scene.bodies.size(); ++i) {
        const int k = parentJoint[i];
        const int p = k >= 0 ? scene.joints[k].parent : -1;
        if (p != parent) continue;
        const BenchBody& b = scene.bodies[i];
        const Vec3 origin = parent >= 0 ? scene.bodies[parent].position : Vec3::Zero();
        x << "<body name=\"" << b.name << "\" pos=\"" << vec(b.position - origin) << "\">\n";
        if (k < 0) {
          x << "<freejoint/>\n";
        } else {
          const BenchJoint& j = scene.joints[k];
          x << "<joint name=\"" << j.name << "\" type=\""
            << (j.kind == JointKind::Ball ? "ball" : "hinge") << "\" pos=\""
            << vec(j.anchor - b.position) << "\" axis=\"" << vec(j.axis) << "\"";
          if (j.limited) x << " limited=\"true\" range=\"" << j.lower << ' ' << j.upper << "\"";
          x << "/>\n";
        }
        x << "<inertial pos=\"0 0 0\" mass=\"" << b.mass << "\" diaginertia=\"" << vec(b.inertia)
          << "\"/>\n";
        if (scene.collisions) {
          x << "<geom friction=\"" << scene.friction << " 0 0\" ";
          switch (b.shape) {
            case ShapeKind::Box:
              x << "type=\"box\" size=\"" << vec(b.boxSize / 2) << "\"";
              break;
            case ShapeKind::Sphere:
              x << "type=\"sphere\" size=\"" << b.radius << "\"";
              break;
            case ShapeKind::Capsule:
              x << "type=\"capsule\" size=\"" << b.radius << ' ' << b.length / 2 << "\" zaxis=\""
                << vec(Vec3::Unit(b.capsuleAxis)) << "\"";
              break;
          }
          x << "/>\n";
        }
        self(self, static_cast<int>(i));
        x << "</body>\n";
      }
    };
    emit(emit, -1);
    x << "</worldbody>\n</mujoco>\n";
    return x.str();
  }

  mjModel* model_ = nullptr;
  mjData* data_ = nullptr;
  std::vector<int> ids_;
};

}  // namespace

std::unique_ptr<PeerEngine> makeMujocoPeer() {
  return std::make_unique<MujocoPeer>();
}

}  // namespace peers
