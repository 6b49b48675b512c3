// Google Benchmark: cost of one 10 ms World::step on the engine's reference scenes.
// Run: cmake --preset bench && cmake --build --preset bench && build/bench/tools/bench/engine_bench
#include <benchmark/benchmark.h>

#include "impetus/scenes/closed_loop.h"
#include "impetus/scenes/hinge_chain.h"

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
  state.counters["steps/s"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
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
void Ring50(benchmark::State& state) {
  stepScene(state, [](World& w) { scenes::buildHingeRing(w, 50); });
}

BENCHMARK(Chain30)->Unit(benchmark::kMicrosecond);
BENCHMARK(Chain30Motorized)->Unit(benchmark::kMicrosecond);
BENCHMARK(Chain100)->Unit(benchmark::kMicrosecond);
BENCHMARK(Ring50)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
