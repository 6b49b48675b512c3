#include "simulation_thread.h"

#include "balance_marks.h"
#include "hand_marks.h"
#include "impetus/dynamics/body_islands.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "impetus/session/session_file.h"

namespace impetus::app {
namespace {

/// The thread catches up at most this much sim time at once; beyond it the wall clock wins
/// (the steps are dropped and counted late) instead of a burst that would freeze the picture.
constexpr double kMaxCatchUpSeconds = 0.25;
/// Plot samples kept for the GUI if it does not collect them (s).
constexpr double kSampleHistorySeconds = 60.0;

}  // namespace

SimulationThread::SimulationThread() = default;

SimulationThread::~SimulationThread() {
  stop();
}

void SimulationThread::start(std::unique_ptr<Simulation> sim, bool paused) {
  stop();
  sim_ = std::move(sim);
  if (!sim_) return;
  {
    std::lock_guard lock(commandMutex_);
    input_.assign(sim_->channels().begin(), sim_->channels().end());
    paused_ = paused;
    stepRequests_ = 0;
    reanchorRequested_ = true;
  }
  failure_.clear();
  recordingError_.clear();
  lateSteps_ = 0;
  plotProbes_.clear();
  {
    std::lock_guard lock(samplesMutex_);
    samples_.clear();
  }
  const int stepsPerFrame =
      std::max(1, static_cast<int>(std::lround(sim_->scene().frame / sim_->stepSize())));
  frameStepSeconds_.assign(static_cast<size_t>(stepsPerFrame), 0.0);
  frameStepCursor_ = 0;
  resolveIndicators();
  exercise_.reset();
  if (const LoadedScene& scene = sim_->scene(); scene.exercise)
    exercise_ = std::make_unique<ExerciseEvaluator>(*scene.exercise, sim_->world(),
                                                    scene.scheme ? &*scene.scheme : nullptr);
  {
    std::lock_guard lock(stepMutex_);
    publish();
  }
  quit_ = false;
  hasSimulation_ = true;
  thread_ = std::thread([this] { run(); });
}

std::unique_ptr<Simulation> SimulationThread::stop() {
  if (thread_.joinable()) {
    {
      std::lock_guard lock(commandMutex_);
      quit_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  finishRecording("complete");
  hasSimulation_ = false;
  exercise_.reset();
  indicators_.clear();
  lightSwitches_.clear();
  plotProbes_.clear();
  return std::move(sim_);
}

void SimulationThread::resolveIndicators() {
  indicators_.clear();
  LoadedScene& scene = sim_->scene();
  for (const ControlDesc& c : scene.console.controls) {
    std::function<double()> read;
    if (c.kind == ControlDesc::Kind::Lamp || c.kind == ControlDesc::Kind::Readout) {
      try {
        read = resolveIndicatorSignal(sim_->world(), scene.scheme ? &*scene.scheme : nullptr,
                                      c.signal);
      } catch (const std::invalid_argument&) {
        read = [] { return std::numeric_limits<double>::quiet_NaN(); };
      }
    }
    indicators_.push_back(std::move(read));
  }
  // A light's signal was checked when the scene loaded (checkLights); none: always on.
  lightSwitches_.clear();
  for (const LightDesc& l : scene.lights)
    lightSwitches_.push_back(
        l.signal.empty() ? Probe([] { return 1.0; })
                         : resolveIndicatorSignal(
                               sim_->world(), scene.scheme ? &*scene.scheme : nullptr, l.signal));
}

void SimulationThread::fillExercise(ExerciseStatus& out) const {
  if (!exercise_) return;
  const ExerciseDesc& d = exercise_->desc();
  out.present = true;
  out.title = d.title;
  out.timeLimit = d.timeLimit;
  out.passMark = d.passMark;
  for (size_t i = 0; i < d.objectives.size(); ++i)
    out.objectives.push_back({d.objectives[i].text, d.objectives[i].weight, exercise_->doneAt(i)});
  for (size_t i = 0; i < d.limits.size(); ++i)
    out.limits.push_back(
        {d.limits[i].text, exercise_->violated(i), exercise_->warned(i), exercise_->violations(i)});
  out.score = exercise_->score();
  out.penalties = exercise_->penalties();
  out.finished = exercise_->finished();
  out.passed = exercise_->passed();
  out.events = exercise_->events();
}

void SimulationThread::setInput(std::span<const double> channels) {
  std::lock_guard lock(commandMutex_);
  const size_t n = std::min(channels.size(), input_.size());
  std::copy_n(channels.begin(), n, input_.begin());
}

void SimulationThread::setPaused(bool paused) {
  {
    std::lock_guard lock(commandMutex_);
    if (paused_ && !paused) reanchorRequested_ = true;
    paused_ = paused;
  }
  {
    std::lock_guard lock(snapshotMutex_);  // a paused thread publishes nothing else
    snapshot_.paused = paused;
  }
  wake_.notify_all();
}

void SimulationThread::requestStep() {
  {
    std::lock_guard lock(commandMutex_);
    ++stepRequests_;
  }
  wake_.notify_all();
}

void SimulationThread::setSpeed(double factor) {
  {
    std::lock_guard lock(commandMutex_);
    speed_ = std::clamp(factor, kMinSpeed, kMaxSpeed);
    reanchorRequested_ = true;
  }
  {
    std::lock_guard lock(snapshotMutex_);
    snapshot_.speed = std::clamp(factor, kMinSpeed, kMaxSpeed);
  }
  wake_.notify_all();
}

Snapshot SimulationThread::snapshot() const {
  std::lock_guard lock(snapshotMutex_);
  return snapshot_;
}

void SimulationThread::setPlotProbes(const std::vector<std::string>& names) {
  if (!sim_) return;
  std::lock_guard lock(stepMutex_);
  std::vector<Probe> probes;
  const Scheme* scheme = sim_->scene().scheme ? &*sim_->scene().scheme : nullptr;
  for (const std::string& name : names) probes.push_back(resolveProbe(sim_->world(), scheme, name));
  plotProbes_ = std::move(probes);
  std::lock_guard samplesLock(samplesMutex_);
  samples_.clear();
}

std::vector<ProbeSample> SimulationThread::takeSamples() {
  std::lock_guard lock(samplesMutex_);
  return std::exchange(samples_, {});
}

void SimulationThread::startRecording(const std::string& path, const RecordingOptions& options) {
  if (!sim_) throw SessionError("no simulation to record");
  std::lock_guard lock(stepMutex_);
  if (recorder_) throw SessionError("already recording to " + recorder_->path());
  sim_->setDeterministic(true);  // recorded sessions re-simulate bit for bit
  recorder_ = std::make_unique<SessionRecorder>(path, *sim_, options);
  recordingFirstStep_ = sim_->stepIndex();
  recordingError_.clear();
  publish();
}

std::string SimulationThread::stopRecording() {
  std::lock_guard lock(stepMutex_);
  std::string path = recorder_ ? recorder_->path() : std::string();
  finishRecording("complete");
  if (sim_) publish();
  return path;
}

void SimulationThread::finishRecording(const std::string& reason) {
  if (!recorder_) return;
  try {
    if (exercise_) recorder_->setExercise(outcomeOf(*exercise_));
    recorder_->finish(*sim_, reason);
  } catch (const SessionError& e) {
    recordingError_ = e.what();
  }
  recorder_.reset();
}

void SimulationThread::withSimulation(const std::function<void(Simulation&)>& f) {
  if (!sim_) return;
  std::lock_guard lock(stepMutex_);
  f(*sim_);
}

void SimulationThread::reanchor() {
  anchorWall_ = Clock::now();
  anchorStep_ = sim_->stepIndex();
}

void SimulationThread::setPerturbation(BodyId body, const Vec3& target) {
  std::lock_guard lock(commandMutex_);
  if (body != perturbBody_) perturbMass_ = 0.0;  // measured at the next step
  perturbBody_ = body;
  perturbTarget_ = target;
}

namespace {
/// The mass of the dynamic bodies joined to `body` by joints (the robot it belongs to).
double jointedMass(const World& world, BodyId body) {
  BodyIslands robots;
  robots.reset(world.bodies().size());
  for (int j = 0; j < world.jointCount(); ++j) {
    const Joint& joint = world.joint(j);
    if (joint.parent() >= 0 && world.body(joint.parent()).isDynamic() &&
        world.body(joint.child()).isDynamic())
      robots.join(joint.parent(), joint.child());
  }
  const BodyId robot = robots.root(body);
  double mass = 0.0;
  for (BodyId b = 0; b < BodyId(world.bodies().size()); ++b)
    if (world.body(b).isDynamic() && robots.root(b) == robot) mass += world.body(b).mass;
  return mass;
}
}  // namespace

bool SimulationThread::stepOnce() {
  {
    // The perturbation tool's pull for this step, as a push (recorded like the CLI's).
    std::lock_guard lock(commandMutex_);
    World& world = sim_->world();
    if (perturbBody_ >= 0 && size_t(perturbBody_) < world.bodies().size() &&
        world.body(perturbBody_).isDynamic()) {
      if (perturbMass_ <= 0.0) perturbMass_ = jointedMass(world, perturbBody_);
      const RigidBody& b = world.body(perturbBody_);
      const double w = 2.0 * M_PI;  // 1 Hz
      Vec3 force =
          perturbMass_ * (w * w * (perturbTarget_ - b.position) - 2.0 * w * b.linearVelocity);
      const double cap = 2.0 * perturbMass_ * 9.81;
      if (force.norm() > cap) force *= cap / force.norm();
      sim_->schedulePush({b.name, world.time(), force * sim_->stepSize()});
    }
  }
  const Clock::time_point t0 = Clock::now();
  const StepStatus status = sim_->step();
  frameStepSeconds_[frameStepCursor_++ % frameStepSeconds_.size()] =
      std::chrono::duration<double>(Clock::now() - t0).count();
  if (!status.ok) {
    failure_ = status.message;
    finishRecording("stopped: " + status.message);
    return false;
  }
  if (exercise_) exercise_->afterStep(sim_->world().time());
  if (recorder_) {
    try {
      recorder_->afterStep(*sim_);
    } catch (const SessionError& e) {
      recordingError_ = e.what();  // e.g. disk full: the committed part stays readable
      recorder_.reset();
    }
  }
  if (!plotProbes_.empty()) {
    ProbeSample sample{sim_->world().time(), {}};
    sample.values.reserve(plotProbes_.size());
    for (const Probe& p : plotProbes_) sample.values.push_back(p());
    std::lock_guard lock(samplesMutex_);
    const size_t cap = static_cast<size_t>(kSampleHistorySeconds / sim_->stepSize());
    if (samples_.size() >= cap) samples_.erase(samples_.begin(), samples_.begin() + cap / 10);
    samples_.push_back(std::move(sample));
  }
  return true;
}

void SimulationThread::publish() {
  Snapshot s;
  const World& world = sim_->world();
  s.time = world.time();
  s.stepIndex = sim_->stepIndex();
  s.positions.reserve(world.bodies().size());
  s.orientations.reserve(world.bodies().size());
  for (const RigidBody& b : world.bodies()) {
    s.positions.push_back(b.position);
    s.orientations.push_back(b.orientation);
  }
  for (int m = 0; m < world.motorCount(); ++m) s.motorAngles.push_back(world.motor(m).angle());
  for (const auto& read : indicators_) s.indicators.push_back(read ? read() : 0.0);
  for (const auto& read : lightSwitches_) s.lightsOn.push_back(read() > 0.5);
  if (overlayData_) {
    const double dt = world.lastSubstepDuration();
    for (const ContactPoint& c : world.contacts()) {
      const RigidBody& b = world.body(c.bodyB);
      s.contacts.push_back({b.position + b.orientation * c.localB, c.normal, c.normalImpulse / dt});
    }
    for (int i = 0; i < world.jointCount(); ++i) {
      const JointPose pose = world.joint(i).pose(world.bodies());
      s.joints.push_back({pose.anchorA, pose.frameA.col(0)});
    }
    const Scheme* scheme = sim_->scene().scheme ? &*sim_->scene().scheme : nullptr;
    s.balance = measureBalance(world, scheme);
    measureHands(scheme, s.hands);
  }
  const StepStatistics& st = world.statistics();
  s.iterations = st.velocityIterations;
  s.contactCount = st.contacts;
  s.sleepingBodies = st.sleepingBodies;
  for (double seconds : frameStepSeconds_) s.physicsSecondsPerFrame += seconds;
  s.lateSteps = lateSteps_;
  {
    std::lock_guard lock(commandMutex_);
    s.paused = paused_;
    s.speed = speed_;
  }
  s.failure = failure_;
  s.recording = recorder_ != nullptr;
  if (recorder_) {
    s.recordedSeconds = double(sim_->stepIndex() - recordingFirstStep_) * sim_->stepSize();
    s.recordingPath = recorder_->path();
  }
  s.recordingError = recordingError_;
  fillExercise(s.exercise);
  std::lock_guard lock(snapshotMutex_);
  s.serial = ++serial_;
  snapshot_ = std::move(s);
}

void SimulationThread::run() {
  const double dt = sim_->stepSize();
  std::vector<double> input;
  while (true) {
    bool paused = false, reanchorNow = false;
    int steps = 0;
    double speed = 1.0;
    {
      std::unique_lock lock(commandMutex_);
      if (quit_) return;
      paused = paused_;
      speed = speed_;
      reanchorNow = std::exchange(reanchorRequested_, false);
      if (paused && stepRequests_ > 0) {
        steps = 1;
        --stepRequests_;
      }
      input = input_;
      if (!failure_.empty() || (paused && steps == 0)) {
        wake_.wait_for(lock, std::chrono::milliseconds(20));
        continue;
      }
    }
    if (!paused) {
      if (reanchorNow) reanchor();
      const double elapsed = std::chrono::duration<double>(Clock::now() - anchorWall_).count();
      const std::int64_t target =
          anchorStep_ + static_cast<std::int64_t>(std::floor(elapsed * speed / dt));
      std::int64_t behind = target - sim_->stepIndex();
      const std::int64_t maxBurst =
          std::max<std::int64_t>(1, std::llround(kMaxCatchUpSeconds * speed / dt));
      if (behind > maxBurst) {
        // Drop what is beyond one burst: the anchor moves back by the steps dropped, so the
        // target becomes this burst's end (moving it forward would double the lag every pass).
        lateSteps_ += behind - maxBurst;
        anchorStep_ -= behind - maxBurst;
        behind = maxBurst;
      }
      steps = static_cast<int>(std::max<std::int64_t>(0, behind));
    }
    if (steps > 0) {
      std::lock_guard lock(stepMutex_);
      std::copy_n(input.begin(), std::min(input.size(), sim_->channels().size()),
                  sim_->channels().begin());
      for (int i = 0; i < steps; ++i)
        if (!stepOnce()) break;
      publish();
    }
    if (!paused) {
      // Sleep until the next step is due, or a command arrives.
      const auto due =
          anchorWall_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                            double(sim_->stepIndex() + 1 - anchorStep_) * dt / speed));
      std::unique_lock lock(commandMutex_);
      wake_.wait_until(lock, due, [this] {
        return quit_.load() || reanchorRequested_ || paused_ || stepRequests_ > 0;
      });
    }
  }
}

}  // namespace impetus::app
