#include "sqlite_db.h"

#include "impetus/session/session_file.h"

namespace impetus::session {

SqliteDb::SqliteDb(const std::string& path, bool writable) : path_(path) {
  const int flags = writable ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw SessionError(path + ": cannot open: " + message);
  }
  sqlite3_extended_result_codes(db_, 1);
  // A damaged file must fail with an error, not wait: no busy loops on locks.
  sqlite3_busy_timeout(db_, 2000);
}

SqliteDb::~SqliteDb() {
  sqlite3_close_v2(db_);
}

void SqliteDb::execute(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    throw SessionError(path_ + ": " + text);
  }
}

void SqliteDb::fail(const std::string& what) const {
  throw SessionError(path_ + ": " + what + ": " + sqlite3_errmsg(db_));
}

SqliteStatement::SqliteStatement(SqliteDb& db, const char* sql) : db_(db) {
  if (sqlite3_prepare_v2(db.handle(), sql, -1, &statement_, nullptr) != SQLITE_OK)
    db.fail("not a session file (or damaged)");
}

SqliteStatement::~SqliteStatement() {
  sqlite3_finalize(statement_);
}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value) {
  sqlite3_bind_int64(statement_, index, value);
  return *this;
}
SqliteStatement& SqliteStatement::bind(int index, double value) {
  sqlite3_bind_double(statement_, index, value);
  return *this;
}
SqliteStatement& SqliteStatement::bind(int index, const std::string& value) {
  sqlite3_bind_text(statement_, index, value.c_str(), static_cast<int>(value.size()),
                    SQLITE_TRANSIENT);
  return *this;
}
SqliteStatement& SqliteStatement::bind(int index, std::span<const std::uint8_t> blob) {
  sqlite3_bind_blob64(statement_, index, blob.data(), blob.size(), SQLITE_TRANSIENT);
  return *this;
}

bool SqliteStatement::step() {
  const int rc = sqlite3_step(statement_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_.fail("read/write failed");
}

void SqliteStatement::reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

std::int64_t SqliteStatement::integer(int column) const {
  return sqlite3_column_int64(statement_, column);
}
double SqliteStatement::real(int column) const {
  return sqlite3_column_double(statement_, column);
}
std::string SqliteStatement::text(int column) const {
  const auto* p = sqlite3_column_text(statement_, column);
  return p ? std::string(reinterpret_cast<const char*>(p),
                         static_cast<size_t>(sqlite3_column_bytes(statement_, column)))
           : std::string();
}
std::vector<std::uint8_t> SqliteStatement::blob(int column) const {
  const auto* p = static_cast<const std::uint8_t*>(sqlite3_column_blob(statement_, column));
  const int n = sqlite3_column_bytes(statement_, column);
  return p ? std::vector<std::uint8_t>(p, p + n) : std::vector<std::uint8_t>();
}
bool SqliteStatement::isNull(int column) const {
  return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}

}  // namespace impetus::session
