// Session recording and replay (issue #9): a scripted MF-4 session re-simulates bit for bit,
// seeks through keyframes, hands over to a live operator, and damaged files fail cleanly.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "../../engine/src/session/chunk_codec.h"
#include "impetus/scene/input_script.h"
#include "impetus/session/session_reader.h"
#include "impetus/session/session_recorder.h"
#include "impetus/session/session_replay.h"
#include "impetus/session/state_stream.h"

namespace impetus {
namespace {

namespace fs = std::filesystem;
const std::string kScenes = IMPETUS_SCENES_DIR;

/// This process's scratch folder, removed at exit.
struct ScratchFolder {
  fs::path dir = fs::temp_directory_path() / ("impetus-session-test-" + std::to_string(getpid()));
  ScratchFolder() { fs::create_directories(dir); }
  ~ScratchFolder() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
};

fs::path scratch(const std::string& name) {
  static const ScratchFolder folder;
  return folder.dir / name;
}

/// Records `seconds` of the scripted container grasp, deterministic, into `path`.
void recordContainerSession(const fs::path& path, double seconds) {
  Simulation sim(loadScene(kScenes + "/mf4-container.xml"));
  sim.setDeterministic(true);
  InputScript script =
      InputScript::read(kScenes + "/mf4-container.csv", sim.scene().console.channels());
  SessionRecorder recorder(path.string(), sim, {.operatorName = "trainee 7"});
  while (sim.world().time() < seconds - 1e-9) {
    script.apply(sim.world().time(), sim.channels());
    ASSERT_TRUE(sim.step().ok);
    recorder.afterStep(sim);
  }
  recorder.finish(sim);
}

/// A 60 s session shared by the tests below (recorded once).
const fs::path& sixtySecondSession() {
  static const fs::path path = [] {
    const fs::path p = scratch("container-60s.session");
    recordContainerSession(p, 60.0);
    return p;
  }();
  return path;
}

/// Runs SQL on a session file (to damage it on purpose).
void execute(const fs::path& file, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  EXPECT_EQ(rc, SQLITE_OK) << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
}

/// Replaces the step chunk starting at `first` with `values`.
void rewriteStepChunk(const fs::path& file, std::int64_t first, const std::vector<double>& values) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  sqlite3_prepare_v2(db, "UPDATE chunks SET data = ? WHERE kind = 1 AND first_step = ?", -1, &s,
                     nullptr);
  const std::vector<std::uint8_t> packed = session::packDoubles(values, 3);
  sqlite3_bind_blob(s, 1, packed.data(), int(packed.size()), SQLITE_TRANSIENT);
  sqlite3_bind_int64(s, 2, first);
  EXPECT_EQ(sqlite3_step(s), SQLITE_DONE);
  EXPECT_EQ(sqlite3_changes(db), 1);
  sqlite3_finalize(s);
  sqlite3_close(db);
}

std::vector<double> readStepChunk(const fs::path& file, std::int64_t first) {
  sqlite3* db = nullptr;
  sqlite3_open(file.c_str(), &db);
  sqlite3_stmt* s = nullptr;
  sqlite3_prepare_v2(db, "SELECT data FROM chunks WHERE kind = 1 AND first_step = ?", -1, &s,
                     nullptr);
  sqlite3_bind_int64(s, 1, first);
  std::vector<double> values;
  if (sqlite3_step(s) == SQLITE_ROW) {
    const auto* p = static_cast<const std::uint8_t*>(sqlite3_column_blob(s, 0));
    values = session::unpackDoubles({p, size_t(sqlite3_column_bytes(s, 0))}, "test");
  }
  sqlite3_finalize(s);
  sqlite3_close(db);
  return values;
}

TEST(Session, RecordsWhatAnInstructorNeeds) {
  SessionReader reader(sixtySecondSession().string());
  const SessionInfo& info = reader.info();
  EXPECT_EQ(info.sceneName, "MF-4 grasps a container");
  EXPECT_EQ(info.operatorName, "trainee 7");
  EXPECT_EQ(info.steps, 6000);
  EXPECT_DOUBLE_EQ(info.duration(), 60.0);
  EXPECT_EQ(info.endReason, "complete");
  EXPECT_TRUE(info.deterministic);
  EXPECT_EQ(info.created.size(), 20u);  // 2026-11-22T20:42:58Z
  // The scripted input as recorded: arm.y = 0.6 from t = 2 s.
  const auto armY = std::find(info.channels.begin(), info.channels.end(), "arm.y");
  ASSERT_NE(armY, info.channels.end());
  EXPECT_EQ(reader.stepRecord(150).channels[size_t(armY - info.channels.begin())], 0.0);
  EXPECT_EQ(reader.stepRecord(250).channels[size_t(armY - info.channels.begin())], 0.6);
  EXPECT_GE(reader.stepRecord(250).iterations, 1);
  // Poses at frame rate (every 4th step) - the kinematic playback's picture.
  const auto poses = reader.posesAt(3002);
  ASSERT_TRUE(poses.has_value());
  EXPECT_EQ(poses->first, 3000);
  EXPECT_EQ(poses->second.size(), info.bodies.size());
  // Keyframes every second.
  EXPECT_EQ(reader.keyframeAtOrBefore(3050).first, 3000);
  EXPECT_EQ(reader.keyframeAtOrBefore(6000).first, 6000);
  std::printf("[ size     ] 60 s MF-4 session: %.0f kB\n",
              fs::file_size(sixtySecondSession()) / 1e3);
}

TEST(Session, ReSimulatesBitForBitAndFindsTheFirstDivergentStep) {
  {
    SessionReader reader(sixtySecondSession().string());
    SessionReplay replay(reader);
    const auto divergence = replay.verify();
    EXPECT_FALSE(divergence.has_value()) << divergence->what;
  }
  // One changed input byte at step 3017 (t = 30.17 s): the arm stick's value.
  const fs::path edited = scratch("edited.session");
  fs::copy_file(sixtySecondSession(), edited, fs::copy_options::overwrite_existing);
  SessionReader original(sixtySecondSession().string());
  const auto& channels = original.info().channels;
  const size_t armY =
      size_t(std::find(channels.begin(), channels.end(), "arm.y") - channels.begin());
  const size_t width = channels.size() + original.info().motors.size() + 2;
  std::vector<double> chunk = readStepChunk(edited, 3000);
  ASSERT_EQ(chunk.size(), 100 * width);
  auto* bytes = reinterpret_cast<std::uint8_t*>(&chunk[17 * width + armY]);
  bytes[5] ^= 0x01;  // a mantissa byte of 0.6
  rewriteStepChunk(edited, 3000, chunk);
  SessionReader reader(edited.string());
  SessionReplay replay(reader);
  const auto divergence = replay.verify();
  ASSERT_TRUE(divergence.has_value());
  EXPECT_EQ(divergence->step, 3017) << divergence->what;
}

TEST(Session, SeekThenPlayEqualsTheContinuousRecording) {
  SessionReader reader(sixtySecondSession().string());
  SessionReplay replay(reader);
  replay.seek(3000);  // t = 30 s
  ASSERT_EQ(replay.position(), 3000);
  ASSERT_TRUE(replay.matchesRecording());
  for (int i = 0; i < 1000; ++i) {  // play 10 s
    ASSERT_TRUE(replay.advance());
    ASSERT_TRUE(replay.matchesRecording()) << "step " << replay.position() - 1;
    if (replay.position() % 4 == 0) {  // and the recorded picture is the re-simulated one
      const auto poses = reader.posesAt(replay.position());
      ASSERT_TRUE(poses.has_value());
      ASSERT_EQ(poses->first, replay.position());
      const World& world = replay.simulation().world();
      for (size_t b = 0; b < poses->second.size(); ++b) {
        ASSERT_EQ(poses->second[b].position, world.body(BodyId(b)).position);
        ASSERT_EQ(poses->second[b].orientation.coeffs(),
                  world.body(BodyId(b)).orientation.coeffs());
      }
    }
  }
  // Seeking mid-second restores the keyframe before and re-simulates the rest.
  replay.seek(4567);
  EXPECT_EQ(replay.position(), 4567);
  EXPECT_TRUE(replay.matchesRecording());
}

TEST(Session, TakeOverFromAKeyframeReproducesTheOriginal) {
  // The instructor stops the replay at t = 20 s and the trainee takes control, driving exactly
  // as in the recording (the scripted inputs); that new live session is recorded too.
  SessionReader reader(sixtySecondSession().string());
  SessionReplay replay(reader);
  replay.seek(2000);
  Simulation& live = replay.simulation();
  const fs::path takeOver = scratch("take-over.session");
  SessionRecorder recorder(takeOver.string(), live, {.operatorName = "trainee 7"});
  InputScript script =
      InputScript::read(kScenes + "/mf4-container.csv", live.scene().console.channels());
  script.apply(live.world().time(), live.channels());
  while (live.stepIndex() < 6000) {
    script.apply(live.world().time(), live.channels());
    ASSERT_TRUE(live.step().ok);
    recorder.afterStep(live);
    ASSERT_EQ(stateHash(live.world()), reader.stepRecord(live.stepIndex() - 1).stateHash)
        << "after step " << live.stepIndex() - 1;
  }
  recorder.finish(live);
  SessionReader resumed(takeOver.string());
  EXPECT_EQ(resumed.info().firstStep, 2000);
  EXPECT_EQ(resumed.info().steps, 4000);
  SessionReplay check(resumed);
  EXPECT_FALSE(check.verify().has_value());
}

/// Opening and replaying a damaged file fails with SessionError containing `expected`.
void expectRejected(const fs::path& file, const std::string& expected) {
  try {
    SessionReader reader(file.string());
    SessionReplay replay(reader);
    if (const auto d = replay.verify()) throw SessionError("diverged: " + d->what);
    FAIL() << file << " was accepted";
  } catch (const SessionError& e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << file << ": " << e.what();
  }
}

TEST(Session, DamagedFilesGiveClearErrors) {
  const fs::path good = scratch("short.session");
  recordContainerSession(good, 3.0);
  const auto variant = [&](const std::string& name) {
    const fs::path p = scratch(name + ".session");
    fs::copy_file(good, p, fs::copy_options::overwrite_existing);
    return p;
  };
  expectRejected(scratch("absent.session"), "no such session file");
  {
    const fs::path p = scratch("text.session");
    std::ofstream(p) << "t,drive.x\n0,1\n";
    expectRejected(p, "not an Impetus session file");
  }
  {
    const fs::path p = scratch("empty.session");
    std::ofstream(p).flush();
    expectRejected(p, "not an Impetus session file");
  }
  {
    const fs::path p = variant("truncated");
    fs::resize_file(p, fs::file_size(p) / 2);
    expectRejected(p, p.string());  // SQLite's "malformed" or a missing chunk, with the file name
  }
  // Damage done with SQL, and the message each must give.
  const struct {
    const char* name;
    const char* sql;
    const char* expected;
  } damaged[] = {
      {"version", "UPDATE meta SET value = '99' WHERE key = 'version'",
       "session format version 99, this build reads version 1"},
      {"foreign", "UPDATE meta SET value = 'something-else' WHERE key = 'format'",
       "not an Impetus session file"},
      {"no-scene", "DELETE FROM files", "the recorded scene is missing from the session"},
      {"changed-scene", "UPDATE meta SET value = '0123456789abcdef' WHERE key = 'scene_hash'",
       "does not match its recorded hash"},
      {"bad-chunk", "UPDATE chunks SET data = zeroblob(64) WHERE kind = 1 AND first_step = 100",
       "step chunk at 100: damaged"},
      {"flipped-keyframe",
       "UPDATE chunks SET data = substr(data, 1, 40) || x'00' || substr(data, 42) "
       "WHERE kind = 3 AND first_step = 0",
       "keyframe at step 0"},
      {"no-keyframes", "DELETE FROM chunks WHERE kind = 3", "no keyframe at or before step 0"},
  };
  for (const auto& d : damaged) {
    const fs::path p = variant(d.name);
    execute(p, d.sql);
    expectRejected(p, d.expected);
  }
  {
    // Replaying against a scene on disk that changed since the recording.
    const fs::path dir = scratch("scene-copy");
    fs::create_directories(dir / "robots");
    fs::copy_file(kScenes + "/mf4-container.xml", dir / "mf4-container.xml",
                  fs::copy_options::overwrite_existing);
    fs::copy_file(kScenes + "/robots/mf4.xml", dir / "robots/mf4.xml",
                  fs::copy_options::overwrite_existing);
    fs::create_directories(dir.parent_path() / "assets/mf4");
    fs::copy(kScenes + "/../assets/mf4", dir.parent_path() / "assets/mf4",  // its <visual>s
             fs::copy_options::recursive | fs::copy_options::overwrite_existing);
    SessionReader reader(good.string());
    // The visuals' meshes are not embedded: the extracted scene finds them beside the recorded
    // scene file.
    EXPECT_EQ(reader.loadEmbeddedScene().visuals.size(),
              loadScene(kScenes + "/mf4.xml").visuals.size());
    EXPECT_NO_THROW(SessionReplay(reader, (dir / "mf4-container.xml").string()));
    std::ofstream(dir / "robots/mf4.xml", std::ios::app) << "<!-- edited -->\n";
    try {
      SessionReplay replay(reader, (dir / "mf4-container.xml").string());
      FAIL() << "a changed scene was accepted";
    } catch (const SessionError& e) {
      EXPECT_NE(std::string(e.what()).find("scene changed since recording"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace impetus
