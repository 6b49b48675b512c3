#pragma once
// A thin RAII layer over SQLite for the session files: one connection, prepared statements,
// errors as SessionError naming the file. Private to the engine's session module.

#include <sqlite3.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace impetus::session {

class SqliteDb;

/// One prepared statement; bind with 1-based indices, step() until it returns false.
class SqliteStatement {
 public:
  SqliteStatement(SqliteDb& db, const char* sql);
  ~SqliteStatement();
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  SqliteStatement& bind(int index, std::int64_t value);
  SqliteStatement& bind(int index, double value);
  SqliteStatement& bind(int index, const std::string& value);
  SqliteStatement& bind(int index, std::span<const std::uint8_t> blob);
  /// True while a row is available.
  bool step();
  void reset();
  std::int64_t integer(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  std::vector<std::uint8_t> blob(int column) const;
  bool isNull(int column) const;

 private:
  SqliteDb& db_;
  sqlite3_stmt* statement_ = nullptr;
};

class SqliteDb {
 public:
  /// Opens `path` read-only, or read-write creating it. Throws SessionError.
  SqliteDb(const std::string& path, bool writable);
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  void execute(const char* sql);
  sqlite3* handle() { return db_; }
  const std::string& path() const { return path_; }
  /// Throws SessionError "PATH: what: SQLite's message".
  [[noreturn]] void fail(const std::string& what) const;

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

}  // namespace impetus::session
