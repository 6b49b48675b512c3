#pragma once
// The session file's tables and the helpers that read and write its metadata and embedded scene
// (session_file.h describes the format). Private to the session module.

#include <cstdint>
#include <string>
#include <vector>

#include "impetus/scene/scene_loader.h"
#include "impetus/session/session_file.h"
#include "sqlite_db.h"

namespace impetus::session {

enum class ChunkKind : std::int64_t { Steps = 1, Poses = 2, Keyframe = 3 };

inline constexpr const char* kSchema =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE files(path TEXT PRIMARY KEY, entry INTEGER NOT NULL, content BLOB NOT NULL);"
    "CREATE TABLE chunks(kind INTEGER NOT NULL, first_step INTEGER NOT NULL,"
    " count INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY(kind, first_step)) WITHOUT ROWID;";
inline constexpr const char* kInsertChunk =
    "INSERT OR REPLACE INTO chunks(kind, first_step, count, data) VALUES(?, ?, ?, ?)";

void writeMeta(SqliteDb& db, const std::string& key, const std::string& value);
/// The session's pushes (meta "pushes", one formatPush per line).
void writePushes(SqliteDb& db, const std::vector<ScheduledPush>& pushes);
void writeInfo(SqliteDb& db, const SessionInfo& info);
/// The exercise's outcome (meta "exercise", "exercise_score", "exercise_result",
/// "exercise_events": one event a line, time kind name text, tab-separated).
void writeExercise(SqliteDb& db, const SessionExercise& exercise);
/// Reads and checks the metadata; throws SessionError for a file that is not a session, a
/// version this build does not read, or missing/unparsable fields.
SessionInfo readInfo(SqliteDb& db);

struct EmbeddedFile {
  std::string path;  ///< relative to the common folder of all the scene's files
  std::string content;
};
struct EmbeddedScene {
  std::vector<EmbeddedFile> files;
  std::string entry;  ///< the scene file's relative path
  std::string hash;   ///< contentHash(files)
};
/// Reads every file the scene was loaded from. Throws SessionError if one cannot be read.
EmbeddedScene embedScene(const LoadedScene& scene);
/// FNV-1a 64 over the files' paths and contents (sorted by path), as 16 hex digits.
std::string contentHash(const std::vector<EmbeddedFile>& files);

}  // namespace impetus::session
