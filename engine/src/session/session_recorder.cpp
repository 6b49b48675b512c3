#include "impetus/session/session_recorder.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <utility>

#include "chunk_codec.h"
#include "session_schema.h"
#include "sqlite_db.h"

namespace impetus {

using session::SqliteStatement;

namespace {

std::string utcNow() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

}  // namespace

SessionRecorder::SessionRecorder(const std::string& path, const Simulation& sim,
                                 RecordingOptions options)
    : path_(path), options_(std::move(options)) {
  if (!(options_.keyframeInterval > 0.0))
    throw SessionError(path + ": keyframe interval must be positive");
  const LoadedScene& scene = sim.scene();
  const session::EmbeddedScene files = session::embedScene(scene);  // before touching the file
  stepsPerKeyframe_ = std::max(1, int(std::lround(options_.keyframeInterval / scene.step)));
  stepsPerFrame_ = std::max(1, int(std::lround(scene.frame / scene.step)));
  poseRowWidth_ = 1 + 7 * sim.world().bodies().size();
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
    std::error_code ignored;
    std::filesystem::remove(path + suffix, ignored);
  }
  db_ = std::make_unique<session::SqliteDb>(path, true);
  // Write-ahead log: a committed second survives the process being killed; NORMAL sync is
  // enough for that (only an OS crash or power loss could take the last commits).
  db_->execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
  // The recorder only appends: a 256 KiB page cache holds the pages it writes. SQLite's default
  // 2 MB would fill over a recording's first minutes, growth the GUI soak's memory check sees.
  db_->execute("PRAGMA cache_size=-256;");
  db_->execute(session::kSchema);
  db_->execute("BEGIN");
  SessionInfo info;
  info.version = kSessionFormatVersion;
  info.created = utcNow();
  info.operatorName = options_.operatorName;
  info.sceneName = scene.name;
  info.sceneFile = scene.file;
  info.sceneHash = files.hash;
  info.step = scene.step;
  info.frame = scene.frame;
  info.deterministic = sim.deterministic();
  info.channels = scene.console.channels();
  for (int i = 0; i < sim.world().motorCount(); ++i)
    info.motors.push_back(sim.world().motor(i).name());
  for (const RigidBody& b : sim.world().bodies()) info.bodies.push_back(b.name);
  info.voltageOverrides = sim.voltageOverrides();
  info.pushes = sim.pushes();
  pushes_ = sim.pushes();
  info.firstStep = sim.stepIndex();
  session::writeInfo(*db_, info);
  SqliteStatement insert(*db_, "INSERT INTO files(path, entry, content) VALUES(?, ?, ?)");
  for (const auto& f : files.files) {
    insert.bind(1, f.path).bind(2, std::int64_t(f.path == files.entry));
    insert.bind(3, session::packBytes(
                       {reinterpret_cast<const std::uint8_t*>(f.content.data()), f.content.size()},
                       options_.compressionLevel));
    insert.step();
    insert.reset();
  }
  firstPendingStep_ = sim.stepIndex();
  writeKeyframe(sim);
  db_->execute("COMMIT");
}

SessionRecorder::~SessionRecorder() {
  if (finished_ || !db_) return;
  try {
    // An exception unwinding the recording loop: keep what was recorded (no keyframe: the
    // state may be what went wrong).
    commit(nullptr);
    session::writeMeta(*db_, "end_reason", "aborted");
  } catch (...) {
    // Nothing more can be saved; what was committed stays readable.
  }
}

void SessionRecorder::afterStep(const Simulation& sim) {
  const World& world = sim.world();
  if (sim.pushes().size() != pushes_.size()) {
    pushes_ = sim.pushes();
    pushesChanged_ = true;
  }
  stepRows_.insert(stepRows_.end(), sim.channels().begin(), sim.channels().end());
  for (int i = 0; i < world.motorCount(); ++i) stepRows_.push_back(world.motor(i).voltage());
  stepRows_.push_back(double(world.statistics().velocityIterations));
  stepRows_.push_back(std::bit_cast<double>(stateHash(world)));
  ++pendingSteps_;
  if (sim.stepIndex() % stepsPerFrame_ == 0) {
    poseRows_.push_back(double(sim.stepIndex()));
    for (const RigidBody& b : world.bodies()) {
      poseRows_.insert(poseRows_.end(), b.position.data(), b.position.data() + 3);
      poseRows_.insert(poseRows_.end(), {b.orientation.w(), b.orientation.x(), b.orientation.y(),
                                         b.orientation.z()});
    }
  }
  if (pendingSteps_ >= stepsPerKeyframe_) commit(&sim);
}

SessionExercise outcomeOf(const ExerciseEvaluator& exercise) {
  return {exercise.desc().name, exercise.score(), exercise.finished(), exercise.passed(),
          exercise.events()};
}

void SessionRecorder::setExercise(const SessionExercise& exercise) {
  session::writeExercise(*db_, exercise);
}

void SessionRecorder::finish(const Simulation& sim, const std::string& endReason) {
  if (finished_) return;
  commit(endReason == "complete" ? &sim : nullptr);
  session::writeMeta(*db_, "end_reason", endReason);
  // One self-contained file from here on (no -wal beside it).
  db_->execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE;");
  finished_ = true;
}

void SessionRecorder::commit(const Simulation* keyframeOf) {
  if (pendingSteps_ == 0 && !keyframeOf) return;
  db_->execute("BEGIN");
  if (pendingSteps_ > 0) {
    insertChunk(session::ChunkKind::Steps, firstPendingStep_, pendingSteps_,
                session::packDoubles(stepRows_, options_.compressionLevel));
    if (!poseRows_.empty())
      insertChunk(session::ChunkKind::Poses, firstPendingStep_,
                  std::int64_t(poseRows_.size() / poseRowWidth_),
                  session::packDoubles(poseRows_, options_.compressionLevel));
  }
  if (keyframeOf) writeKeyframe(*keyframeOf);
  if (std::exchange(pushesChanged_, false)) session::writePushes(*db_, pushes_);
  committedSteps_ += pendingSteps_;
  session::writeMeta(*db_, "steps", std::to_string(committedSteps_));
  db_->execute("COMMIT");
  firstPendingStep_ += pendingSteps_;
  pendingSteps_ = 0;
  stepRows_.clear();
  poseRows_.clear();
}

void SessionRecorder::writeKeyframe(const Simulation& sim) {
  insertChunk(session::ChunkKind::Keyframe, sim.stepIndex(), 0,
              session::packBytes(sim.saveState(), options_.compressionLevel));
}

void SessionRecorder::insertChunk(session::ChunkKind kind, std::int64_t firstStep,
                                  std::int64_t count, const std::vector<std::uint8_t>& data) {
  SqliteStatement chunk(*db_, session::kInsertChunk);
  chunk.bind(1, std::int64_t(kind)).bind(2, firstStep).bind(3, count).bind(4, data);
  chunk.step();
}

}  // namespace impetus
