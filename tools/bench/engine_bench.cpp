// Google Benchmark: cost of one 10 ms World::step on the engine's reference scenes.
// Run: cmake --preset bench && cmake --build --preset bench && build/bench/tools/bench/engine_bench
#include <benchmark/benchmark.h>

#include "impetus/scenes/closed_loop.h"
#include "impetus/scenes/hinge_chain.h"
#include "impetus/scenes/tracked_vehicle.h"
#include "impetus/scheme/scheme.h"

namespace {

using namespace impetus;

/// Steps a freshly built world through `warmup` steps, then times steps until the benchmark is
/// satisfied, rebuilding the world every 1000 steps (10 s of motion, the bench scenes' span).
template <class Build>
void stepScene(benchmark::State& state, Build build) {
  auto world = std::make_unique<World>();
  build(*world);
  int steps = 0;
  for (auto _ : state) {
    if (steps == 1000) {
      state.PauseTiming();
      world = std::make_unique<World>();
      build(*world);
      steps = 0;
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(world->step(0.01));
    ++steps;
  }
  state.counters["steps/s"] =
      benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["rows"] = world->statistics().rows;
}

void Chain30(benchmark::State& state) {
  stepScene(state, [](World& w) { scenes::buildHingeChain(w); });
}
void Chain100(benchmark::State& state) {
  stepScene(state, [](World& w) {
    scenes::HingeChainOptions o;
    o.links = 100;
    scenes::buildHingeChain(w, o);
  });
}
/// chain30 with a gearmotor (WG-7152 class) on every hinge at u = 0.3: the cost of motor rows.
void Chain30Motorized(benchmark::State& state) {
  stepScene(state, [](World& w) {
    const scenes::HingeChain chain = scenes::buildHingeChain(w);
    DcMotorParams p;
    p.stallTorque = 0.2;
    p.noLoadSpeed = 5.131;
    p.timeConstant = 0.5;
    p.gearRatio = 50;
    for (size_t i = 0; i < chain.hinges.size(); ++i)
      w.addMotor("m" + std::to_string(i), *chain.hinges[i], p).setVoltage(0.3);
  });
}
void addGround(World& w, double friction) {
  w.materials()[0].friction = friction;
  ShapeDesc ground;
  ground.type = ShapeType::Plane;
  w.addShape(World::kGround, ground);
}
void addCube(World& w, const Vec3& position) {
  RigidBodyDesc d;
  d.name = "box" + std::to_string(w.bodyCount());
  d.mass = 10.0;
  d.inertia = scenes::boxInertia(10.0, Vec3::Constant(0.5));
  d.position = position;
  const BodyId id = w.addBody(d);
  ShapeDesc s;
  s.type = ShapeType::Box;
  s.size = Vec3::Constant(0.5);
  w.addShape(id, s);
}
/// BENCH-SCENES stack10: 10 cubes 0.5 m, 10 kg, friction 0.8. Awake: the solver holding a
/// resting stack is what is timed (asleep it costs next to nothing; the peer table shows both).
void Stack10(benchmark::State& state) {
  stepScene(state, [](World& w) {
    w.settings().sleep.enabled = false;
    addGround(w, 0.8);
    for (int i = 0; i < 10; ++i) addCube(w, Vec3(0, 0, 0.25 + 0.5 * i));
  });
}
/// A 20-box pyramid (6 + 5 + 4 + 3 + 2), 1 cm gaps; awake, as stack10.
void Pyramid20(benchmark::State& state) {
  stepScene(state, [](World& w) {
    w.settings().sleep.enabled = false;
    addGround(w, 0.8);
    for (int row = 0, base = 6; row < 5; ++row, --base)
      for (int j = 0; j < base; ++j)
        addCube(w, Vec3((j - (base - 1) / 2.0) * 0.51, 0, 0.25 + 0.5 * row));
  });
}
/// The tracked test vehicle driving a curve.
void TrackedVehicle(benchmark::State& state) {
  stepScene(state, [](World& w) {
    addGround(w, 0.8);
    const scenes::TrackedVehicle v = scenes::buildTrackedVehicle(w);
    v.left->setVoltage(1.0);
    v.right->setVoltage(0.6);
  });
}
void Ring50(benchmark::State& state) {
  stepScene(state, [](World& w) { scenes::buildHingeRing(w, 50); });
}

/// A 5 cm, 0.1 kg ball bouncing (e = 1) between two 1 cm walls 2 m apart at `speed` m/s, no
/// gravity, the walls boxes or closed meshes: at 30 m/s (30 cm a step) continuous collision
/// sweeps it every step; at 1 m/s the speculative contacts alone catch it. The difference is
/// what one fast body costs.
void BallBetweenWalls(benchmark::State& state, double speed, bool meshWalls) {
  stepScene(state, [&](World& w) {
    w.settings().gravity = Vec3::Zero();
    const int bouncy = w.materials().add({"bouncy", 0.3, 1.0, 0.0, 0.0});
    for (const double x : {-1.0, 1.0}) {
      RigidBodyDesc d;
      d.name = "wall" + std::to_string(w.bodyCount());
      d.type = BodyType::Static;
      d.position = Vec3(x, 0, 0);
      const BodyId wall = w.addBody(d);
      ShapeDesc s;
      s.material = bouncy;
      if (meshWalls) {
        s.type = ShapeType::Mesh;
        for (int i = 0; i < 8; ++i)
          s.vertices.emplace_back(i & 1 ? 0.005 : -0.005, i & 2 ? 1.0 : -1.0, i & 4 ? 1.0 : -1.0);
        s.triangles = {0, 6, 2, 0, 4, 6, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4,
                       2, 7, 3, 2, 6, 7, 0, 3, 1, 0, 2, 3, 4, 5, 7, 4, 7, 6};
      } else {
        s.type = ShapeType::Box;
        s.size = Vec3(0.01, 2.0, 2.0);
      }
      w.addShape(wall, s);
    }
    RigidBodyDesc d;
    d.name = "ball";
    d.mass = 0.1;
    d.inertia = Mat3::Identity() * 0.4 * 0.1 * 0.025 * 0.025;
    d.linearVelocity = Vec3(speed, 0, 0);
    const BodyId ball = w.addBody(d);
    ShapeDesc s;
    s.type = ShapeType::Sphere;
    s.radius = 0.025;
    s.material = bouncy;
    w.addShape(ball, s);
  });
}
void FastBallBoxWalls(benchmark::State& state) {
  BallBetweenWalls(state, 30.0, false);
}
void SlowBallBoxWalls(benchmark::State& state) {
  BallBetweenWalls(state, 1.0, false);
}
void FastBallMeshWalls(benchmark::State& state) {
  BallBetweenWalls(state, 30.0, true);
}
void SlowBallMeshWalls(benchmark::State& state) {
  BallBetweenWalls(state, 1.0, true);
}

/// One evaluation of a 200-block functional scheme (a mix of the common blocks, PIDs included).
void Scheme200(benchmark::State& state) {
  World world;
  SchemeDesc desc;
  const auto add = [&](std::string type, std::map<std::string, std::string> params,
                       std::map<std::string, std::string> inputs) {
    BlockDesc b;
    b.type = std::move(type);
    b.name = "b" + std::to_string(desc.blocks.size());
    b.params = std::move(params);
    b.inputs = std::move(inputs);
    desc.blocks.push_back(std::move(b));
    return desc.blocks.back().name;
  };
  std::string previous = add("input", {{"channel", "stick"}}, {});
  const std::string stick = previous;
  while (desc.blocks.size() < 200) {
    switch (desc.blocks.size() % 6) {
      case 0:
        previous = add("gain", {{"k", "0.9"}}, {{"in", previous}});
        break;
      case 1:
        previous = add("lag", {{"time_constant", "0.1"}}, {{"in", previous}});
        break;
      case 2:
        previous = add("pid", {{"kp", "1"}, {"ki", "0.1"}, {"kd", "0.01"}, {"filter", "0.02"}},
                       {{"setpoint", previous}, {"measurement", stick}});
        break;
      case 3:
        previous = add("saturation", {}, {{"in", previous}});
        break;
      case 4:
        previous = add("sum", {{"signs", "+-"}}, {{"in1", previous}, {"in2", stick}});
        break;
      default:
        previous = add("rate_limiter", {{"rate", "5"}}, {{"in", previous}});
        break;
    }
  }
  Scheme scheme = Scheme::compile(desc, world, {"stick"});
  std::vector<double> channels{0.5};
  int i = 0;
  for (auto _ : state) {
    channels[0] = (++i % 100) * 0.01;
    scheme.step(channels, 0.01);
    benchmark::DoNotOptimize(scheme.signalAt(0));
  }
  state.counters["blocks"] = scheme.blockCount();
}

BENCHMARK(Scheme200)->Unit(benchmark::kMicrosecond);
BENCHMARK(Chain30)->Unit(benchmark::kMicrosecond);
BENCHMARK(Chain30Motorized)->Unit(benchmark::kMicrosecond);
BENCHMARK(Chain100)->Unit(benchmark::kMicrosecond);
BENCHMARK(Stack10)->Unit(benchmark::kMicrosecond);
BENCHMARK(Pyramid20)->Unit(benchmark::kMicrosecond);
BENCHMARK(TrackedVehicle)->Unit(benchmark::kMicrosecond);
BENCHMARK(Ring50)->Unit(benchmark::kMicrosecond);
BENCHMARK(FastBallBoxWalls)->Unit(benchmark::kMicrosecond);
BENCHMARK(SlowBallBoxWalls)->Unit(benchmark::kMicrosecond);
BENCHMARK(FastBallMeshWalls)->Unit(benchmark::kMicrosecond);
BENCHMARK(SlowBallMeshWalls)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
