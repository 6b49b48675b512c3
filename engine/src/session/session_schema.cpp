#include "session_schema.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "fnv1a.h"

namespace impetus::session {
namespace {

std::string joinLines(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += s + "\n";
  return out;
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace

void writeMeta(SqliteDb& db, const std::string& key, const std::string& value) {
  SqliteStatement s(db, "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)");
  s.bind(1, key).bind(2, value);
  s.step();
}

void writePushes(SqliteDb& db, const std::vector<ScheduledPush>& pushes) {
  std::vector<std::string> lines;
  for (const ScheduledPush& p : pushes) lines.push_back(formatPush(p));
  writeMeta(db, "pushes", joinLines(lines));
}

void writeExercise(SqliteDb& db, const SessionExercise& exercise) {
  const auto clean = [](std::string text) {  // a field stays on its line, between its tabs
    std::replace_if(
        text.begin(), text.end(), [](char c) { return c == '\n' || c == '\t'; }, ' ');
    return text;
  };
  char number[64];
  std::vector<std::string> lines;
  for (const ExerciseEvent& e : exercise.events) {
    std::snprintf(number, sizeof number, "%.17g", e.time);
    lines.push_back(std::string(number) + "\t" + std::to_string(int(e.kind)) + "\t" +
                    clean(e.name) + "\t" + clean(e.text));
  }
  std::snprintf(number, sizeof number, "%.17g", exercise.score);
  writeMeta(db, "exercise", clean(exercise.name));
  writeMeta(db, "exercise_score", number);
  writeMeta(db, "exercise_result",
            !exercise.finished ? "unfinished"
            : exercise.passed  ? "passed"
                               : "failed");
  writeMeta(db, "exercise_events", joinLines(lines));
}

void writeInfo(SqliteDb& db, const SessionInfo& info) {
  char number[64];
  const auto real = [&](double v) {
    std::snprintf(number, sizeof number, "%.17g", v);
    return std::string(number);
  };
  writeMeta(db, "format", "impetus-session");
  writeMeta(db, "version", std::to_string(info.version));
  writeMeta(db, "created", info.created);
  writeMeta(db, "operator", info.operatorName);
  writeMeta(db, "scene_name", info.sceneName);
  writeMeta(db, "scene_file", info.sceneFile);
  writeMeta(db, "scene_hash", info.sceneHash);
  writeMeta(db, "step", real(info.step));
  writeMeta(db, "frame", real(info.frame));
  writeMeta(db, "deterministic", info.deterministic ? "1" : "0");
  writeMeta(db, "channels", joinLines(info.channels));
  writeMeta(db, "motors", joinLines(info.motors));
  writeMeta(db, "bodies", joinLines(info.bodies));
  std::vector<std::string> overrides;
  for (const auto& [motor, u] : info.voltageOverrides) overrides.push_back(motor + "=" + real(u));
  writeMeta(db, "voltage_overrides", joinLines(overrides));
  writePushes(db, info.pushes);
  writeMeta(db, "first_step", std::to_string(info.firstStep));
  writeMeta(db, "steps", std::to_string(info.steps));
}

SessionInfo readInfo(SqliteDb& db) {
  std::vector<std::pair<std::string, std::string>> meta;
  {
    SqliteStatement s(db, "SELECT key, value FROM meta");
    while (s.step()) meta.emplace_back(s.text(0), s.text(1));
  }
  const auto field = [&](const std::string& key) -> std::string {
    for (const auto& [k, v] : meta)
      if (k == key) return v;
    throw SessionError(db.path() + ": damaged session: no '" + key + "' in its metadata");
  };
  const auto number = [&](const std::string& key) {
    const std::string text = field(key);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v))
      throw SessionError(db.path() + ": damaged session: '" + key + "' is '" + text + "'");
    return v;
  };
  if (field("format") != "impetus-session")
    throw SessionError(db.path() + ": not an Impetus session file");
  SessionInfo info;
  info.version = int(number("version"));
  if (info.version != kSessionFormatVersion)
    throw SessionError(db.path() + ": session format version " + std::to_string(info.version) +
                       ", this build reads version " + std::to_string(kSessionFormatVersion));
  info.created = field("created");
  info.operatorName = field("operator");
  info.sceneName = field("scene_name");
  info.sceneFile = field("scene_file");
  info.sceneHash = field("scene_hash");
  info.step = number("step");
  info.frame = number("frame");
  if (!(info.step > 0.0) || !(info.frame >= info.step))
    throw SessionError(db.path() + ": damaged session: step/frame out of range");
  info.deterministic = field("deterministic") == "1";
  info.channels = splitLines(field("channels"));
  info.motors = splitLines(field("motors"));
  info.bodies = splitLines(field("bodies"));
  for (const std::string& line : splitLines(field("voltage_overrides"))) {
    const size_t eq = line.find('=');
    if (eq == std::string::npos)
      throw SessionError(db.path() + ": damaged session: voltage override '" + line + "'");
    char* end = nullptr;
    const double u = std::strtod(line.c_str() + eq + 1, &end);
    if (*end != '\0' || !(u >= -1.0 && u <= 1.0))
      throw SessionError(db.path() + ": damaged session: voltage override '" + line + "'");
    info.voltageOverrides.emplace_back(line.substr(0, eq), u);
  }
  // "pushes" is absent from sessions recorded before pushes existed: none.
  const auto hasPushes =
      std::any_of(meta.begin(), meta.end(), [](const auto& kv) { return kv.first == "pushes"; });
  for (const std::string& line : splitLines(hasPushes ? field("pushes") : std::string())) {
    try {
      info.pushes.push_back(parsePush(line));
    } catch (const std::invalid_argument& e) {
      throw SessionError(db.path() + ": damaged session: " + e.what());
    }
  }
  info.firstStep = std::int64_t(number("first_step"));
  info.steps = std::int64_t(number("steps"));
  if (info.firstStep < 0 || info.steps < 0)
    throw SessionError(db.path() + ": damaged session: negative step count");
  for (const auto& [k, v] : meta)
    if (k == "end_reason") info.endReason = v;
  const bool hasExercise =
      std::any_of(meta.begin(), meta.end(), [](const auto& kv) { return kv.first == "exercise"; });
  if (hasExercise) {
    SessionExercise& x = info.exercise.emplace();
    x.name = field("exercise");
    x.score = number("exercise_score");
    const std::string result = field("exercise_result");
    if (result != "passed" && result != "failed" && result != "unfinished")
      throw SessionError(db.path() + ": damaged session: exercise result '" + result + "'");
    x.finished = result != "unfinished";
    x.passed = result == "passed";
    for (const std::string& line : splitLines(field("exercise_events"))) {
      std::istringstream in(line);
      std::string time, kind, name, text;
      std::getline(in, time, '\t');
      std::getline(in, kind, '\t');
      std::getline(in, name, '\t');
      std::getline(in, text);
      char* end = nullptr;
      const double t = std::strtod(time.c_str(), &end);
      const int k = std::atoi(kind.c_str());
      if (time.empty() || *end != '\0' || !std::isfinite(t) || kind.size() != 1 || k < 0 ||
          k > int(ExerciseEvent::Kind::Hint))
        throw SessionError(db.path() + ": damaged session: exercise event '" + line + "'");
      x.events.push_back({t, ExerciseEvent::Kind(k), name, text});
    }
  }
  return info;
}

EmbeddedScene embedScene(const LoadedScene& scene) {
  namespace fs = std::filesystem;
  if (scene.sources.empty())
    throw SessionError("cannot record scene '" + scene.name + "': it was not loaded from a file");
  std::vector<fs::path> paths;
  for (const auto& f : scene.sources) paths.push_back(fs::absolute(f.path).lexically_normal());
  // The deepest folder holding every file: relative paths below it keep includes working.
  fs::path root = paths.front().parent_path();
  const auto holds = [](const fs::path& dir, const fs::path& p) {
    return std::mismatch(dir.begin(), dir.end(), p.begin(), p.end()).first == dir.end();
  };
  for (const fs::path& p : paths)
    while (!holds(root, p) && root.has_relative_path()) root = root.parent_path();
  EmbeddedScene out;
  for (size_t i = 0; i < paths.size(); ++i) {
    const std::string relative = paths[i].lexically_relative(root).generic_string();
    if (std::any_of(out.files.begin(), out.files.end(),
                    [&](const EmbeddedFile& f) { return f.path == relative; }))
      continue;  // a file included twice
    out.files.push_back({relative, scene.sources[i].content});
  }
  out.entry = out.files.front().path;
  out.hash = contentHash(out.files);
  return out;
}

std::string contentHash(const std::vector<EmbeddedFile>& files) {
  std::vector<const EmbeddedFile*> sorted;
  for (const EmbeddedFile& f : files) sorted.push_back(&f);
  std::sort(sorted.begin(), sorted.end(),
            [](const EmbeddedFile* a, const EmbeddedFile* b) { return a->path < b->path; });
  Fnv1a h;
  for (const EmbeddedFile* f : sorted) {
    h.add(f->path.c_str(), f->path.size() + 1);  // with its terminator: a separator
    h.add(f->content.data(), f->content.size());
    h.add("", 1);
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h.value));
  return hex;
}

}  // namespace impetus::session
