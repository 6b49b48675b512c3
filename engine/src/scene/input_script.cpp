#include "impetus/scene/input_script.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "impetus/scene/scene_loader.h"
#include "read_text_file.h"

namespace impetus {

InputScript InputScript::read(const std::string& path, const std::vector<std::string>& channels) {
  std::string text, problem;
  if (!readTextFile(path, text, problem))
    throw SceneError(path, 0,
                     problem == "cannot open the file" ? "cannot open the input file" : problem);
  std::istringstream in(text);
  InputScript script;
  std::string line;
  int number = 0;
  bool header = true;
  const auto fail = [&](const std::string& what) { throw SceneError(path, number, what); };
  const auto parse = [&](const std::string& text, const char* what) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !std::isfinite(v))
      fail(std::string(what) + ": '" + text + "' is not a finite number");
    return v;
  };
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string field; std::getline(ss, field, ',');) f.push_back(field);
    if (header) {
      header = false;
      if (f.empty() || f[0] != "t") fail("the header must start with t");
      for (size_t k = 1; k < f.size(); ++k) {
        const auto it = std::find(channels.begin(), channels.end(), f[k]);
        if (it == channels.end()) fail("unknown control channel '" + f[k] + "'");
        script.columns_.push_back(static_cast<size_t>(it - channels.begin()));
      }
      continue;
    }
    if (f.size() != script.columns_.size() + 1)
      fail("expected " + std::to_string(script.columns_.size() + 1) + " fields");
    const double t = parse(f[0], "t");
    if (!script.times_.empty() && t < script.times_.back()) fail("time goes backwards");
    script.times_.push_back(t);
    std::vector<double> row;
    for (size_t k = 1; k < f.size(); ++k) row.push_back(parse(f[k], "value"));
    script.values_.push_back(std::move(row));
  }
  if (header) throw SceneError(path, number, "empty input");
  return script;
}

void InputScript::apply(double t, std::span<double> channels) {
  while (nextRow_ < times_.size() && times_[nextRow_] <= t + 1e-9) {
    for (size_t c = 0; c < columns_.size(); ++c) channels[columns_[c]] = values_[nextRow_][c];
    ++nextRow_;
  }
}

}  // namespace impetus
