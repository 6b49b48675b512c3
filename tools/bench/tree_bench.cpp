// Generalized-coordinate dynamics of a humanoid-sized tree (issue: kinematic trees): a floating
// pelvis (6 fictitious DOF) with two 6-DOF legs and two 6-DOF arms on a torso = 30 DOF.
#include <benchmark/benchmark.h>

#include <random>

#include "impetus/tree/tree_dynamics.h"

namespace {

using namespace impetus;
using namespace impetus::tree;

KinematicTree humanoid() {
  KinematicTree t;
  const int pelvis = addFloatingBase(t, "pelvis", -1, 10.0, Vec3(0.1, 0.08, 0.1).asDiagonal());
  const Vec3 axes[6] = {Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY(),
                        Vec3::UnitY(), Vec3::UnitY(), Vec3::UnitX()};
  const auto limb = [&](int root, const std::string& name, const Vec3& at, double segment) {
    int parent = root;
    for (int k = 0; k < 6; ++k) {
      TreeLink l;
      l.name = name + std::to_string(k);
      l.parent = parent;
      l.axis = axes[k];
      l.placementOffset = k == 0 ? at : (k == 3 || k == 4 ? Vec3(0, 0, -segment) : Vec3::Zero());
      l.mass = k == 2 || k == 3 ? 4.0 : 0.5;  // thigh/shin (upper/fore arm) carry the mass
      l.centreOfMass = Vec3(0, 0, -segment / 2);
      l.inertia = Vec3(0.05, 0.05, 0.01).asDiagonal();
      parent = t.addLink(l);
    }
  };
  limb(pelvis, "left_leg", Vec3(0, 0.1, -0.1), 0.42);
  limb(pelvis, "right_leg", Vec3(0, -0.1, -0.1), 0.42);
  limb(pelvis, "left_arm", Vec3(0, 0.2, 0.45), 0.3);
  limb(pelvis, "right_arm", Vec3(0, -0.2, 0.45), 0.3);
  return t;
}

struct HumanoidState {
  KinematicTree tree = humanoid();
  TreeDynamics dynamics{tree};
  VectorX q, qd, qdd, tau;
  MatrixX inertia;
  HumanoidState() {
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const int n = tree.size();
    q = VectorX::NullaryExpr(n, [&] { return u(rng); });
    qd = VectorX::NullaryExpr(n, [&] { return u(rng); });
    qdd = VectorX::NullaryExpr(n, [&] { return u(rng); });
    dynamics.setState(q, qd);
    dynamics.inverseDynamics(qdd, Vec3(0, 0, -9.81), tau);
  }
};

void TreeRnea30(benchmark::State& state) {
  HumanoidState h;
  for (auto _ : state) {
    h.dynamics.inverseDynamics(h.qdd, Vec3(0, 0, -9.81), h.tau);
    benchmark::DoNotOptimize(h.tau.data());
  }
  state.counters["dof"] = h.tree.size();
}

void TreeInertiaMatrixCrba30(benchmark::State& state) {
  HumanoidState h;
  for (auto _ : state) {
    h.dynamics.inertiaMatrix(h.inertia);
    benchmark::DoNotOptimize(h.inertia.data());
  }
}

void TreeInertiaMatrixUnitAccelerations30(benchmark::State& state) {
  HumanoidState h;
  for (auto _ : state) {
    h.dynamics.inertiaMatrixFromUnitAccelerations(h.inertia);
    benchmark::DoNotOptimize(h.inertia.data());
  }
}

void TreeForwardDynamics30(benchmark::State& state) {
  HumanoidState h;
  for (auto _ : state) {
    h.dynamics.setState(h.q, h.qd);
    h.dynamics.forwardDynamics(h.tau, Vec3(0, 0, -9.81), h.qdd);
    benchmark::DoNotOptimize(h.qdd.data());
  }
}

}  // namespace

BENCHMARK(TreeRnea30)->Unit(benchmark::kMicrosecond);
BENCHMARK(TreeInertiaMatrixCrba30)->Unit(benchmark::kMicrosecond);
BENCHMARK(TreeInertiaMatrixUnitAccelerations30)->Unit(benchmark::kMicrosecond);
BENCHMARK(TreeForwardDynamics30)->Unit(benchmark::kMicrosecond);
