#include "impetus/session/session_reader.h"

#include <unistd.h>

#include <bit>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "chunk_codec.h"
#include "session_schema.h"
#include "sqlite_db.h"

namespace impetus {

using session::ChunkKind;
using session::SqliteStatement;

SessionReader::SessionReader(const std::string& path) : path_(path) {
  if (!std::filesystem::is_regular_file(path)) throw SessionError(path + ": no such session file");
  db_ = std::make_unique<session::SqliteDb>(path, false);
  try {
    info_ = session::readInfo(*db_);
  } catch (const SessionError& e) {
    const std::string what = e.what();
    // SQLite's words for a file that is not a database at all.
    if (what.find("file is not a database") != std::string::npos ||
        what.find("no such table") != std::string::npos)
      throw SessionError(path + ": not an Impetus session file (or damaged beyond reading)");
    throw;
  }
  // The steps actually on disk (a killed recorder may not have updated its metadata count).
  SqliteStatement last(*db_,
                       "SELECT first_step, count FROM chunks WHERE kind = 1 "
                       "ORDER BY first_step DESC LIMIT 1");
  const std::int64_t end = last.step() ? last.integer(0) + last.integer(1) : info_.firstStep;
  info_.steps = std::max<std::int64_t>(0, end - info_.firstStep);
}

SessionReader::~SessionReader() = default;

const StepRecord& SessionReader::stepRecord(std::int64_t step) {
  if (step < info_.firstStep || step >= endStep())
    throw SessionError(path_ + ": step " + std::to_string(step) + " was not recorded");
  const size_t channels = info_.channels.size(), motors = info_.motors.size();
  const size_t width = channels + motors + 2;
  if (!(stepChunkFirst_ >= 0 && step >= stepChunkFirst_ &&
        step < stepChunkFirst_ + stepChunkCount_)) {
    SqliteStatement s(*db_,
                      "SELECT first_step, count, data FROM chunks WHERE kind = 1 AND "
                      "first_step <= ? ORDER BY first_step DESC LIMIT 1");
    s.bind(1, step);
    if (!s.step())
      throw SessionError(path_ + ": damaged session: no record of step " + std::to_string(step));
    const std::int64_t first = s.integer(0), count = s.integer(1);
    const std::string what = path_ + ": step chunk at " + std::to_string(first);
    std::vector<double> values = session::unpackDoubles(s.blob(2), what);
    if (count <= 0 || values.size() != size_t(count) * width || step >= first + count)
      throw SessionError(what + ": damaged (size does not match its steps)");
    stepChunk_ = std::move(values);
    stepChunkFirst_ = first;
    stepChunkCount_ = count;
  }
  const double* row = stepChunk_.data() + size_t(step - stepChunkFirst_) * width;
  record_.channels.assign(row, row + channels);
  record_.voltages.assign(row + channels, row + channels + motors);
  const double iterations = row[channels + motors];
  if (!(iterations >= 0.0 && iterations <= 1e6))
    throw SessionError(path_ + ": step " + std::to_string(step) + ": damaged record");
  record_.iterations = int(iterations);
  record_.stateHash = std::bit_cast<std::uint64_t>(row[channels + motors + 1]);
  return record_;
}

std::optional<std::pair<std::int64_t, std::vector<BodyPose>>> SessionReader::posesAt(
    std::int64_t step) {
  const size_t bodies = info_.bodies.size(), width = 1 + 7 * bodies;
  // A chunk covering steps [a, a + n) holds the frames after steps a + 1 .. a + n; the frame at
  // or before `step` is in the chunk starting before it, or (early in a chunk) in the one before.
  for (std::int64_t bound = step + 1;;) {
    SqliteStatement s(*db_,
                      "SELECT first_step, count, data FROM chunks WHERE kind = 2 AND "
                      "first_step < ? ORDER BY first_step DESC LIMIT 1");
    s.bind(1, bound);
    if (!s.step()) return std::nullopt;
    const std::int64_t first = s.integer(0), count = s.integer(1);
    if (first != poseChunkFirst_) {
      const std::string what = path_ + ": pose chunk at " + std::to_string(first);
      std::vector<double> values = session::unpackDoubles(s.blob(2), what);
      if (count <= 0 || values.size() != size_t(count) * width)
        throw SessionError(what + ": damaged (size does not match its frames)");
      poseChunk_ = std::move(values);
      poseChunkFirst_ = first;
    }
    const double* best = nullptr;  // rows ascend
    for (size_t r = 0; r < poseChunk_.size() / width; ++r) {
      const double* row = poseChunk_.data() + r * width;
      if (!(row[0] >= 0.0 && row[0] <= 1e15))
        throw SessionError(path_ + ": pose chunk at " + std::to_string(first) + ": damaged");
      if (row[0] <= double(step)) best = row;
    }
    if (!best) {
      bound = first;
      continue;
    }
    std::vector<BodyPose> poses(bodies);
    for (size_t k = 0; k < bodies; ++k) {
      const double* p = best + 1 + 7 * k;
      poses[k].position = Vec3(p[0], p[1], p[2]);
      poses[k].orientation = Quat(p[3], p[4], p[5], p[6]);
    }
    return std::make_pair(std::int64_t(best[0]), std::move(poses));
  }
}

std::pair<std::int64_t, std::vector<std::uint8_t>> SessionReader::keyframeAtOrBefore(
    std::int64_t step) {
  SqliteStatement s(*db_,
                    "SELECT first_step, data FROM chunks WHERE kind = 3 AND first_step <= ? "
                    "ORDER BY first_step DESC LIMIT 1");
  s.bind(1, step);
  if (!s.step())
    throw SessionError(path_ + ": damaged session: no keyframe at or before step " +
                       std::to_string(step));
  const std::int64_t at = s.integer(0);
  return {at, session::unpackBytes(s.blob(1), path_ + ": keyframe at step " + std::to_string(at))};
}

std::optional<std::vector<std::uint8_t>> SessionReader::keyframeAt(std::int64_t step) {
  SqliteStatement s(*db_, "SELECT data FROM chunks WHERE kind = 3 AND first_step = ?");
  s.bind(1, step);
  if (!s.step()) return std::nullopt;
  return session::unpackBytes(s.blob(0), path_ + ": keyframe at step " + std::to_string(step));
}

LoadedScene SessionReader::loadEmbeddedScene() {
  std::vector<session::EmbeddedFile> files;
  std::string entry;
  {
    SqliteStatement s(*db_, "SELECT path, entry, content FROM files");
    while (s.step()) {
      const std::vector<std::uint8_t> bytes =
          session::unpackBytes(s.blob(2), path_ + ": embedded file '" + s.text(0) + "'");
      files.push_back({s.text(0), std::string(bytes.begin(), bytes.end())});
      if (s.integer(1)) entry = s.text(0);
    }
  }
  if (entry.empty()) throw SessionError(path_ + ": the recorded scene is missing from the session");
  if (session::contentHash(files) != info_.sceneHash)
    throw SessionError(path_ + ": the embedded scene does not match its recorded hash (damaged)");
  // Extract to a private temporary folder: includes and meshes resolve as they did.
  namespace fs = std::filesystem;
  std::string pattern = (fs::temp_directory_path() / "impetus-session-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw SessionError(path_ + ": cannot create a temporary folder");
  const fs::path dir = pattern;
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    }
  } cleanup{dir};
  for (const auto& f : files) {
    const fs::path target = (dir / f.path).lexically_normal();
    const auto [end, unused] = std::mismatch(dir.begin(), dir.end(), target.begin(), target.end());
    if (end != dir.end() || f.path.empty() || fs::path(f.path).is_absolute())
      throw SessionError(path_ + ": embedded file '" + f.path + "' points outside the scene");
    fs::create_directories(target.parent_path());
    std::ofstream(target, std::ios::binary) << f.content;
  }
  // Visuals' meshes and textures are not embedded (they do not move a body): the extracted
  // scene looks for them beside the recorded scene file, else draws those bodies' geoms.
  SceneLoadOptions options;
  const fs::path extracted = (dir / entry).parent_path().lexically_normal();
  const fs::path recorded = fs::path(info_.sceneFile).parent_path();
  options.relocateVisualFile = [extracted, recorded](const std::string& path) {
    return (recorded / fs::path(path).lexically_normal().lexically_relative(extracted))
        .lexically_normal()
        .string();
  };
  try {
    LoadedScene scene = loadScene((dir / entry).string(), options);
    scene.file = info_.sceneFile;
    return scene;
  } catch (const SceneError& e) {
    throw SessionError(path_ + ": the embedded scene does not load: " + e.what());
  }
}

LoadedScene SessionReader::loadSceneFromDisk(const std::string& scenePath) {
  LoadedScene scene = loadScene(scenePath);
  if (session::embedScene(scene).hash != info_.sceneHash)
    throw SessionError(path_ + ": scene changed since recording: '" + scenePath +
                       "' (or a file it includes) differs from the recorded scene");
  return scene;
}

}  // namespace impetus
