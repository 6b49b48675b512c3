#pragma once
// A scripted operator: a CSV file with header `t,<channel>,...` (the console's channel names) and
// one row per change; each row's values hold from its time until the next row. Used by the CLI's
// `run --input`, the scene tests and recorded-session replays.

#include <span>
#include <string>
#include <vector>

namespace impetus {

class InputScript {
 public:
  /// Reads `path`; throws SceneError (file:line: problem) for a missing file, a bad header, an
  /// unknown channel, a wrong field count, an unparsable or non-finite number, time going back.
  static InputScript read(const std::string& path, const std::vector<std::string>& channels);

  /// Writes into `channels` (console order) every row due by time `t` (s) not applied yet.
  void apply(double t, std::span<double> channels);
  /// Back to the first row.
  void rewind() { nextRow_ = 0; }
  bool empty() const { return times_.empty(); }

 private:
  std::vector<size_t> columns_;  ///< channel index of each value column
  std::vector<double> times_;
  std::vector<std::vector<double>> values_;
  size_t nextRow_ = 0;
};

}  // namespace impetus
